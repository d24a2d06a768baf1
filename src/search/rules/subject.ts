/**
 * `subject`: the query's head term (the last one often saying what items are: "case" in
 * "galaxy s7 case", "phone" in "samsung phone", "grip" in "phone grip"; see
 * ../reading/query-head.ts) ending a phrase of the item's name ("Prepaid Cell **Phone**", not
 * "Prepaid Phone Card") or being its category's type word; else found where the item says what
 * it IS; then more query terms found there: its name outside the part saying what it fits
 * ("… for Samsung Cell Phones", "compatible with …", "fits …"), and its most specific category's
 * type word (see ../subject.ts). A term the catalog reads as a model variant after the query term
 * before it ("plus" in "iphone 6s plus") counts only right after that term, and a term up to two
 * before a model number ("galaxy" in "galaxy s6") only where the name continues to that number
 * (../reading/model-words.ts).
 *
 * Its bound counts each term where one of its words says (or names) what the item is, as the
 * readings do but for the model-run conditions and, beyond stems, the word's code.
 *
 * @module
 */
import { STEM } from '../reading/model-words';
import { NAMES_WHAT, SAYS_WHAT } from '../search-index';
import type { Rule } from './rule';
import { BY_RANKS, detailScore } from './rule';

export const subject: Rule = {
  name: 'subject',
  ints: 1,
  floats: 0,
  placeholder: false,
  needs: { head: true },
  rank(q, [values]) {
    const { counted, n, head } = q;
    const codes = q.cands.codes;
    const m = counted.length;
    // The head in a name phrase's head (2m), then each other term in the subject.
    const max = 1 + 2 * m + counted.filter((t) => t !== head).length;
    const ranks = values!;
    /**
     * The rank of a candidate whose counted terms (bit i for term i) are found where it says
     * what it is (`said`), and where that names it (`named`): the head naming the item counts
     * 2m, the head said m, each other term said 1.
     */
    const rankOf = (said: number, named: number): number => {
      let sum = 0;
      for (const i of counted) {
        const says = (said >> i) & 1;
        if (i === head) sum += (named >> i) & 1 ? 2 * m : says ? m : 0;
        else sum += says;
      }
      return 1 + sum;
    };
    return {
      ...BY_RANKS,
      ranks: [ranks],
      score: { max, least: 'positions' },
      peeks: true,
      bound({ flagsLow, flagsAll }, some) {
        const count = some ? some.length : q.size;
        for (let k = 0; k < count; k++) {
          const c = some ? some[k]! : k;
          let said = 0;
          let named = 0;
          for (const i of counted) {
            const r = c * n + i;
            // A word counts in the subject as typed or as a stem, or as good as the term's best match here.
            const flags = codes[r]! <= STEM ? flagsLow[r]! : flagsAll[r]!;
            if (flags & SAYS_WHAT) said |= 1 << i;
            if (flags & NAMES_WHAT) named |= 1 << i;
          }
          ranks[c] = rankOf(said, named);
        }
      },
      peek(c, read) {
        ranks[c] = rankOf(read.said, read.named);
      },
      exact(c, read) {
        ranks[c] = rankOf(read.said, read.named);
      },
      details(c, read, order, out) {
        let subjectWords = 0;
        for (const i of counted) subjectWords += (read!.said >> i) & 1;
        out.subject = {
          order,
          score: detailScore(ranks[c]!, max),
          head: head < 0 ? null : q.match!.query.terms[head]!.text,
          headNamesItem: head >= 0 && ((read!.named >> head) & 1) === 1,
          subjectWords,
          maxSubjectWords: m,
        };
      },
    };
  },
};
