/**
 * `variant`: fewer query terms whose every match in the name the name extends into another
 * model: a run of query words ("galaxy s7", "iphone 7") followed by a word the query did not
 * type that the catalog's names insert between that word and what otherwise follows it
 * ("Galaxy S7 **edge**", "iPhone 7 **Plus**"; not "Cell Phones", "32GB" or "and"; see
 * ../variants.ts), or numbers it otherwise: the name follows a query word with a number other
 * than the one the query typed after it, and has the query's nowhere ("Galaxy S**7**" for
 * "galaxy s6"). Its bound is its best.
 *
 * @module
 */
import type { Rule } from './rule';
import { BY_RANKS, detailScore } from './rule';

export const variant: Rule = {
  name: 'variant',
  ints: 1,
  floats: 0,
  placeholder: false,
  needs: { variants: true },
  rank(q, [values]) {
    const { counted, numberNext } = q;
    const max = counted.length + 1;
    const ranks = values!;
    return {
      ...BY_RANKS,
      ranks: [ranks],
      score: { max, least: 'one' },
      bound(_facts, some) {
        if (!some) ranks.fill(max, 0, q.size);
        else for (let k = 0; k < some.length; k++) ranks[some[k]!] = max;
      },
      exact(c, { nameOcc, variantOcc, otherNumber }) {
        let variantTerms = 0;
        for (const i of counted) {
          // Every name match continues into another model, or the name numbers the model otherwise
          // and never as the query does ("Galaxy S7 edge" on "galaxy s6 edge case", whose description mentions the S6).
          const renumbered = otherNumber[i] === 1 && nameOcc[numberNext[i]!] === 0;
          if ((nameOcc[i]! > 0 && variantOcc[i] === nameOcc[i]) || renumbered) variantTerms++;
        }
        ranks[c] = max - variantTerms;
      },
      details(c, _read, order, out) {
        out.variant = { order, score: detailScore(ranks[c]!, max), variantTerms: max - ranks[c]! };
      },
    };
  },
};
