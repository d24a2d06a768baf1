/**
 * What a search's work is counted in: the service reports it, the ranker and the dictionary
 * add to it.
 *
 * @module
 */

/**
 * Work done by the latest search or autocomplete of a {@link abkit!SearchService}: what bounds its
 * cost, for tests and monitoring.
 *
 * @example
 * ```ts
 * await search.search({ text: 'x'.repeat(512) });
 * console.log(search.work.dictionaryNodes); // at most 66: one row per character kept
 * ```
 */
export interface SearchWork {
  /** Dictionary trie nodes visited by the term lookups (each at most 66 cells of distance table). */
  readonly dictionaryNodes: number;
  /** Indexed words the dictionary lookups reached (exact, prefixes, typos). */
  readonly wordsReached: number;
  /**
   * Posting entries read to collect candidates, to find a query word's halves side by side in
   * names ("earbuds" in "Ear Buds"), and again to bound the ranks of the rules that read documents.
   */
  readonly postingsRead: number;
  /** Candidates ranked. */
  readonly candidates: number;
  /**
   * Candidates whose words were read for the rules after `words` and `typo` (subject, variant,
   * proximity, attribute, exactness, bm25): only those whose bounds reach the page asked for
   * (and, with `rankingScoreThreshold`, those whose bounds cannot tell on which side they are).
   */
  readonly documentsRead: number;
  /** Candidates whose fields' first words were read, when the postings put every query word as typed at its place (exactness). */
  readonly fieldStartsRead: number;
  /**
   * Candidates whose query words' positions were read for `proximity` and `bm25` (far less work
   * per word than `documentsRead`), before reading them: those whose other bounds reach the page.
   */
  readonly positionsRead: number;
  /** Name words read to learn the catalog's model variants (the `variant` rule), once per query word and index version. */
  readonly variantWordsRead: number;
}

/**
 * The work of two rankings of one search added up (a short page's matches and its substitutes).
 *
 * @example
 * ```ts
 * addWork(matches.work, substitutes.work).candidates; // both rankings' candidates
 * ```
 */
export function addWork(a: SearchWork, b: SearchWork): SearchWork {
  const sum = { ...a };
  for (const key of Object.keys(sum) as (keyof SearchWork)[]) (sum as Record<keyof SearchWork, number>)[key] += b[key];
  return sum;
}
