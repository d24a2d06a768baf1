/**
 * What the ranking rules of one query share: its counted terms, which term each indexed word
 * reaches and how, its head and model runs, and the work counters of the readings.
 *
 * @module
 */
import type { Candidates, MatchingStrategy, QueryMatch } from '../matching';
import type { SortCriterion } from '../query';
import { perIndex } from '../scratch';
import type { SearchIndex } from '../search-index';
import { variantsOf, type Variants } from '../variants';
import { modelAfter, numberAfter, numberNext } from './model-runs';
import { queryHead } from './query-head';

/** The service's options the rules read. */
export interface RuleOptions {
  readonly customRanking: readonly SortCriterion[];
  readonly strategy: MatchingStrategy;
  /** The field `priceIntent` orders by. */
  readonly priceField?: string | undefined;
  /** Each document's behaviour signal, the `_behaviour` criterion of `customRanking` (behaviour-ranking.ts); 0 for all when undefined. */
  readonly signal?: ((doc: number) => number) | undefined;
}

/** What the configured rules ask the context to compute. */
export interface ContextNeeds {
  /** The query's head term (`subject`). */
  readonly head: boolean;
  /** The catalog's model variants (`variant`). */
  readonly variants: boolean;
}

/** One query's ranking context (a placeholder search has no `match`, no terms and no words). */
export interface RankQuery {
  readonly index: SearchIndex;
  readonly match: QueryMatch | undefined;
  readonly cands: Candidates;
  /** Number of candidates. */
  readonly size: number;
  /** Number of query terms. */
  readonly n: number;
  /** Counted terms, and each term's place among them (-1 for the others). */
  readonly counted: readonly number[];
  readonly place: Int32Array;
  readonly options: RuleOptions;
  readonly stopWords: ReadonlySet<string>;
  /** The query's head term (what the shopper wants an item to be, see query-head.ts), or -1. */
  readonly head: number;
  /** The catalog's variant statistics, when `variant` reads them or `subject` has a head. */
  readonly statistics: Variants | undefined;
  /** The same, when the `variant` rule is used. */
  readonly variants: Variants | undefined;
  /** The statistics' words read before this query. */
  readonly variantsRead: number;
  /** See model-runs.ts. */
  readonly modelAfter: Int32Array;
  readonly numberAfter: Int32Array;
  readonly numberNext: Int32Array;
  /** Which term each indexed word reaches, and how: `slot[word]` indexes `slotCodes` rows of n codes (0: not that term). */
  readonly slot: Int32Array;
  readonly slotCodes: Uint8Array;
  /** The words with a slot (their slots are cleared on release). */
  readonly slots: readonly number[];
  /** Work of the readings, for `SearchService.work`. */
  readonly counts: { boundPostings: number; startsRead: number; positionsRead: number };
}

/** Word → slot of the query's words (-1: none), per index, left all -1 after each use. */
const slotScratch = perIndex((index: SearchIndex) => new Int32Array(index.dictionary.words.length).fill(-1));

/** The context of ranking `cands` of `match` (undefined: a placeholder search); release it with {@link releaseRankQuery}. */
export function rankQuery(
  index: SearchIndex,
  match: QueryMatch | undefined,
  cands: Candidates,
  options: RuleOptions & { readonly stopWords: ReadonlySet<string> },
  needs: ContextNeeds,
): RankQuery {
  const n = match?.n ?? 0;
  const counted = match?.counted ?? [];
  const place = new Int32Array(n).fill(-1);
  counted.forEach((t, k) => {
    place[t] = k;
  });
  // Only the subject rule reads the head: other rule lists skip reading the terms' words here.
  const habits = index.habits;
  const head = needs.head ? queryHead(index, match, habits.namers) : -1;
  // The variant statistics serve the variant rule and, for its model runs, the subject rule.
  const statistics = match && (head >= 0 || needs.variants) ? variantsOf(index) : undefined;
  const variants = needs.variants ? statistics : undefined;
  const variantsRead = statistics?.wordsRead ?? 0;
  // Word → codes per term, for reading documents.
  let slot = new Int32Array(0);
  let slotCodes = new Uint8Array(0);
  let slots: number[] = [];
  if (match) {
    const numbered = new Map<number, number>();
    for (let i = 0; i < n; i++) for (const w of match.termWords[i]!) if (!numbered.has(w)) numbered.set(w, numbered.size);
    slot = slotScratch(index);
    slotCodes = new Uint8Array(numbered.size * n);
    for (const [w, s] of numbered) slot[w] = s;
    for (let i = 0; i < n; i++) {
      const words = match.termWords[i]!;
      const codes = match.termCodes[i]!;
      for (let k = 0; k < words.length; k++) slotCodes[numbered.get(words[k]!)! * n + i] = codes[k]!;
    }
    slots = [...numbered.keys()];
  }
  return {
    index,
    match,
    cands,
    size: cands.docs.length,
    n,
    counted,
    place,
    options,
    stopWords: options.stopWords,
    head,
    statistics,
    variants,
    variantsRead,
    modelAfter: head >= 0 && habits.modelRuns ? modelAfter(index, match!, statistics!, place) : new Int32Array(n).fill(-1),
    numberAfter: numberAfter(match, n, habits.modelRuns ? head : -1, place),
    numberNext: numberNext(match, n, variants, place),
    slot,
    slotCodes,
    slots,
    counts: { boundPostings: 0, startsRead: 0, positionsRead: 0 },
  };
}

/** Clears the shared word scratch (the next query's context reuses it). */
export function releaseRankQuery(q: RankQuery): void {
  for (const w of q.slots) q.slot[w] = -1;
}
