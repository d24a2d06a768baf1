/**
 * `customRanking`: the service's `customRanking` criteria (e.g. `popularity:desc`), each a step
 * of its own over the candidates' keys (read once per query). It also orders placeholder
 * searches. Not in `_rankingScore`.
 *
 * @module
 */
import { compareValues } from '../fields';
import { keysOf } from '../sort-keys';
import type { Rule } from './rule';

export const customRanking: Rule = {
  name: 'customRanking',
  ints: 0,
  floats: 0,
  placeholder: true,
  rank(q) {
    const criteria = q.options.customRanking;
    const keys = keysOf(q.index, q.cands.docs, criteria);
    return {
      ranks: [],
      direction: 'desc',
      steps: criteria.map((criterion, k) => {
        const values = keys[k]!;
        const sign = criterion.direction === 'asc' ? 1 : -1;
        return (a: number, b: number) => compareValues(values[a], values[b], sign);
      }),
      peeks: false,
      details(c, _read, order, out) {
        criteria.forEach((criterion, k) => {
          // Defined, not assigned: a criterion may be named __proto__.
          Object.defineProperty(out, `${criterion.field}:${criterion.direction}`, {
            value: { order, value: keys[k]?.[c] ?? null },
            enumerable: true,
            writable: true,
            configurable: true,
          });
        });
      },
    };
  },
};
