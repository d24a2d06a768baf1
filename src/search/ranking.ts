/**
 * Ranking rules, Meilisearch-style: each rule sorts the ties of the rules before it. `words`,
 * `typo` and `customRanking` are known for every candidate once matched; `subject`, `variant`,
 * `proximity`, `attribute`, `exactness` and `bm25` read the document's words, so every
 * candidate first holds upper bounds of them read from the postings of the query's words, and a
 * candidate's words are read only when its bounds reach the page asked for (see
 * {@link Ranker.ordered}): a query matching the whole catalog reads about a page of documents.
 *
 * Each of `words`, `typo`, `exactness`, `subject`, `proximity` and `attribute` gives an integer
 * rank in [1, max]; `_rankingScore` reads them in rule order as nested shares of [0, 1]
 * (Meilisearch's construction): a higher rule outweighs every lower one, each lower rule splits
 * the share its betters left, and the score is 1 only when every rule is at its best (every term
 * matched exactly, without typo, naming what the item is, next to each other, at the start of the
 * best field, which equals the query). The `words` share counts matched terms (all of them: the
 * top m/(m+1) of [0, 1]), so a full match with a poor exactness scores about 0.9, not 0.9997.
 *
 * @module
 */
import type { CatalogItem } from '../storage/catalog';
import { bm25Idf, bm25Norm, bm25Share } from './bm25';
import { compareValues, valueAt } from './fields';
import type { Candidates, MatchingStrategy, QueryMatch } from './matching';
import type { SortCriterion } from './query';
import { perIndex, Scratch, SCRATCH_LIMIT } from './scratch';
import { lowestBit, MAX_POSTING_TF, NAMES_WHAT, postingShare, SAYS_WHAT, START_POSITIONS, type SearchIndex } from './search-index';
import type { SearchWork } from './work';
import { endsPhrase, namesWhatItIs, saysWhatItIs, startsTail } from './subject';
import { variantsOf, type Variants } from './variants';

/**
 * The ranking rules, in their default order. Exactness comes before proximity (Meilisearch puts
 * it after attribute), and subject after exactness: on the judged Best Buy queries that order
 * measured best (a word typed in full says more than two words close together; what an item is
 * says more than where the words sit). Variant comes after subject: what an item is first (a
 * case for the S7 edge before an S7 handset on "galaxy s7 case"), then whether it is the model typed.
 * Price intent comes right after them: among the items that are what was asked, the cheaper first.
 *
 * @example
 * ```ts
 * new SearchService({ catalog, rankingRules: ['words', 'typo', 'proximity', 'attribute', 'exactness', 'customRanking', 'bm25'] }); // Meilisearch's order
 * ```
 */
export const RANKING_RULES: readonly RankingRule[] = [
  'words',
  'typo',
  'exactness',
  'subject',
  'variant',
  'priceIntent',
  'proximity',
  'attribute',
  'customRanking',
  'bm25',
];

/**
 * One ranking rule:
 *
 * - `words`: more matched query terms, weighted (see `matchingStrategy`);
 * - `typo`: fewer typos;
 * - `subject`: the query's head term (the last one often saying what items are: "case" in
 *   "galaxy s7 case", "phone" in "samsung phone", "grip" in "phone grip") ending a phrase of the
 *   item's name ("Prepaid Cell **Phone**", not "Prepaid Phone Card") or being its category's type
 *   word; else found where the item says what it IS; then more query terms found there: its name
 *   outside the part saying what it fits ("… for Samsung Cell Phones", "compatible with …",
 *   "fits …"), and its most specific category's type word (see subject.ts); a term the catalog
 *   reads as a model variant after the query term before it ("plus" in "iphone 6s plus") counts
 *   only right after that term, and a term up to two before a model number ("galaxy" in "galaxy
 *   s6") only where the name continues to that number;
 * - `variant`: fewer query terms whose every match in the name the name extends into another
 *   model: a run of query words ("galaxy s7", "iphone 7") followed by a word the query did not
 *   type that the catalog's names insert between that word and what otherwise follows it
 *   ("Galaxy S7 **edge**", "iPhone 7 **Plus**"; not "Cell Phones", "32GB" or "and"; see variants.ts),
 *   or numbers it otherwise: the name follows a query word with a number other than the one the
 *   query typed after it, and has the query's nowhere ("Galaxy S**7**" for "galaxy s6");
 * - `priceIntent`: when the query asked for a low price with a price word ("cheap charger", see
 *   the service's `priceIntent` option), the lower price first; no effect on other queries;
 * - `proximity`: matched terms closer together, in query order (distance 1 = as far apart as in
 *   the query, so "3-in-1" matches "3 in 1" at distance 1 although "in" is a stop word; at most 8);
 * - `attribute`: the best field a term is in (`searchableFields` order, or boost), then the
 *   earliest position in it;
 * - `exactness`: the whole field equal to the query, then a field starting with it, then more
 *   terms matched as typed (not through a prefix, stem, synonym or typo);
 * - `customRanking`: the service's `customRanking` criteria (e.g. `popularity:desc`);
 * - `bm25`: Okapi BM25 over the searched fields (weighted by boost), then the share of the
 *   first searched field's characters the query reached (the name's, by default: of two colours
 *   of one listing, the one whose name is more what was typed), then the same share over every
 *   searched field.
 *
 * After every rule, hits still equal (the same listing for another carrier) go by the
 * `tieBreak` criteria (by default the lower price, then the name), then by id.
 *
 * @example
 * ```ts
 * const rules: RankingRule[] = ['words', 'typo', 'attribute'];
 * ```
 */
export type RankingRule =
  | 'words'
  | 'typo'
  | 'subject'
  | 'variant'
  | 'priceIntent'
  | 'proximity'
  | 'attribute'
  | 'exactness'
  | 'customRanking'
  | 'bm25';

/** Rules that give a rank, in the score. */
type Scored = 'words' | 'typo' | 'subject' | 'variant' | 'proximity' | 'attribute' | 'exactness';
const SCORED = new Set<RankingRule>(['words', 'typo', 'subject', 'variant', 'proximity', 'attribute', 'exactness']);
const EXPENSIVE = new Set<RankingRule>(['subject', 'variant', 'proximity', 'attribute', 'exactness', 'bm25']);

/** Scores this close to a threshold are computed exactly, not decided from bounds (floating-point error is far smaller). */
const SCORE_MARGIN = 1e-12;
/** Farthest proximity counted between two terms (also the distance of terms not both found in one field). */
const MAX_DISTANCE = 8;
/** Farthest position counted by `attribute`. */
const MAX_POSITION = 15;
/** A query term is its head when it says what items are at least this share as often as the term saying it most, and comes later. */
const HEAD_SHARE = 0.5;
/** A query term can be its head when it names items (see subject.ts) in at least this share of the documents where it says what they are. */
const NAMES_SHARE = 0.5;
/** The match code of a stem (1: the word as typed; higher: prefixes and typos). */
const STEM = 2;
/** Levels of the weighted `words` rank. */
const WORD_LEVELS = 1000;

/**
 * What each rule counted for one hit (`_rankingScoreDetails`). Each rule entry has its `order`
 * (place in the rule list) and `score` in [0, 1]; `customRanking` criteria and `bm25` give
 * their `value` instead (they are not in `_rankingScore`).
 *
 * @example
 * ```ts
 * const { hits } = await search.search({ text: 'galaxy case', showRankingScoreDetails: true });
 * const details: RankingScoreDetails | undefined = hits[0]?._rankingScoreDetails;
 * console.log(details?.words, details?.typo, details?.attribute);
 * ```
 */
