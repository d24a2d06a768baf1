/**
 * `typo`: fewer typos over the matched terms (a match's code says its typos). Known once matched.
 *
 * @module
 */
import type { Rule } from './rule';
import { BY_RANKS, detailScore } from './rule';

export const typo: Rule = {
  name: 'typo',
  ints: 1,
  floats: 0,
  placeholder: false,
  rank(q, [values]) {
    const { counted, n, cands } = q;
    const maxTypos = counted.reduce((s, t) => s + (q.match?.allowed[t] ?? 0), 0);
    const max = maxTypos + 1;
    const ranks = values!;
    for (let c = 0; c < q.size; c++) {
      let typos = 0;
      for (const t of counted) {
        const code = cands.codes[c * n + t]!;
        if (code !== 0) typos += (code - 1) >> 1;
      }
      ranks[c] = max - typos;
    }
    return {
      ...BY_RANKS,
      ranks: [ranks],
      score: { max, least: 'exact' },
      details(c, _read, order, out) {
        out.typo = { order, score: detailScore(ranks[c]!, max), typoCount: max - ranks[c]!, maxTypoCount: maxTypos };
      },
    };
  },
};
