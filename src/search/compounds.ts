/**
 * Compounds the catalog does not have: a query word that reaches no indexed word at all (not as
 * typed, stemmed, as a prefix or within its typos) may be a closed compound whose last part, its
 * head in English ("bath|robe", "tool|box"), is a catalog word. A compound names a kind of its
 * head, so the items named by the head are the nearest the catalog has; its first part alone
 * (a "bath" towel) names something else and is not searched.
 *
 * @module
 */
import type { Analyzer } from './analysis';
import type { SearchIndex } from './search-index';

/** Shortest first part of a split word: a shorter one is more often a prefix than a word ("re", "un"). */
const MIN_MODIFIER = 3;
/** Shortest head: three letters, so a short head ("bag", "mat", "box") still counts. */
const MIN_HEAD = 3;
/** A word that may be split: letters only, long enough for both parts. */
const SPLITTABLE = new RegExp(`^\\p{L}{${MIN_MODIFIER + MIN_HEAD},}$`, 'u');

/**
 * The indexed words of the longest catalog word ending `text` after at least
 * {@link MIN_MODIFIER} letters (the word and the words sharing its stem), or none; neither part
 * a stop word. The longest
 * head is the most specific one ("tablecloth" is a kind of "cloth" before a kind of "loth").
 *
 * @example
 * ```ts
 * // In a catalog naming "Organic Cotton-Terry Robe" and "Linen Robes":
 * headWords(index, analyzer, 'bathrobe').map((w) => index.dictionary.words[w]); // ['robe', 'robes']
 * ```
 */
export function headWords(index: SearchIndex, analyzer: Analyzer, text: string): number[] {
  if (!SPLITTABLE.test(text)) return [];
  const dict = index.dictionary;
  for (let p = MIN_MODIFIER; p + MIN_HEAD <= text.length; p++) {
    const head = text.slice(p);
    // A stop word is no part of a compound ("forcase" is no kind of case).
    if (analyzer.stopWords.has(head) || analyzer.stopWords.has(text.slice(0, p))) continue;
    if (dict.id(head) >= 0) return index.wordsOf(head, analyzer.stem(head));
  }
  return [];
}
