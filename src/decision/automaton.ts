/**
 * Matching a text against many needles at once, for targeting lists: a trie of the needles in
 * typed arrays (about 16 bytes per character of the needles, no object per node), walked along
 * the text. {@link Needles.containsAny} is Aho–Corasick: one pass over the text, whatever the
 * number of needles, where testing each needle with `includes` costs needles × text length.
 * Texts and needles are compared as UTF-16 code units, as `includes`, `startsWith` and
 * `endsWith` do.
 *
 * @module
 */

/**
 * Transitions taken by every walk so far (goto and failure transitions): what tests count to
 * show a walk's work follows the text, not the number of needles.
 *
 * @internal
 */
export const automatonWork = { steps: 0 };

/**
 * A set of needles compiled once, answering whether a text contains one of them, starts with
 * one, or (built from reversed needles) ends with one.
 *
 * @internal
 */
export class Needles {
  /** Per node: where its edges start in `#chars`/`#children` (one entry more than the nodes). */
  readonly #edgeStart: Int32Array;
  /** Per edge, sorted by character within a node: its character and the node it leads to. */
  readonly #chars: Uint16Array;
  readonly #children: Int32Array;
  /** Per node: 1 when a needle ends there. */
  readonly #terminal: Uint8Array;
  /** Per node, for `containsAny`: the longest proper suffix of its path that is a trie node. */
  readonly #fail: Int32Array | undefined;
  /** Per node: 1 when a needle ends there or at a node of its failure chain. */
  readonly #output: Uint8Array | undefined;

  /**
   * Builds the trie of `needles` (duplicates allowed); with `withFailures`, also the failure
   * links `containsAny` needs.
   */
  constructor(needles: readonly string[], withFailures: boolean) {
    // Sorted (by code units, as the default sort compares), each needle shares its prefix with
    // the previous one: nodes are created depth-first and each node's edges in character order.
    const sorted = [...new Set(needles)].sort();
    let total = 1;
    for (const needle of sorted) total += needle.length;
    const parentOf = new Int32Array(total);
    const charOf = new Uint16Array(total);
    const terminal = new Uint8Array(total);
    let nodes = 1;
    const path: number[] = [0];
    let previous = '';
    for (const needle of sorted) {
      let common = 0;
      const max = Math.min(previous.length, needle.length);
      while (common < max && previous.charCodeAt(common) === needle.charCodeAt(common)) common++;
      path.length = common + 1;
      for (let i = common; i < needle.length; i++) {
        parentOf[nodes] = path[i]!;
        charOf[nodes] = needle.charCodeAt(i);
        path.push(nodes++);
      }
      terminal[path[needle.length]!] = 1;
      previous = needle;
    }
    // Edges grouped by parent (a counting sort keeps each parent's edges in creation order,
    // which is character order).
    const edgeStart = new Int32Array(nodes + 1);
    for (let n = 1; n < nodes; n++) edgeStart[parentOf[n]! + 1]!++;
    for (let n = 0; n < nodes; n++) edgeStart[n + 1]! += edgeStart[n]!;
    const fill = edgeStart.slice(0, nodes);
    const chars = new Uint16Array(nodes - 1);
    const children = new Int32Array(nodes - 1);
    for (let n = 1; n < nodes; n++) {
      const at = fill[parentOf[n]!]!++;
      chars[at] = charOf[n]!;
      children[at] = n;
    }
    this.#edgeStart = edgeStart;
    this.#chars = chars;
    this.#children = children;
    this.#terminal = terminal.slice(0, nodes);
    if (withFailures) {
      const fail = new Int32Array(nodes);
      const output = this.#terminal.slice();
      // Breadth first: a node's failure target is shallower, so already complete.
      const queue = new Int32Array(nodes);
      let head = 0;
      let tail = 0;
      for (let e = edgeStart[0]!; e < edgeStart[1]!; e++) queue[tail++] = children[e]!;
      while (head < tail) {
        const node = queue[head++]!;
        for (let e = edgeStart[node]!, end = edgeStart[node + 1]!; e < end; e++) {
          const child = children[e]!;
          const c = chars[e]!;
          let f = fail[node]!;
          let target = this.#child(f, c);
          while (target < 0 && f !== 0) {
            f = fail[f]!;
            target = this.#child(f, c);
          }
          fail[child] = Math.max(target, 0);
          if (output[fail[child]!] === 1) output[child] = 1;
          queue[tail++] = child;
        }
      }
      this.#fail = fail;
      this.#output = output;
    }
  }

  /** The node `node` leads to by character `c`, or -1 (binary search of its sorted edges). */
  #child(node: number, c: number): number {
    let lo = this.#edgeStart[node]!;
    let hi = this.#edgeStart[node + 1]! - 1;
    const chars = this.#chars;
    while (lo <= hi) {
      const mid = (lo + hi) >>> 1;
      const m = chars[mid]!;
      if (m === c) return this.#children[mid]!;
      if (m < c) lo = mid + 1;
      else hi = mid - 1;
    }
    return -1;
  }

  /** Whether `text` contains a needle: one pass, at most two transitions per character. */
  containsAny(text: string): boolean {
    const fail = this.#fail!;
    const output = this.#output!;
    if (output[0] === 1) return true; // the empty needle
    let node = 0;
    let steps = 0;
    let found = false;
    for (let i = 0; i < text.length; i++) {
      const c = text.charCodeAt(i);
      let next = this.#child(node, c);
      steps++;
      while (next < 0 && node !== 0) {
        node = fail[node]!;
        next = this.#child(node, c);
        steps++;
      }
      node = Math.max(next, 0);
      if (output[node] === 1) {
        found = true;
        break;
      }
    }
    automatonWork.steps += steps;
    return found;
  }

  /** Whether `text` starts with a needle (walks at most the longest needle's length). */
  prefixOf(text: string): boolean {
    return this.#walk(text, 0, 1);
  }

  /** Whether `text` ends with a needle, the trie being built from reversed needles. */
  suffixOf(text: string): boolean {
    return this.#walk(text, text.length - 1, -1);
  }

  #walk(text: string, from: number, step: 1 | -1): boolean {
    const terminal = this.#terminal;
    if (terminal[0] === 1) return true;
    let node = 0;
    let steps = 0;
    let found = false;
    for (let i = from; i >= 0 && i < text.length; i += step) {
      node = this.#child(node, text.charCodeAt(i));
      steps++;
      if (node < 0) break;
      if (terminal[node] === 1) {
        found = true;
        break;
      }
    }
    automatonWork.steps += steps;
    return found;
  }
}

/**
 * A text's UTF-16 code units in reverse order: what {@link Needles.suffixOf} is built from.
 *
 * @internal
 */
export function reversed(text: string): string {
  let out = '';
  for (let i = text.length - 1; i >= 0; i--) out += text[i];
  return out;
}
