/**
 * Text analysis, the same for documents and queries: Unicode words split at punctuation and at
 * letter–digit boundaries (a decimal or a measure's fraction kept whole), folded (case, diacritics), units after a number made canonical, stemmed (English, Porter2), with the exact
 * folded form kept beside the stem; stop words; synonyms.
 *
 * @module
 */
import { stem as porter2 } from 'porter2';
import { ENGLISH_STOP_WORDS } from './stop-words';
import { type KeyboardLayout, TYPO_MAX_LENGTH, withinTypos } from './typos';
import { dimensionSpans, measures, normalizeUnits, wholeNumberPattern } from './units';

/**
 * Longest word kept, in characters: longer words are cut to this length, in documents and
 * queries alike, so a 512-character word costs no more than a 65-character one. One more than
 * {@link TYPO_MAX_LENGTH}: a cut word still gets no typo tolerance.
 *
 * @example
 * ```ts
 * words('x'.repeat(500))[0]!.length === MAX_WORD_LENGTH; // true
 * ```
 */
export const MAX_WORD_LENGTH = TYPO_MAX_LENGTH + 1;

// Runs of letters or of digits: punctuation splits (BLACK+DECKER, USB-C, 6/6s), and so does a
// change between letters and digits (18volt, 61in); but a decimal or a fraction of a measure is one
// number ("3.5 mm", "1/2 in."): a query's 5 is not the 5 of 3.5, nor its 2 the 2 of 1/2.
const WORD = new RegExp(`\\p{L}+|(?=\\d)(?:${wholeNumberPattern()})|\\p{N}+`, 'gu');
// Most texts write no decimal or fraction: one scan for a digit, a point or slash and a digit sends them to the plain runs.
const PLAIN_WORD = /\p{L}+|\p{N}+/gu;
const NUMBER_JOINT = /\d[./]\d/;
/** The pattern of the words of a text: {@link WORD}, or {@link PLAIN_WORD} when it cannot find more. */
const wordPattern = (normalized: string): RegExp => (NUMBER_JOINT.test(normalized) ? WORD : PLAIN_WORD);
const MARKS = /\p{M}+/gu;
// Symbols go before compatibility decomposition, which would turn ™ into "TM" (Insignia™ → insigniatm).
const SYMBOLS = /\p{S}+/gu;
// What a symbol becomes: a word boundary that, like a symbol left in place on the ASCII path, no
// unit bridges ("0|\"" and "é 0|\"" both keep 0 apart from the inch mark).
const SEPARATOR = '\u001f';
// Signs of numbers that are symbols, which fold would make separators: a vulgar fraction ("½",
// "1½") and the fraction slash (U+2044) its decomposition writes, as a slash (with a space after
// a whole part: "1½" is "11⁄2" decomposed); the multiplication sign of dimensions ("2×4") as x.
const NUMBER_SIGNS = /(\d?)([\u00bc-\u00be\u2150-\u215e\u2189])|[\u2044\u00d7]/gu;
const asAscii = (sign: string, whole: string | undefined, vulgar: string | undefined): string =>
  vulgar === undefined ? (sign === '\u00d7' ? 'x' : '/') : `${whole ? `${whole} ` : ''}${vulgar.normalize('NFKD').replace('\u2044', '/')}`;

/**
 * Folds case and diacritics: `Écouteurs` → `ecouteurs`.
 *
 * @example
 * ```ts
 * fold('Écouteurs Ñandú'); // 'ecouteurs nandu'
 * ```
 */
export function fold(text: string): string {
  // ASCII needs no decomposition: most catalog text takes the short path.
  // biome-ignore lint/suspicious/noControlCharactersInRegex: the ASCII range starts at U+0000 on purpose
  return /^[\x00-\x7f]*$/.test(text)
    ? text.toLowerCase()
    : text.replace(NUMBER_SIGNS, asAscii).replace(SYMBOLS, SEPARATOR).normalize('NFKD').replace(MARKS, '').toLowerCase().normalize('NFC');
}

