/**
 * `attribute`: the best field a term is in (`searchableFields` order, or boost), then the
 * earliest position in it. Its bound is exact: each term's best field rank and position are
 * kept per posting.
 *
 * @module
 */
import type { Rule } from './rule';
import { BY_RANKS, detailScore } from './rule';

/** Farthest position counted by `attribute`. */
const MAX_POSITION = 15;

export const attribute: Rule = {
  name: 'attribute',
  ints: 1,
  floats: 0,
  placeholder: false,
  rank(q, [values]) {
    const { counted, n, index } = q;
    const m = counted.length;
    const worstRank = index.fieldRanks - 1;
    const positions = m * MAX_POSITION + 1;
    const max = (m * worstRank + 1) * positions;
    const ranks = values!;
    const rankOf = (rankExcess: number, posExcess: number): number =>
      (m * worstRank - rankExcess) * positions + (m * MAX_POSITION - posExcess) + 1;
    return {
      ...BY_RANKS,
      ranks: [ranks],
      score: { max, least: 'exact' },
      bound({ place }, some) {
        const count = some ? some.length : q.size;
        for (let k = 0; k < count; k++) {
          const c = some ? some[k]! : k;
          let rankExcess = 0;
          let posExcess = 0;
          for (const i of counted) {
            // Field rank << 8 | position.
            const best = place[c * n + i]!;
            if (best === 0xffff) {
              rankExcess += worstRank;
              posExcess += MAX_POSITION;
            } else {
              rankExcess += best >> 8;
              posExcess += Math.min(MAX_POSITION, Math.max(0, (best & 255) - i));
            }
          }
          ranks[c] = rankOf(rankExcess, posExcess);
        }
      },
      exact(c, { bestRank, bestPos, bestField }) {
        let rankExcess = 0;
        let posExcess = 0;
        for (const i of counted) {
          if (bestField[i]! < 0) {
            rankExcess += worstRank;
            posExcess += MAX_POSITION;
          } else {
            rankExcess += bestRank[i]!;
            posExcess += Math.min(MAX_POSITION, Math.max(0, bestPos[i]! - i));
          }
        }
        ranks[c] = rankOf(rankExcess, posExcess);
      },
      details(c, read, order, out) {
        const { bestRank, bestPos, bestField } = read!;
        // The field and position of the best-placed counted term.
        let best = -1;
        for (const i of counted)
          if (
            bestField[i]! >= 0 &&
            (best < 0 || bestRank[i]! < bestRank[best]! || (bestRank[i] === bestRank[best] && bestPos[i]! < bestPos[best]!))
          )
            best = i;
        out.attribute = {
          order,
          score: detailScore(ranks[c]!, max),
          field: best < 0 ? null : index.searchable[bestField[best]!]!,
          position: best < 0 ? null : bestPos[best]!,
        };
      },
    };
  },
};
