/**
 * The ranking score: absolute, in [0, 1], and independent of the other documents.
 *
 * For a query of terms t₁…tₙ, `score = (1/n) · Σᵢ qᵢ`, where qᵢ is the best match quality of tᵢ
 * over the document's words w, times the weight of the field w is in (its boost divided by the
 * largest boost; 1 without boosts):
 *
 * - w = tᵢ (exact): 1
 * - tᵢ is the last term and a prefix of w: 0.5 + 0.5 · |tᵢ| / |w|
 * - w within the allowed typos of tᵢ (Damerau distance d ≥ 1): 1 − 0.2 · d
 * - prefix with typos (last term, d typos in the first |tᵢ| letters of w): the product of both
 * - no match: 0
 *
 * So 1.0 means every query term matched exactly (in a top-weighted field); an empty query
 * (placeholder search) scores 1 for every document.
 *
 * @module
 */
import { allowedTypos, damerau } from './typos';

/**
 * Quality of one query term against one document word, before the field weight.
 *
 * @example
 * ```ts
 * matchQuality('phone', 'phone', false); // 1: exact
 * matchQuality('pho', 'phone', true);    // 0.8: prefix of the last term, 0.5 + 0.5 * 3 / 5
 * matchQuality('phnoe', 'phone', false); // 0.8: one typo (a transposition)
 * ```
 */
export function matchQuality(term: string, word: string, isLast: boolean): number {
  if (term === word) return 1;
  const allowed = allowedTypos(term.length);
  let best = 0;
  if (isLast && word.length > term.length) {
    const prefix = 0.5 + (0.5 * term.length) / word.length;
    if (word.startsWith(term)) return prefix;
    if (allowed > 0) {
      const d = damerau(term, word.slice(0, term.length), allowed);
      if (d <= allowed) best = prefix * (1 - 0.2 * d);
    }
  }
  if (allowed > 0) {
    const d = damerau(term, word, allowed);
    if (d <= allowed) best = Math.max(best, 1 - 0.2 * d);
  }
  return best;
}

/**
 * The ranking score of a document for the query terms, given the words it matched and, for
 * each word, the weight of the best field it appears in.
 *
 * @example
 * ```ts
 * rankingScore(['red', 'pho'], new Map([['red', 1], ['phone', 0.5]])); // 0.7: (1 + 0.8 * 0.5) / 2
 * rankingScore([], new Map()); // 1: a placeholder search
 * ```
 */
export function rankingScore(terms: readonly string[], words: ReadonlyMap<string, number>): number {
  if (terms.length === 0) return 1;
  let total = 0;
  terms.forEach((term, i) => {
    const isLast = i === terms.length - 1;
    let best = 0;
    for (const [word, weight] of words) {
      const q = matchQuality(term, word, isLast) * weight;
      if (q > best) best = q;
      if (best === 1) break;
    }
    total += best;
  });
  return total / terms.length;
}
