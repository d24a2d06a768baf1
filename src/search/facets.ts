/**
 * Facets: per faceted path, the values of the matching documents with their counts, or the
 * range of a number path.
 *
 * @module
 */
import { isStandardField } from '../catalog/typing';
import type { PathIndex } from './path-index';
import { maskScratch, perIndex, Scratch } from './scratch';
import type { SearchIndex } from './search-index';

/**
 * A facet (interfaces.md, Search).
 *
 * @example
 * ```ts
 * const { facets } = await search.search({ text: 'phone' });
 * const brand: Facet | undefined = facets.brand;
 * if (brand?.type === 'list') for (const [value, count] of brand.values) console.log(value, count);
 * ```
 */
export type Facet =
  | { readonly type: 'list'; readonly values: readonly (readonly [string | boolean, number])[] }
  | { readonly type: 'range'; readonly values: { readonly min: number; readonly max: number } };

/**
 * The facets of the matching documents: a field none of them has a value of has none (its
 * facet would say nothing, and a catalog of many sparse fields answered a megabyte of them).
 * Each path is counted from whichever is shorter, the matching documents or its postings,
 * so a path few items have costs what it holds, not the catalog's size.
 */
export function facetsOf(
  index: SearchIndex,
  docs: ArrayLike<number>,
  paths: readonly string[],
  maxFacetValues: number,
): Record<string, Facet> {
  const out: Record<string, Facet> = {};
  // A field named `__proto__` becomes a key, not the object's prototype.
  const set = (path: string, facet: Facet) => {
    if (path === '__proto__') Object.defineProperty(out, path, { value: facet, enumerable: true, writable: true, configurable: true });
    else out[path] = facet;
  };
  const n = index.items.length;
  let matched: Uint8Array | undefined;
  const mask = (): Uint8Array => {
    if (!matched) {
      matched = maskScratch(index, 2).fill(0);
      for (let k = 0; k < docs.length; k++) matched[docs[k]!] = 1;
    }
    return matched;
  };
  for (const path of paths) {
    const p = index.paths.get(path)!;
    const { postingDocs } = p;
    if (postingDocs.length === 0 || docs.length === 0) continue;
    const byPostings = postingDocs.length < docs.length;
    if (p.info.kind === 'number') {
      const range = p.min && p.max && !byPostings ? rangeOfDocs(p, docs) : rangeOfPostings(p, mask());
      if (range) set(path, { type: 'range', values: range });
      continue;
    }
    const values = p.values!;
    const counts = new Uint32Array(values.length);
    if (p.offsets && p.ids && !byPostings) {
      const { offsets, ids } = p;
      if (2 * docs.length > n) {
        // Most documents match: each value's documents (its postings), less the values of those that do not.
        const m = mask();
        const { postingStart } = p;
        for (let id = 0; id < counts.length; id++) counts[id] = postingStart[id + 1]! - postingStart[id]!;
        for (let doc = 0; doc < n; doc++) if (m[doc] === 0) for (let k = offsets[doc]!; k < offsets[doc + 1]!; k++) counts[ids[k]!]!--;
      } else
        for (let d = 0; d < docs.length; d++) {
          const doc = docs[d]!;
          for (let k = offsets[doc]!; k < offsets[doc + 1]!; k++) counts[ids[k]!]!++;
        }
    } else {
      const m = mask();
      const { postingStart } = p;
      for (let id = 0; id < values.length; id++) {
        let count = 0;
        for (let k = postingStart[id]!; k < postingStart[id + 1]!; k++) count += m[postingDocs[k]!]!;
        counts[id] = count;
      }
    }
    // The values counted, in facet order (case-insensitively, then as is).
    const byOrder = facetOrder(p);
    const hit = HITS.take(byOrder.length);
    let length = 0;
    for (let k = 0; k < byOrder.length; k++) if (counts[byOrder[k]!]! > 0) hit[length++] = byOrder[k]!;
    if (length === 0) continue;
    const best = mostCounted(hit.subarray(0, length), counts, maxFacetValues);
    set(path, { type: 'list', values: best.map((id) => [values[id]!, counts[id]!] as [string | boolean, number]) });
  }
  return out;
}

