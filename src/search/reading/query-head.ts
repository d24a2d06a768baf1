/**
 * The query's head term: what the shopper wants an item to be (see {@link queryHead}).
 *
 * @module
 */
import { adjacent } from '../adjacency';
import type { QueryMatch } from '../matching';
import type { SearchIndex } from '../search-index';
import { startsTail } from '../subject';
import { unitAfterNumber } from '../units';

/** A query term is its head when it says what items are at least this share as often as the term saying it most, and comes later. */
const HEAD_SHARE = 0.5;
/** A query term can be its head when it names items (see subject.ts) in at least this share of the documents where it says what they are. */
const NAMES_SHARE = 0.5;
/**
 * An earlier term is the head instead when it ends the names where it says what items are at
 * least this share of the time ("faucet" in "faucet kitchen"), at least {@link ENDS_OVER} times
 * as often as the later term does, in as many names or more, and says what items are at least
 * {@link HEAD_SHARE} as often as the term saying it most, and the names write the two words side
 * by side in the other order ("Kitchen Faucet") more often than in the query's.
 */
const ENDS_SHARE = 0.3;
/** See {@link ENDS_SHARE}: how much more often the earlier term must end the names than the later one. */
const ENDS_OVER = 1.5;

/**
 * The query's head term: the last counted term that says what items are (see subject.ts) in at
 * least half as large a share of its documents as the term saying it most ("case", "protector"
 * or "grip" rather than "plus", "s7" or "samsung": English noun phrases end with what they
 * name), or that names the items it says they are in most of them, as a name phrase's last word
 * or a category's type word ("phone" in "prepaid phone", though phones are mentioned by every
 * accessory "for … Cell Phones": a "Prepaid Cell Phone" is a phone, whereas "prepaid" names
 * little; a number or a lone letter never counts as naming). Terms after "for" or "fits" qualify the head ("case for galaxy s7").
 * An earlier term that ends the catalog's names far more often than that one is the head
 * instead: a query may name the type first ("faucet kitchen", "drill cordless"; see {@link ENDS_SHARE}).
 */
export function queryHead(index: SearchIndex, match: QueryMatch | undefined, readsNamers = true): number {
  if (!match) return -1;
  const terms = match.query.terms;
  let end = terms.length;
  for (let i = 1; i < terms.length; i++) {
    if (startsTail(terms[i]!.text)) {
      end = i;
      break;
    }
  }
  const shares = new Map<number, number>();
  const measuring = unitAfterNumber(terms.map((t) => t.text));
  // Per term: how many names it ends where it says what items are, and that count's share.
  const named = new Map<number, { count: number; share: number }>();
  const namers = new Set<number>();
  let best = 0;
  for (const t of match.counted) {
    // A unit after a number measures the item ("55 inch"), it names no kind of item.
    if (t >= end || measuring[t]) continue;
    let df = 0;
    let sdf = 0;
    let ends = 0;
    const words = match.termWords[t]!;
    const codes = match.termCodes[t]!;
    // The term's own words (exact or stem), not its prefixes and typos; a term typed with a typo
    // ("backpak", "qatch"), the words it reaches with fewest typos.
    let own = 2;
    if (codes.length > 0 && codes.every((c) => c > 2)) own = Math.min(...codes);
    for (let k = 0; k < words.length; k++) {
      if (codes[k]! > own) continue;
      df += index.postingStart[words[k]! + 1]! - index.postingStart[words[k]!]!;
      sdf += index.subjectDf[words[k]!]!;
      ends += index.namedDf[words[k]!]!;
    }
    const share = df === 0 ? 0 : sdf / df;
    shares.set(t, share);
    if (share > best) best = share;
    // A number or a lone letter names no kind of item, even at a phrase's end ("Zphone 7").
    const word = /^\p{L}{2,}$/u.test(terms[t]!.text);
    named.set(t, { count: word ? ends : 0, share: word && sdf > 0 ? ends / sdf : 0 });
    if (readsNamers && sdf > 0 && ends >= NAMES_SHARE * sdf && word) namers.add(t);
  }
  // English noun phrases end with what they name ("phone grip" is a grip): the last term saying
  // what items are at least half as often as the term saying it most, or naming them.
  const floor = best * HEAD_SHARE;
  let head = -1;
  for (const [t, share] of shares) if ((share > 0 && share >= floor) || namers.has(t)) head = Math.max(head, t);
  if (head < 0) return head;
  // A query may put what it wants first ("faucet kitchen", "drill cordless"): a term that ends
  // the catalog's names far more often than the last one does names the items, and is the head.
  // The names must also write the two words side by side in the other order more often than in
  // the query's ("Kitchen Faucet"), or the earlier term qualifies the later one where it ends
  // names ("Vanity in White" is no sign that "white vanity" asks for a white).
  let pick = named.get(head)!;
  const last = head;
  for (const [t, share] of shares) {
    const other = named.get(t)!;
    if (t === head || share < floor || other.share < ENDS_SHARE) continue;
    if (other.share >= ENDS_OVER * pick.share && other.count >= pick.count && reversed(index, match, t, last)) {
      head = t;
      pick = other;
    }
  }
  return head;
}

/** The words a term is typed as or stems to (not its prefixes or typos). */
function ownWords(index: SearchIndex, match: QueryMatch, t: number): number[] {
  const term = match.query.terms[t]!;
  return index.wordsOf(term.text, term.stem);
}

/** Whether the names write term `b`'s word right before term `a`'s more often than `a`'s before `b`'s. */
function reversed(index: SearchIndex, match: QueryMatch, a: number, b: number): boolean {
  const wa = ownWords(index, match, a);
  const wb = ownWords(index, match, b);
  let balance = 0;
  for (const x of wa) for (const y of wb) balance += adjacent(index, y, x).length - adjacent(index, x, y).length;
  return balance > 0;
}
