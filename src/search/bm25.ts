/**
 * Okapi BM25, the measure of the `bm25` ranking rule, written once: the index computes each
 * posting's share with it (the bound a candidate holds until its words are read) and the ranker
 * the exact value, and a word alone in a document must give both the same number, so both call
 * these functions, whose operations and their order are part of that contract.
 *
 * A document's score for a query is `Σ_term idf(term) · Σ_field weight · tf · (k1 + 1) / (tf + norm)`,
 * with `norm = k1 · (1 − b + b · length / averageLength)` over the field's words.
 *
 * @module
 */

/**
 * BM25's parameters, the usual values: `k1` saturates a word's count (its second occurrence in
 * a field adds less than the first), `b` how much a longer field than the average weakens a word.
 */
export const BM25_PARAMETERS = { k1: 1.2, b: 0.75 } as const;

const { k1, b } = BM25_PARAMETERS;
// Derived once (1.2 + 1 and 1 - 0.75 are exact in binary floating point: the same numbers as written out).
const K1_PLUS_1 = k1 + 1;
const ONE_MINUS_B = 1 - b;

/** The rarity weight of a term `df` documents of `items` match (`df` ≥ 1), never negative. */
export function bm25Idf(items: number, df: number): number {
  return Math.log(1 + (items - df + 0.5) / (df + 0.5));
}

/** The length normalisation of a field of `length` words whose mean length over the documents is `average` (0: none). */
export function bm25Norm(length: number, average: number): number {
  return k1 * (ONE_MINUS_B + (b * length) / (average || 1));
}

/** The share (before the idf) of a word found `tf` times in a field of weight `weight` whose normalisation is `norm`. */
export function bm25Share(weight: number, tf: number, norm: number): number {
  return weight * ((tf * K1_PLUS_1) / (tf + norm));
}
