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
import { englishStem, words } from './analysis';
import { type NamingHabits, PROFILE_HABITS } from './naming';

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
// a tail ends at the next part. Captured, so that each part is read with its separator after it,
// as in the whole name ("0 In | for": "in" is no inch before " | ", as it is none before " for").
const PART = /(\s[-–—|]\s|\|)/;
/** Largest word position kept in the spans (and "none"). */
export const NO_SPAN = 0xffff;
/** Set on a category type position whose word before is a type too ("Cases & Clips": a plural before a plural is a coordination, not a compound). */
const COORDINATED = 0x8000;
/** An English plural: "cases", "accessories", not "plus" or "glass". */
function isPlural(word: string): boolean {
  return word.length > 3 && word.endsWith('s') && !word.endsWith('ss') && englishStem(word) !== word;
}

/**
 * Words that open a new phrase inside a name part ("Case **with** Kickstand", "Phone **w/**
 * Airtime Card"): the word before them ends the phrase naming the product.
 */
const PHRASE_START = new Set(['with', 'w', 'compatible', ...TAIL_START]);
// A word before "and" ends a phrase when it is a word, not a number: coordinated nouns ("Grip and
// Stand" is a grip and a stand), not the models of "iPhone 6 and 6s".
const LETTERS = /^\p{L}+$/u;
// Punctuation closing a phrase inside a part: "Moto G (4th Gen)", "Portable Charger, 313 Power Bank".
const PHRASE_END = /[(),;]/;
// A spaced "in" after a letter: "Toilet in White", not "2-in-1", "In-Ear", "Built-in" or a unit ("52 in Fan", 52" in White).
const IN_FINISH = /(?<=\p{L})\s+in\s+(?=\S)/iu;
// A parenthesis closing a name or part: "Cordless Hammer Drill (Tool-Only)", "Door Hinge (3-Pack)".
const CLOSING_DETAIL = /\([^()]*\)\s*$/;
/** Name positions past this are never marked as phrase heads (the mask is 32 bits). */
export const MAX_HEAD_POSITION = 31;

/**
 * The folded words of a name, the span of positions `[start, end)` of its first part naming
 * what the item fits (from "for", "fits" or "compatible with" to the end of that part of the
 * name; `[0, 0)` when there is none), and which words end a phrase (`heads`, bit k for word k,
 * the first 32 words). The words outside the tail say what the item is; a phrase's last word is
 * its head (English compounds are right-headed: a "Prepaid Phone **Card**" is a card, a "Cell
 * Phone **Case**" a case), a phrase ending at a part's end (" - "), at "with", "for" or "w/",
 * at a parenthesis or comma, or at "and" after a word (coordinated nouns: a "**Grip** and
 * **Stand**" is both; not the "6" of "iPhone 6 and 6s"). A one-word part beside others is a
 * label, a brand or a colour, not a phrase.
 *
 * @example
 * ```ts
 * nameWords('Ultralast - Battery for Select Samsung Cell Phones - Black');
 * // { words: ['ultralast', 'battery', 'for', 'select', 'samsung', 'cell', 'phones', 'black'], tail: [2, 7], heads: 0b1000010 }: battery, phones
 * ```
 */