export interface RankingScoreDetails {
  readonly words?: { readonly order: number; readonly score: number; readonly matchingWords: number; readonly maxMatchingWords: number };
  readonly typo?: { readonly order: number; readonly score: number; readonly typoCount: number; readonly maxTypoCount: number };
  /** `headNamesItem`: the head term ends a phrase of the item's name ("Prepaid Phone **Card**") or is its category's type word. */
  readonly subject?: {
    readonly order: number;
    readonly score: number;
    readonly head: string | null;
    readonly headNamesItem: boolean;
    readonly subjectWords: number;
    readonly maxSubjectWords: number;
  };
  /** `variantTerms`: query terms whose every name match the name extends into another model ("Galaxy S7 **edge**" for "galaxy s7"). */
  readonly variant?: { readonly order: number; readonly score: number; readonly variantTerms: number };
  readonly proximity?: {
    readonly order: number;
    readonly score: number;
    readonly distance: number;
    readonly minDistance: number;
    readonly maxDistance: number;
  };
  readonly attribute?: { readonly order: number; readonly score: number; readonly field: string | null; readonly position: number | null };
  readonly exactness?: {
    readonly order: number;
    readonly score: number;
    readonly exactWords: number;
    readonly matchType: 'exactMatch' | 'matchesStart' | 'noExactMatch';
  };
  readonly bm25?: { readonly order: number; readonly value: number; readonly coverage: number; readonly textCoverage: number };
  /** The price the `priceIntent` rule ordered by (`value`), present when the query asked for a low price. */
  readonly priceIntent?: { readonly order: number; readonly value: unknown };
  /** After every rule: the item's value of each `tieBreak` criterion (by its text, `price:asc`), before the id. */
  readonly tieBreak?: { readonly order: number; readonly values: Readonly<Record<string, unknown>> };
  /** `customRanking` criteria, by their text (`popularity:desc`). */
  readonly [criterion: string]: { readonly order: number; readonly score?: number; readonly value?: unknown } | undefined;
}

/** The sort key of a document for a criterion: its first value. */
function keyOf(item: CatalogItem, criterion: SortCriterion, index: SearchIndex): unknown {
  const raw = criterion.field === 'id' ? item.id : valueAt(item, criterion.field, index.paths.get(criterion.field)?.info.objectField);
  return Array.isArray(raw) ? raw[0] : raw;
}

/**
 * Reads a criterion's key per document: number paths from their first-value array (NaN: none),
 * other fields from the item.
 */
function keyReader(index: SearchIndex, criterion: SortCriterion): (doc: number) => unknown {
  const path = criterion.field === 'id' ? undefined : index.paths.get(criterion.field);
  const first = path?.first;
  if (first) return (doc) => (Number.isNaN(first[doc]!) ? undefined : first[doc]);
  // A rare number path keeps no first values: read the item, as the array would have it.
  if (path?.info.kind === 'number') {
    return (doc) => {
      const key = keyOf(index.items[doc]!, criterion, index);
      return typeof key === 'number' ? key : undefined;
    };
  }
  return (doc) => keyOf(index.items[doc]!, criterion, index);
}

/**
 * The default final order of hits equal on every ranking rule (the same listing in another
 * colour or for another carrier): the lower price (the same thing for less), then the name in
 * alphabetical order (its colour or carrier: the order a shop lists variants in); the id after.
 *
 * @example
 * ```ts
 * new SearchService({ catalog, tieBreak: ['price:asc', 'name:asc'] }); // the default, spelled out
 * new SearchService({ catalog, tieBreak: ['stock:desc', 'price:asc'] }); // in stock first
 * ```
 */
export const TIE_BREAK: readonly string[] = ['price:asc', 'name:asc'];

/** Ranking of the candidates of one query. */
export class Ranker {
  readonly #index: SearchIndex;
  readonly #match: QueryMatch | undefined;
  readonly #cands: Candidates;
  readonly #rules: readonly RankingRule[];
  readonly #custom: readonly SortCriterion[];
  readonly #n: number;
  /** Counted terms, and each term's place among them (-1 for the others). */
  readonly #counted: readonly number[];
  readonly #place: Int32Array;
  readonly #weights: Float64Array;
  readonly #idf: Float64Array;
  readonly #maxTypos: number;
  /** The query's head term (what the shopper wants an item to be), or -1. */
  readonly #head: number;
  /** The catalog's model variants, when the `variant` rule is used. */
  readonly #variants: Variants | undefined;
  readonly #stopWords: ReadonlySet<string>;
  /** Per term: 1 when it is a single letter (not counted among the subject's words). */
  readonly #letters: Uint8Array;
  /**
   * Per term: the query term before it when the two make a model run, the catalog reading this
   * term as a variant after that one ("plus" after "7" in "iphone 7 plus case"), else -1. Such a
   * term says what an item is only right after that term ("Sport-Fit **Plus** Armband" is no
   * iPhone 6s Plus case), the mirror of `variant` for an item whose model stops short of the query's.
   */
  readonly #modelAfter: Int32Array;
  /** The catalog's variant statistics, when the `variant` or `subject` rule reads them. */
  readonly #statistics: Variants | undefined;
  /**
   * Per term: the number term ending the model run it starts ("galaxy" and "s" in "galaxy s6"),
   * else -1. Such a term says what an item is only where the name continues the run to that
   * number: the "Galaxy" of a "Galaxy S7 edge" handset is no Galaxy S6.
   */
  readonly #numberAfter: Int32Array;
  /**
   * Per term: the number term right after it in the query ("6" after "s" in "galaxy s6 case",
   * "7" after "iphone"), else -1, when the `variant` rule is used. A name that follows this term
   * with another number and has that number nowhere names another model ("Galaxy S7").
   */
  readonly #numberNext: Int32Array;
  /** The variant statistics' words read before this query. */
  readonly #variantsRead: number;
  readonly max: Record<Scored, number>;
  readonly words: Int32Array;
  readonly typo: Int32Array;
  readonly subject: Int32Array;
  readonly variant: Int32Array;
  readonly proximity: Int32Array;
  readonly attribute: Int32Array;
  readonly exactness: Int32Array;
  readonly bm25: Float64Array;
  /** Share of the first field's characters in words the query reached (bm25's own tie-breaker). */
  readonly coverage: Float64Array;
  /** The same over every searched field. */
  readonly textCoverage: Float64Array;
  readonly #done: Uint8Array;
  readonly #sortKeys: ArrayLike<unknown>[];
  readonly #customKeys: ArrayLike<unknown>[];
  readonly #sort: readonly SortCriterion[];
  readonly #tieBreak: readonly { readonly criterion: SortCriterion; readonly read: (doc: number) => unknown }[];
  /** Reads the price the `priceIntent` rule orders by, when the query asked for a low price. */
  readonly #price: ((doc: number) => unknown) | undefined;
  /** Which term each indexed word reaches, and how: `#slot[word]` indexes `#slotCodes` rows of n codes. */
  readonly #slot: Int32Array;
  readonly #slotCodes: Uint8Array;

