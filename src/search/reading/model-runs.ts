/**
 * The query's model runs: query words the catalog's names read as one model ("galaxy s6",
 * "iphone 7 plus"), per term, for the `subject` and `variant` rules. See model-words.ts for
 * how a document's words are tested against them.
 *
 * @module
 */
import type { QueryMatch } from '../matching';
import type { SearchIndex } from '../search-index';
import type { Variants } from '../variants';

const NUMBER = /^\p{N}+$/u;

/**
 * Per query term, the counted term right before it in the query when the catalog's names read
 * this one as a variant after that one ("plus" after "7" in "iphone 7 plus case"; see
 * variants.ts; both as typed), else -1. Such a term says what an item is only right after that
 * term ("Sport-Fit **Plus** Armband" is no iPhone 6s Plus case), the mirror of `variant` for an
 * item whose model stops short of the query's.
 */
export function modelAfter(index: SearchIndex, match: QueryMatch, variants: Variants, place: Int32Array): Int32Array {
  const terms = match.query.terms;
  const out = new Int32Array(terms.length).fill(-1);
  for (let i = 1; i < terms.length; i++) {
    if (place[i]! < 0 || place[i - 1]! < 0) continue;
    const x = index.dictionary.id(terms[i - 1]!.text);
    const w = index.dictionary.id(terms[i]!.text);
    if (x >= 0 && w >= 0 && variants.isVariant(x, w)) out[i] = i - 1;
  }
  return out;
}

/**
 * Per term, the number term ending the model run it starts ("galaxy" and "s" in "galaxy s6"),
 * else -1 (and -1 for every term without a head). Such a term says what an item is only where
 * the name continues the run to that number: the "Galaxy" of a "Galaxy S7 edge" handset is no Galaxy S6.
 */
export function numberAfter(match: QueryMatch | undefined, n: number, head: number, place: Int32Array): Int32Array {
  return Int32Array.from({ length: n }, (_, i) => {
    const terms = match!.query.terms;
    // The head says what the item is; the model is what it fits or is named ("case zphone 7").
    if (head < 0 || i === head || place[i]! < 0 || NUMBER.test(terms[i]!.text)) return -1;
    for (let j = i + 1; j < Math.min(n, i + 3); j++) {
      if (place[j]! < 0) return -1;
      if (NUMBER.test(terms[j]!.text)) return j;
      if (j === head) return -1;
    }
    return -1;
  });
}

/**
 * Per term, the number term right after it in the query ("6" after "s" in "galaxy s6 case",
 * "7" after "iphone"), else -1, when the `variant` rule reads them (`variants`). A name that
 * follows this term with another number and has that number nowhere names another model ("Galaxy S7").
 */
export function numberNext(match: QueryMatch | undefined, n: number, variants: Variants | undefined, place: Int32Array): Int32Array {
  return Int32Array.from({ length: n }, (_, i) => {
    const terms = match!.query.terms;
    const j = i + 1;
    if (!variants || j >= n || place[i]! < 0 || place[j]! < 0 || terms[i]!.stopWord) return -1;
    return NUMBER.test(terms[j]!.text) ? j : -1;
  });
}
