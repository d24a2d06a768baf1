/**
 * Typo tolerance as Meilisearch counts it: no typo for terms of up to 4 characters, one up to 8,
 * two beyond, none past {@link TYPO_MAX_LENGTH}; swapping two adjacent letters counts as one typo
 * (Damerau distance); a wrong first letter counts two unless its key touches the right one
 * ({@link firstLetterTypos}).
 *
 * @module
 */

/**
 * Longest term that tolerates typos: longer ones (no real word is) must match exactly.
 *
 * @example
 * ```ts
 * allowedTypos(TYPO_MAX_LENGTH + 1); // 0
 * ```
 */
export const TYPO_MAX_LENGTH = 64;

/** A query word that may take more typos when it reaches nothing, or be read as a slip: letters only (no model number). */
export const LETTERS = /^\p{L}+$/u;

/**
 * Typos allowed for a query term of `length` characters.
 *
 * @example
 * ```ts
 * allowedTypos('shoe'.length);       // 0
 * allowedTypos('sneaker'.length);    // 1
 * allowedTypos('trampoline'.length); // 2
 * ```
 */
export function allowedTypos(length: number): number {
  return length <= 4 || length > TYPO_MAX_LENGTH ? 0 : length <= 8 ? 1 : 2;
}

/**
 * Typos allowed for a query term of `length` characters that reaches no word of the catalog with
 * {@link allowedTypos} (not as typed, nor as a stem, a prefix or a typo away): one from 3
 * characters, two from 5, as allowed beyond 8. Such a term is no word of the catalog, so a
 * shopper's slip is the likely reading ("tnt" and "tnet" for tent, "chiar", "lifrprof" for the
 * already misspelt "lifeprof"), and no exact match is pushed down by the words it reaches; a word
 * the catalog does not sell reaches other products, which the matching drops when they hold no
 * other query word. (Meilisearch's count, no typo up to 4 characters, holds for words that reach
 * one: a short word's neighbours are many, and the word typed is likelier one of them.)
 *
 * @example
 * ```ts
 * unknownWordTypos('tnt'.length);     // 1
 * unknownWordTypos('rcaket'.length);  // 2
 * ```
 */
export function unknownWordTypos(length: number): number {
  return length < 3 || length > TYPO_MAX_LENGTH ? 0 : length <= 4 ? 1 : 2;
}

/**
 * Whether `word` is within `typos` of `term` as a whole (optimal string alignment, as the
 * dictionary counts): a typo-tolerant prefix lookup also reaches longer words ("backpak" reaches
 * "backpacking" through "backpac"), which this tells from the word itself ("backpack"). Words
 * longer or shorter than the term by more than `typos` are not read.
 *
 * @example
 * ```ts
 * withinTypos('backpak', 'backpack', 1);    // true
 * withinTypos('backpak', 'backpacking', 1); // false
 * ```
 */
export function withinTypos(term: string, word: string, typos: number): boolean {
  const n = term.length;
  const m = word.length;
  if (Math.abs(n - m) > typos) return false;
  // Three rows of the distance table: the one before last, the last, the current.
  let before = new Int32Array(m + 1);
  let last = Int32Array.from({ length: m + 1 }, (_, j) => j);
  let row = new Int32Array(m + 1);
  for (let i = 1; i <= n; i++) {
    row[0] = i;
    let least = i;
    for (let j = 1; j <= m; j++) {
      const same = term.charCodeAt(i - 1) === word.charCodeAt(j - 1);
      let v = Math.min(last[j - 1]! + (same ? 0 : 1), last[j]! + 1, row[j - 1]! + 1);
      if (i > 1 && j > 1 && term.charCodeAt(i - 1) === word.charCodeAt(j - 2) && term.charCodeAt(i - 2) === word.charCodeAt(j - 1))
        v = Math.min(v, before[j - 2]! + 1);
      row[j] = v;
      if (v < least) least = v;
    }
    if (least > typos) return false;
    [before, last, row] = [last, row, before];
  }
  return last[m]! <= typos;
}

/**
 * The keyboard layout a catalog's shoppers type on, which decides what a wrong first letter costs
 * (see the `typo` ranking rule): `qwerty` (English and most others), `azerty` (French, Belgian),
 * `qwertz` (German, Central European), or `none` (no layout assumed: a wrong first letter counts
 * one typo, as any other letter, whatever key it is).
 *
 * @example
 * ```ts
 * new SearchService({ catalog, keyboard: 'azerty' });
 * ```
 */
export type KeyboardLayout = 'qwerty' | 'azerty' | 'qwertz' | 'none';

/** Every {@link KeyboardLayout}, the default first. */
export const KEYBOARD_LAYOUTS = ['qwerty', 'azerty', 'qwertz', 'none'] as const satisfies readonly KeyboardLayout[];

// The digit and letter keys of each layout by row (AZERTY's digits need shift, but sit on the top
// row), and each row's stagger: its first key's column.
const STAGGER = [0, 0.5, 0.75, 1.25];
const ROWS: Readonly<Record<Exclude<KeyboardLayout, 'none'>, readonly string[]>> = {
  qwerty: ['1234567890', 'qwertyuiop', 'asdfghjkl', 'zxcvbnm'],
  azerty: ['1234567890', 'azertyuiop', 'qsdfghjklm', 'wxcvbn'],
  qwertz: ['1234567890', 'qwertzuiop', 'asdfghjkl', 'yxcvbnm'],
};