export function nameWords(
  text: string,
  habits: NamingHabits = PROFILE_HABITS.retail,
): { words: string[]; tail: [number, number]; heads: number } {
  const out: string[] = [];
  let tail: [number, number] = [0, 0];
  let heads = 0;
  const head = (k: number) => {
    if (k >= 0 && k <= MAX_HEAD_POSITION) heads |= 1 << k;
  };
  const pieces = habits.parts ? text.split(PART) : [text]; // parts at even indices, each followed by its separator
  const parts = (pieces.length + 1) / 2;
  for (let p = 0; p < pieces.length; p += 2) {
    const part = pieces[p]!;
    const list = words(p + 1 < pieces.length ? part + pieces[p + 1]! : part);
    if (habits.fitsTail && tail[1] === 0) {
      // Not the part's first word: "For Her Case" is a name, not a tail.
      const at = list.findIndex((w, i) => i > 0 && (startsTail(w) || (w === 'compatible' && list[i + 1] === 'with')));
      if (at > 0) tail = [Math.min(out.length + at, NO_SPAN), Math.min(out.length + list.length, NO_SPAN)];
    }
    if (out.length <= MAX_HEAD_POSITION && list.length > 0) {
      // A one-word part beside others is a label (the brand in "Apple - iPhone 7", a colour), not a phrase.
      if (list.length > 1 || parts === 1) head(out.length + list.length - 1);
      for (let i = 1; i < list.length; i++)
        if ((habits.phraseWords && PHRASE_START.has(list[i]!)) || (habits.andAfterWord && list[i] === 'and' && LETTERS.test(list[i - 1]!)))
          head(out.length + i - 1);
      if (habits.closingDetail && CLOSING_DETAIL.test(part)) {
        const before = words(part.slice(0, part.search(CLOSING_DETAIL))).length;
        if (before > 0 && before < list.length) head(out.length + before - 1);
      }
      if (habits.inFinish && IN_FINISH.test(part)) {
        const pieces = part.split(IN_FINISH).map(words);
        if (pieces.reduce((n, p) => n + p.length + 1, -1) === list.length) {
          let k = out.length - 1;
          for (const piece of pieces.slice(0, -1)) {
            head((k += piece.length));
            k++; // "in"
          }
        }
      }
      if (habits.punctuation && PHRASE_END.test(part)) {
        // Each piece's last word, when the pieces' words are the part's (units may join across a comma).
        const pieces = part.split(PHRASE_END).map(words);
        if (pieces.reduce((n, p) => n + p.length, 0) === list.length) {
          let k = out.length - 1;
          for (const piece of pieces) if (piece.length > 0) head((k += piece.length));
        }
      }
    }
    for (const w of list) out.push(w);
  }
  return { words: out, tail, heads: habits.phraseHeads ? heads >>> 0 : 0 };
}

/**
 * The folded words of a category list, and the position of the word naming the most specific
 * category's type (`categories_ids` lists an item's path from the root: `cell-phones`,
 * `cell-phone-accessories`, `internal-batteries`): the last category's last word before any
 * "with" or "for" (English names end with what they name: "Cell Phone Accessories" are
 * accessories, "All Cell Phones with Plans" are phones). {@link NO_SPAN} when there is none.
 * `coordinated` when the word before it names a type too: a plural before a plural is a
 * coordination whose "&" the slug lost ("Cell Phone Cases & Clips": cases and clips), as English
 * compounds take a singular first ("Phone Cases").
 *
 * @example
 * ```ts
 * categoryWords(['cell-phones', 'cell-phone-accessories', 'internal-batteries']).type; // 6: "batteries"
 * categoryWords(['cell-phones', 'cell-phone-cases-clips']).coordinated; // true: cases, clips
 * ```
 */
export function categoryWords(
  values: readonly unknown[],
  habits: NamingHabits = PROFILE_HABITS.retail,
): { words: string[]; type: number; coordinated: boolean } {
  const strings = values.filter((v): v is string => typeof v === 'string');
  const out: string[] = [];
  let type = NO_SPAN;
  let coordinated = false;
  strings.forEach((s, k) => {
    const list = words(s);
    if (habits.categoryType && k === strings.length - 1 && list.length > 0) {
      const cut = list.findIndex((w, i) => i > 0 && (w === 'with' || w === 'for'));
      const last = (cut < 0 ? list.length : cut) - 1;
      type = Math.min(out.length + last, COORDINATED - 1);
      coordinated = last > 0 && isPlural(list[last]!) && isPlural(list[last - 1]!);
    }
    for (const w of list) out.push(w);
  });
  return { words: out, type, coordinated };
}

/** The index's span value of a category type word at `type` ({@link NO_SPAN}: none), with the word before it when `coordinated`. */
function typeSpan(type: number, coordinated: boolean): number {
  return type !== NO_SPAN && coordinated ? type | COORDINATED : type;
}