/**
 * The folded words of a text, in order, each at most {@link MAX_WORD_LENGTH} characters; a unit
 * right after a number is its canonical word (`61in`, `61 in.`, `61"` → 61 inch; see `UNITS`).
 *
 * @example
 * ```ts
 * words('BLACK+DECKER 18V USB-C, iPhone 6/6s'); // ['black', 'decker', '18', 'volt', 'usb', 'c', 'iphone', '6', '6', 's']
 * ```
 */
export function words(text: string): string[] {
  return wordsOfNormalized(normalizeUnits(fold(text)));
}

/** {@link words} of a text already folded and with its units made canonical. */
function wordsOfNormalized(normalized: string): string[] {
  // One match for the items' texts: the words' places only for queries (see tokens).
  const found = normalized.match(wordPattern(normalized)) ?? [];
  const out = found.some(improper) ? found.flatMap((w) => (improper(w) ? w.split('/') : [w])) : found;
  for (let i = 0; i < out.length; i++) if (out[i]!.length > MAX_WORD_LENGTH) out[i] = out[i]!.slice(0, MAX_WORD_LENGTH);
  return out;
}

/** {@link wordsOfNormalized}, and where each word starts in the text. */
function tokens(normalized: string): { words: string[]; starts: number[] } {
  const words: string[] = [];
  const starts: number[] = [];
  for (const m of normalized.matchAll(wordPattern(normalized))) {
    const w = m[0];
    if (improper(w)) {
      const slash = w.indexOf('/');
      words.push(w.slice(0, slash), w.slice(slash + 1));
      starts.push(m.index, m.index + slash + 1);
    } else {
      words.push(w.length > MAX_WORD_LENGTH ? w.slice(0, MAX_WORD_LENGTH) : w);
      starts.push(m.index);
    }
  }
  return { words, starts };
}

/**
 * A number with a slash that is no fraction of its unit: a larger number over a smaller one is two
 * sizes ("4/3 mm" wetsuits are 4 mm and 3 mm), so "4 mm" finds it.
 */
function improper(word: string): boolean {
  const slash = word.indexOf('/');
  return slash > 0 && Number(word.slice(0, slash)) >= Number(word.slice(slash + 1));
}

/**
 * A stemmer: maps a folded word to its stem.
 *
 * @example
 * ```ts
 * const keep: Stemmer = (word) => word; // no stemming
 * new SearchService({ catalog, stemmer: keep });
 * ```
 */
export type Stemmer = (word: string) => string;

/**
 * Synonyms (Meilisearch's two kinds). Words and phrases are analysed like any text.
 *
 * @example
 * ```ts
 * const synonyms: Synonyms = {
 *   multiWay: [['phone', 'cellphone', 'mobile phone']], // each finds the others
 *   oneWay: { iphone: ['apple phone'] },               // "iphone" also finds "apple phone", not the reverse
 * };
 * ```
 */
export interface Synonyms {
  /** Groups of words or phrases that each match every other of their group. */
  readonly multiWay?: readonly (readonly string[])[];
  /** A word or phrase (key) that also matches its alternatives; an alternative does not match it. */
  readonly oneWay?: Readonly<Record<string, readonly string[]>>;
}

/** Options of an {@link Analyzer}. */
export interface AnalyzerOptions {
  /** Words that are optional in queries and never make a document a candidate. @defaultValue {@link abkit/http!ENGLISH_STOP_WORDS} */
  readonly stopWords?: readonly string[];
  /** @defaultValue none */
  readonly synonyms?: Synonyms;
  /** @defaultValue Porter2 English (package `porter2`) */
  readonly stemmer?: Stemmer;
  /**
   * Words saying the shopper wants a low price ("cheap charger"): dropped from a query that has
   * another word that is not a stop word, which is then marked {@link AnalyzedQuery.priceIntent}.
   * @defaultValue none
   */
  readonly priceWords?: readonly string[];
  /** The layout queries are typed on, which decides what a wrong first letter costs (see `KeyboardLayout`). @defaultValue `'qwerty'` */
  readonly keyboard?: KeyboardLayout;
}

