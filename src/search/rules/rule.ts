/**
 * The interface every ranking rule implements (one module per rule, as Meilisearch's milli has
 * one per ranking rule; registry.ts lists them). A rule makes, per query, its ranking of the
 * candidates: rank arrays compared in turn (the ranker compares consecutive rules' arrays in one
 * step, with no call per rule), or comparisons of values read per candidate; its share of
 * `_rankingScore`; and its `_rankingScoreDetails` entry.
 *
 * A rule whose value needs a candidate's words (`exact`) also gives an upper bound of it from the
 * postings of the query's words (`bound`), which the candidate holds until the ranker reads its
 * words: a page reads only the candidates whose bounds reach it. Every bound must be at least the
 * exact value (test/search/lazy.test.ts checks it on random catalogs). The one pass over the
 * postings and the one pass over a document's words are shared by the rules (../reading/): each
 * rule turns what they gathered into its own value.
 *
 * @module
 */
import type { DocumentRead } from '../reading/document';
import type { PositionsRead } from '../reading/positions';
import type { PostingFacts } from '../reading/postings';
import type { ContextNeeds, RankQuery } from '../reading/query-context';

/** A rank per candidate. */
export type RankArray = Int32Array | Float64Array;

/** The part of [0, 1] the rules before a rule left to the ones after (see `Ranker.score`). */
export interface Span {
  lo: number;
  width: number;
}

/** A rule's part of `_rankingScore`: its rank (its first rank array) in [1, max]. */
export interface RuleScore {
  /** Its best rank (a rule whose max is 1 leaves the score to the others). */
  readonly max: number;
  /**
   * The least rank a threshold may count on before the candidate's words are read: its rank
   * (`exact`: the bound is exact), its rank once the positions are read (`positions`), or 1.
   */
  readonly least: 'exact' | 'positions' | 'one';
  /** Narrows `span` to rank `rank`'s share; by default the rank's 1/max of it. */
  share?(span: Span, rank: number): void;
}

/** One rule's ranking of one query's candidates. */
export interface RuleRanking {
  /** Rank arrays compared in turn, by `direction`: consecutive rules' arrays compare in one step. */
  readonly ranks: readonly RankArray[];
  /** `desc`: the higher rank first (every rank rule so far); `asc`: the lower. */
  readonly direction: 'desc' | 'asc';
  /** Comparisons of two candidates in turn, each a step of its own (values read per candidate: sort keys). */
  readonly steps: readonly ((a: number, b: number) => number)[];
  /** Its part of `_rankingScore`, when it has one. */
  readonly score?: RuleScore;
  /** Whether the positions of the query's words alone (`peek`) may lower its bound, before reading the document. */
  readonly peeks: boolean;
  /**
   * Writes the upper bounds of the candidates of `some` (of every candidate when undefined) from
   * the postings' facts (rules with `exact`: the ranker bounds a candidate when it may reach the
   * page, see `Ranker.ordered`); without `exact`, every candidate's exact rank, at once.
   */
  bound?(facts: PostingFacts, some?: Int32Array): void;
  /** Writes candidate `c`'s exact rank from the positions of the query's words. */
  peek?(c: number, read: PositionsRead): void;
  /** Writes candidate `c`'s exact rank from its words. */
  exact?(c: number, read: DocumentRead): void;
  /** Adds its `_rankingScoreDetails` entry for candidate `c` (`read`: its words; undefined for a placeholder search). */
  details(c: number, read: DocumentRead | undefined, order: number, out: Record<string, unknown>): void;
}

/** A ranking rule: its name in `rankingRules` and its ranking of a query's candidates. */
export interface Rule {
  readonly name: string;
  /** Integer and real rank arrays it writes per candidate (views of the ranker's pooled arrays, zeroed). */
  readonly ints: number;
  readonly floats: number;
  /** Whether it also orders placeholder searches (no text: no match, no query terms). */
  readonly placeholder: boolean;
  /** What the query's context computes for it. */
  readonly needs?: Partial<ContextNeeds>;
  /** Its ranking of `q`'s candidates, writing `ints` and `floats` (known values now; bounds in `bound`). */
  rank(q: RankQuery, ints: readonly Int32Array[], floats: readonly Float64Array[]): RuleRanking;
}

/** The `score` of a rank in [1, max] in `_rankingScoreDetails`: its place in [0, 1]. */
export function detailScore(rank: number, max: number): number {
  return max <= 1 ? 1 : (rank - 1) / (max - 1);
}

/** A ranking compared by its rank arrays, the higher first, with no steps of its own. */
export const BY_RANKS = { direction: 'desc', steps: [], peeks: false } as const;
