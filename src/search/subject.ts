/**
 * What an item IS, as opposed to what it fits: the words of its name outside the part that
 * names the device it is for ("Lithium-Ion Battery **for Select Samsung Cell Phones**"), and
 * the words of its most specific category. The `subject` ranking rule counts the query terms
 * matched there, so a handset outranks a battery "for Samsung Cell Phones" on "samsung phone",
 * while "galaxy s7 case" still finds the cases "for Samsung Galaxy S7" (the case is the subject;
 * the model is matched in the tail, and the other rules rank it).
 *
 * @module
 */
import { words } from './analysis';

// Where a name starts describing what the item fits: "for …", "fits …", "compatible with …".
const TAIL_START = new Set(['for', 'fits']);

/**
 * Whether a folded word starts what an item fits ("for", "fits"), in a name or in a query
 * ("case for galaxy s7"); "compatible with" takes two words and is read in names only.
 *
 * @example
 * ```ts
 * startsTail('for'); // true
 * ```
 */
export function startsTail(word: string): boolean {
  return TAIL_START.has(word);
}
// A name's parts are separated by spaced dashes or bars ("Brand - Product for Device - Colour"):
// a tail ends at the next part.
const PART = /\s[-–—|]\s|\|/;
/** Largest word position kept in the spans (and "none"). */
export const NO_SPAN = 0xffff;

/**
 * The folded words of a name, and the span of positions `[start, end)` of its first part naming
 * what the item fits (from "for", "fits" or "compatible with" to the end of that part of the
 * name); `[0, 0)` when there is none. The other words say what the item is.
 *
 * @example
 * ```ts
 * nameWords('Ultralast - Battery for Select Samsung Cell Phones - Black');
 * // { words: ['ultralast', 'battery', 'for', 'select', 'samsung', 'cell', 'phones', 'black'], tail: [2, 7] }
 * ```
 */
export function nameWords(text: string): { words: string[]; tail: [number, number] } {
  const out: string[] = [];
  let tail: [number, number] = [0, 0];
  for (const part of text.split(PART)) {
    const list = words(part);
    if (tail[1] === 0) {
      // Not the part's first word: "For Her Case" is a name, not a tail.
      const at = list.findIndex((w, i) => i > 0 && (startsTail(w) || (w === 'compatible' && list[i + 1] === 'with')));
      if (at > 0) tail = [Math.min(out.length + at, NO_SPAN), Math.min(out.length + list.length, NO_SPAN)];
    }
    for (const w of list) out.push(w);
  }
  return { words: out, tail };
}

/**
 * The folded words of a category list, and the position of the word naming the most specific
 * category's type (`categories_ids` lists an item's path from the root: `cell-phones`,
 * `cell-phone-accessories`, `internal-batteries`): the last category's last word before any
 * "with" or "for" (English names end with what they name: "Cell Phone Accessories" are
 * accessories, "All Cell Phones with Plans" are phones). {@link NO_SPAN} when there is none.
 *
 * @example
 * ```ts
 * categoryWords(['cell-phones', 'cell-phone-accessories', 'internal-batteries']).type; // 6: "batteries"
 * ```
 */
export function categoryWords(values: readonly unknown[]): { words: string[]; type: number } {
  const strings = values.filter((v): v is string => typeof v === 'string');
  const out: string[] = [];
  let type = NO_SPAN;
  strings.forEach((s, k) => {
    const list = words(s);
    if (k === strings.length - 1 && list.length > 0) {
      const cut = list.findIndex((w, i) => i > 0 && (w === 'with' || w === 'for'));
      type = Math.min(out.length + (cut < 0 ? list.length : cut) - 1, NO_SPAN);
    }
    for (const w of list) out.push(w);
  });
  return { words: out, type };
}

/**
 * Whether word `k` of `field` says what an item is, read from the index's three spans of that
 * item starting at `spans[at]` (name tail start and end, category type position): the one
 * reading the index build's reuse path and the ranking share.
 *
 * @example
 * ```ts
 * saysWhatItIs('name', 0, Uint16Array.of(1, 4, NO_SPAN), 0); // true: before the tail
 * ```
 */
export function saysWhatItIs(field: string | undefined, k: number, spans: Uint16Array, at: number): boolean {
  if (field === 'name') return k < spans[at]! || k >= spans[at + 1]!;
  return field === 'categories_ids' && k === spans[at + 2];
}

/**
 * The words of one searched field's value, with what says what the item is: the name's words
 * outside its tail ({@link nameWords}) and the categories' type word ({@link categoryWords});
 * no word of another field.
 *
 * @example
 * ```ts
 * const read = fieldWords('name', 'Case for Galaxy S7', 'Case for Galaxy S7');
 * read.words.filter((_, k) => read.isSubject(k)); // ['case']
 * ```
 */
export function fieldWords(field: string, value: unknown, text: string): { words: string[]; tail?: [number, number]; type?: number; isSubject(k: number): boolean } {
  if (field === 'name' && typeof value === 'string') {
    const { words: list, tail } = nameWords(value);
    return { words: list, tail, isSubject: (k) => k < tail[0] || k >= tail[1] };
  }
  if (field === 'categories_ids' && Array.isArray(value)) {
    const { words: list, type } = categoryWords(value);
    return { words: list, type, isSubject: (k) => k === type };
  }
  return { words: words(text), isSubject: () => false };
}