/**
 * A path's value numbers in facet order (lowercased, then as is), sorted on the path's first
 * facet and kept as long as its index: a search lists its counted values in this order, then
 * takes the most counted without comparing a string (a default text facet, a description, has
 * about a value per matching item). About 100 ms for 100,000 distinct values, once per index version.
 */
const facetOrder = perIndex((p: PathIndex): Int32Array => {
  const values = p.values!;
  const lower = p.lower!;
  const byOrder = Array.from({ length: values.length }, (_, id) => id).sort(
    (a, b) =>
      (lower[a]! < lower[b]! ? -1 : lower[a]! > lower[b]! ? 1 : 0) ||
      (String(values[a]) < String(values[b]) ? -1 : String(values[a]) > String(values[b]) ? 1 : a - b),
  );
  return Int32Array.from(byOrder);
});

// The counted values of one path at a time (facets are computed synchronously).
const HITS = new Scratch(Int32Array);
/** Counts below this are tallied to find the least count among the `k` taken; values counted more are listed. */
const TALLIED = 256;
const tally = new Uint32Array(TALLIED);

/**
 * The first `k` of `hit` (value numbers in facet order) by count, the larger first, then in facet
 * order: `[...hit].sort(by count).slice(0, k)` (the sort is stable), without sorting them all. The
 * counts tell the least count taken: every value counted more is taken, and the first of those
 * counted as much, in facet order.
 *
 * @example
 * ```ts
 * mostCounted(Int32Array.of(0, 1, 2), Uint32Array.of(1, 3, 1), 2); // [1, 0]
 * ```
 */
export function mostCounted(hit: Int32Array, counts: Uint32Array, k: number): number[] {
  const byCount = (a: number, b: number) => counts[b]! - counts[a]!;
  if (hit.length <= k) return Array.from(hit).sort(byCount);
  tally.fill(0);
  const many: number[] = [];
  for (let j = 0; j < hit.length; j++) {
    const count = counts[hit[j]!]!;
    if (count >= TALLIED) many.push(hit[j]!);
    else tally[count]!++;
  }
  if (many.length >= k) return many.sort(byCount).slice(0, k);
  // Every value is counted at least once and they are more than k: the least count taken is 1 or more.
  let more = many.length;
  let least = TALLIED - 1;
  while (more + tally[least]! < k) more += tally[least--]!;
  const above: number[] = [];
  const tied: number[] = [];
  for (let j = 0; j < hit.length && (above.length < more || tied.length < k - more); j++) {
    const count = counts[hit[j]!]!;
    if (count > least) above.push(hit[j]!);
    else if (count === least && tied.length < k - more) tied.push(hit[j]!);
  }
  return above.sort(byCount).concat(tied);
}

/** The paths faceted by default: the string, string[] and boolean custom fields, `categories_ids`, and `price` (range). */
export function defaultFacetPaths(index: SearchIndex): string[] {
  const defaults: string[] = [];
  for (const [path, p] of index.paths) {
    if (p.info.objectField !== undefined) continue;
    if (path === 'categories_ids' || path === 'price') defaults.push(path);
    else if (!isStandardField(path) && p.info.kind !== 'number') defaults.push(path);
  }
  return defaults;
}

/** The least and greatest value of a number path over documents, from its per-document arrays. */
function rangeOfDocs(p: PathIndex, docs: ArrayLike<number>): { min: number; max: number } | undefined {
  const { min: least, max: most } = p as Required<PathIndex>;
  let min = Infinity;
  let max = -Infinity;
  for (let k = 0; k < docs.length; k++) {
    const doc = docs[k]!;
    // NaN (no value) fails both comparisons.
    if (least[doc]! < min) min = least[doc]!;
    if (most[doc]! > max) max = most[doc]!;
  }
  return min <= max ? { min, max } : undefined;
}

/** The same from the postings, which are in value order: the first and last one a matching document has. */
function rangeOfPostings(p: PathIndex, matched: Uint8Array): { min: number; max: number } | undefined {
  const { postingDocs } = p;
  const values = p.sortedValues!;
  let lo = 0;
  while (lo < postingDocs.length && matched[postingDocs[lo]!] !== 1) lo++;
  if (lo === postingDocs.length) return undefined;
  let hi = postingDocs.length - 1;
  while (matched[postingDocs[hi]!] !== 1) hi--;
  return { min: values[lo]!, max: values[hi]! };
}
