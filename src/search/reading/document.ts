/**
 * Reading a candidate's words: one pass over its searched fields gathering, per query term,
 * what every rule's exact value needs (each rule's `exact` turns it into its rank).
 *
 * @module
 */
import { namesWhatItIs, saysWhatItIs, startsWhatItIs } from '../subject';
import { extendsModel, inSubject, otherNumber } from './model-words';
import { fieldBm25, LAST, liveSlot, MAX_DISTANCE, NEAR, near, type PositionsRead, TERM_BM25, TF } from './positions';
import type { RankQuery } from './query-context';

/** What a candidate's words tell (scratch: valid until the next reading). */
export interface DocumentRead extends PositionsRead {
  /** Candidate `c`'s row of the candidates' codes: `codes[row + i]` is term i's best code here. */
  row: number;
  /** Per term: its best field rank, position in that field and field number (-1: not found). */
  readonly bestRank: Int32Array;
  readonly bestPos: Int32Array;
  readonly bestField: Int32Array;
  /** Per term: its matches in the name, and those the name extends into another model ("s7 edge"). */
  readonly nameOcc: Int32Array;
  readonly variantOcc: Int32Array;
  /** Per term: 1 when the name follows it with a number other than the query's next term ("S7" for "s6"). */
  readonly otherNumber: Uint8Array;
  /** A field starts with the query's words as typed; one is exactly them. */
  starts: boolean;
  equal: boolean;
  /** Characters of the first searched field, and of its words the query reached; the same over every field. */
  nameChars: number;
  coveredChars: number;
  textChars: number;
  textCovered: number;
}

const READ: DocumentRead = {
  said: 0,
  named: 0,
  near: NEAR,
  termBm25: TERM_BM25,
  row: 0,
  bestRank: new Int32Array(16),
  bestPos: new Int32Array(16),
  bestField: new Int32Array(16),
  nameOcc: new Int32Array(16),
  variantOcc: new Int32Array(16),
  otherNumber: new Uint8Array(16),
  starts: false,
  equal: false,
  nameChars: 0,
  coveredChars: 0,
  textChars: 0,
  textCovered: 0,
};

/** Reads candidate `c`'s words. */
export function readDocument(q: RankQuery, c: number): DocumentRead {
  const index = q.index;
  const n = q.n;
  const F = index.searchable.length;
  const doc = q.cands.docs[c]!;
  const bestRank = READ.bestRank.fill(255, 0, n);
  const bestPos = READ.bestPos.fill(0x7fffffff, 0, n);
  const bestField = READ.bestField.fill(-1, 0, n);
  const pairs = NEAR.fill(MAX_DISTANCE, 0, n);
  const nameOcc = READ.nameOcc.fill(0, 0, n);
  const variantOcc = READ.variantOcc.fill(0, 0, n);
  const others = READ.otherNumber.fill(0, 0, n);
  const termBm25 = TERM_BM25.fill(0, 0, n);
  const { variants, slot, slotCodes, numberNext } = q;
  const spans = index.subjectSpans;
  const heads = index.nameHeads[doc]!;
  // This candidate's best code per term (its row of the candidates' codes).
  const codes = q.cands.codes;
  const partial = q.cands.partial;
  const row = c * n;
  let starts = false;
  let equal = false;
  let said = 0;
  let named = 0;
  let nameChars = 0;
  let coveredChars = 0;
  let textChars = 0;
  let textCovered = 0;
  const wordList = index.dictionary.words;
  const { tokens, offsets, fieldRank } = index;
  for (let f = 0; f < F; f++) {
    const lo = offsets[doc * F + f]!;
    const hi = offsets[doc * F + f + 1]!;
    const length = hi - lo;
    if (length === 0) continue;
    const last = LAST.fill(-1, 0, n);
    const tf = TF.fill(0, 0, n);
    let prefixExact = length >= n;
    const rank = fieldRank[f]!;
    // What the item is: its name outside the tail naming what it fits, while the name is among
    // the best fields (searchableFields or boosts may rank another first); its category's type word.
    const field = index.searchable[f];
    const readsSubject = field !== 'name' || rank === 0;
    for (let t = lo; t < hi; t++) {
      const p = t - lo;
      const s = partial ? liveSlot(q, slot[tokens[t]!]!, row) : slot[tokens[t]!]!;
      const chars = wordList[tokens[t]!]!.length;
      textChars += chars;
      if (s >= 0) textCovered += chars;
      if (f === 0) {
        nameChars += chars;
        if (s >= 0) coveredChars += chars;
      }
      if (s < 0) {
        if (p < n) prefixExact = false;
        continue;
      }
      const base = s * n;
      if (p < n && (slotCodes[base + p] !== 1 || (partial && codes[row + p] === 0))) prefixExact = false;
      const whatItIs = readsSubject && saysWhatItIs(field, p, spans, doc * 3);
      // A phrase's last word in the name, or the category's type word: what the item is named as.
      const names = whatItIs && namesWhatItIs(field, p, spans, doc * 3, heads);
      // -1: not read yet; 1 when the next word, not a query word, makes this one another model.
      let extended = -1;
      for (let i = 0; i < n; i++) {
        if (slotCodes[base + i] === 0 || (partial && codes[row + i] === 0)) continue;
        tf[i]!++;
        if (variants && field === 'name') {
          if (extended < 0) extended = extendsModel(q, t, lo, hi, heads) ? 1 : 0;
          nameOcc[i]!++;
          variantOcc[i]! += extended;
          const j = numberNext[i]!;
          if (j >= 0 && t + 1 < hi && otherNumber(q, tokens[t + 1]!, j)) others[i] = 1;
        }
        // Only the term's best match in the document counts ("iphone" is not "phone" with a typo).
        // The word as typed or its stem ("cases" for "case"); a typo or prefix only as the term's best match.
        if (whatItIs && inSubject(q, i, slotCodes[base + i]!, codes[row + i]!, t, lo, hi)) {
          said |= 1 << i;
          if (names) named |= 1 << i;
        }
        if (rank < bestRank[i]! || (rank === bestRank[i] && p < bestPos[i]!)) {
          bestRank[i] = rank;
          bestPos[i] = p;
          bestField[i] = f;
        }
        near(q, i, p, last, pairs);
      }
    }
    if (prefixExact && startsWhatItIs(field, length, n, heads)) {
      starts = true;
      if (length === n) equal = true;
    }
    fieldBm25(q, f, length, tf, termBm25);
  }
  READ.row = row;
  READ.said = said;
  READ.named = named;
  READ.starts = starts;
  READ.equal = equal;
  READ.nameChars = nameChars;
  READ.coveredChars = coveredChars;
  READ.textChars = textChars;
  READ.textCovered = textCovered;
  return READ;
}
