/**
 * Search profiles: which habits of a catalog's product naming the ranking reads. The default
 * (`neutral`) reads only what held on every judged catalog; `retail` adds the habits of listings
 * named like an electronics retailer's ("Brand - Case for Galaxy S7 - Black").
 *
 * @module
 */

/**
 * A search profile, the `profile` option of SearchService and of a catalog's search settings:
 *
 * - `neutral` (the default): a name's last word names the item (English compounds end with what
 *   they name: a "Phone **Case**" is a case; so does the word before a spaced "in", after which a
 *   finish or a colour follows: "Elongated **Toilet** in White"), its words after "for" or "fits" say what the item
 *   fits, and the query's head term is the last one saying what items are; rules
 *   `['words', 'typo', 'exactness', 'subject', 'priceIntent', 'proximity', 'customRanking', 'bm25', 'attribute']`,
 *   ties by name; no name parts, model numbers or categories read;
 * - `retail`: also names in " - " or "|" separated parts (a one-word part is a label: the brand,
 *   a colour), "with", "w/" and "and" after a word ending a phrase, model runs and variants read
 *   from the names ("Galaxy S7 **edge**" is no Galaxy S7; the `variant` rule), the type word of
 *   the item's most specific category, a query term naming items as the query's head; `attribute`
 *   before `customRanking` and `bm25`, and ties broken by the lower price.
 *
 * Each habit of `neutral` gained on the judged catalogs' tuning halves, and none of `retail`'s
 * gained on two (BENCHMARKS.md, Relevance round 4).
 *
 * @example
 * ```ts
 * new SearchService({ catalog, profile: 'retail' }); // a catalog named "Brand - Case for Galaxy S7 - Black"
 * ```
 */
export type SearchProfile = 'neutral' | 'retail';

/** The profiles' names, the default first. */
export const SEARCH_PROFILES: readonly SearchProfile[] = ['neutral', 'retail'];

/** Which naming habits the index and the ranking read (one switch per habit; see subject.ts and the rules). */
export interface NamingHabits {
  /** A name's words from "for", "fits" or "compatible with" say what the item fits, not what it is. */
  readonly fitsTail: boolean;
  /** The last word of a name (and of each phrase the other habits find) names the item: English compounds end with what they name. */
  readonly phraseHeads: boolean;
  /** " - " and "|" separate a name's parts; a tail ends at its part's end, a one-word part is a label. */
  readonly parts: boolean;
  /** "with", "w/", "for" and "compatible" end the phrase before them. */
  readonly phraseWords: boolean;
  /** A spaced "in" after a word (not a number) ends the phrase before it: what follows is a finish or a colour ("Toilet **in** White"). */
  readonly inFinish: boolean;
  /** "and" after a word (not a number) ends the phrase before it. */
  readonly andAfterWord: boolean;
  /** A parenthesis, comma or semicolon ends a phrase. */
  readonly punctuation: boolean;
  /** A parenthesis closing a name (a part) holds a detail, a count or a variant ("Hammer Drill (Tool-Only)", "Hinge (3-Pack)"): the phrase before it names the item. */
  readonly closingDetail: boolean;
  /** The last word of the most specific category names the item's type. */
  readonly categoryType: boolean;
  /** A query term naming the items where it says what they are can be the query's head. */
  readonly namers: boolean;
  /** Model runs read from the names ("plus" after "6s", "galaxy" before "s6") count in the subject only where the name continues them. */
  readonly modelRuns: boolean;
}

/** Every habit read: the `retail` profile. */
const RETAIL: NamingHabits = {
  fitsTail: true,
  phraseHeads: true,
  parts: true,
  phraseWords: true,
  inFinish: true,
  andAfterWord: true,
  punctuation: true,
  closingDetail: true,
  categoryType: true,
  namers: true,
  modelRuns: true,
};

/**
 * The habits each profile reads, looked up when a service is made. Not frozen: the tuning script
 * (test/bench/relevance-tune.ts) swaps a profile's habits for one service to ablate one habit.
 */
export const PROFILE_HABITS: Record<SearchProfile, NamingHabits> = {
  neutral: {
    fitsTail: true,
    phraseHeads: true,
    parts: false,
    phraseWords: false,
    inFinish: true,
    andAfterWord: false,
    punctuation: false,
    closingDetail: true,
    categoryType: false,
    namers: false,
    modelRuns: false,
  },
  retail: RETAIL,
};