/** Where each key sits on a layout: its row, and its column shifted by the row's stagger. */
const KEYS = new Map(
  Object.entries(ROWS).map(([layout, rows]) => {
    const keys = new Map<number, [number, number]>();
    rows.forEach((row, r) => {
      for (let i = 0; i < row.length; i++) keys.set(row.charCodeAt(i), [r, i + STAGGER[r]!]);
    });
    return [layout as KeyboardLayout, keys];
  }),
);

/**
 * Whether a slip of the finger from key `a` to key `b` is likely: they touch on the `layout`
 * (same row side by side, or the rows above and below), or either is no key of it (another
 * script), or no layout is assumed (`none`).
 *
 * @example
 * ```ts
 * nearKeys('q'.charCodeAt(0), 'w'.charCodeAt(0)); // true
 * nearKeys('q'.charCodeAt(0), 'p'.charCodeAt(0)); // false
 * nearKeys('z'.charCodeAt(0), 't'.charCodeAt(0), 'qwertz'); // true
 * ```
 */
export function nearKeys(a: number, b: number, layout: KeyboardLayout = 'qwerty'): boolean {
  const keys = KEYS.get(layout);
  const p = keys?.get(a);
  const q = keys?.get(b);
  if (!p || !q) return true;
  const dy = Math.abs(p[0] - q[0]);
  const dx = Math.abs(p[1] - q[1]);
  return dy === 0 ? dx <= 1 : dy === 1 && dx <= 0.75;
}

const VOWELS = /[aeiouy]/;

/**
 * Whether `word` is `term` with one letter replaced by a key that does not touch it on the
 * `layout`, nor one vowel by another (spelling by ear: "protecter"): a slip of the finger lands
 * on a neighbouring key, so "coler" is likelier "cooler" (a letter left out) than "cover" (l for v).
 *
 * @example
 * ```ts
 * farSubstitution('coler', 'cover');  // true
 * farSubstitution('coler', 'color');  // false: o and e are vowels
 * farSubstitution('cqse', 'case');    // false: q touches a
 * ```
 */
export function farSubstitution(term: string, word: string, layout: KeyboardLayout = 'qwerty'): boolean {
  if (term.length !== word.length) return false;
  let at = -1;
  for (let i = 0; i < term.length; i++)
    if (term.charCodeAt(i) !== word.charCodeAt(i)) {
      if (at >= 0) return false;
      at = i;
    }
  if (at < 0) return false;
  const [a, b] = [term[at]!, word[at]!];
  return !(VOWELS.test(a) && VOWELS.test(b)) && !nearKeys(a.charCodeAt(0), b.charCodeAt(0), layout);
}

/**
 * The typos of `word` for `term` when a wrong first letter counts two unless its key touches the
 * right one on the `layout` ({@link nearKeys}): `typos` (the fewest, as the dictionary found them: of the whole word, or with
 * `prefix` of a start of it) or one more when every way within `typos` replaces the first letter
 * by a far key. A shopper rarely misses the first letter ("qatch" is a watch, whose "w" touches
 * the "q", not a batch or a latch), and when one does, a neighbouring key is the likely slip.
 *
 * @example
 * ```ts
 * firstLetterTypos('qatch', 'watch', 1, false); // 1
 * firstLetterTypos('qatch', 'batch', 1, false); // 2
 * firstLetterTypos('lectric', 'electric', 1, false); // 1: a letter left out, not replaced
 * firstLetterTypos('zank', 'tank', 1, false, 'qwertz'); // 1: z sits beside t there
 * ```
 */
export function firstLetterTypos(term: string, word: string, typos: number, prefix: boolean, layout: KeyboardLayout = 'qwerty'): number {
  if (typos === 0 || term.length === 0 || word.length === 0) return typos;
  const a = term.charCodeAt(0);
  const b = word.charCodeAt(0);
  if (a === b || nearKeys(a, b, layout)) return typos;
  const rest = typos - 1;
  // The first letter left out, one added, or swapped with the second: no far key replaced it.
  if (
    reaches(term.slice(1), word, rest, prefix) ||
    reaches(term, word.slice(1), rest, prefix) ||
    (term.length > 1 &&
      word.length > 1 &&
      term.charCodeAt(1) === b &&
      word.charCodeAt(1) === a &&
      reaches(term.slice(2), word.slice(2), rest, prefix))
  )
    return typos;
  return typos + 1;
}

/** Whether `word` (or with `prefix`, a start of it) is within `typos` of `term`. */
function reaches(term: string, word: string, typos: number, prefix: boolean): boolean {
  if (!prefix) return withinTypos(term, word, typos);
  for (let length = Math.max(0, term.length - typos); length <= Math.min(word.length, term.length + typos); length++)
    if (withinTypos(term, word.slice(0, length), typos)) return true;
  return false;
}
