/**
 * `priceIntent`: when the query asked for a low price with a price word ("cheap charger", see
 * the service's `priceIntent` option), the lower price first; no effect on other queries. The
 * price is read only for candidates tied on the rules before it, as the tie-break's keys are.
 *
 * @module
 */
import { compareValues } from '../fields';
import { keyReader } from '../sort-keys';
import type { Rule } from './rule';

export const priceIntent: Rule = {
  name: 'priceIntent',
  ints: 0,
  floats: 0,
  placeholder: false,
  rank(q) {
    const field = q.match?.query.priceIntent ? q.options.priceField : undefined;
    const read = field === undefined ? undefined : keyReader(q.index, { field, direction: 'asc' });
    const docs = q.cands.docs;
    return {
      ranks: [],
      direction: 'asc',
      steps: read ? [(a, b) => compareValues(read(docs[a]!), read(docs[b]!), 1)] : [],
      peeks: false,
      details(c, _read, order, out) {
        if (read) out.priceIntent = { order, value: read(docs[c]!) ?? null };
      },
    };
  },
};
