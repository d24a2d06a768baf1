/**
 * `typo`: fewer typos over the matched terms (a match's code says its typos), then fewer terms
 * whose typos reach only the start of a longer word (on "backpak", "backpack" before
 * "backpacking"; see matching.ts). Known once matched.
 *
 * @module
 */
import type { Rule } from './rule';
import { BY_RANKS, detailScore } from './rule';

export const typo: Rule = {
  name: 'typo',
  ints: 2,
  floats: 0,
  placeholder: false,
  rank(q, [values, starts]) {
    const { counted, n, cands } = q;
    const maxTypos = counted.reduce((s, t) => s + (q.match?.allowed[t] ?? 0), 0);
    const max = maxTypos + 1;
    const ranks = values!;
    const prefixed = starts!;
    for (let c = 0; c < q.size; c++) {
      let typos = 0;
      let onlyStart = 0;
      for (const t of counted) {
        const code = cands.codes[c * n + t]!;
        if (code !== 0) typos += (code - 1) >> 1;
        // Even codes from 4: the typos reach a longer word's start, not a word.
        if (code >= 4 && (code & 1) === 0) onlyStart++;
      }
      ranks[c] = max - typos;
      prefixed[c] = counted.length - onlyStart;
    }
    return {
      ...BY_RANKS,
      ranks: [ranks, prefixed],
      score: { max, least: 'exact' },
      details(c, _read, order, out) {
        out.typo = { order, score: detailScore(ranks[c]!, max), typoCount: max - ranks[c]!, maxTypoCount: maxTypos };
      },
    };
  },
};
