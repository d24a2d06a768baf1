/**
 * The texts of an index that may write measures (ranges, dimensions), folded and with their
 * units canonical, for the per-index tables read from them (name-ranges.ts, item-dimensions.ts).
 *
 * @module
 */
import { fold } from './analysis';
import { fieldText, type SearchIndex } from './search-index';
import { normalizeUnits } from './units';

/**
 * Calls `visit` with each document's text of each of `fields` that `holds` every pattern of
 * (cheap tests, one scan each, so most texts are never folded), folded and with its units
 * canonical.
 *
 * @example
 * ```ts
 * measuredTexts(index, index.searchable.slice(0, 1), [/\d/, /[-–—]|to/], (doc, text) => console.log(doc, text));
 * ```
 */
export function measuredTexts(
  index: SearchIndex,
  fields: readonly string[],
  holds: readonly RegExp[],
  visit: (doc: number, text: string) => void,
): void {
  for (let d = 0; d < index.items.length; d++) {
    for (const field of fields) {
      const value = fieldText(index.items[d]!, field);
      if (holds.every((pattern) => pattern.test(value))) visit(d, normalizeUnits(fold(value)));
    }
  }
}
