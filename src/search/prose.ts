/**
 * Prose fields: the searched fields whose words say less of what an item is (a description
 * beside a name), read by the `words` rule's second rank and the pass over the postings.
 *
 * @module
 */
/** How many times longer than the first searched field's a field's mean length is for the field to be prose. */
export const PROSE_LENGTH_RATIO = 3;

/**
 * The searched fields that are prose, bit f for field f: those (after the first) whose mean
 * length is over {@link PROSE_LENGTH_RATIO} times the first's, a description beside a name.
 * A query word there says less of what the item is than in a label (the name, a brand, a
 * category): a description tells what the item goes with, is compared to, fits. Measured on
 * the judged catalogs with descriptions (Best Buy's ~50 words to a name's ~11, the general
 * store's ~48 to ~4): those with only labels (brands, categories, colours of ~1 to 5 words) have none.
 */
export function proseFields(index: { readonly averageLength: ArrayLike<number> }): number {
  const { averageLength } = index;
  let mask = 0;
  // Beyond 32 fields the postings keep no field masks (see SearchIndex.postingFields).
  if (averageLength.length > 32) return 0;
  for (let f = 1; f < averageLength.length; f++) if (averageLength[f]! > PROSE_LENGTH_RATIO * averageLength[0]!) mask |= 1 << f;
  return mask;
}
