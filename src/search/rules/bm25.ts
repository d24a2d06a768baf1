/**
 * `bm25`: Okapi BM25 over the searched fields (weighted by boost; ../bm25.ts), then the share of
 * the first searched field's characters the query reached (the name's, by default: of two
 * colours of one listing, the one whose name is more what was typed), then the same share over
 * every searched field. Not in `_rankingScore`.
 *
 * Its bound is exact when each term has one word in the document (the index keeps each word's
 * share), else the sum of its words' shares (see {@link termShare}); the coverages' are exact
 * (each word's count in the first field and in all, times its length).
 *
 * @module
 */
import { bm25Idf } from '../bm25';
import type { PositionsRead } from '../reading/positions';
import { postingShare } from '../posting-share';
import { lowestBit, type SearchIndex } from '../search-index';
import type { Rule } from './rule';
import { BY_RANKS } from './rule';

/**
 * A term's postings in one document, by lowest field, and those fields (scratch, grown as needed:
 * a term has few words in one document). Typed arrays: emptying a list per candidate and term
 * cost more than its sort.
 */
let shareList: Int32Array = new Int32Array(16);
let shareKeys: Int32Array = new Int32Array(16);

/**
 * A term's BM25 share in a document (before its idf) from its words' postings, listed from
 * entry `e` of `entries` (posting, next entry): as a reading sums it, field after field, when its
 * words are in distinct fields and only the first of them (in field order) is in more than one,
 * so that adding the words' shares in field order repeats the reading's additions; else the sum
 * of the shares, above the term's (BM25's weight is concave in the count) and kept above through
 * the rounding.
 */
function termShare(index: SearchIndex, entries: Int32Array, e: number): number {
  const { postingFields } = index;
  if (entries[e + 1]! < 0) return postingShare(index, entries[e]!);
  // The postings by lowest field (insertion sort: a term has few words in one document).
  let list = shareList;
  let keys = shareKeys;
  let length = 0;
  for (let x = e; x >= 0; x = entries[x + 1]!) {
    if (length === list.length) {
      list = shareList = grown(list);
      keys = shareKeys = grown(keys);
    }
    const k = entries[x]!;
    const key = lowestBit(postingFields[k]!);
    let j = length++;
    for (; j > 0 && keys[j - 1]! > key; j--) {
      list[j] = list[j - 1]!;
      keys[j] = keys[j - 1]!;
    }
    list[j] = k;
    keys[j] = key;
  }
  let exact = postingFields[list[0]!]! !== 0;
  let sum = 0;
  let seen = 0;
  for (let j = 0; j < length; j++) {
    const fields = postingFields[list[j]!]!;
    if (fields === 0 || (fields & seen) !== 0 || (j > 0 && (fields & (fields - 1)) !== 0) || (j > 0 && keys[j]! < 31 - Math.clz32(seen)))
      exact = false;
    seen |= fields;
    sum += postingShare(index, list[j]!);
  }
  return exact ? sum : sum * (1 + 2 ** -40);
}

/** `a` copied into one twice as long. */
function grown(a: Int32Array): Int32Array {
  const b = new Int32Array(2 * a.length);
  b.set(a);
  return b;
}

/** Rounded to 6 decimals in `_rankingScoreDetails`. */
const rounded = (x: number): number => Math.round(x * 1e6) / 1e6;

export const bm25: Rule = {
  name: 'bm25',
  ints: 0,
  floats: 3,
  placeholder: false,
  rank(q, _ints, [value, coverageOf, textCoverageOf]) {
    const { counted, n, index, cands } = q;
    const N = index.items.length;
    const idf = Float64Array.from({ length: n }, (_, i) => bm25Idf(N, Math.max(cands.df[i] ?? 0, 1)));
    const values = value!;
    // Share of the first field's characters in words the query reached (bm25's own tie-breaker), and the same over every searched field.
    const coverage = coverageOf!;
    const textCoverage = textCoverageOf!;
    const set = (c: number, { termBm25 }: PositionsRead): void => {
      let sum = 0;
      for (const i of counted) sum += idf[i]! * termBm25[i]!;
      values[c] = sum;
    };
    return {
      ...BY_RANKS,
      ranks: [values, coverage, textCoverage],
      peeks: true,
      bound({ first, entries, covered, textCovered }, some) {
        const docs = cands.docs;
        const count = some ? some.length : q.size;
        for (let k = 0; k < count; k++) {
          const c = some ? some[k]! : k;
          let sum = 0;
          for (const i of counted) {
            const e = first[c * n + i]!;
            if (e >= 0) sum += idf[i]! * termShare(index, entries, e);
          }
          values[c] = sum;
          const doc = docs[c]!;
          coverage[c] = index.firstChars[doc] === 0 ? 0 : Math.min(1, covered[c]! / index.firstChars[doc]!);
          textCoverage[c] = index.textChars[doc] === 0 ? 0 : Math.min(1, textCovered[c]! / index.textChars[doc]!);
        }
      },
      peek: set,
      exact(c, read) {
        set(c, read);
        coverage[c] = read.nameChars === 0 ? 0 : read.coveredChars / read.nameChars;
        textCoverage[c] = read.textChars === 0 ? 0 : read.textCovered / read.textChars;
      },
      details(c, _read, order, out) {
        out.bm25 = { order, value: rounded(values[c]!), coverage: rounded(coverage[c]!), textCoverage: rounded(textCoverage[c]!) };
      },
    };
  },
};
