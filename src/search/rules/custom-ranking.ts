/**
 * `customRanking`: the service's `customRanking` criteria (e.g. `popularity:desc`), each a step
 * of its own over the candidates' keys (read once per query). It also orders placeholder
 * searches. Not in `_rankingScore`. `_behaviour` reads each item's behaviour signal.
 *
 * @module
 */
import { compareValues } from '../fields';
import { keysOf } from '../sort-keys';
import type { Rule } from './rule';

/** The criterion reading the behaviour signal of items (behaviour-ranking.ts), not a catalog field. */
export const BEHAVIOUR_FIELD = '_behaviour';

export const customRanking: Rule = {
  name: 'customRanking',
  ints: 0,
  floats: 0,
  placeholder: true,
  rank(q) {
    const criteria = q.options.customRanking;
    const keys = criteria.map(
      (c): ArrayLike<unknown> =>
        c.field === BEHAVIOUR_FIELD ? Array.from(q.cands.docs, q.options.signal ?? (() => 0)) : keysOf(q.index, q.cands.docs, [c])[0]!,
    );
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
