/**
 * `_rankingScoreDetails`: what each rule counted for one hit (each rule module writes its entry).
 *
 * @module
 */
import type { RerankDetail } from '../behaviour-ranking';
import type { MerchandisingDetail } from '../merchandising';

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
  /** What a merchandising rule did to the hit (pinned at a position, boosted or buried); `order` -1: before `sort` and every rule. */
  readonly merchandising?: MerchandisingDetail;
  /** The hit's click feedback for the query and the positions re-ranking moved it (positive: up); `order`: after every rule and `tieBreak`. */
  readonly behaviour?: RerankDetail;
  /** A substitute filling a short page (see `substitutes`): the words its query's matches lent; `order`: after every rule. */
  readonly substitute?: { readonly order: number; readonly words: readonly string[] };
  /** `customRanking` criteria, by their text (`popularity:desc`). */
  readonly [criterion: string]: { readonly order: number; readonly score?: number; readonly value?: unknown } | undefined;
}
