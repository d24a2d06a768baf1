/**
 * The ranges of a unit the items' names write ("Fits 32 in. - 70 in. TVs"), which a query's
 * number and unit ("55 inch") match (see matching.ts).
 *
 * @module
 */
import { fold } from './analysis';
import { perIndex } from './scratch';
import type { SearchIndex } from './search-index';
import { normalizeUnits, unitRanges } from './units';

/** The ranges of one unit the names write: the document and its range's ends, by document. */
export interface NameRanges {
  readonly docs: number[];
  readonly lo: number[];
  readonly hi: number[];
}

// What a name writing a range holds: a digit and a dash or "to". Two separate scans: one pattern
// with a run of anything between them would be quadratic on a long name of dashes.
const DIGIT = /\d/;
const JOIN = /[-–—]|to/;

/**
 * The ranges each unit has in the documents' first searched field (the name, by default; see
 * {@link unitRanges}), read once per index on the first query with a number and its unit.
 *
 * @example
 * ```ts
 * nameRanges(index).get('inch'); // { docs: [3, 9], lo: [32, 40], hi: [70, 70] }
 * ```
 */
export const nameRanges = perIndex((index: SearchIndex): ReadonlyMap<string, NameRanges> => {
  const out = new Map<string, NameRanges>();
  const field = index.searchable[0];
  if (field === undefined) return out;
  for (let d = 0; d < index.items.length; d++) {
    const value = (index.items[d] as unknown as Record<string, unknown>)[field];
    if (typeof value !== 'string' || !DIGIT.test(value) || !JOIN.test(value)) continue;
    for (const { lo, hi, unit } of unitRanges(normalizeUnits(fold(value)))) {
      let list = out.get(unit);
      if (!list) out.set(unit, (list = { docs: [], lo: [], hi: [] }));
      list.docs.push(d);
      list.lo.push(lo);
      list.hi.push(hi);
    }
  }
  return out;
});
