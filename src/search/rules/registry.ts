/**
 * The ranking rules by name: one module per rule (rule.ts says what each gives), and the
 * default order. Adding a rule is its module and its line here (the name in {@link RankingRule}
 * and {@link RULES}, and in {@link RANKING_RULES} when it ranks by default).
 *
 * @module
 */
import { attribute } from './attribute';
import { bm25 } from './bm25';
import { customRanking } from './custom-ranking';
import { exactness } from './exactness';
import type { SearchProfile } from '../naming';
import { priceIntent } from './price-intent';
import { proximity } from './proximity';
import type { Rule } from './rule';
import { subject } from './subject';
import { typo } from './typo';
import { variant } from './variant';
import { words } from './words';

/**
 * Every ranking rule, in the `retail` profile's order (the `neutral` default leaves out `variant`,
 * see {@link PROFILE_RANKING_RULES}). Exactness comes before proximity (Meilisearch puts
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
 * The default ranking rules of each search profile (see naming.ts). `neutral` has no `variant`,
 * whose model variants read from the names ("Galaxy S7 **edge**") gained on the judged Best Buy
 * queries only, and orders by `bm25` before `attribute`: which field and where in it a word sits
 * said less, on every judged catalog, than BM25 (the name weighing as its length and rarity
 * say); `customRanking` stays before `bm25`, whose ties are rare. `retail` has every rule, in
 * {@link RANKING_RULES}' order.
 *
 * @example
 * ```ts
 * PROFILE_RANKING_RULES.neutral; // ['words', 'typo', 'exactness', 'subject', 'priceIntent', 'proximity', 'customRanking', 'bm25', 'attribute']
 * ```
 */
export const PROFILE_RANKING_RULES: Readonly<Record<SearchProfile, readonly RankingRule[]>> = {
  neutral: ['words', 'typo', 'exactness', 'subject', 'priceIntent', 'proximity', 'customRanking', 'bm25', 'attribute'],
  retail: RANKING_RULES,
};

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
 * - `exactness`: the whole field equal to the query, then a field starting with it (a name only
 *   where the query's last word ends the phrase it starts: "Ceiling Fan in White", not "Ceiling
 *   Fan Light Kit"), then more terms matched as typed (not through a prefix, stem, synonym or typo);
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

/** Each rule's module, by name. */
export const RULES: Readonly<Record<RankingRule, Rule>> = {
  words,
  typo,
  subject,
  variant,
  priceIntent,
  proximity,
  attribute,
  exactness,
  customRanking,
  bm25,
};
