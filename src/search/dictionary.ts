/**
 * The term dictionary of an index: a character trie in flat typed arrays, walked by a bounded
 * Damerau–Levenshtein automaton (one row of the distance table per trie node, pruned as soon as
 * every cell of a row exceeds the allowed typos). A lookup's cost is bounded by the dictionary,
 * and each visited node costs the cells within the allowed typos of the diagonal, at most
 * `term.length + 1`: never a number of edits enumerated.
 *
 * @module
 */
import { Scratch } from './scratch';

/** Most words a term may reach through prefixes and typos (the most common prefixes stay cheap). */
export const MAX_DERIVATIONS = 1000;

/** Work done by lookups, for tests and benchmarks that count it. */
export interface LookupWork {
  /** Trie nodes visited (each one row of at most `term.length + 1` cells). */
  nodes: number;
  /** Words emitted. */
  words: number;
}

/**
 * A sorted set of words, each with a number, answering exact, prefix and typo-tolerant lookups.
 *
 * @example
 * ```ts
 * const dict = Dictionary.of(['case', 'cases', 'galaxy']);
 * const found: [string, number][] = [];
 * dict.lookup('galxay', 1, false, 100, (id, typos) => found.push([dict.words[id]!, typos]));
 * found; // [['galaxy', 1]]: one adjacent swap is one typo
 * ```
 */
export class Dictionary {
  /** Word number → word. */
  readonly words: readonly string[];
  readonly #ids: Map<string, number>;
  // Trie: node 0 is the root; children are linked first-child / next-sibling.
  readonly #char: Uint16Array;
  readonly #child: Int32Array;
  readonly #sibling: Int32Array;
  readonly #word: Int32Array;
  readonly #maxDepth: number;

  /** A dictionary of distinct words numbered by their position in `words`. */
  static of(words: readonly string[]): Dictionary {
    const steps = Dictionary.steps(words);
    let step = steps.next();
    while (!step.done) step = steps.next();
    return step.value;
  }

  /** {@link Dictionary.of} in steps: the caller may pause at every `yield` (every 512 words). */
  static *steps(words: readonly string[]): Generator<void, Dictionary> {
    const ids = new Map<string, number>();
    let size = 1;
    for (let i = 0; i < words.length; i++) {
      ids.set(words[i]!, i);
      size += words[i]!.length;
      if (i % 1024 === 1023) yield;
    }
    const char = new Uint16Array(size);
    const child = new Int32Array(size).fill(-1);
    const sibling = new Int32Array(size).fill(-1);
    const word = new Int32Array(size).fill(-1);
    // Words are inserted in any order, each child kept in its place among its siblings (by UTF-16
    // code unit): the trie is the one sorted insertion would give, without sorting every word at
    // once (hundreds of thousands of words would block for a long time).
    let nodes = 1;
    let maxDepth = 0;
    for (let k = 0; k < words.length; k++) {
      if (k % 512 === 511) yield;
      const w = words[k]!;
      let node = 0;
      for (let d = 0; d < w.length; d++) {
        const c = w.charCodeAt(d);
        let before = -1;
        let next = child[node]!;
        while (next >= 0 && char[next]! < c) {
          before = next;
          next = sibling[next]!;
        }
        if (next < 0 || char[next] !== c) {
          const fresh = nodes++;
          char[fresh] = c;
          sibling[fresh] = next;
          if (before < 0) child[node] = fresh;
          else sibling[before] = fresh;
          next = fresh;
        }
        node = next;
      }
      word[node] = k;
      if (w.length > maxDepth) maxDepth = w.length;
    }
    return new Dictionary(
      words,
      ids,
      char.subarray(0, nodes),
      child.subarray(0, nodes),
      sibling.subarray(0, nodes),
      word.subarray(0, nodes),
      maxDepth,
    );
  }

  private constructor(
    words: readonly string[],
    ids: Map<string, number>,
    char: Uint16Array,
    child: Int32Array,
    sibling: Int32Array,
    word: Int32Array,
    maxDepth: number,
  ) {
    this.words = words;
    this.#ids = ids;
    this.#char = char;
    this.#child = child;
    this.#sibling = sibling;
    this.#word = word;
    this.#maxDepth = maxDepth;
  }

  /** The number of a word, or -1. */
  id(word: string): number {
    return this.#ids.get(word) ?? -1;
  }

