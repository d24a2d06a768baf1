/**
 * What the postings of the query's words say per candidate and term, without reading any
 * document (what the index keeps per posting: see `SearchIndex.postingFlags`): the facts each
 * rule's upper bound is computed from, one pass over the postings for all rules.
 *
 * @module
 */
import { perIndex, Scratch } from '../scratch';
import { MAX_POSTING_TF, type SearchIndex, START_POSITIONS } from '../search-index';
import { STEM } from './model-words';
import type { RankQuery } from './query-context';

/** Per candidate `c` and term `i` (at `c * n + i`), and per candidate, what its postings say (scratch: valid until the next query's). */
export interface PostingFacts {
  /** The postings' flags (SAYS_WHAT, NAMES_WHAT) of the term's words as typed or stems, and of all its words. */
  readonly flagsLow: Uint8Array;
  readonly flagsAll: Uint8Array;
  /** The term's best place: field rank << 8 | position (0xffff: none). */
  readonly place: Uint16Array;
  /** The term's words' postings here, as a list in `entries` (posting, next entry; -1 at the end): `first` is its first entry. */
  readonly first: Int32Array;
  readonly entries: Int32Array;
  /** Per candidate: bit p when term p's word as typed is at position p of a field; the lengths of the fields the first one starts. */
  readonly start: Uint8Array;
  readonly lengths: Uint8Array;
  /** Per candidate: characters of the first field, and of all, in words the query reached (Infinity: a count too large to keep). */
  readonly covered: Float64Array;
  readonly textCovered: Float64Array;
  /** Which reading these are: the next one reuses the arrays (see {@link stillValid}). */
  readonly reading: number;
}

/** Readings so far: the facts of the latest one alone are valid. */
let readings = 0;

/** Whether `facts` are still valid: no other ranker's postings were read since (their arrays are scratch). */
export function stillValid(facts: PostingFacts): boolean {
  return facts.reading === readings;
}

const BOUND_BYTES = new Scratch(Uint8Array);
const BOUND_PLACES = new Scratch(Uint16Array);
const BOUND_SUMS = new Scratch(Float64Array);
const BOUND_FIRST = new Scratch(Int32Array);
const BOUND_ENTRIES = new Scratch(Int32Array);

/** Per word of the query: the terms it reaches, and its codes for them (at most 16 terms). */
const TERMS = new Int32Array(16);
const CODES = new Uint8Array(16);

/** Document → candidate number (-1: none), per index, left all -1 after each use (queries are synchronous). */
const candidateScratch = perIndex((index: SearchIndex) => new Int32Array(index.items.length).fill(-1));

/** Reads the postings of the query's words for its candidates. */
export function readPostings(q: RankQuery): PostingFacts {
  const { index, n, size, slot, slotCodes } = q;
  const docs = q.cands.docs;
  const at = candidateScratch(index);
  for (let c = 0; c < size; c++) at[docs[c]!] = c;
  // Views of one scratch array per type (each typed array of more than 64 bytes costs an allocation outside the heap).
  const bytes = BOUND_BYTES.take(2 * size * n + 2 * size).fill(0);
  const flagsLow = bytes.subarray(0, size * n);
  const flagsAll = bytes.subarray(size * n, 2 * size * n);
  const place = BOUND_PLACES.take(size * n).fill(0xffff);
  const start = bytes.subarray(2 * size * n, 2 * size * n + size);
  const lengths = bytes.subarray(2 * size * n + size);
  const sums = BOUND_SUMS.take(2 * size).fill(0);
  const covered = sums.subarray(0, size);
  const textCovered = sums.subarray(size);
  const first = BOUND_FIRST.take(size * n).fill(-1);
  let total = 0;
  for (let i = 0; i < n; i++) for (const w of q.match!.termWords[i]!) total += index.postingStart[w + 1]! - index.postingStart[w]!;
  // Each entry is written before it is read.
  const entries = BOUND_ENTRIES.take(2 * total);
  let used = 0;
  const { postingStart, postingDocs, postingFlags, postingPositions, postingStarts, postingPlace, postingTfFirst, postingTf } = index;
  const wordList = index.dictionary.words;
  let read = 0;
  try {
    // The terms a word reaches and their codes (a word most often reaches one of the n terms).
    const reached = TERMS;
    const codeOf = CODES;
    const candCodes = q.cands.codes;
    const partial = q.cands.partial;
    for (const w of q.slots) {
      const base = slot[w]! * n;
      let m = 0;
      for (let i = 0; i < n; i++)
        if (slotCodes[base + i] !== 0) {
          reached[m] = i;
          codeOf[m++] = slotCodes[base + i]!;
        }
      const chars = wordList[w]!.length;
      for (let k = postingStart[w]!, end = postingStart[w + 1]!; k < end; k++) {
        read++;
        const c = at[postingDocs[k]!]!;
        if (c < 0) continue;
        // Only the terms matched in this candidate (see liveSlot).
        let live = !partial;
        for (let j = 0; j < m && !live; j++) live = candCodes[c * n + reached[j]!] !== 0;
        if (!live) continue;
        const flags = postingFlags[k]!;
        const inFirst = postingTfFirst[k]!;
        const all = postingTf[k]!;
        covered[c]! += inFirst === MAX_POSTING_TF ? Infinity : chars * inFirst;
        textCovered[c]! += all === MAX_POSTING_TF ? Infinity : chars * all;
        for (let j = 0; j < m; j++) {
          const i = reached[j]!;
          const code = codeOf[j]!;
          const r = c * n + i;
          if (partial && candCodes[r] === 0) continue;
          flagsAll[r]! |= flags;
          if (code <= STEM) flagsLow[r]! |= flags;
          if (postingPlace[k]! < place[r]!) place[r] = postingPlace[k]!;
          // Two numbers per entry: the posting, the next entry.
          entries[used] = k;
          entries[used + 1] = first[r]!;
          first[r] = used;
          used += 2;
          if (code === 1 && i < START_POSITIONS) {
            start[c]! |= postingPositions[k]! & (1 << i);
            if (i === 0) lengths[c] = postingStarts[k]!;
          }
        }
      }
    }
  } finally {
    for (let c = 0; c < size; c++) at[docs[c]!] = -1;
  }
  q.counts.boundPostings = read;
  return { flagsLow, flagsAll, place, first, entries, start, lengths, covered, textCovered, reading: ++readings };
}
