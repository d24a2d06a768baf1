/**
 * The dimensions the items' names write ("2 in. x 4 in. x 8 ft. Stud"), whose numbers alone a
 * query's dimensions ("2x4") match (see matching.ts).
 *
 * @module
 */
import { fold, words } from './analysis';
import { perIndex } from './scratch';
import type { SearchIndex } from './search-index';
import { dimensionSpans, normalizeUnits, numberWordValue } from './units';

// What a name writing dimensions holds: a digit and an "x". Two scans, as in name-ranges.ts.
const DIGIT = /\d/;
const TIMES = /[x×]/i;

/** The dimensions one name writes: the values of the number words inside them, and each one's values in order. */
export interface NameDimensions {
  readonly words: ReadonlySet<number>;
  readonly tuples: readonly (readonly number[])[];
}

/**
 * Per document whose first searched field (the name, by default) writes dimensions, what they
 * hold ("1-1/2 in. x 4 in.": words 1, 0.5 and 4; the tuple 1.5, 4); read once per index on the
 * first query writing dimensions.
 *
 * @example
 * ```ts
 * nameDimensions(index).get(3); // { words: Set { 2, 4, 8 }, tuples: [[2, 4, 8]] } for "2 in. x 4 in. x 8 ft. Stud"
 * ```
 */
export const nameDimensions = perIndex((index: SearchIndex): ReadonlyMap<number, NameDimensions> => {
  const out = new Map<number, { words: Set<number>; tuples: number[][] }>();
  const field = index.searchable[0];
  if (field === undefined) return out;
  for (let d = 0; d < index.items.length; d++) {
    const value = (index.items[d] as unknown as Record<string, unknown>)[field];
    if (typeof value !== 'string' || !DIGIT.test(value) || !TIMES.test(value)) continue;
    const text = normalizeUnits(fold(value));
    for (const { start, end, values } of dimensionSpans(text)) {
      let dims = out.get(d);
      if (!dims) out.set(d, (dims = { words: new Set(), tuples: [] }));
      dims.tuples.push([...values]);
      for (const w of words(text.slice(start, end))) {
        const v = numberWordValue(w);
        if (v !== undefined) dims.words.add(v);
      }
    }
  }
  return out;
});