/**
 * Words of a query asking for a low price rather than naming a product: no listing calls itself
 * cheap, so they are not searched; the `priceIntent` ranking rule orders by price instead.
 *
 * @example
 * ```ts
 * new SearchService({ catalog, priceIntent: { words: [...PRICE_INTENT_WORDS, 'bargain'], field: 'price' } });
 * ```
 */
export const PRICE_INTENT_WORDS: readonly string[] = ['cheap', 'cheaper', 'cheapest', 'budget', 'affordable', 'inexpensive'];

/**
 * Stems Porter2 keeps apart that are one word's, mapped to one of them: a closed list of the
 * language, as Porter2's own exceptions are, so they mean the same in any English catalog.
 * - The nouns in -f or -fe whose plural is in -ves ("shelves" stems as shelv, "shelf" as shelf),
 *   the plurals of a changed vowel ("mice", "feet"; not "men" nor "women", whose "man" and
 *   "woman" are also Spider-Man's and Wonder Woman's, nor "teeth", whose stem is teething's),
 *   and the material adjectives in -en ("wooden"; not "golden", also an hour or a glow).
 *   A rule on the ending would read "golves" as golfs, not as a slip of gloves.
 * - British and American spellings of the words shops write both ways ("grey" and "gray", "tyre"
 *   and "tire": one catalog here writes both of each). A four-letter word has no typo to spare.
 *   Not where the stem is another word's ("litre": literal) or a name's ("armour": Under Armour),
 *   nor where British English keeps two words ("programme", "metre"; units read "5 metres" apart).
 */
const STEM_FORMS: ReadonlyMap<string, string> = new Map([
  // Not "leaf" nor "sheaf": their plurals' stems are also a verb's and a pulley's ("leave-in
  // conditioner", "leaving"; a "sheave"); "leaves" alone is read as the leaf (see WORD_FORMS).
  ...['calf', 'dwarf', 'elf', 'half', 'hoof', 'loaf', 'scarf', 'self', 'shelf', 'thief', 'wharf', 'wolf'].map((f): [string, string] => [
    porter2(`${f.slice(0, -1)}ves`),
    f,
  ]),
  ...[
    ['knives', 'knife'],
    ['wives', 'wife'],
    ['mice', 'mouse'],
    ['children', 'child'],
    ['feet', 'foot'],
    ['geese', 'goose'],
    // Porter2 cuts "dyed" to "dy" (its "dyeing" and "dyes" stem as "dye"): "tie dye" is the Tie-Dyed.
    ['dyed', 'dye'],
    ['wooden', 'wood'],
    ['woolen', 'wool'],
    ['woollen', 'wool'],
    ['grey', 'gray'],
    ['colour', 'color'],
    ['tyre', 'tire'],
    ['aluminium', 'aluminum'],
    ['centre', 'center'],
    ['fibre', 'fiber'],
    ['favourite', 'favorite'],
    ['cosy', 'cozy'],
    ['mould', 'mold'],
    ['jewellery', 'jewelry'],
    ['pyjamas', 'pajamas'],
    ['theatre', 'theater'],
    ['flavour', 'flavor'],
    ['harbour', 'harbor'],
    ['odour', 'odor'],
    ['catalogue', 'catalog'],
    ['plough', 'plow'],
    ['moustache', 'mustache'],
    ['sulphur', 'sulfur'],
    ['licence', 'license'],
    ['defence', 'defense'],
    ['aeroplane', 'airplane'],
    ['doughnut', 'donut'],
    ['yoghurt', 'yogurt'],
  ].map(([a, b]): [string, string] => [porter2(a!), porter2(b!)]),
]);

