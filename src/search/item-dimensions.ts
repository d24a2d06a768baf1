/**
 * The dimensions the items write in any searched field ("2 in. x 4 in. x 8 ft. Stud", a
 * description's "Overall: 24 in. x 36 in."), whose numbers alone a query's dimensions ("2x4")
 * match (see matching.ts).
 *
 * @module
 */
import { words } from './analysis';
import { measuredTexts } from './measured-texts';
import { perIndex } from './scratch';
import type { SearchIndex } from './search-index';
import { dimensionSpans, numberWordValue } from './units';

// What a text writing dimensions holds: a digit and an "x". Two scans, as in name-ranges.ts.
const DIGIT = /\d/;
const TIMES = /[x×]/i;

/** The dimensions one item writes: the values of the number words inside them, and each one's values in order. */
export interface ItemDimensions {
  readonly words: ReadonlySet<number>;
  readonly tuples: readonly (readonly number[])[];
}

/**
 * Per document writing dimensions in a searched field, what they hold ("1-1/2 in. x 4 in.":
 * words 1, 0.5 and 4; the tuple 1.5, 4); read once per index on the first query writing
 * dimensions. Every field, not the name alone: a query's numbers match only where an item's
 * dimensions hold them, so an item giving its size in its description keeps them.
 *
 * @example
 * ```ts
 * itemDimensions(index).get(3); // { words: Set { 2, 4, 8 }, tuples: [[2, 4, 8]] } for "2 in. x 4 in. x 8 ft. Stud"
 * ```
 */
export const itemDimensions = perIndex((index: SearchIndex): ReadonlyMap<number, ItemDimensions> => {
  const out = new Map<number, { words: Set<number>; tuples: number[][] }>();
  measuredTexts(index, index.searchable, [DIGIT, TIMES], (d, text) => {
    for (const { start, end, values } of dimensionSpans(text)) {
      let dims = out.get(d);
      if (!dims) out.set(d, (dims = { words: new Set(), tuples: [] }));
      dims.tuples.push([...values]);
      for (const w of words(text.slice(start, end))) {
        const v = numberWordValue(w);
        if (v !== undefined) dims.words.add(v);
      }
    }
  });
  return out;
});
