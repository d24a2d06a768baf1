/**
 * How a document's words meet the query's model runs (see model-runs.ts) while it is read: a
 * term counting in the subject only where its run continues, a name word extended into another
 * model, a number other than the query's.
 *
 * @module
 */
import { endsPhrase } from '../subject';
import type { RankQuery } from './query-context';

/** The match code of a stem (1: the word as typed; higher: prefixes and typos). */
export const STEM = 2;

/**
 * Whether term `i`, matched by the word at token `t` of a field at `[lo, hi)`, is followed by
 * the rest of the model run it starts up to its number, and follows the term it makes a model
 * run with, when it has them.
 */
function continuesModel(q: RankQuery, i: number, t: number, lo: number, hi: number): boolean {
  const until = q.numberAfter[i]!;
  for (let j = i + 1, k = t + 1; until >= 0 && j <= until; j++, k++) {
    if (k >= hi) return false;
    const slot = q.slot[q.index.tokens[k]!]!;
    if (slot < 0 || q.slotCodes[slot * q.n + j] === 0) return false;
  }
  const before = q.modelAfter[i]!;
  if (before < 0) return true;
  if (t === lo) return false;
  const slot = q.slot[q.index.tokens[t - 1]!]!;
  return slot >= 0 && q.slotCodes[slot * q.n + before] !== 0;
}

/**
 * Whether term `i`, matched with code `code` by the word at token `t` of a field at `[lo, hi)`
 * where that word says what the item is, counts in the subject: as typed or as a stem, or as
 * good as the term's best match in the document (`best`), and continuing its model run.
 */
export function inSubject(q: RankQuery, i: number, code: number, best: number, t: number, lo: number, hi: number): boolean {
  return code <= Math.max(best, STEM) && continuesModel(q, i, t, lo, hi);
}

/**
 * Whether the name word at token `t` (of a name at `[lo, hi)`) ends a run of query words (the
 * word before it is one: "galaxy s7", "iphone 7", not "iphone" alone) and the next word, which
 * the query did not type and is no stop word, makes it another model ("edge" after "s7", see
 * variants.ts).
 */
export function extendsModel(q: RankQuery, t: number, lo: number, hi: number, heads: number): boolean {
  if (t === lo || t + 1 >= hi || endsPhrase(heads, t - lo)) return false;
  const tokens = q.index.tokens;
  const next = tokens[t + 1]!;
  if (q.slot[tokens[t - 1]!]! < 0 || q.slot[next]! >= 0) return false;
  if (q.stopWords.has(q.index.dictionary.words[next]!)) return false;
  return q.variants!.isVariant(tokens[t]!, next);
}

/** Whether indexed word `w` is a number that query term `j` (a number) does not match. */
export function otherNumber(q: RankQuery, w: number, j: number): boolean {
  if (!/^\p{N}+$/u.test(q.index.dictionary.words[w]!)) return false;
  const slot = q.slot[w]!;
  return slot < 0 || q.slotCodes[slot * q.n + j] === 0;
}