/** Words mapped to a stem as a whole, where the stem Porter2 gives them is also another word's. */
const WORD_FORMS: ReadonlyMap<string, string> = new Map([['leaves', 'leaf']]);

/**
 * Porter2 (Snowball English) stemming of a folded word; words with a digit or a non-ASCII letter
 * are kept as they are (model numbers, other scripts).
 *
 * @example
 * ```ts
 * englishStem('batteries'); // 'batteri', as 'battery'
 * englishStem('s7');        // 's7'
 * englishStem('tvs');       // 'tv', as 'tv'
 * englishStem('shelves');   // 'shelf', as 'shelf' and 'shelving'
 * englishStem('grey');      // 'gray', as 'gray'
 * ```
 */
export function englishStem(word: string): string {
  // The plural of an initialism ("tvs", "pcs", "dvds"), whose s Porter2 keeps for want of a vowel.
  if (/^[b-df-hj-np-tv-z]+s$/.test(word) && word.length >= 3 && !word.endsWith('ss')) return word.slice(0, -1);
  if (!/^[a-z]{3,}$/.test(word)) return word;
  const whole = WORD_FORMS.get(word);
  if (whole !== undefined) return whole;
  const stem = porter2(word);
  return STEM_FORMS.get(stem) ?? stem;
}

/**
 * One analysed query: its terms (at most `maxTerms`), each exact form with its stem, whether it
 * is a stop word, and the synonym phrases that may stand for a run of terms.
 */
export interface AnalyzedQuery {
  readonly terms: readonly QueryTerm[];
  /** Alternatives for runs of terms: documents matching every word of `words` match terms `from`..`to`. */
  readonly synonyms: readonly { readonly from: number; readonly to: number; readonly words: readonly string[] }[];
  /** The text asked for a low price with one of the analyzer's price words, dropped from `terms`. */
  readonly priceIntent: boolean;
  /** Numbers written with a unit ("55 inch", "1/2 in."): terms `from`..`to` are the number's digits, `value` its value. */
  readonly measures: readonly QueryMeasure[];
  /**
   * Numbers written with a slash the query's words split ("3/4 pvc": terms 3 and 4): the one word
   * an item writes them as ("3/4 in. PVC") matches terms `from`..`to` as typed.
   */
  readonly fractions: readonly { readonly from: number; readonly to: number; readonly word: string }[];
  /**
   * Dimensions the query writes ("2x4", "8 x 10 ft"): terms `from`..`to`, whose numbers match only
   * the numbers of an item's dimensions, as typed where the item writes `values` in that order.
   */
  readonly dimensions: readonly { readonly from: number; readonly to: number; readonly values: readonly number[] }[];
  /** Its terms reach only the words they are written as or stem to: no prefix, no typo (words taken from the catalog itself). */
  readonly asWritten?: boolean;
}

/** A number a query writes with its unit: the terms of its digits, its value and its canonical unit word. */
export interface QueryMeasure {
  readonly from: number;
  readonly to: number;
  readonly value: number;
  readonly unit: string;
}

/** One query term. */
export interface QueryTerm {
  /** Folded form as typed. */
  readonly text: string;
  readonly stem: string;
  readonly stopWord: boolean;
}

/**
 * Analysis shared by the index and the queries of one search service.
 *
 * @example
 * ```ts
 * const analyzer = new Analyzer({ synonyms: { oneWay: { tv: ['television'] } } });
 * analyzer.query('TV stands', 10).terms.map((t) => t.stem); // ['tv', 'stand']
 * ```
 */
export class Analyzer {
  readonly stopWords: ReadonlySet<string>;
  readonly #stemmer: Stemmer;
  readonly #stems = new Map<string, string>();
  /** Folded key phrase → alternative phrases (folded words). */
  readonly #synonyms = new Map<string, string[][]>();
  /** Longest key phrase, in words. */
  #longest = 0;
  /** Folded words asking for a low price (see {@link AnalyzerOptions.priceWords}). */
  readonly #priceWords: ReadonlySet<string>;
  /** The layout queries are typed on ({@link AnalyzerOptions.keyboard}). */
  readonly keyboard: KeyboardLayout;

