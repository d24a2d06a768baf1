/**
 * Model variants, read from the catalog's names: a word right after a query's word that makes
 * the name another model ("Galaxy S7 **edge**" for "galaxy s7", "iPhone 7 **Plus**" for
 * "iphone 7"). Such a word is *inserted* between x and what otherwise follows x in the names:
 * what follows "7 edge" (32GB, 4G, Cell Phones) also follows "7" directly, while what follows
 * "7 cell" (phones) or "7 32" (GB) does not. Only words inside a phrase count (see subject.ts:
 * a phrase's last word is followed by another phrase, a colour or a carrier, not a variant).
 * The `variant` ranking rule ranks names whose match the query does not extend into another
 * model first. Statistics are gathered once per word and index, over the word's postings.
 *
 * @module
 */
import type { SearchIndex } from './search-index';
import { perIndex } from './scratch';
import { endsPhrase } from './subject';

/** A word is a variant of x when at least this share of what follows "x w" also follows x directly. */
const INSERTED_SHARE = 0.5;
/** Fewest in-phrase occurrences of "x w" followed by a word before w can be called a variant of x. */
const MIN_OCCURRENCES = 2;
/** Words whose statistics are kept per index before the cache starts over (bounds its memory). */
const MAX_CACHED_WORDS = 4096;

/** What follows word x in the names: its next words, and after each next word, the word after it. */
interface Followers {
  readonly next: ReadonlySet<number>;
  readonly after: ReadonlyMap<number, readonly number[]>;
  /** Verdicts already given for next words: a common pair ("samsung galaxy") has a list as long as the catalog, walked once. */
  readonly verdicts: Map<number, boolean>;
}

/** Variant statistics of one index (its names never change: the index is immutable). */
export class Variants {
  readonly #index: SearchIndex;
  /** The name's field number, or -1 when names are not searched. */
  readonly #name: number;
  readonly #cache = new Map<number, Followers>();
  /** Name words and follower entries read to gather statistics, since this object was made. */
  wordsRead = 0;

  constructor(index: SearchIndex) {
    this.#index = index;
    this.#name = index.searchable.indexOf('name');
  }

  /** Whether word `w` right after word `x` in a name makes it another model (see the module comment). */
  isVariant(x: number, w: number): boolean {
    const f = this.#followers(x);
    if (!f) return false;
    const known = f.verdicts.get(w);
    if (known !== undefined) return known;
    const after = f.after.get(w);
    let verdict = false;
    if (after && after.length >= MIN_OCCURRENCES) {
      this.wordsRead += after.length;
      let inserted = 0;
      for (const y of after) if (y !== w && f.next.has(y)) inserted++;
      verdict = inserted >= INSERTED_SHARE * after.length;
    }
    f.verdicts.set(w, verdict);
    return verdict;
  }

  #followers(x: number): Followers | undefined {
    if (this.#name < 0) return undefined;
    const cached = this.#cache.get(x);
    if (cached) return cached;
    const { postingDocs, postingStart, tokens, offsets, nameHeads, searchable } = this.#index;
    const F = searchable.length;
    const next = new Set<number>();
    const after = new Map<number, number[]>();
    for (let k = postingStart[x]!, end = postingStart[x + 1]!; k < end; k++) {
      const d = postingDocs[k]!;
      const lo = offsets[d * F + this.#name]!;
      const hi = offsets[d * F + this.#name + 1]!;
      const heads = nameHeads[d]!;
      this.wordsRead += hi - lo;
      for (let t = lo; t + 1 < hi; t++) {
        if (tokens[t] !== x || endsPhrase(heads, t - lo)) continue;
        const w = tokens[t + 1]!;
        next.add(w);
        if (t + 2 >= hi || endsPhrase(heads, t + 1 - lo)) continue;
        let list = after.get(w);
        if (!list) after.set(w, (list = []));
        list.push(tokens[t + 2]!);
      }
    }
    if (this.#cache.size >= MAX_CACHED_WORDS) this.#cache.clear();
    const followers = { next, after, verdicts: new Map<number, boolean>() };
    this.#cache.set(x, followers);
    return followers;
  }
}

/**
 * The variant statistics of an index, made on first use.
 *
 * @example
 * ```ts
 * const variants = variantsOf(index);
 * variants.isVariant(sevenWord, edgeWord); // true in a catalog of Galaxy S7 and S7 edge cases
 * ```
 */
export const variantsOf: (index: SearchIndex) => Variants = perIndex((index: SearchIndex) => new Variants(index));
