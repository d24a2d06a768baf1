/**
 * Substitutes for a query with too few matches (pseudo-relevance feedback): the words its
 * matches' names share, which the query does not reach, say what else the catalog calls such
 * items ("cookbook" matching four "… Cuisine Cookbook" finds the other "Cuisine" items). They
 * are searched only to fill the page after every match, so no match of the query moves.
 *
 * @module
 */
import type { QueryMatch } from './matching';
import type { SearchIndex } from './search-index';

/** Most words the matches lend: more drift from what they share. */
export const SUBSTITUTE_WORDS = 3;
/** A word lent by the matches: letters only, three or more (no model number, no initial). */
const LENDABLE = /^\p{L}{3,}$/u;

/**
 * The words of the names of `docs` (the first searched field), best first, that the query
 * reaches in none of its terms: in two of them at least (in the only one when there is one),
 * not stop words, ranked by how many of them hold the word times its rarity in the index, at
 * most {@link SUBSTITUTE_WORDS}.
 *
 * @example
 * ```ts
 * // "cookbook" matches "Moroccan Cuisine Cookbook" and "Spanish Cuisine Cookbook":
 * substituteWords(index, match, docs, analyzer.stopWords); // ['cuisine']
 * ```
 */
export function substituteWords(index: SearchIndex, match: QueryMatch, docs: readonly number[], stopWords: ReadonlySet<string>): string[] {
  const reached = new Set(match.termWords.flat());
  const F = index.searchable.length;
  const { tokens, offsets } = index;
  const held = new Map<number, number>();
  for (const d of docs) {
    const seen = new Set<number>();
    for (let t = offsets[d * F]!, hi = offsets[d * F + 1]!; t < hi; t++) seen.add(tokens[t]!);
    for (const w of seen) held.set(w, (held.get(w) ?? 0) + 1);
  }
  const least = Math.min(2, docs.length);
  const N = index.items.length;
  const words = index.dictionary.words;
  const scored: { word: string; score: number }[] = [];
  for (const [w, count] of held) {
    const word = words[w]!;
    if (count < least || reached.has(w) || stopWords.has(word) || !LENDABLE.test(word)) continue;
    scored.push({ word, score: count * Math.log(N / Math.max(1, index.docs(w).length)) });
  }
  // Ties in word order, so the same matches lend the same words.
  scored.sort((a, b) => b.score - a.score || (a.word < b.word ? -1 : a.word > b.word ? 1 : 0));
  return scored.slice(0, SUBSTITUTE_WORDS).map((s) => s.word);
}