  /** Whether a folded word is one of the price words ({@link AnalyzerOptions.priceWords}). */
  isPriceWord(word: string): boolean {
    return this.#priceWords.has(word);
  }

  constructor(options: AnalyzerOptions = {}) {
    this.keyboard = options.keyboard ?? 'qwerty';
    this.stopWords = new Set((options.stopWords ?? ENGLISH_STOP_WORDS).flatMap((w) => words(w)));
    this.#stemmer = options.stemmer ?? englishStem;
    this.#priceWords = new Set((options.priceWords ?? []).flatMap((w) => words(w)));
    const add = (from: string, to: string) => {
      const key = words(from);
      const value = words(to);
      if (key.length === 0 || value.length === 0 || key.join(' ') === value.join(' ')) return;
      const list = this.#synonyms.get(key.join(' ')) ?? [];
      if (!list.some((v) => v.join(' ') === value.join(' '))) list.push(value);
      this.#synonyms.set(key.join(' '), list);
      this.#longest = Math.max(this.#longest, key.length);
    };
    for (const group of options.synonyms?.multiWay ?? []) for (const a of group) for (const b of group) add(a, b);
    for (const [key, list] of Object.entries(options.synonyms?.oneWay ?? {})) for (const to of list) add(key, to);
  }

  /**
   * The stem of a folded word (cached).
   *
   * @example
   * ```ts
   * new Analyzer().stem('headphones'); // 'headphon'
   * ```
   */
  stem(word: string): string {
    let s = this.#stems.get(word);
    if (s === undefined) {
      s = this.#stemmer(word);
      if (this.#stems.size >= 100_000) this.#stems.clear();
      this.#stems.set(word, s);
    }
    return s;
  }

  /**
   * Analyses a query: its first `maxTerms` words, their stems and stop-word flags, and the
   * synonym alternatives of every run of them. Price words are dropped when another word names
   * something ("cheap charger" searches "charger" with `priceIntent`; "cheap" alone is searched).
   * With `isWord` (whether the catalog reads a word among the query's words: has it, its stem,
   * or a word a typo away beside them), a word it does not read, one typo from a price word, of 4
   * letters or more, is one too ("cheapp charger", "chep charger"; "chesp strap" is a chest strap
   * where an item is a chest strap).
   *
   * @example
   * ```ts
   * new Analyzer().query('Cases for the iPhone', 10).terms.map((t) => [t.text, t.stopWord]);
   * // [['cases', false], ['for', true], ['the', true], ['iphone', false]]
   * new Analyzer({ priceWords: ['cheap'] }).query('cheap charger', 10).priceIntent; // true
   * new Analyzer({ priceWords: ['cheap'] }).query('cheapp charger', 10, () => false).priceIntent; // true
   * ```
   */
  query(text: string, maxTerms: number, isWord?: (word: string, query: readonly string[]) => boolean): AnalyzedQuery {
    const normalized = normalizeUnits(fold(text));
    const { words: all, starts } = tokens(normalized);
    let list = all.slice(0, maxTerms);
    let price = this.#priceWords;
    // A word the catalog does not read (`isWord`: not even one typo away beside the other query
    // words, which a short word's many neighbours often are), one typo from a price word, of 4
    // letters or more ("cheapp", "chep"), asks for a low price as the word does.
    if (price.size > 0 && isWord) {
      const configured = [...price];
      // The cheap test first: `isWord` may look the word up.
      const slips = list.filter((w) => !price.has(w) && w.length >= 4 && configured.some((p) => withinTypos(w, p, 1)) && !isWord(w, list));
      if (slips.length > 0) price = new Set([...configured, ...slips]);
    }
    const priceIntent = price.size > 0 && list.some((w) => price.has(w)) && list.some((w) => !price.has(w) && !this.stopWords.has(w));
    // Each kept word's place among the terms (price words dropped: -1).
    let place = 0;
    const placed = list.map((w) => (priceIntent && price.has(w) ? -1 : place++));
    if (priceIntent) list = list.filter((w) => !price.has(w));
    const measured = queryMeasures(normalized, starts, placed);
    const fractions = splitFractions(normalized, starts, placed);
    const dimensions: AnalyzedQuery['dimensions'][number][] = [];
    for (const { start, end, values } of dimensionSpans(normalized)) {
      const at = placesOf(starts, placed, start, end);
      if (at) dimensions.push({ from: at[0], to: at[1], values });
    }
    const terms = list.map((w) => ({ text: w, stem: this.stem(w), stopWord: this.stopWords.has(w) }));
    const synonyms: { from: number; to: number; words: string[] }[] = [];
    if (this.#synonyms.size > 0) {
      for (let from = 0; from < list.length; from++) {
        for (let to = from; to < Math.min(list.length, from + this.#longest); to++) {
          for (const alt of this.#synonyms.get(list.slice(from, to + 1).join(' ')) ?? []) synonyms.push({ from, to, words: alt });
        }
      }
    }
    return { terms, synonyms, priceIntent, measures: measured, fractions, dimensions };
  }
}

/** The first and last of a query's words (their `starts` in its text) that `[start, end)` of its text holds, as places among its terms. */
function placesOf(starts: readonly number[], placed: readonly number[], start: number, end: number): [number, number] | undefined {
  const first = firstAtOrAfter(starts, start);
  const last = Math.max(first, firstAtOrAfter(starts, end) - 1);
  const [from, to] = [placed[first], placed[last]];
  return from !== undefined && to !== undefined && from >= 0 && to >= 0 ? [from, to] : undefined;
}

/** The index of the first of ascending `values` at least `x` (their length: none). */
function firstAtOrAfter(values: readonly number[], x: number): number {
  let [lo, hi] = [0, values.length];
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (values[mid]! < x) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * The numbers a query's text (folded, units canonical) writes with a unit, as query measures: `starts` gives where each of its
 * words starts in the text, `placed` each one's place among the terms (-1: dropped; words past its end: cut off).
 */
function queryMeasures(normalized: string, starts: readonly number[], placed: readonly number[]): QueryMeasure[] {
  const out: QueryMeasure[] = [];
  for (const { start, end, value, unit } of measures(normalized)) {
    const written = normalized.slice(start, end);
    if (improper(written)) {
      // Two sizes, as its words are ("4/3 mm": 4 mm and 3 mm), not their quotient.
      const slash = start + written.indexOf('/');
      for (const [from, to] of [
        [start, slash],
        [slash + 1, end],
      ] as const) {
        const at = placesOf(starts, placed, from, to);
        if (at) out.push({ from: at[0], to: at[1], value: Number(normalized.slice(from, to)), unit });
      }
      continue;
    }
    const at = placesOf(starts, placed, start, end);
    if (at) out.push({ from: at[0], to: at[1], value, unit });
  }
  return out;
}

// Two numbers and a slash between them, no third: "3/4" but not "6/7/8".
const SLASHED = /(?<![\d/.])\d{1,8}\/\d{1,8}(?![\d/])/g;

/** The numbers with a slash a query's text writes as two words (see {@link AnalyzedQuery.fractions}). */
function splitFractions(normalized: string, starts: readonly number[], placed: readonly number[]): AnalyzedQuery['fractions'] {
  const out: { from: number; to: number; word: string }[] = [];
  for (const m of normalized.matchAll(SLASHED)) {
    // No item writes "12/2" as one word, and its value (6) is no reading of it.
    if (improper(m[0])) continue;
    const at = placesOf(starts, placed, m.index, m.index + m[0].length);
    if (at && at[1] === at[0] + 1) out.push({ from: at[0], to: at[1], word: m[0] });
  }
  return out;
}
