/**
 * The ranges of a unit the items' names write ("Fits 32 in. - 70 in. TVs"), which a query's
 * number and unit ("55 inch") match (see matching.ts).
 *
 * @module
 */
import { measuredTexts } from './measured-texts';
import { perIndex } from './scratch';
import type { SearchIndex } from './search-index';
import { unitRanges } from './units';

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
 * {@link unitRanges}), read once per index on the first query with a number and its unit. The
 * name alone: a range adds matches, and a description's ranges more often measure something else
 * (an operating temperature, a charging time); dimensions, which only take matches away, are read
 * in every field (item-dimensions.ts).
 *
 * @example
 * ```ts
 * nameRanges(index).get('inch'); // { docs: [3, 9], lo: [32, 40], hi: [70, 70] }
 * ```
 */
export const nameRanges = perIndex((index: SearchIndex): ReadonlyMap<string, NameRanges> => {
  const out = new Map<string, NameRanges>();
  measuredTexts(index, index.searchable.slice(0, 1), [DIGIT, JOIN], (d, text) => {
    for (const { lo, hi, unit } of unitRanges(text)) {
      let list = out.get(unit);
      if (!list) out.set(unit, (list = { docs: [], lo: [], hi: [] }));
      list.docs.push(d);
      list.lo.push(lo);
      list.hi.push(hi);
    }
  });
  return out;
});
