/**
 * `words`: more matched query terms, weighted by `matchingStrategy` (by rarity for
 * `frequency`, by query order for `last`; `all` matches every term). Known once matched.
 *
 * @module
 */
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
    const { counted, n, cands } = q;
    const strategy = q.options.strategy;
    const m = counted.length;
    const N = q.index.items.length;
    // Weights per strategy: by rarity, or by query order (dropping terms from the end).
    const weights = new Float64Array(n);
    counted.forEach((t, k) => {
      weights[t] = strategy === 'frequency' ? Math.log(1 + N / Math.max(cands.df[t] ?? 0, 1)) : 2 ** (m - 1 - k);
    });
    const max = strategy === 'all' ? 1 : strategy === 'last' ? 2 ** m : WORD_LEVELS + 1;
    const totalWeight = counted.reduce((s, t) => s + weights[t]!, 0);
    const ranks = values!;
    for (let c = 0; c < q.size; c++) {
      let weight = 0;
      for (const t of counted) if (cands.codes[c * n + t]! !== 0) weight += weights[t]!;
      ranks[c] = strategy === 'all' ? 1 : strategy === 'last' ? 1 + weight : 1 + Math.round((WORD_LEVELS * weight) / (totalWeight || 1));
    }
    return {
      ...BY_RANKS,
      ranks: [ranks],
      score: {
        max,
        least: 'exact',
        share(span, r) {
          // A thousand rarity levels would leave every full match above 0.999: all of them share the
          // top m/(m+1) of the span (m counted terms, Meilisearch's words score), the partial
          // matches the rest by their weighted share.
          const top = m / (m + 1);
          if (r === max) {
            span.lo += span.width * top;
            span.width *= 1 - top;
          } else {
            span.width = (span.width * top) / (max - 1);
            span.lo += span.width * (r - 1);
          }
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
