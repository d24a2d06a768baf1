/**
 * Reading the positions of a candidate's query words alone, far less work per word than
 * reading the document (document.ts): what `subject`, `proximity` and `bm25` need, the step
 * before reading a candidate whose other bounds reach the page (see `Ranker.ordered`). The
 * pair distances and field shares both readings gather are here.
 *
 * @module
 */
import { bm25Norm, bm25Share } from '../bm25';
import { namesWhatItIs, saysWhatItIs } from '../subject';
import { inSubject } from './model-words';
import type { RankQuery } from './query-context';

/** Farthest proximity counted between two terms (also the distance of terms not both found in one field). */
export const MAX_DISTANCE = 8;

/** What the positions of a candidate's query words tell (scratch: valid until the next reading). */
export interface PositionsRead {
  /** Bit i: term i found where the item says what it is (see subject.ts), counting in the subject. */
  said: number;
  /** Bit i: the same where that names the item (a name phrase's last word, the category's type word). */
  named: number;
  /** Per pair of consecutive counted terms: their least distance in one field (see {@link near}). */
  readonly near: Int32Array;
  /** Per term: its BM25 share summed over the fields, before its idf (see {@link fieldBm25}). */
  readonly termBm25: Float64Array;
}

// Per-term scratch of the readings (at most 10 terms; readings are synchronous).
export const NEAR = new Int32Array(16);
export const TERM_BM25 = new Float64Array(16);
export const LAST = new Int32Array(16);
export const TF = new Int32Array(16);

const READ: PositionsRead = { said: 0, named: 0, near: NEAR, termBm25: TERM_BM25 };

/**
 * Term `i` found at position `p` of a field: the distances to the terms next to it in the
 * query, found before it in the field (`last`), narrow `near` (per pair of counted terms).
 */
export function near(q: RankQuery, i: number, p: number, last: Int32Array, pairs: Int32Array): void {
  const counted = q.counted;
  const k = q.place[i]!;
  if (k > 0) {
    const before = last[counted[k - 1]!]!;
    if (before >= 0) {
      // Measured against the gap in the query: "3-in-1" has its stop word between 3 and 1.
      const gap = i - counted[k - 1]!;
      const d = Math.min(MAX_DISTANCE, 1 + Math.abs(p - before - gap));
      if (d < pairs[k - 1]!) pairs[k - 1] = d;
    }
  }
  if (k >= 0 && k < counted.length - 1) {
    const after = last[counted[k + 1]!]!;
    // Reversed order costs one more than the same gap in order.
    if (after >= 0) {
      const d = Math.min(MAX_DISTANCE, p - after + 1);
      if (d < pairs[k]!) pairs[k] = d;
    }
  }
  last[i] = p;
}

/**
 * Adds field `f`'s BM25 share of each counted term found `tf[i]` times in its `length` words to
 * `termBm25` (the idf is applied after: a term matched by one word then has exactly the share
 * the index keeps for that word, its bound).
 */
export function fieldBm25(q: RankQuery, f: number, length: number, tf: Int32Array, termBm25: Float64Array): void {
  const index = q.index;
  const norm = bm25Norm(length, index.averageLength[f]!);
  for (const i of q.counted) if (tf[i]! > 0) termBm25[i]! += bm25Share(index.fieldWeight[f]!, tf[i]!, norm);
}

/** Reads the positions of candidate `c`'s query words. */
export function readPositions(q: RankQuery, c: number): PositionsRead {
  const index = q.index;
  const n = q.n;
  const F = index.searchable.length;
  const doc = q.cands.docs[c]!;
  const pairs = NEAR.fill(MAX_DISTANCE, 0, n);
  const termBm25 = TERM_BM25.fill(0, 0, n);
  const { tokens, offsets, subjectSpans: spans } = index;
  const { slot, slotCodes } = q;
  const heads = index.nameHeads[doc]!;
  const codes = q.cands.codes;
  const partial = q.cands.partial;
  const row = c * n;
  let said = 0;
  let named = 0;
  for (let f = 0; f < F; f++) {
    const lo = offsets[doc * F + f]!;
    const hi = offsets[doc * F + f + 1]!;
    if (hi === lo) continue;
    const last = LAST.fill(-1, 0, n);
    const tf = TF.fill(0, 0, n);
    const field = index.searchable[f];
    const readsSubject = field !== 'name' || index.fieldRank[f] === 0;
    for (let t = lo; t < hi; t++) {
      const s = partial ? liveSlot(q, slot[tokens[t]!]!, row) : slot[tokens[t]!]!;
      if (s < 0) continue;
      const base = s * n;
      const p = t - lo;
      const whatItIs = readsSubject && saysWhatItIs(field, p, spans, doc * 3);
      const names = whatItIs && namesWhatItIs(field, p, spans, doc * 3, heads);
      for (let i = 0; i < n; i++) {
        if (slotCodes[base + i] === 0 || (partial && codes[row + i] === 0)) continue;
        tf[i]!++;
        if (whatItIs && inSubject(q, i, slotCodes[base + i]!, codes[row + i]!, t, lo, hi)) {
          said |= 1 << i;
          if (names) named |= 1 << i;
        }
        near(q, i, p, last, pairs);
      }
    }
    fieldBm25(q, f, hi - lo, tf, termBm25);
  }
  q.counts.positionsRead++;
  READ.said = said;
  READ.named = named;
  return READ;
}

/**
 * A word's slot (-1: none) for the candidate whose codes start at `row`, or -1 when every term
 * the word reaches matched nothing in that candidate: a word counts where its term matched (the
 * numbers of a "2x4" in an item writing no dimensions, a slip's reading beside no other query
 * word as typed, a dropped stranger's typo), not wherever it is written.
 */
export function liveSlot(q: RankQuery, s: number, row: number): number {
  if (s < 0 || !q.cands.partial) return s;
  const { n, slotCodes } = q;
  const codes = q.cands.codes;
  for (let i = 0, base = s * n; i < n; i++) if (slotCodes[base + i] !== 0 && codes[row + i] !== 0) return s;
  return -1;
}
