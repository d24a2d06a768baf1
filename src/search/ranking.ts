/**
 * Ranking rules, Meilisearch-style: each rule sorts the ties of the rules before it. `words`,
 * `typo` and `customRanking` are known for every candidate once matched; `proximity`,
 * `attribute`, `exactness` and `bm25` read the document's words, so they are computed only for
 * the candidates whose earlier ranks tie with a hit of the requested page.
 *
 * Each of `words`, `typo`, `proximity`, `attribute` and `exactness` gives an integer rank in
 * [1, max]; `_rankingScore` reads them as the digits of one mixed-radix number (Meilisearch's
 * construction), so a higher rule outweighs every lower one, the score lies in (0, 1], and it
 * is 1 only when every rule is at its best: every term matched exactly, without typo, next to
 * each other, at the start of the best field, which equals the query.
 *
 * @module
 */
import type { CatalogItem } from '../storage/catalog';
import { compareValues, valueAt } from './fields';
import type { Candidates, MatchingStrategy, QueryMatch } from './matching';
import type { SortCriterion } from './query';
import type { SearchIndex } from './search-index';

/**
 * The ranking rules, in their default order. Exactness comes before proximity (Meilisearch puts
 * it after attribute): on the judged Best Buy queries that order measured best (nDCG@10 0.924
 * against 0.912), since a word typed in full says more than two words close together.
 *
 * @example
 * ```ts
 * new SearchService({ catalog, rankingRules: ['words', 'typo', 'proximity', 'attribute', 'exactness', 'customRanking', 'bm25'] }); // Meilisearch's order
 * ```
 */
export const RANKING_RULES: readonly RankingRule[] = ['words', 'typo', 'exactness', 'proximity', 'attribute', 'customRanking', 'bm25'];

/**
 * One ranking rule:
 *
 * - `words`: more matched query terms, weighted (see `matchingStrategy`);
 * - `typo`: fewer typos;
 * - `proximity`: matched terms closer together, in query order (distance 1 = as far apart as in
 *   the query, so "3-in-1" matches "3 in 1" at distance 1 although "in" is a stop word; at most 8);
 * - `attribute`: the best field a term is in (`searchableFields` order, or boost), then the
 *   earliest position in it;
 * - `exactness`: the whole field equal to the query, then a field starting with it, then more
 *   terms matched as typed (not through a prefix, stem, synonym or typo);
 * - `customRanking`: the service's `customRanking` criteria (e.g. `popularity:desc`);
 * - `bm25`: Okapi BM25 over the searched fields (weighted by boost), the last tie-breaker
 *   before the document id.
 *
 * @example
 * ```ts
 * const rules: RankingRule[] = ['words', 'typo', 'attribute'];
 * ```
 */
export type RankingRule = 'words' | 'typo' | 'proximity' | 'attribute' | 'exactness' | 'customRanking' | 'bm25';

/** Rules that give a rank, in the score. */
type Scored = 'words' | 'typo' | 'proximity' | 'attribute' | 'exactness';
const SCORED = new Set<RankingRule>(['words', 'typo', 'proximity', 'attribute', 'exactness']);
const EXPENSIVE = new Set<RankingRule>(['proximity', 'attribute', 'exactness', 'bm25']);

/** Farthest proximity counted between two terms (also the distance of terms not both found in one field). */
const MAX_DISTANCE = 8;
/** Farthest position counted by `attribute`. */
const MAX_POSITION = 15;
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
  readonly proximity?: { readonly order: number; readonly score: number; readonly distance: number; readonly minDistance: number; readonly maxDistance: number };
  readonly attribute?: { readonly order: number; readonly score: number; readonly field: string | null; readonly position: number | null };
  readonly exactness?: { readonly order: number; readonly score: number; readonly exactWords: number; readonly matchType: 'exactMatch' | 'matchesStart' | 'noExactMatch' };
  readonly bm25?: { readonly order: number; readonly value: number };
  /** `customRanking` criteria, by their text (`popularity:desc`). */
  readonly [criterion: string]: { readonly order: number; readonly score?: number; readonly value?: unknown } | undefined;
}