/** Whether category word `k` is a type word by the span value `span` ({@link typeSpan}). */
function isTypeWord(k: number, span: number): boolean {
  if (span === NO_SPAN || (span & COORDINATED) === 0) return k === span;
  const type = span & ~COORDINATED;
  return k === type || k === type - 1;
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
  return field === 'categories_ids' && isTypeWord(k, spans[at + 2]!);
}

/**
 * Whether word `k` of a name whose phrase heads are `heads` ({@link nameWords}) ends a phrase.
 *
 * @example
 * ```ts
 * endsPhrase(nameWords('Prepaid Phone Card').heads, 2); // true: "card"
 * ```
 */
export function endsPhrase(heads: number, k: number): boolean {
  return k <= MAX_HEAD_POSITION && ((heads >>> k) & 1) === 1;
}

/**
 * Whether word `k` of `field` names what an item is: it says what the item is
 * ({@link saysWhatItIs}) and ends a phrase of the name (bit k of `heads`, see {@link nameWords}),
 * or is the category's type word.
 *
 * @example
 * ```ts
 * namesWhatItIs('name', 2, Uint16Array.of(0, 0, NO_SPAN), 0, 0b100); // true: "Prepaid Phone Card" is a card
 * ```
 */
export function namesWhatItIs(field: string | undefined, k: number, spans: Uint16Array, at: number, heads: number): boolean {
  if (!saysWhatItIs(field, k, spans, at)) return false;
  return field !== 'name' || endsPhrase(heads, k);
}

/**
 * The words of one searched field's value, with what says what the item is: the name's words
 * outside its tail and its phrases' heads ({@link nameWords}), and the categories' type word
 * ({@link categoryWords}); no word of another field. `names(k)`: word k names the item
 * ({@link namesWhatItIs}).
 *
 * @example
 * ```ts
 * const read = fieldWords('name', 'Grip Case for Galaxy S7', 'Grip Case for Galaxy S7');
 * read.words.filter((_, k) => read.isSubject(k)); // ['grip', 'case']
 * read.words.filter((_, k) => read.names(k)); // ['case']
 * ```
 */
export function fieldWords(
  field: string,
  value: unknown,
  text: string,
  habits: NamingHabits = PROFILE_HABITS.retail,
): { words: string[]; tail?: [number, number]; heads?: number; type?: number; isSubject(k: number): boolean; names(k: number): boolean } {
  if (field === 'name' && typeof value === 'string') {
    const { words: list, tail, heads } = nameWords(value, habits);
    const isSubject = (k: number) => k < tail[0] || k >= tail[1];
    return { words: list, tail, heads, isSubject, names: (k) => isSubject(k) && endsPhrase(heads, k) };
  }
  if (field === 'categories_ids' && Array.isArray(value)) {
    const { words: list, type, coordinated } = categoryWords(value, habits);
    const span = typeSpan(type, coordinated);
    const isSubject = (k: number) => isTypeWord(k, span);
    return { words: list, type: span, isSubject, names: isSubject };
  }
  return { words: words(text), isSubject: () => false, names: () => false };
}

/**
 * Whether a field whose first `n` words are a query's words, as typed, starts with what the item
 * is, as exactness reads it: the whole field, a field other than the name, or a name whose phrase
 * ends at the query's last word (bit `n - 1` of its `heads`, see {@link nameWords}). A name that
 * goes on to another head names another thing: "Ceiling Fan Light Kit" is a kit, "Tent Pegs" are
 * pegs, so starting with "ceiling fan" or "tent" says nothing there.
 *
 * @example
 * ```ts
 * startsWhatItIs('name', 4, 2, 0b1000); // false: "ceiling fan light kit", whose head is "kit"
 * startsWhatItIs('name', 4, 2, 0b0010); // true: "ceiling fan in white"
 * ```
 */
export function startsWhatItIs(field: string | undefined, length: number, n: number, heads: number): boolean {
  return length === n || field !== 'name' || (n <= 32 && ((heads >>> (n - 1)) & 1) === 1);
}