  /**
   * Emits every word within `maxTypos` of `term` (optimal string alignment: an adjacent swap is
   * one typo), or with `prefix`, every word having a prefix within `maxTypos` of `term`, with the
   * fewest typos found; at most `limit` words. Adds the work done to `work`.
   */
  lookup(
    term: string,
    maxTypos: number,
    prefix: boolean,
    limit: number,
    emit: (id: number, typos: number) => void,
    work?: LookupWork,
  ): void {
    const n = term.length;
    const width = n + 1;
    const depthLimit = Math.min(this.#maxDepth, prefix ? Infinity : n + maxTypos);
    // Scratch of every lookup (they are synchronous): each row is written before it is read, by
    // the path's node at its depth. Typed arrays over 64 bytes were an allocation outside the heap per term.
    const rows = ROWS.take((depthLimit + 1) * width);
    const pathChar = PATH_CHARS.take(depthLimit + 1);
    // Fewest typos of a prefix of the path so far (prefix mode).
    const best = BEST.take(depthLimit + 1);
    for (let j = 0; j <= n; j++) rows[j] = j;
    best[0] = n;
    const stackNode: number[] = [];
    const stackDepth: number[] = [];
    for (let c = this.#child[0]!; c >= 0; c = this.#sibling[c]!) {
      stackNode.push(c);
      stackDepth.push(1);
    }
    let emitted = 0;
    let nodes = 0;
    if (n === 0 && prefix && this.#word[0]! >= 0) emit(this.#word[0]!, 0);
    while (stackNode.length > 0 && emitted < limit) {
      const node = stackNode.pop()!;
      const d = stackDepth.pop()!;
      nodes++;
      const rowMin = bandRow(term, rows, pathChar, d, this.#char[node]!, maxTypos);
      // The cells further than maxTypos from the diagonal are over it, and not written.
      const whole = d - n <= maxTypos && n - d <= maxTypos ? rows[d * width + n]! : maxTypos + 1;
      best[d] = Math.min(best[d - 1]!, whole);
      const typos = prefix ? best[d]! : whole;
      const id = this.#word[node]!;
      if (id >= 0 && typos <= maxTypos) {
        emit(id, typos);
        emitted++;
      }
      // Deeper rows only grow past rowMin; in prefix mode a matched prefix keeps its subtree.
      if ((rowMin <= maxTypos || (prefix && best[d]! <= maxTypos)) && d < depthLimit) {
        for (let c = this.#child[node]!; c >= 0; c = this.#sibling[c]!) {
          stackNode.push(c);
          stackDepth.push(d + 1);
        }
      }
    }
    if (work) {
      work.nodes += nodes;
      work.words += emitted;
    }
  }
}

/**
 * Row `d` of the distance table of `term` (optimal string alignment) for a path whose `d`-th
 * character is `ch`, from the rows above it: writes it in `rows` (rows of `term.length + 1`
 * cells) and `ch` in `pathChar`, and returns the row's least cell, past which every deeper row
 * only grows. Any tree of words walks with it (benchmarks walk other trees than this trie).
 */
export function typoRow(term: string, rows: Int32Array, pathChar: Uint16Array, d: number, ch: number): number {
  // A band as wide as the row and more: every cell written, none set over.
  return bandRow(term, rows, pathChar, d, ch, term.length + d);
}

/**
 * {@link typoRow} for a lookup allowing `maxTypos`: only the cells within `maxTypos` of the
 * diagonal, the others being over it (a cell is at least the difference of its two lengths), and
 * one cell either side of them set over it for the next row to read. The cells it writes are those
 * of typoRow up to `maxTypos`, and over it where typoRow's are: a short band instead of the term's
 * length per node.
 */
function bandRow(term: string, rows: Int32Array, pathChar: Uint16Array, d: number, ch: number, maxTypos: number): number {
  const n = term.length;
  const width = n + 1;
  const over = maxTypos + 1;
  pathChar[d] = ch;
  const row = d * width;
  const up = row - width;
  rows[row] = d;
  let rowMin = d;
  const lo = Math.max(d - maxTypos, 1);
  const hi = Math.min(d + maxTypos, n);
  // Past the band's last column (a deep prefix walk), no cell of this row is left to mark.
  if (lo > 1 && lo - 1 <= n) rows[row + lo - 1] = over;
  for (let j = lo; j <= hi; j++) {
    const tj = term.charCodeAt(j - 1);
    let v = rows[up + j - 1]! + (tj === ch ? 0 : 1);
    const del = rows[up + j]! + 1;
    if (del < v) v = del;
    const ins = rows[row + j - 1]! + 1;
    if (ins < v) v = ins;
    if (d > 1 && j > 1 && tj === pathChar[d - 1] && term.charCodeAt(j - 2) === ch) {
      const swap = rows[row - 2 * width + j - 2]! + 1;
      if (swap < v) v = swap;
    }
    rows[row + j] = v;
    if (v < rowMin) rowMin = v;
  }
  if (hi < n) rows[row + hi + 1] = over;
  return rowMin;
}

const ROWS = new Scratch(Int32Array);
const PATH_CHARS = new Scratch(Uint16Array);
const BEST = new Scratch(Int32Array);