/** The sort key of a document for a criterion: its first value. */
function keyOf(item: CatalogItem, criterion: SortCriterion, index: SearchIndex): unknown {
  const raw = criterion.field === 'id' ? item.id : valueAt(item, criterion.field, index.paths.get(criterion.field)?.info.objectField);
  return Array.isArray(raw) ? raw[0] : raw;
}

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
  readonly max: Record<Scored, number>;
  readonly words: Int32Array;
  readonly typo: Int32Array;
  readonly proximity: Int32Array;
  readonly attribute: Int32Array;
  readonly exactness: Int32Array;
  readonly bm25: Float64Array;
  readonly #done: Uint8Array;
  readonly #sortKeys: ArrayLike<unknown>[];
  readonly #customKeys: ArrayLike<unknown>[];
  readonly #sort: readonly SortCriterion[];
  /** Which term each indexed word reaches, and how: `#slot[word]` indexes `#slotCodes` rows of n codes. */
  readonly #slot: Int32Array;
  readonly #slotCodes: Uint8Array;

  /**
   * Ranks `cands` (a placeholder search when `match` is undefined: no relevance rules apply).
   */
  constructor(index: SearchIndex, match: QueryMatch | undefined, cands: Candidates, options: { rules: readonly RankingRule[]; customRanking: readonly SortCriterion[]; strategy: MatchingStrategy; sort: readonly SortCriterion[] }) {
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
    this.#counted.forEach((t, k) => (this.#place[t] = k));
    const m = this.#counted.length;
    const N = index.items.length;
    this.#idf = Float64Array.from({ length: n }, (_, i) => {
      const df = Math.max(cands.df[i] ?? 0, 1);
      return Math.log(1 + (N - df + 0.5) / (df + 0.5));
    });
    // Words weights per strategy: by rarity, or by query order (dropping terms from the end).
    this.#weights = new Float64Array(n);
    this.#counted.forEach((t, k) => (this.#weights[t] = options.strategy === 'frequency' ? Math.log(1 + N / Math.max(cands.df[t] ?? 0, 1)) : 2 ** (m - 1 - k)));
    this.#maxTypos = this.#counted.reduce((s, t) => s + (match?.allowed[t] ?? 0), 0);
    const pairs = Math.max(0, m - 1);
    this.max = {
      words: options.strategy === 'all' ? 1 : options.strategy === 'last' ? 2 ** m : WORD_LEVELS + 1,
      typo: this.#maxTypos + 1,
      proximity: (MAX_DISTANCE - 1) * pairs + 1,
      attribute: (m * (index.fieldRanks - 1) + 1) * (m * MAX_POSITION + 1),
      exactness: m + 3,
    };
    this.words = new Int32Array(size);
    this.typo = new Int32Array(size);
    this.proximity = new Int32Array(size);
    this.attribute = new Int32Array(size);
    this.exactness = new Int32Array(size);
    this.bm25 = new Float64Array(size);
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
        options.strategy === 'all' ? 1 : options.strategy === 'last' ? 1 + weight : 1 + Math.round((WORD_LEVELS * weight) / (totalWeight || 1));
      this.typo[c] = this.max.typo - typos;
    }
    const items = index.items;
    const keys = (criteria: readonly SortCriterion[]) =>
      criteria.map((cr): ArrayLike<unknown> => {
        const first = index.paths.get(cr.field)?.first;
        // Number paths keep each document's first value: no item is read.
        if (first && cr.field !== 'id') return Array.from(cands.docs, (d) => (Number.isNaN(first[d]!) ? undefined : first[d]));
        return Array.from(cands.docs, (d) => keyOf(items[d]!, cr, index));
      });
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
  }

  #slots: number[] = [];

  /** Work done for this query so far. */
  get work(): { dictionaryNodes: number; wordsReached: number; postingsRead: number; candidates: number; documentsRead: number } {
    return {
      dictionaryNodes: this.#match?.work.nodes ?? 0,
      wordsReached: this.#match?.work.words ?? 0,
      postingsRead: this.#cands.postingsRead,
      candidates: this.#cands.docs.length,
      documentsRead: this.documentsRead,
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

  /** Releases the shared word scratch; call once done with this ranker. */
  release(): void {
    for (const w of this.#slots) this.#slot[w] = -1;
    this.#slots = [];
  }

  /**
   * Candidate numbers in rank order, exact in positions [start, end) (and in every position
   * when `start` is 0 and `end` the number of candidates).
   */
  order(start: number, end: number): Int32Array {
    const size = this.#cands.docs.length;
    const order = new Int32Array(size);
    for (let c = 0; c < size; c++) order[c] = c;
    end = Math.min(end, size);
    if (size === 0 || start >= end) return order;
    const firstExpensive = this.#rules.findIndex((r) => EXPENSIVE.has(r));
    const cheap = this.#comparator(firstExpensive < 0 ? this.#rules : this.#rules.slice(0, firstExpensive), firstExpensive < 0);
    order.sort(cheap);
    if (firstExpensive < 0) return order;
    // Only the buckets of tied candidates that reach [start, end) need the other rules.
    let a = start;
    while (a > 0 && cheap(order[a - 1]!, order[start]!) === 0) a--;
    let b = end;
    while (b < size && cheap(order[b]!, order[end - 1]!) === 0) b++;
    for (let k = a; k < b; k++) this.describe(order[k]!);
    order.subarray(a, b).sort(this.#comparator(this.#rules, true));
    return order;
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

  /** The mixed-radix score of a candidate (see the module comment). */
  score(c: number): number {
    if (!this.#match) return 1;
    this.describe(c);
    let rank = 1;
    let max = 1;
    for (const rule of this.#rules) {
      if (!SCORED.has(rule)) continue;
      const r = this[rule as Scored][c]!;
      const m = this.max[rule as Scored];
      rank = (rank - 1) * m + r;
      max *= m;
    }
    return rank / max;
  }

  /** What each rule counted for a candidate. */
  details(c: number): RankingScoreDetails {
    this.describe(c);
    const out: Record<string, unknown> = {};
    const seen = this.#match ? this.#read(c, true) : undefined;
    const score = (rule: Scored) => (this.max[rule] <= 1 ? 1 : (this[rule][c]! - 1) / (this.max[rule] - 1));
    this.#rules.forEach((rule, order) => {
      if (rule === 'customRanking') {
        this.#custom.forEach((cr, k) => {
          Object.defineProperty(out, `${cr.field}:${cr.direction}`, { value: { order, value: this.#customKeys[k]?.[c] ?? null }, enumerable: true, writable: true, configurable: true });
        });
        return;
      }
      if (!seen) return;
      if (rule === 'words') out.words = { order, score: score('words'), matchingWords: seen.matched, maxMatchingWords: this.#counted.length };
      else if (rule === 'typo') out.typo = { order, score: score('typo'), typoCount: this.max.typo - this.typo[c]!, maxTypoCount: this.#maxTypos };
      else if (rule === 'proximity') {
        const pairs = Math.max(0, this.#counted.length - 1);
        out.proximity = { order, score: score('proximity'), distance: seen.distance, minDistance: pairs, maxDistance: pairs * MAX_DISTANCE };
      } else if (rule === 'attribute') out.attribute = { order, score: score('attribute'), field: seen.field, position: seen.position };
      else if (rule === 'exactness') out.exactness = { order, score: score('exactness'), exactWords: seen.exact, matchType: seen.matchType };
      else out.bm25 = { order, value: Math.round(this.bm25[c]! * 1e6) / 1e6 };
    });
    return out as RankingScoreDetails;
  }

  #comparator(rules: readonly RankingRule[], final: boolean): (a: number, b: number) => number {
    const steps: ((a: number, b: number) => number)[] = [];
    this.#sort.forEach((cr, k) => {
      const keys = this.#sortKeys[k]!;
      const sign = cr.direction === 'asc' ? 1 : -1;
      steps.push((a, b) => compareValues(keys[a], keys[b], sign));
    });
    for (const rule of rules) {
      if (rule === 'customRanking') {
        this.#custom.forEach((cr, k) => {
          const keys = this.#customKeys[k]!;
          const sign = cr.direction === 'asc' ? 1 : -1;
          steps.push((a, b) => compareValues(keys[a], keys[b], sign));
        });
      } else {
        const values = this[rule];
        steps.push((a, b) => values[b]! - values[a]!);
      }
    }
    const docs = this.#cands.docs;
    return (a, b) => {
      for (const step of steps) {
        const d = step(a, b);
        if (d !== 0) return d;
      }
      // Items are sorted by id: the document number breaks the last ties by id.
      return final ? docs[a]! - docs[b]! : 0;
    };
  }

  /** Reads a candidate's words: sets its proximity, attribute, exactness and bm25 ranks. */
  #read(c: number, explain: boolean): { matched: number; distance: number; field: string | null; position: number | null; exact: number; matchType: 'exactMatch' | 'matchesStart' | 'noExactMatch' } | undefined {
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
    let starts = false;
    let equal = false;
    let bm25 = 0;
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
      for (let t = lo; t < hi; t++) {
        const p = t - lo;
        const slot = this.#slot[tokens[t]!]!;
        if (slot < 0) {
          if (p < n) prefixExact = false;
          continue;
        }
        const base = slot * n;
        if (p < n && this.#slotCodes[base + p] !== 1) prefixExact = false;
        for (let i = 0; i < n; i++) {
          if (this.#slotCodes[base + i] === 0) continue;
          tf[i]!++;
          if (rank < bestRank[i]! || (rank === bestRank[i] && p < bestPos[i]!)) {
            bestRank[i] = rank;
            bestPos[i] = p;
            bestField[i] = f;
          }
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
          if (k >= 0 && k < m - 1) {
            const q = last[counted[k + 1]!]!;
            // Reversed order costs one more than the same gap in order.
            if (q >= 0) {
              const d = Math.min(MAX_DISTANCE, p - q + 1);
              if (d < near[k]!) near[k] = d;
            }
          }
          last[i] = p;
        }
      }
      if (prefixExact) {
        starts = true;
        if (length === n) equal = true;
      }
      const norm = 1.2 * (0.25 + (0.75 * length) / (index.averageLength[f] || 1));
      for (const i of counted) if (tf[i]! > 0) bm25 += index.fieldWeight[f]! * this.#idf[i]! * ((tf[i]! * 2.2) / (tf[i]! + norm));
    }
    let distance = 0;
    for (let k = 0; k + 1 < m; k++) distance += near[k]!;
    let rankExcess = 0;
    let posExcess = 0;
    let exact = 0;
    let matched = 0;
    const codes = this.#cands.codes;
    for (const i of counted) {
      const code = codes[c * n + i]!;
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
    const pairs = Math.max(0, m - 1);
    this.proximity[c] = this.max.proximity - (distance - pairs);
    const positions = m * MAX_POSITION + 1;
    this.attribute[c] = (m * (index.fieldRanks - 1) - rankExcess) * positions + (m * MAX_POSITION - posExcess) + 1;
    this.exactness[c] = 1 + exact + (starts ? 1 : 0) + (equal ? 1 : 0);
    this.bm25[c] = bm25;
    if (!explain) return undefined;
    // The field and position of the best-placed counted term.
    let best = -1;
    for (const i of counted) if (bestField[i]! >= 0 && (best < 0 || bestRank[i]! < bestRank[best]! || (bestRank[i] === bestRank[best] && bestPos[i]! < bestPos[best]!))) best = i;
    return {
      matched,
      distance,
      field: best < 0 ? null : index.searchable[bestField[best]!]!,
      position: best < 0 ? null : bestPos[best]!,
      exact,
      matchType: equal ? 'exactMatch' : starts ? 'matchesStart' : 'noExactMatch',
    };
  }
}

// Per-term scratch of #read (at most 10 terms; reads are synchronous).
const BEST_RANK = new Int32Array(16);
const BEST_POS = new Int32Array(16);
const BEST_FIELD = new Int32Array(16);
const NEAR = new Int32Array(16);
const LAST = new Int32Array(16);
const TF = new Int32Array(16);

const slots = new WeakMap<SearchIndex, Int32Array>();
function slotScratch(index: SearchIndex): Int32Array {
  let s = slots.get(index);
  if (!s) {
    s = new Int32Array(index.dictionary.words.length).fill(-1);
    slots.set(index, s);
  }
  return s;
}
