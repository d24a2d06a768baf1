/**
 * `words`: more matched query terms, weighted by `matchingStrategy` (by rarity for
 * `frequency`, by query order for `last`; `all` matches every term), then more of them found
 * outside prose (see {@link proseFields}) by a word reached without a typo: of two items matching
 * the same words, the one whose name, brand or category holds them before the one only whose
 * description does. Known once matched, the second rank once the postings are read (`bound`,
 * exact), before any document is.
 *
 * @module
 */
import { proseFields } from '../prose';
import { OUTSIDE_PROSE } from '../search-index';
import type { Rule } from './rule';
import { BY_RANKS, detailScore } from './rule';

/** Levels of the weighted `words` rank. */
const WORD_LEVELS = 1000;

export const words: Rule = {
  name: 'words',
  ints: 1,
  floats: 0,
  placeholder: false,
  rank(q, [values]) {
    const { counted, n, cands, index } = q;
    const strategy = q.options.strategy;
    const m = counted.length;
    const N = index.items.length;
    // Weights per strategy: by rarity, or by query order (dropping terms from the end).
    const weights = new Float64Array(n);
    counted.forEach((t, k) => {
      weights[t] = strategy === 'frequency' ? Math.log(1 + N / Math.max(cands.df[t] ?? 0, 1)) : 2 ** (m - 1 - k);
    });
    // The rank: the weighted level of the matched terms, then how many of them are found outside prose (0 … m).
    const levels = strategy === 'all' ? 1 : strategy === 'last' ? 2 ** m : WORD_LEVELS + 1;
    const per = m + 1;
    const max = levels * per;
    const totalWeight = counted.reduce((s, t) => s + weights[t]!, 0);
    const ranks = values!;
    const prose = proseFields(index);
    const terms = Int32Array.from(counted);
    /** The rank of the counted terms matched (bit k: the k-th), before bound() adds those outside prose. */
    const rankOf = (mask: number): number => {
      let weight = 0;
      let matched = 0;
      for (let k = 0; k < m; k++)
        if ((mask >> k) & 1) {
          weight += weights[terms[k]!]!;
          matched++;
        }
      const level = strategy === 'all' ? 1 : strategy === 'last' ? 1 + weight : 1 + Math.round((WORD_LEVELS * weight) / (totalWeight || 1));
      // Without prose fields every matched term is outside prose; with them, bound() adds those it finds in the postings.
      return (level - 1) * per + (prose === 0 ? matched : 0) + 1;
    };
    // A query has at most ten terms (MAX_QUERY_TERMS): each set of matched terms' rank is computed once.
    const known = new Int32Array(1 << Math.min(m, 10)).fill(-1);
    const codes = cands.codes;
    for (let c = 0, row = 0; c < q.size; c++, row += n) {
      let mask = 0;
      for (let k = 0; k < m; k++) if (codes[row + terms[k]!]! !== 0) mask |= 1 << k;
      let rank = mask < known.length ? known[mask]! : -1;
      if (rank < 0) {
        rank = rankOf(mask);
        if (mask < known.length) known[mask] = rank;
      }
      ranks[c] = rank;
    }
    return {
      ...BY_RANKS,
      ranks: [ranks],
      ...(prose === 0
        ? {}
        : {
            // A term counts where a word it reaches without a typo (as typed, a stem, a prefix, a synonym) is in a
            // field that is not prose: a name's word a typo away says less than the word in a description.
            bound({ flagsLow }) {
              for (let c = 0, row = 0; c < q.size; c++, row += n) {
                let outside = 0;
                for (let k = 0; k < m; k++) if ((flagsLow[row + terms[k]!]! & OUTSIDE_PROSE) !== 0) outside++;
                ranks[c]! += outside;
              }
            },
          }),
      score: {
        max,
        least: 'exact',
        share(span, r) {
          const level = Math.floor((r - 1) / per) + 1;
          // A thousand rarity levels would leave every full match above 0.999: all of them share the
          // top m/(m+1) of the span (m counted terms, Meilisearch's words score), the partial
          // matches the rest by their weighted share.
          if (levels > 1) {
            const top = m / (m + 1);
            if (level === levels) {
              span.lo += span.width * top;
              span.width *= 1 - top;
            } else {
              span.width = (span.width * top) / (levels - 1);
              span.lo += span.width * (level - 1);
            }
          }
          // Then the terms found outside prose: the top of that share for all of them.
          span.width /= per;
          span.lo += span.width * ((r - 1) % per);
        },
      },
      details(c, _read, order, out) {
        let matched = 0;
        for (const t of counted) if (cands.codes[c * n + t]! !== 0) matched++;
        out.words = { order, score: detailScore(ranks[c]!, max), matchingWords: matched, maxMatchingWords: m };
      },
    };
  },
};