  /**
   * Ranks `cands` (a placeholder search when `match` is undefined: no relevance rules apply).
   */
  constructor(
    index: SearchIndex,
    match: QueryMatch | undefined,
    cands: Candidates,
    options: {
      rules: readonly RankingRule[];
      customRanking: readonly SortCriterion[];
      tieBreak: readonly SortCriterion[];
      strategy: MatchingStrategy;
      sort: readonly SortCriterion[];
      stopWords: ReadonlySet<string>;
      priceField?: string | undefined;
    },
  ) {
    this.#index = index;
    this.#match = match;
    this.#cands = cands;
    this.#rules = match ? options.rules : options.rules.filter((r) => r === 'customRanking');
    this.#custom = options.customRanking;
    this.#sort = options.sort;
    const size = cands.docs.length;
    const n = (this.#n = match?.n ?? 0);
    this.#counted = match?.counted ?? [];
    this.#place = new Int32Array(n).fill(-1);
    this.#counted.forEach((t, k) => {
      this.#place[t] = k;
    });
    const m = this.#counted.length;
    const N = index.items.length;
    this.#idf = Float64Array.from({ length: n }, (_, i) => {
      return bm25Idf(N, Math.max(cands.df[i] ?? 0, 1));
    });
    // Words weights per strategy: by rarity, or by query order (dropping terms from the end).
    this.#weights = new Float64Array(n);
    this.#counted.forEach((t, k) => {
      this.#weights[t] = options.strategy === 'frequency' ? Math.log(1 + N / Math.max(cands.df[t] ?? 0, 1)) : 2 ** (m - 1 - k);
    });
    // Only the subject rule reads the head: other rule lists skip reading the terms' words here.
    this.#head = this.#rules.includes('subject') ? queryHead(index, match) : -1;
    // The variant statistics serve the variant rule and, for its model runs, the subject rule.
    const statistics = (this.#statistics = match && (this.#head >= 0 || this.#rules.includes('variant')) ? variantsOf(index) : undefined);
    this.#variants = this.#rules.includes('variant') ? statistics : undefined;
    this.#stopWords = options.stopWords;
    // A lone letter ("s" of "s7", split from its digit) says nothing about what an item is alone.
    this.#letters = Uint8Array.from({ length: n }, (_, i) => (/^\p{L}$/u.test(match!.query.terms[i]!.text) ? 1 : 0));
    this.#variantsRead = statistics?.wordsRead ?? 0;
    this.#modelAfter = this.#head >= 0 ? modelRuns(index, match!, statistics!, this.#place) : new Int32Array(n).fill(-1);
    this.#numberAfter = Int32Array.from({ length: n }, (_, i) => {
      const terms = match!.query.terms;
      // The head says what the item is; the model is what it fits or is named ("case zphone 7").
      if (this.#head < 0 || i === this.#head || this.#place[i]! < 0 || /^\p{N}+$/u.test(terms[i]!.text)) return -1;
      for (let j = i + 1; j < Math.min(n, i + 3); j++) {
        if (this.#place[j]! < 0) return -1;
        if (/^\p{N}+$/u.test(terms[j]!.text)) return j;
        if (j === this.#head) return -1;
      }
      return -1;
    });
    this.#numberNext = Int32Array.from({ length: n }, (_, i) => {
      const terms = match!.query.terms;
      const j = i + 1;
      if (!this.#variants || j >= n || this.#place[i]! < 0 || this.#place[j]! < 0 || terms[i]!.stopWord) return -1;
      return /^\p{N}+$/u.test(terms[j]!.text) ? j : -1;
    });
    this.#maxTypos = this.#counted.reduce((s, t) => s + (match?.allowed[t] ?? 0), 0);
    const pairs = Math.max(0, m - 1);
    this.max = {
      words: options.strategy === 'all' ? 1 : options.strategy === 'last' ? 2 ** m : WORD_LEVELS + 1,
      typo: this.#maxTypos + 1,
      // The head in a name phrase's head (2m), then each other term in the subject but lone letters.
      subject: 1 + 2 * m + this.#counted.filter((t) => t !== this.#head && !this.#letters[t]).length,
      variant: m + 1,
      proximity: (MAX_DISTANCE - 1) * pairs + 1,
      attribute: (m * (index.fieldRanks - 1) + 1) * (m * MAX_POSITION + 1),
      exactness: m + 3,
    };
    // Views of one array per type, those of the last released ranker when large enough: each
    // typed array of more than 64 bytes costs an allocation outside the heap.
    const { ints, floats } = (this.#ranks = ranksFor(size));
    const part = <T extends Int32Array | Float64Array>(all: T, k: number): T => all.subarray(k * size, (k + 1) * size) as T;
    this.words = part(ints, 0);
    this.typo = part(ints, 1);
    this.subject = part(ints, 2);
    this.variant = part(ints, 3);
    this.proximity = part(ints, 4);
    this.attribute = part(ints, 5);
    this.exactness = part(ints, 6);
    this.bm25 = part(floats, 0);
    this.coverage = part(floats, 1);
    this.textCoverage = part(floats, 2);
    this.#done = new Uint8Array(size);
    const totalWeight = this.#counted.reduce((s, t) => s + this.#weights[t]!, 0);
    for (let c = 0; c < size; c++) {
      let weight = 0;
      let typos = 0;
      for (const t of this.#counted) {
        const code = cands.codes[c * n + t]!;
        if (code === 0) continue;
        weight += this.#weights[t]!;
        typos += (code - 1) >> 1;
      }
      this.words[c] =
        options.strategy === 'all'
          ? 1
          : options.strategy === 'last'
            ? 1 + weight
            : 1 + Math.round((WORD_LEVELS * weight) / (totalWeight || 1));
      this.typo[c] = this.max.typo - typos;
    }
    const keys = (criteria: readonly SortCriterion[]) =>
      criteria.map((cr): ArrayLike<unknown> => {
        const read = keyReader(index, cr);
        return Array.from(cands.docs, read);
      });
    // Read only for hits tied on every rule: few, so no key is gathered for every candidate.
    this.#tieBreak = match ? options.tieBreak.map((cr) => ({ criterion: cr, read: keyReader(index, cr) })) : [];
    // Read only for candidates tied on the rules before it, as the tie-break criteria are.
    const priceField = match?.query.priceIntent && this.#rules.includes('priceIntent') ? options.priceField : undefined;
    this.#price = priceField === undefined ? undefined : keyReader(index, { field: priceField, direction: 'asc' });
    this.#sortKeys = keys(options.sort);
    this.#customKeys = this.#rules.includes('customRanking') ? keys(this.#custom) : [];
    // Word → codes per term, for reading documents.
    this.#slot = new Int32Array(0);
    this.#slotCodes = new Uint8Array(0);
    if (match) {
      const slots = new Map<number, number>();
      for (let i = 0; i < n; i++) for (const w of match.termWords[i]!) if (!slots.has(w)) slots.set(w, slots.size);
      this.#slot = slotScratch(index);
      this.#slotCodes = new Uint8Array(slots.size * n);
      for (const [w, s] of slots) this.#slot[w] = s;
      for (let i = 0; i < n; i++) {
        const words = match.termWords[i]!;
        const codes = match.termCodes[i]!;
        for (let k = 0; k < words.length; k++) this.#slotCodes[slots.get(words[k]!)! * n + i] = codes[k]!;
      }
      this.#slots = [...slots.keys()];
    }
    this.#lazy = match !== undefined && this.#rules.some((r) => EXPENSIVE.has(r));
    if (this.#lazy) this.#bound();
  }

  #slots: number[] = [];
  /** The arrays the rank arrays view, given back on release. */
  #ranks: Ranks | undefined;
  /** Whether the rules read documents' words: candidates then hold bounds until read (see {@link Ranker.ordered}). */
  readonly #lazy: boolean;
  /** Posting entries read for the bounds. */
  #boundPostings = 0;
  /** Candidates whose fields' first words were read for the exactness bound. */
  #startsRead = 0;
  /** Candidates whose query words' positions were read for proximity. */
  #positionsRead = 0;
  /** Per candidate: 1 once its subject, proximity and bm25 are exact (see #positions). */
  #near1: Uint8Array | undefined;

  /** Whether a field of `doc` starts with the query's words as typed (`starts`), and one is exactly them (`equal`), as #read reads them. */
  #starts(doc: number): { starts: boolean; equal: boolean } {
    const { tokens, offsets } = this.#index;
    const F = this.#index.searchable.length;
    const n = this.#n;
    let starts = false;
    let equal = false;
    for (let f = 0; f < F; f++) {
      const lo = offsets[doc * F + f]!;
      const length = offsets[doc * F + f + 1]! - lo;
      if (length < n || length === 0) continue;
      let p = 0;
      for (; p < n; p++) {
        const slot = this.#slot[tokens[lo + p]!]!;
        if (slot < 0 || this.#slotCodes[slot * n + p] !== 1) break;
      }
      if (p < n) continue;
      starts = true;
      if (length === n) equal = true;
    }
    return { starts, equal };
  }

  /**
   * Upper bounds of the ranks the rules after `words` and `typo` give, from the postings of the
   * query's words alone (what the index keeps per posting: see `SearchIndex.postingFlags`),
   * written where {@link Ranker.describe} writes the exact ranks: a candidate not read yet holds
   * its bounds. Every bound is at least the exact rank (test/search/lazy.test.ts checks it on
   * random catalogs), so a candidate ranked by its bounds never ranks below its place:
   *
   * - `exactness`: exact: the terms matched as typed, and, when the postings put each term's word
   *   as typed at its place in some field, the first words of the candidate's fields;
   * - `subject`: each term counted where one of its words says (or names) what the item is, as
   *   `#read` reads it but for the model-run conditions and, beyond stems, the word's code;
   * - `variant`, `proximity`: their best;
   * - `attribute`: exact (each term's best field rank, then position, kept per posting);
   * - `bm25`: exact when each term has one word in the document (the index keeps each word's
   *   share); else the sum of its words' shares (BM25's term weight is concave in the count: the
   *   sum is at least the term's); `coverage` and `textCoverage` exact (each word's count in the
   *   first field and in all, times its length).
   */
  #bound(): void {
    const index = this.#index;
    const n = this.#n;
    const size = this.size;
    const { docs, codes } = this.#cands;
    const counted = this.#counted;
    const m = counted.length;
    const at = candidateScratch(index);
    for (let c = 0; c < size; c++) at[docs[c]!] = c;
    // Views of one scratch array per type (see the constructor).
    const bytes = BOUND_BYTES.take(2 * size * n + 2 * size).fill(0);
    const flagsLow = bytes.subarray(0, size * n);
    const flagsAll = bytes.subarray(size * n, 2 * size * n);
    const place = BOUND_PLACES.take(size * n).fill(0xffff);
    // Per candidate: bit p when term p's word as typed is at position p of a field; the lengths of the fields the first one starts.
    const start = bytes.subarray(2 * size * n, 2 * size * n + size);
    const lengths = bytes.subarray(2 * size * n + size);
    const sums = BOUND_SUMS.take(2 * size).fill(0);
    const covered = sums.subarray(0, size);
    const textCovered = sums.subarray(size);
    // Per candidate and term: its words' postings here, as a list (next entry, -1 at the end).
    const first = BOUND_FIRST.take(size * n).fill(-1);
    let total = 0;
    for (let i = 0; i < n; i++) for (const w of this.#match!.termWords[i]!) total += index.postingStart[w + 1]! - index.postingStart[w]!;
    // Each entry is written before it is read.
    const entries = BOUND_ENTRIES.take(2 * total);
    let used = 0;
    const { postingStart, postingDocs, postingFlags, postingPositions, postingStarts, postingPlace, postingTfFirst, postingTf } = index;
    const wordList = index.dictionary.words;
    let read = 0;
    try {
      for (const w of this.#slots) {
        const base = this.#slot[w]! * n;
        const chars = wordList[w]!.length;
        for (let k = postingStart[w]!, end = postingStart[w + 1]!; k < end; k++) {
          read++;
          const c = at[postingDocs[k]!]!;
          if (c < 0) continue;
          const flags = postingFlags[k]!;
          const inFirst = postingTfFirst[k]!;
          const all = postingTf[k]!;
          covered[c]! += inFirst === MAX_POSTING_TF ? Infinity : chars * inFirst;
          textCovered[c]! += all === MAX_POSTING_TF ? Infinity : chars * all;
          for (let i = 0; i < n; i++) {
            const code = this.#slotCodes[base + i]!;
            if (code === 0) continue;
            const r = c * n + i;
            flagsAll[r]! |= flags;
            if (code <= STEM) flagsLow[r]! |= flags;
            if (postingPlace[k]! < place[r]!) place[r] = postingPlace[k]!;
            // Two numbers per entry: the posting, the next entry.
            entries[used] = k;
            entries[used + 1] = first[r]!;
            first[r] = used;
            used += 2;
            if (code === 1 && i < START_POSITIONS) {
              start[c]! |= postingPositions[k]! & (1 << i);
              if (i === 0) lengths[c] = postingStarts[k]!;
            }
          }
        }
      }
    } finally {
      for (let c = 0; c < size; c++) at[docs[c]!] = -1;
    }
    this.#boundPostings = read;
    const positions = m * MAX_POSITION + 1;
    for (let c = 0; c < size; c++) {
      let exact = 0;
      let said = 0;
      let named = 0;
      let rankExcess = 0;
      let posExcess = 0;
      for (const i of counted) {
        const r = c * n + i;
        const code = codes[r]!;
        if (code === 1) exact++;
        // A word counts in the subject as typed or as a stem, or as good as the term's best match here.
        const flags = code <= STEM ? flagsLow[r]! : flagsAll[r]!;
        if (flags & SAYS_WHAT) said |= 1 << i;
        if (flags & NAMES_WHAT) named |= 1 << i;
        const best = place[r]!;
        if (best === 0xffff) {
          rankExcess += index.fieldRanks - 1;
          posExcess += MAX_POSITION;
        } else {
          rankExcess += best >> 8;
          posExcess += Math.min(MAX_POSITION, Math.max(0, (best & 255) - i));
        }
      }
      let bm25 = 0;
      for (const i of counted) {
        const e = first[c * n + i]!;
        if (e >= 0) bm25 += this.#idf[i]! * termShare(index, entries, e);
      }
      this.bm25[c] = bm25;
      // Every term's word as typed at its place (the first START_POSITIONS of them), in some field:
      // then the fields' first words tell (a few words, not the document).
      let starts = start[c] === (1 << Math.min(n, START_POSITIONS)) - 1;
      let equal = starts && (n > START_POSITIONS || (lengths[c]! & (1 << (n - 1))) !== 0);
      if (starts) {
        this.#startsRead++;
        ({ starts, equal } = this.#starts(docs[c]!));
      }
      this.exactness[c] = 1 + exact + (starts ? 1 : 0) + (equal ? 1 : 0);
      this.subject[c] = this.#subjectRank(said, named);
      this.variant[c] = this.max.variant;
      this.proximity[c] = this.max.proximity;
      this.attribute[c] = (m * (index.fieldRanks - 1) - rankExcess) * positions + (m * MAX_POSITION - posExcess) + 1;
      const doc = docs[c]!;
      this.coverage[c] = index.firstChars[doc] === 0 ? 0 : Math.min(1, covered[c]! / index.firstChars[doc]!);
      this.textCoverage[c] = index.textChars[doc] === 0 ? 0 : Math.min(1, textCovered[c]! / index.textChars[doc]!);
    }
  }

  /** Work done for this query so far. */
  get work(): SearchWork {
    return {
      dictionaryNodes: this.#match?.work.nodes ?? 0,
      wordsReached: this.#match?.work.words ?? 0,
      postingsRead: this.#cands.postingsRead + this.#boundPostings,
      candidates: this.#cands.docs.length,
      documentsRead: this.documentsRead,
      fieldStartsRead: this.#startsRead,
      positionsRead: this.#positionsRead,
      variantWordsRead: (this.#statistics?.wordsRead ?? 0) - this.#variantsRead,
    };
  }

  /** Number of candidates. */
  get size(): number {
    return this.#cands.docs.length;
  }

  /** The document number of candidate `c`. */
  doc(c: number): number {
    return this.#cands.docs[c]!;
  }

  /** Releases the shared word scratch and the rank arrays (the next ranker reuses them); call once done with this ranker. */
  release(): void {
    for (const w of this.#slots) this.#slot[w] = -1;
    this.#slots = [];
    if (this.#ranks) releaseRanks(this.#ranks);
    this.#ranks = undefined;
  }

  /**
   * The candidates (those of `keep` when given) in rank order, lazily: each `next()` gives the
   * next one, -1 after the last. Candidates wait in a heap ordered by their ranks, the bounds of
   * those not read yet (see #bound); the first one is read when it holds bounds, and given when
   * it is read and still first: every one left ranks at most as its bounds, below it. So a page
   * reads the candidates whose bounds reach it, not every candidate tied on `words` and `typo`
   * (Meilisearch's buckets, each rule ranking only what the page still needs).
   */
  ordered(keep?: Uint8Array): { next(): number } {
    const size = this.size;
    const heap = new Int32Array(size);
    let length = 0;
    for (let c = 0; c < size; c++) if (!keep || keep[c] === 1) heap[length++] = c;
    const before = this.#comparator(this.#rules, true);
    const down = (k: number): void => {
      const x = heap[k]!;
      for (;;) {
        let child = 2 * k + 1;
        if (child >= length) break;
        if (child + 1 < length && before(heap[child + 1]!, heap[child]!) < 0) child++;
        if (before(heap[child]!, x) >= 0) break;
        heap[k] = heap[child]!;
        k = child;
      }
      heap[k] = x;
    };
    for (let k = (length >> 1) - 1; k >= 0; k--) down(k);
    const lazy = this.#lazy;
    // Proximity has no bound but its best, bm25's is above the exact value when a term's words
    // share a field, subject's when a model run or a word's code would not count: the query words'
    // positions are read first, for far less than the document.
    const near =
      lazy &&
      ((this.#counted.length > 1 && this.#rules.includes('proximity')) || this.#rules.includes('bm25') || this.#rules.includes('subject'))
        ? (this.#near1 ??= new Uint8Array(size))
        : undefined;
    return {
      next: () => {
        while (length > 0) {
          const top = heap[0]!;
          if (lazy && !this.#done[top]) {
            // Its exact ranks are at most its bounds: it may sink.
            if (near && near[top] === 0) {
              near[top] = 1;
              this.#positions(top);
            } else this.describe(top);
            down(0);
            continue;
          }
          heap[0] = heap[--length]!;
          if (length > 0) down(0);
          return top;
        }
        return -1;
      },
    };
  }

  /** Every candidate read and sorted: the order {@link Ranker.ordered} gives, computed eagerly (hybrid search blends every score). */
  eagerOrder(): Int32Array {
    const size = this.size;
    for (let c = 0; c < size; c++) this.describe(c);
    const order = new Int32Array(size);
    for (let c = 0; c < size; c++) order[c] = c;
    return order.sort(this.#comparator(this.#rules, true));
  }

  /**
   * Per candidate, 1 when its score is at least `threshold`. The score grows with the ranks in
   * rule order, so a candidate whose bounds score below the threshold is out, and one whose
   * least ranks score above it is in, both without reading it; the others have the positions of
   * the query's words read (see #positions), and are read only if that did not tell.
   */
  passing(threshold: number): Uint8Array {
    const size = this.size;
    const keep = new Uint8Array(size);
    // Every score is in [0, 1].
    if (threshold <= 0) return keep.fill(1);
    const peeked = (this.#near1 ??= new Uint8Array(size));
    // Out (0), in (1), or undecided (-1) by its bounds.
    const side = (c: number): number => {
      if (this.#scoreWith((rule) => this[rule][c]!) + SCORE_MARGIN < threshold) return 0;
      // The least each rule can give: words, typos, exactness and attribute are known (their
      // bounds are exact: test/search/lazy.test.ts), and subject and proximity once the
      // positions are read; variant's least is 1.
      const least = (rule: Scored) =>
        rule === 'words' ||
        rule === 'typo' ||
        rule === 'exactness' ||
        rule === 'attribute' ||
        ((rule === 'subject' || rule === 'proximity') && peeked[c])
          ? this[rule][c]!
          : 1;
      return this.#scoreWith(least) - SCORE_MARGIN >= threshold ? 1 : -1;
    };
    for (let c = 0; c < size; c++) {
      if (this.#lazy && !this.#done[c]) {
        let known = side(c);
        if (known < 0 && !peeked[c]) {
          // The positions first: far less than the document.
          peeked[c] = 1;
          this.#positions(c);
          known = side(c);
        }
        if (known >= 0) {
          keep[c] = known;
          continue;
        }
      }
      if (this.score(c) >= threshold) keep[c] = 1;
    }
    return keep;
  }

  /** Candidates whose words were read. */
  documentsRead = 0;

  /** Computes the rules that read the document's words (once per candidate). */
  describe(c: number): void {
    if (this.#done[c] || !this.#match) return;
    this.#done[c] = 1;
    this.documentsRead++;
    this.#read(c, false);
  }

  /** The score of a candidate: the rules' ranks read as nested shares of [0, 1] (see the module comment). */
  score(c: number): number {
    if (!this.#match) return 1;
    this.describe(c);
    return this.#scoreWith((rule) => this[rule][c]!);
  }

  /** The score of the given ranks (see {@link Ranker.score}). */
  #scoreWith(rankOf: (rule: Scored) => number): number {
    // Each rule narrows the span [lo, lo + width) to its rank's share; the score is the span's top.
    let lo = 0;
    let width = 1;
    let perfect = true;
    for (const rule of this.#rules) {
      if (!SCORED.has(rule)) continue;
      const r = rankOf(rule as Scored);
      const m = this.max[rule as Scored];
      if (m <= 1) continue;
      if (r < m) perfect = false;
      if (rule === 'words') {
        // A thousand rarity levels would leave every full match above 0.999: all of them share the
        // top m/(m+1) of the span (m counted terms, Meilisearch's words score), the partial
        // matches the rest by their weighted share.
        const top = this.#counted.length / (this.#counted.length + 1);
        if (r === m) {
          lo += width * top;
          width *= 1 - top;
        } else {
          width = (width * top) / (m - 1);
          lo += width * (r - 1);
        }
        continue;
      }
      width /= m;
      lo += width * (r - 1);
    }
    // Exactly 1 for a perfect match, whatever the rounding of the spans.
    return perfect ? 1 : Math.min(lo + width, 1 - Number.EPSILON);
  }

  /** What each rule counted for a candidate. */
  details(c: number): RankingScoreDetails {
    this.describe(c);
    const out: Record<string, unknown> = {};
    const seen = this.#match ? this.#read(c, true) : undefined;
    const score = (rule: Scored) => (this.max[rule] <= 1 ? 1 : (this[rule][c]! - 1) / (this.max[rule] - 1));
    this.#rules.forEach((rule, order) => {
      if (rule === 'priceIntent') {
        if (this.#price) out.priceIntent = { order, value: this.#price(this.#cands.docs[c]!) ?? null };
        return;
      }
      if (rule === 'customRanking') {
        this.#custom.forEach((cr, k) => {
          Object.defineProperty(out, `${cr.field}:${cr.direction}`, {
            value: { order, value: this.#customKeys[k]?.[c] ?? null },
            enumerable: true,
            writable: true,
            configurable: true,
          });
        });
        return;
      }
      if (!seen) return;
      if (rule === 'words')
        out.words = { order, score: score('words'), matchingWords: seen.matched, maxMatchingWords: this.#counted.length };
      else if (rule === 'typo')
        out.typo = { order, score: score('typo'), typoCount: this.max.typo - this.typo[c]!, maxTypoCount: this.#maxTypos };
      else if (rule === 'subject')
        out.subject = {
          order,
          score: score('subject'),
          head: this.#head < 0 ? null : this.#match!.query.terms[this.#head]!.text,
          headNamesItem: seen.headNamed,
          subjectWords: seen.subjectWords,
          maxSubjectWords: this.#counted.length,
        };
      else if (rule === 'variant') out.variant = { order, score: score('variant'), variantTerms: this.max.variant - this.variant[c]! };
      else if (rule === 'proximity') {
        const pairs = Math.max(0, this.#counted.length - 1);
        out.proximity = {
          order,
          score: score('proximity'),
          distance: seen.distance,
          minDistance: pairs,
          maxDistance: pairs * MAX_DISTANCE,
        };
      } else if (rule === 'attribute') out.attribute = { order, score: score('attribute'), field: seen.field, position: seen.position };
      else if (rule === 'exactness')
        out.exactness = { order, score: score('exactness'), exactWords: seen.exact, matchType: seen.matchType };
      else
        out.bm25 = {
          order,
          value: Math.round(this.bm25[c]! * 1e6) / 1e6,
          coverage: Math.round(this.coverage[c]! * 1e6) / 1e6,
          textCoverage: Math.round(this.textCoverage[c]! * 1e6) / 1e6,
        };
    });
    if (seen && this.#tieBreak.length > 0) {
      const doc = this.#cands.docs[c]!;
      const values: Record<string, unknown> = {};
      for (const { criterion, read } of this.#tieBreak) {
        Object.defineProperty(values, `${criterion.field}:${criterion.direction}`, {
          value: read(doc) ?? null,
          enumerable: true,
          writable: true,
          configurable: true,
        });
      }
      out.tieBreak = { order: this.#rules.length, values };
    }
    return out as RankingScoreDetails;
  }

  #comparator(rules: readonly RankingRule[], final: boolean): (a: number, b: number) => number {
    const steps: ((a: number, b: number) => number)[] = [];
    this.#sort.forEach((cr, k) => {
      const keys = this.#sortKeys[k]!;
      const sign = cr.direction === 'asc' ? 1 : -1;
      steps.push((a, b) => compareValues(keys[a], keys[b], sign));
    });
    // Consecutive rank rules compare in one step: a heap compares often, and a call per rule
    // through a site seeing a dozen closures cost more than the comparisons themselves.
    let ranks: (Int32Array | Float64Array)[] = [];
    const flush = () => {
      if (ranks.length > 0) steps.push(higherFirst(ranks));
      ranks = [];
    };
    for (const rule of rules) {
      if (rule === 'customRanking') {
        flush();
        this.#custom.forEach((cr, k) => {
          const keys = this.#customKeys[k]!;
          const sign = cr.direction === 'asc' ? 1 : -1;
          steps.push((a, b) => compareValues(keys[a], keys[b], sign));
        });
      } else if (rule === 'priceIntent') {
        const read = this.#price;
        const docs = this.#cands.docs;
        if (read) {
          flush();
          steps.push((a, b) => compareValues(read(docs[a]!), read(docs[b]!), 1));
        }
      } else {
        ranks.push(this[rule]);
        if (rule === 'bm25') ranks.push(this.coverage, this.textCoverage);
      }
    }
    flush();
    const docs = this.#cands.docs;
    const tieBreak = this.#tieBreak;
    return (a, b) => {
      for (const step of steps) {
        const d = step(a, b);
        if (d !== 0) return d;
      }
      if (!final) return 0;
      // Hits equal on every rule: the tieBreak criteria, then, as a last resort, the id.
      for (const { criterion, read } of tieBreak) {
        const d = compareValues(read(docs[a]!), read(docs[b]!), criterion.direction === 'asc' ? 1 : -1);
        if (d !== 0) return d;
      }
      // Items are sorted by id: the document number breaks the last ties by id.
      return docs[a]! - docs[b]!;
    };
  }

  /**
   * Whether term `i`, matched by the word at token `t` of a field at `[lo, hi)`, is followed by
   * the rest of the model run it starts up to its number, and follows the term it makes a model
   * run with, when it has them.
   */
  #continuesModel(i: number, t: number, lo: number, hi: number): boolean {
    const until = this.#numberAfter[i]!;
    for (let j = i + 1, k = t + 1; until >= 0 && j <= until; j++, k++) {
      if (k >= hi) return false;
      const slot = this.#slot[this.#index.tokens[k]!]!;
      if (slot < 0 || this.#slotCodes[slot * this.#n + j] === 0) return false;
    }
    const before = this.#modelAfter[i]!;
    if (before < 0) return true;
    if (t === lo) return false;
    const slot = this.#slot[this.#index.tokens[t - 1]!]!;
    return slot >= 0 && this.#slotCodes[slot * this.#n + before] !== 0;
  }

  /**
   * Whether the name word at token `t` (of a name at `[lo, hi)`) ends a run of query words (the
   * word before it is one: "galaxy s7", "iphone 7", not "iphone" alone) and the next word, which
   * the query did not type and is no stop word, makes it another model ("edge" after "s7", see
   * variants.ts).
   */
  #extends(t: number, lo: number, hi: number, heads: number): boolean {
    if (t === lo || t + 1 >= hi || endsPhrase(heads, t - lo)) return false;
    const tokens = this.#index.tokens;
    const next = tokens[t + 1]!;
    if (this.#slot[tokens[t - 1]!]! < 0 || this.#slot[next]! >= 0) return false;
    if (this.#stopWords.has(this.#index.dictionary.words[next]!)) return false;
    return this.#variants!.isVariant(tokens[t]!, next);
  }

  /** Whether indexed word `w` is a number that query term `j` (a number) does not match. */
  #otherNumber(w: number, j: number): boolean {
    if (!/^\p{N}+$/u.test(this.#index.dictionary.words[w]!)) return false;
    const slot = this.#slot[w]!;
    return slot < 0 || this.#slotCodes[slot * this.#n + j] === 0;
  }

  /**
   * Term `i` found at position `p` of a field: the distances to the terms next to it in the
   * query, found before it in the field (`last`), narrow `near` (per pair of counted terms).
   */
  #near(i: number, p: number, last: Int32Array, near: Int32Array): void {
    const counted = this.#counted;
    const k = this.#place[i]!;
    if (k > 0) {
      const q = last[counted[k - 1]!]!;
      if (q >= 0) {
        // Measured against the gap in the query: "3-in-1" has its stop word between 3 and 1.
        const gap = i - counted[k - 1]!;
        const d = Math.min(MAX_DISTANCE, 1 + Math.abs(p - q - gap));
        if (d < near[k - 1]!) near[k - 1] = d;
      }
    }
    if (k >= 0 && k < counted.length - 1) {
      const q = last[counted[k + 1]!]!;
      // Reversed order costs one more than the same gap in order.
      if (q >= 0) {
        const d = Math.min(MAX_DISTANCE, p - q + 1);
        if (d < near[k]!) near[k] = d;
      }
    }
    last[i] = p;
  }

  /**
   * Sets a candidate's exact `subject`, `proximity` and `bm25` from the positions of the query's
   * words alone (as #read finds them), far less work per word than #read: the step before reading
   * a candidate whose other bounds reach the page (see {@link Ranker.ordered}).
   */
  #positions(c: number): void {
    const index = this.#index;
    const n = this.#n;
    const F = index.searchable.length;
    const doc = this.#cands.docs[c]!;
    const near = NEAR.fill(MAX_DISTANCE, 0, n);
    const termBm25 = TERM_BM25.fill(0, 0, n);
    const { tokens, offsets, subjectSpans: spans } = index;
    const heads = index.nameHeads[doc]!;
    const codes = this.#cands.codes;
    const row = c * n;
    let said = 0;
    let named = 0;
    for (let f = 0; f < F; f++) {
      const lo = offsets[doc * F + f]!;
      const hi = offsets[doc * F + f + 1]!;
      if (hi === lo) continue;
      const last = LAST.fill(-1, 0, n);
      const tf = TF.fill(0, 0, n);
      const field = index.searchable[f];
      const readsSubject = field !== 'name' || index.fieldRank[f] === 0;
      for (let t = lo; t < hi; t++) {
        const slot = this.#slot[tokens[t]!]!;
        if (slot < 0) continue;
        const base = slot * n;
        const p = t - lo;
        const whatItIs = readsSubject && saysWhatItIs(field, p, spans, doc * 3);
        const names = whatItIs && namesWhatItIs(field, p, spans, doc * 3, heads);
        for (let i = 0; i < n; i++) {
          if (this.#slotCodes[base + i] === 0) continue;
          tf[i]!++;
          if (whatItIs && this.#inSubject(i, this.#slotCodes[base + i]!, codes[row + i]!, t, lo, hi)) {
            said |= 1 << i;
            if (names) named |= 1 << i;
          }
          this.#near(i, p, last, near);
        }
      }
      this.#fieldBm25(f, hi - lo, tf, termBm25);
    }
    this.subject[c] = this.#subjectRank(said, named);
    let distance = 0;
    const m = this.#counted.length;
    for (let k = 0; k + 1 < m; k++) distance += near[k]!;
    this.proximity[c] = this.max.proximity - (distance - Math.max(0, m - 1));
    let bm25 = 0;
    for (const i of this.#counted) bm25 += this.#idf[i]! * termBm25[i]!;
    this.bm25[c] = bm25;
    this.#positionsRead++;
  }

  /**
   * The `subject` rank of a candidate whose counted terms (bit i for term i) are found where it
   * says what it is (`said`), and where that names it (`named`): the head naming the item counts
   * 2m, the head said m, each other term said but lone letters 1.
   */
  #subjectRank(said: number, named: number): number {
    const m = this.#counted.length;
    let subject = 0;
    for (const i of this.#counted) {
      const says = (said >> i) & 1;
      if (i === this.#head) subject += (named >> i) & 1 ? 2 * m : says ? m : 0;
      else if (!this.#letters[i]) subject += says;
    }
    return 1 + subject;
  }

  /**
   * Whether term `i`, matched with code `code` by the word at token `t` of a field at `[lo, hi)`
   * where that word says what the item is, counts in the subject: as typed or as a stem, or as
   * good as the term's best match in the document (`best`), and continuing its model run.
   */
  #inSubject(i: number, code: number, best: number, t: number, lo: number, hi: number): boolean {
    return code <= Math.max(best, STEM) && this.#continuesModel(i, t, lo, hi);
  }

  /**
   * Adds field `f`'s BM25 share of each counted term found `tf[i]` times in its `length` words to
   * `termBm25` (the idf is applied after: a term matched by one word then has exactly the share
   * the index keeps for that word, its bound in #bound).
   */
  #fieldBm25(f: number, length: number, tf: Int32Array, termBm25: Float64Array): void {
    const index = this.#index;
    const norm = bm25Norm(length, index.averageLength[f]!);
    for (const i of this.#counted) if (tf[i]! > 0) termBm25[i]! += bm25Share(index.fieldWeight[f]!, tf[i]!, norm);
  }

  /** Reads a candidate's words: sets its proximity, attribute, exactness and bm25 ranks. */
  #read(
    c: number,
    explain: boolean,
  ):
    | {
        matched: number;
        distance: number;
        field: string | null;
        position: number | null;
        exact: number;
        matchType: 'exactMatch' | 'matchesStart' | 'noExactMatch';
        subjectWords: number;
        headNamed: boolean;
      }
    | undefined {
    const index = this.#index;
    const n = this.#n;
    const F = index.searchable.length;
    const doc = this.#cands.docs[c]!;
    const counted = this.#counted;
    const m = counted.length;
    const bestRank = BEST_RANK.fill(255, 0, n);
    const bestPos = BEST_POS.fill(0x7fffffff, 0, n);
    const bestField = BEST_FIELD.fill(-1, 0, n);
    const near = NEAR.fill(MAX_DISTANCE, 0, n);
    const isSubject = IS_SUBJECT.fill(0, 0, n);
    const isHead = IS_HEAD.fill(0, 0, n);
    // Per term: its name occurrences, and those the name extends into another model ("s7 edge").
    const nameOcc = NAME_OCC.fill(0, 0, n);
    const variantOcc = VARIANT_OCC.fill(0, 0, n);
    // Per term: the name follows it with a number other than the query's next term ("S7" for "s6").
    const otherNumber = OTHER_NUMBER.fill(0, 0, n);
    const termBm25 = TERM_BM25.fill(0, 0, n);
    const variants = this.#variants;
    const spans = index.subjectSpans;
    const heads = index.nameHeads[doc]!;
    // This candidate's best code per term (its row of the candidates' codes).
    const codes = this.#cands.codes;
    const row = c * n;
    let starts = false;
    let equal = false;
    let bm25 = 0;
    let nameChars = 0;
    let coveredChars = 0;
    let textChars = 0;
    let textCovered = 0;
    const wordList = index.dictionary.words;
    const { tokens, offsets, fieldRank } = index;
    for (let f = 0; f < F; f++) {
      const lo = offsets[doc * F + f]!;
      const hi = offsets[doc * F + f + 1]!;
      const length = hi - lo;
      if (length === 0) continue;
      const last = LAST.fill(-1, 0, n);
      const tf = TF.fill(0, 0, n);
      let prefixExact = length >= n;
      const rank = fieldRank[f]!;
      // What the item is: its name outside the tail naming what it fits, while the name is among
      // the best fields (searchableFields or boosts may rank another first); its category's type word.
      const field = index.searchable[f];
      const readsSubject = field !== 'name' || rank === 0;
      for (let t = lo; t < hi; t++) {
        const p = t - lo;
        const slot = this.#slot[tokens[t]!]!;
        const chars = wordList[tokens[t]!]!.length;
        textChars += chars;
        if (slot >= 0) textCovered += chars;
        if (f === 0) {
          nameChars += chars;
          if (slot >= 0) coveredChars += chars;
        }
        if (slot < 0) {
          if (p < n) prefixExact = false;
          continue;
        }
        const base = slot * n;
        if (p < n && this.#slotCodes[base + p] !== 1) prefixExact = false;
        const whatItIs = readsSubject && saysWhatItIs(field, p, spans, doc * 3);
        // A phrase's last word in the name, or the category's type word: what the item is named as.
        const named = whatItIs && namesWhatItIs(field, p, spans, doc * 3, heads);
        // -1: not read yet; 1 when the next word, not a query word, makes this one another model.
        let extended = -1;
        for (let i = 0; i < n; i++) {
          if (this.#slotCodes[base + i] === 0) continue;
          tf[i]!++;
          if (variants && field === 'name') {
            if (extended < 0) extended = this.#extends(t, lo, hi, heads) ? 1 : 0;
            nameOcc[i]!++;
            variantOcc[i]! += extended;
            const j = this.#numberNext[i]!;
            if (j >= 0 && t + 1 < hi && this.#otherNumber(tokens[t + 1]!, j)) otherNumber[i] = 1;
          }
          // Only the term's best match in the document counts ("iphone" is not "phone" with a typo).
          // The word as typed or its stem ("cases" for "case"); a typo or prefix only as the term's best match.
          if (whatItIs && this.#inSubject(i, this.#slotCodes[base + i]!, codes[row + i]!, t, lo, hi)) {
            isSubject[i] = 1;
            if (named) isHead[i] = 1;
          }
          if (rank < bestRank[i]! || (rank === bestRank[i] && p < bestPos[i]!)) {
            bestRank[i] = rank;
            bestPos[i] = p;
            bestField[i] = f;
          }
          this.#near(i, p, last, near);
        }
      }
      if (prefixExact) {
        starts = true;
        if (length === n) equal = true;
      }
      this.#fieldBm25(f, length, tf, termBm25);
    }
    for (const i of counted) bm25 += this.#idf[i]! * termBm25[i]!;
    let distance = 0;
    for (let k = 0; k + 1 < m; k++) distance += near[k]!;
    let rankExcess = 0;
    let posExcess = 0;
    let exact = 0;
    let matched = 0;
    let said = 0;
    let named = 0;
    let subjectWords = 0;
    const headNamed = this.#head >= 0 && isHead[this.#head] === 1;
    for (const i of counted) {
      subjectWords += isSubject[i]!;
      said |= isSubject[i]! << i;
      named |= isHead[i]! << i;
      const code = codes[row + i]!;
      if (code !== 0) matched++;
      if (code === 1) exact++;
      if (bestField[i]! < 0) {
        rankExcess += index.fieldRanks - 1;
        posExcess += MAX_POSITION;
      } else {
        rankExcess += bestRank[i]!;
        posExcess += Math.min(MAX_POSITION, Math.max(0, bestPos[i]! - i));
      }
    }
    let variantTerms = 0;
    for (const i of counted) {
      // Every name match continues into another model, or the name numbers the model otherwise
      // and never as the query does ("Galaxy S7 edge" on "galaxy s6 edge case", whose description mentions the S6).
      const renumbered = otherNumber[i] === 1 && nameOcc[this.#numberNext[i]!] === 0;
      if ((nameOcc[i]! > 0 && variantOcc[i] === nameOcc[i]) || renumbered) variantTerms++;
    }
    const pairs = Math.max(0, m - 1);
    this.subject[c] = this.#subjectRank(said, named);
    this.variant[c] = this.max.variant - variantTerms;
    this.proximity[c] = this.max.proximity - (distance - pairs);
    const positions = m * MAX_POSITION + 1;
    this.attribute[c] = (m * (index.fieldRanks - 1) - rankExcess) * positions + (m * MAX_POSITION - posExcess) + 1;
    this.exactness[c] = 1 + exact + (starts ? 1 : 0) + (equal ? 1 : 0);
    this.bm25[c] = bm25;
    this.coverage[c] = nameChars === 0 ? 0 : coveredChars / nameChars;
    this.textCoverage[c] = textChars === 0 ? 0 : textCovered / textChars;
    if (!explain) return undefined;
    // The field and position of the best-placed counted term.
    let best = -1;
    for (const i of counted)
      if (
        bestField[i]! >= 0 &&
        (best < 0 || bestRank[i]! < bestRank[best]! || (bestRank[i] === bestRank[best] && bestPos[i]! < bestPos[best]!))
      )
        best = i;
    return {
      matched,
      distance,
      field: best < 0 ? null : index.searchable[bestField[best]!]!,
      position: best < 0 ? null : bestPos[best]!,
      exact,
      matchType: equal ? 'exactMatch' : starts ? 'matchesStart' : 'noExactMatch',
      subjectWords,
      headNamed,
    };
  }
}

/**
 * The query's head term: the last counted term that says what items are (see subject.ts) in at
 * least half as large a share of its documents as the term saying it most ("case", "protector"
 * or "grip" rather than "plus", "s7" or "samsung": English noun phrases end with what they
 * name), or that names the items it says they are in most of them, as a name phrase's last word
 * or a category's type word ("phone" in "prepaid phone", though phones are mentioned by every
 * accessory "for … Cell Phones": a "Prepaid Cell Phone" is a phone, whereas "prepaid" names
 * little; a number or a lone letter never counts as naming). Terms after "for" or "fits" qualify the head ("case for galaxy s7").
 */
function queryHead(index: SearchIndex, match: QueryMatch | undefined): number {
  if (!match) return -1;
  const terms = match.query.terms;
  let end = terms.length;
  for (let i = 1; i < terms.length; i++) {
    if (startsTail(terms[i]!.text)) {
      end = i;
      break;
    }
  }
  const shares = new Map<number, number>();
  const namers = new Set<number>();
  let best = 0;
  for (const t of match.counted) {
    if (t >= end) continue;
    let df = 0;
    let sdf = 0;
    let named = 0;
    const words = match.termWords[t]!;
    const codes = match.termCodes[t]!;
    // The term's own words (exact or stem), not its prefixes and typos.
    for (let k = 0; k < words.length; k++) {
      if (codes[k]! > 2) continue;
      df += index.postingStart[words[k]! + 1]! - index.postingStart[words[k]!]!;
      sdf += index.subjectDf[words[k]!]!;
      named += index.namedDf[words[k]!]!;
    }
    const share = df === 0 ? 0 : sdf / df;
    shares.set(t, share);
    if (share > best) best = share;
    // A number or a lone letter names no kind of item, even at a phrase's end ("Zphone 7").
    if (sdf > 0 && named >= NAMES_SHARE * sdf && /^\p{L}{2,}$/u.test(terms[t]!.text)) namers.add(t);
  }
  // English noun phrases end with what they name ("phone grip" is a grip): the last term saying
  // what items are at least half as often as the term saying it most, or naming them.
  const floor = best * HEAD_SHARE;
  let head = -1;
  for (const [t, share] of shares) if ((share > 0 && share >= floor) || namers.has(t)) head = Math.max(head, t);
  return head;
}

/**
 * Per query term, the counted term right before it in the query when the catalog's names read
 * this one as a variant after that one (see variants.ts; both as typed), else -1.
 */
function modelRuns(index: SearchIndex, match: QueryMatch, variants: Variants, place: Int32Array): Int32Array {
  const terms = match.query.terms;
  const out = new Int32Array(terms.length).fill(-1);
  for (let i = 1; i < terms.length; i++) {
    if (place[i]! < 0 || place[i - 1]! < 0) continue;
    const x = index.dictionary.id(terms[i - 1]!.text);
    const w = index.dictionary.id(terms[i]!.text);
    if (x >= 0 && w >= 0 && variants.isVariant(x, w)) out[i] = i - 1;
  }
  return out;
}

const BOUND_BYTES = new Scratch(Uint8Array);
const BOUND_PLACES = new Scratch(Uint16Array);
const BOUND_SUMS = new Scratch(Float64Array);
const BOUND_FIRST = new Scratch(Int32Array);
const BOUND_ENTRIES = new Scratch(Int32Array);

/** The arrays a ranker's rank arrays view: seven of integers, three of reals, per candidate. */
interface Ranks {
  readonly ints: Int32Array;
  readonly floats: Float64Array;
}

/**
 * The rank arrays of the last released ranker, for the next one. A pool rather than scratch:
 * a hybrid search keeps its ranker across an await, while another query makes its own.
 */
let spareRanks: Ranks | undefined;

/** Zeroed arrays for `size` candidates: the spare ones when large enough, else new ones. */
function ranksFor(size: number): Ranks {
  const spare = spareRanks;
  if (spare && spare.ints.length >= 7 * size && spare.floats.length >= 3 * size) {
    spareRanks = undefined;
    spare.ints.fill(0, 0, 7 * size);
    spare.floats.fill(0, 0, 3 * size);
    return spare;
  }
  return { ints: new Int32Array(7 * size), floats: new Float64Array(3 * size) };
}

function releaseRanks(ranks: Ranks): void {
  if (ranks.ints.length <= 7 * SCRATCH_LIMIT && (!spareRanks || spareRanks.ints.length < ranks.ints.length)) spareRanks = ranks;
}

/** Compares candidates by each of `ranks` in turn, the higher first. */
function higherFirst(ranks: readonly (Int32Array | Float64Array)[]): (a: number, b: number) => number {
  return (a, b) => {
    for (let k = 0; k < ranks.length; k++) {
      const values = ranks[k]!;
      const d = values[b]! - values[a]!;
      if (d !== 0) return d;
    }
    return 0;
  };
}

// Per-term scratch of #read (at most 10 terms; reads are synchronous).
const BEST_RANK = new Int32Array(16);
const BEST_POS = new Int32Array(16);
const BEST_FIELD = new Int32Array(16);
const NEAR = new Int32Array(16);
const IS_SUBJECT = new Uint8Array(16);
const IS_HEAD = new Uint8Array(16);
const NAME_OCC = new Int32Array(16);
const VARIANT_OCC = new Int32Array(16);
const OTHER_NUMBER = new Uint8Array(16);
const LAST = new Int32Array(16);
const TF = new Int32Array(16);
const TERM_BM25 = new Float64Array(16);

/**
 * A term's BM25 share in a document (before its idf) from its words' postings, listed from
 * entry `e` of `entries` (posting, next entry): as #read sums it, field after field, when its
 * words are in distinct fields and only the first of them (in field order) is in more than one,
 * so that adding the words' shares in field order repeats #read's additions; else the sum of the
 * shares, above the term's (BM25's weight is concave in the count) and kept above through the
 * rounding.
 */
function termShare(index: SearchIndex, entries: Int32Array, e: number): number {
  const { postingFields } = index;
  if (entries[e + 1]! < 0) return postingShare(index, entries[e]!);
  // The postings by lowest field (insertion sort: a term has few words in one document).
  const list = SHARE_LIST;
  list.length = 0;
  for (let x = e; x >= 0; x = entries[x + 1]!) {
    const k = entries[x]!;
    const key = lowestBit(postingFields[k]!);
    let j = list.length;
    for (; j > 0 && lowestBit(postingFields[list[j - 1]!]!) > key; j--) list[j] = list[j - 1]!;
    list[j] = k;
  }
  let exact = postingFields[list[0]!]! !== 0;
  let sum = 0;
  let seen = 0;
  for (let j = 0; j < list.length; j++) {
    const fields = postingFields[list[j]!]!;
    if (
      fields === 0 ||
      (fields & seen) !== 0 ||
      (j > 0 && (fields & (fields - 1)) !== 0) ||
      (j > 0 && lowestBit(fields) < 31 - Math.clz32(seen))
    )
      exact = false;
    seen |= fields;
    sum += postingShare(index, list[j]!);
  }
  return exact ? sum : sum * (1 + 2 ** -40);
}

const SHARE_LIST: number[] = [];

/** Document → candidate number (-1: none), per index, left all -1 after each use (queries are synchronous). */
const candidateScratch = perIndex((index: SearchIndex) => new Int32Array(index.items.length).fill(-1));

/** Word → slot of the query's words (-1: none), per index, left all -1 after each use. */
const slotScratch = perIndex((index: SearchIndex) => new Int32Array(index.dictionary.words.length).fill(-1));
