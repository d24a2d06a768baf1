/**
 * `exactness`: the whole field equal to the query, then a field starting with it (in the name,
 * where the query's last word ends the phrase it starts: "Ceiling Fan in White" starts with
 * "ceiling fan", "Ceiling Fan Light Kit" names a kit; see startsWhatItIs), then more
 * terms matched as typed (not through a prefix, stem, synonym or typo). Its bound is exact: the
 * terms matched as typed, and, when the postings put each term's word as typed at its place in
 * some field, the first words of the candidate's fields.
 *
 * @module
 */
import type { RankQuery } from '../reading/query-context';
import { START_POSITIONS } from '../search-index';
import { startsWhatItIs } from '../subject';
import type { Rule } from './rule';
import { BY_RANKS, detailScore } from './rule';

/** Whether a field of `doc` starts with the query's words as typed (`starts`), and one is exactly them (`equal`), as a reading finds them. */
function fieldStarts(q: RankQuery, c: number): { starts: boolean; equal: boolean } {
  const doc = q.cands.docs[c]!;
  const row = c * q.n;
  const { tokens, offsets } = q.index;
  const F = q.index.searchable.length;
  const n = q.n;
  let starts = false;
  let equal = false;
  for (let f = 0; f < F; f++) {
    const lo = offsets[doc * F + f]!;
    const length = offsets[doc * F + f + 1]! - lo;
    if (length < n || length === 0) continue;
    let p = 0;
    for (; p < n; p++) {
      const slot = q.slot[tokens[lo + p]!]!;
      if (slot < 0 || q.slotCodes[slot * n + p] !== 1 || q.cands.codes[row + p] === 0) break;
    }
    if (p < n) continue;
    if (!startsWhatItIs(q.index.searchable[f], length, n, q.index.nameHeads[doc]!)) continue;
    starts = true;
    if (length === n) equal = true;
  }
  return { starts, equal };
}

export const exactness: Rule = {
  name: 'exactness',
  ints: 1,
  floats: 0,
  placeholder: false,
  rank(q, [values]) {
    const { counted, n, cands } = q;
    const codes = cands.codes;
    const max = counted.length + 3;
    const ranks = values!;
    /** Terms of candidate `c` matched as typed. */
    const exactWords = (c: number): number => {
      let exact = 0;
      for (const i of counted) if (codes[c * n + i] === 1) exact++;
      return exact;
    };
    return {
      ...BY_RANKS,
      ranks: [ranks],
      score: { max, least: 'exact' },
      bound({ start, lengths }, some) {
        const count = some ? some.length : q.size;
        for (let k = 0; k < count; k++) {
          const c = some ? some[k]! : k;
          // Every term's word as typed at its place (the first START_POSITIONS of them), in some field:
          // then the fields' first words tell (a few words, not the document).
          let starts = start[c] === (1 << Math.min(n, START_POSITIONS)) - 1;
          let equal = starts && (n > START_POSITIONS || (lengths[c]! & (1 << (n - 1))) !== 0);
          if (starts) {
            q.counts.startsRead++;
            ({ starts, equal } = fieldStarts(q, c));
          }
          ranks[c] = 1 + exactWords(c) + (starts ? 1 : 0) + (equal ? 1 : 0);
        }
      },
      exact(c, read) {
        ranks[c] = 1 + exactWords(c) + (read.starts ? 1 : 0) + (read.equal ? 1 : 0);
      },
      details(c, read, order, out) {
        out.exactness = {
          order,
          score: detailScore(ranks[c]!, max),
          exactWords: exactWords(c),
          matchType: read!.equal ? 'exactMatch' : read!.starts ? 'matchesStart' : 'noExactMatch',
        };
      },
    };
  },
};
