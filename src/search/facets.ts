/**
 * Facets: per faceted path, the values of the matching documents with their counts, or the
 * range of a number path.
 *
 * @module
 */
import { isStandardField } from '../catalog/typing';
import type { PathIndex } from './path-index';
import { maskScratch, perIndex } from './scratch';
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
    const hit: number[] = [];
    if (p.offsets && p.ids && !byPostings) {
      const { offsets, ids } = p;
      for (let d = 0; d < docs.length; d++) {
        const doc = docs[d]!;
        for (let k = offsets[doc]!; k < offsets[doc + 1]!; k++) counts[ids[k]!]!++;
      }
      for (let id = 0; id < counts.length; id++) if (counts[id]! > 0) hit.push(id);
    } else {
      const m = mask();
      const { postingStart } = p;
      for (let id = 0; id < values.length; id++) {
        let count = 0;
        for (let k = postingStart[id]!; k < postingStart[id + 1]!; k++) count += m[postingDocs[k]!]!;
        if (count > 0) {
          counts[id] = count;
          hit.push(id);
        }
      }
    }
    if (hit.length === 0) continue;
    // Count, then value case-insensitively, then as is.
    const order = facetOrder(p);
    const best = firstOf(hit, maxFacetValues, (a, b) => counts[b]! - counts[a]! || order[a]! - order[b]!);
    set(path, { type: 'list', values: best.map((id) => [values[id]!, counts[id]!] as [string | boolean, number]) });
  }
  return out;
}

/**
 * Each value's place in facet order (lowercased, then as is), sorted on a path's first facet and
 * kept as long as its index: a search then compares two numbers per value, not two strings (a
 * default text facet, a description, has about a value per matching item). About 100 ms for
 * 100,000 distinct values, once per index version.
 */
const facetOrder = perIndex((p: PathIndex): Uint32Array => {
  const values = p.values!;
  const lower = p.lower!;
  const byOrder = Array.from({ length: values.length }, (_, id) => id).sort(
    (a, b) =>
      (lower[a]! < lower[b]! ? -1 : lower[a]! > lower[b]! ? 1 : 0) ||
      (String(values[a]) < String(values[b]) ? -1 : String(values[a]) > String(values[b]) ? 1 : a - b),
  );
  const order = new Uint32Array(values.length);
  for (let k = 0; k < byOrder.length; k++) order[byOrder[k]!] = k;
  return order;
});

/**
 * The first `k` of `list` in the order of `before`, as `list.sort(before).slice(0, k)` gives
 * them: a heap of the best `k` seen, its worst on top, which most values pass after one
 * comparison. A text field faceted by default (a description) has about a value per matching
 * item, and sorting them all was most of the facets' time.
 */
function firstOf(list: number[], k: number, before: (a: number, b: number) => number): number[] {
  if (list.length <= k) return list.sort(before);
  const heap = list.slice(0, k);
  // Worst first: `a` sinks below `b` when it is better.
  const worse = (a: number, b: number) => before(a, b) > 0;
  const down = (at: number): void => {
    const x = heap[at]!;
    for (;;) {
      let child = 2 * at + 1;
      if (child >= k) break;
      if (child + 1 < k && worse(heap[child + 1]!, heap[child]!)) child++;
      if (!worse(heap[child]!, x)) break;
      heap[at] = heap[child]!;
      at = child;
    }
    heap[at] = x;
  };
  for (let at = (k >> 1) - 1; at >= 0; at--) down(at);
  for (let j = k; j < list.length; j++)
    if (before(list[j]!, heap[0]!) < 0) {
      heap[0] = list[j]!;
      down(0);
    }
  return heap.sort(before);
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
