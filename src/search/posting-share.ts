/**
 * A posting's BM25 share, as the `bm25` rule's bound reads it from the index (see bm25.ts).
 *
 * @module
 */
import { bm25Norm, bm25Share } from './bm25';
import { lowestBit, MAX_POSTING_TF, type SearchIndex } from './search-index';

/**
 * The BM25 share (before the idf) of posting `k`, the same number a document reading (reading/document.ts) computes for a term
 * matched by that word alone in the document: exactly when the word is in one searched field, or
 * in the first and one other (their counts are kept), below {@link MAX_POSTING_TF} times;
 * otherwise the float32 above it that the index keeps.
 */
export function postingShare(index: SearchIndex, k: number): number {
  const fields = index.postingFields[k]!;
  const tf = index.postingTf[k]!;
  if (fields !== 0 && tf < MAX_POSTING_TF) {
    const f = lowestBit(fields);
    const rest = fields & (fields - 1);
    if (rest === 0) return fieldShare(index, index.postingDocs[k]!, f, tf);
    if (f === 0 && (rest & (rest - 1)) === 0) {
      const doc = index.postingDocs[k]!;
      const first = index.postingTfFirst[k]!;
      return fieldShare(index, doc, 0, first) + fieldShare(index, doc, lowestBit(rest), tf - first);
    }
  }
  return index.postingBm25[k]!;
}

/** The BM25 share of a word found `n` times in field `f` of document `doc`. */
function fieldShare(index: SearchIndex, doc: number, f: number, n: number): number {
  const F = index.searchable.length;
  const length = index.offsets[doc * F + f + 1]! - index.offsets[doc * F + f]!;
  return bm25Share(index.fieldWeight[f]!, n, bm25Norm(length, index.averageLength[f]!));
}
