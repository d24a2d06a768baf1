/**
 * `proximity`: matched terms closer together, in query order (distance 1 = as far apart as in
 * the query, so "3-in-1" matches "3 in 1" at distance 1 although "in" is a stop word; at most 8
 * per pair: ../reading/positions.ts). Its bound is its best; the positions of the query's words
 * give its exact value before the document is read.
 *
 * @module
 */
import { MAX_DISTANCE, type PositionsRead } from '../reading/positions';
import type { Rule } from './rule';
import { BY_RANKS, detailScore } from './rule';

export const proximity: Rule = {
  name: 'proximity',
  ints: 1,
  floats: 0,
  placeholder: false,
  rank(q, [values]) {
    const m = q.counted.length;
    const pairs = Math.max(0, m - 1);
    const max = (MAX_DISTANCE - 1) * pairs + 1;
    const ranks = values!;
    const distanceOf = (read: PositionsRead): number => {
      let distance = 0;
      for (let k = 0; k + 1 < m; k++) distance += read.near[k]!;
      return distance;
    };
    const set = (c: number, read: PositionsRead): void => {
      ranks[c] = max - (distanceOf(read) - pairs);
    };
    return {
      ...BY_RANKS,
      ranks: [ranks],
      score: { max, least: 'positions' },
      // One term has no pair: its bound is exact.
      peeks: m > 1,
      bound(_facts, some) {
        if (!some) ranks.fill(max, 0, q.size);
        else for (let k = 0; k < some.length; k++) ranks[some[k]!] = max;
      },
      peek: set,
      exact: set,
      details(c, read, order, out) {
        out.proximity = {
          order,
          score: detailScore(ranks[c]!, max),
          distance: distanceOf(read!),
          minDistance: pairs,
          maxDistance: pairs * MAX_DISTANCE,
        };
      },
    };
  },
};
