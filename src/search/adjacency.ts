/**
 * Words side by side in a name: what a query word split in two ("earbuds" for "ear buds") and
 * the order of two query words ("faucet kitchen" for "Kitchen Faucet") read.
 *
 * @module
 */
import type { SearchIndex } from './search-index';

/**
 * Documents whose first searched field (the name, by default) has word `b` right after word
 * `a`: the field that names an item, and the shortest to read.
 */
export function adjacent(index: SearchIndex, a: number, b: number): number[] {
  let [da, db] = [index.docs(a), index.docs(b)];
  if (da.length > db.length) [da, db] = [db, da];
  const F = index.searchable.length;
  const { tokens, offsets } = index;
  const out: number[] = [];
  for (let j = 0, k = 0; j < da.length; j++) {
    const d = da[j]!;
    while (k < db.length && db[k]! < d) k++;
    if (k >= db.length) break;
    if (db[k] !== d) continue;
    for (let t = offsets[d * F]!, hi = offsets[d * F + 1]!; t + 1 < hi; t++) {
      if (tokens[t] === a && tokens[t + 1] === b) {
        out.push(d);
        break;
      }
    }
  }
  return out;
}
