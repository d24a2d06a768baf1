/**
 * abkit's term dictionary contract (src/search/dictionary.ts) over MiniSearch's `SearchableMap`
 * (a radix tree of `Map`s): the words in the map, walked by abkit's bounded Damerau automaton
 * (one row per character of an edge), so lookups answer exactly what the trie answers, in the
 * same order, visiting as many nodes. The walk reads the map's radix tree (`_tree`, declared in
 * its typings): the public API has no "a prefix within k typos" lookup (`fuzzyGet` matches whole
 * keys only), and matching asks for nothing else once a term allows a typo (every term of five
 * characters or more is matched as a prefix). Measured by `npm run bench -- minisearch`.
 *
 * @module
 */
import SearchableMap from 'minisearch/SearchableMap';
import { type Dictionary, typoRow } from '../../src/search/dictionary';
import { Scratch } from '../../src/search/scratch';

/** A radix tree node: `''` holds the word number ending here, other keys are edge labels. */
type RadixNode = Map<string, number | RadixNode>;

/** What the search index reads of its dictionary (src/search/matching.ts, search-index.ts). */
export type TermDictionary = Pick<Dictionary, 'words' | 'id' | 'lookup'>;

/**
 * Words in a `SearchableMap`, inserted in UTF-16 order: every node's children then iterate in
 * that order (a split puts the shorter edge last, where the larger words go), which gives the
 * trie's order of emission when the derivations limit cuts a lookup short. Exact words are
 * answered by hash, as the trie answers them: `SearchableMap.get` walks the tree with a
 * `startsWith` per child, and matching asks for dozens of exact words per term (its halves).
 */
export abstract class SearchableMapWords implements TermDictionary {
  readonly words: readonly string[];
  readonly map = new SearchableMap<number>();
  protected readonly ids = new Map<string, number>();
  /** The longest word's length. */
  protected maxDepth = 0;

  protected constructor(words: readonly string[]) {
    this.words = words;
  }

  /** Fills the map, pausing at every `yield` (every 512 words). */
  protected *fill(): Generator<void, this> {
    const { words } = this;
    const order = Array.from(words.keys()).sort((a, b) => (words[a]! < words[b]! ? -1 : 1));
    yield;
    for (let k = 0; k < order.length; k++) {
      if (k % 512 === 511) yield;
      const w = words[order[k]!]!;
      this.map.set(w, order[k]!);
      this.ids.set(w, order[k]!);
      if (w.length > this.maxDepth) this.maxDepth = w.length;
    }
    return this;
  }

  id(word: string): number {
    return this.ids.get(word) ?? -1;
  }

  abstract readonly lookup: TermDictionary['lookup'];
}

const ROWS = new Scratch(Int32Array);
const PATH_CHARS = new Scratch(Uint16Array);
const BEST = new Scratch(Int32Array);

/** The trie's lookup contract (src/search/dictionary.ts) over a `SearchableMap`'s radix tree. */
export class RadixDictionary extends SearchableMapWords {
  static steps(words: readonly string[]): Generator<void, RadixDictionary> {
    return new RadixDictionary(words).fill();
  }

  readonly lookup: TermDictionary['lookup'] = (term, maxTypos, prefix, limit, emit, work) => {
    const n = term.length;
    const width = n + 1;
    const depthLimit = Math.min(this.maxDepth, prefix ? Infinity : n + maxTypos);
    const rows = ROWS.take((depthLimit + 1) * width);
    const pathChar = PATH_CHARS.take(depthLimit + 1);
    const best = BEST.take(depthLimit + 1);
    for (let j = 0; j <= n; j++) rows[j] = j;
    best[0] = n;
    const root = (this.map as unknown as { _tree: RadixNode })._tree;
    // An edge to walk: its label, the node it leads to, the depth of its parent.
    const stackLabel: string[] = [];
    const stackNode: RadixNode[] = [];
    const stackDepth: number[] = [];
    let pushDepth = 0;
    // forEach: a for…of over a Map's entries allocates an array per child.
    const pushChild = (child: number | RadixNode, label: string) => {
      if (label === '') return;
      stackLabel.push(label);
      stackNode.push(child as RadixNode);
      stackDepth.push(pushDepth);
    };
    const push = (node: RadixNode, depth: number) => {
      pushDepth = depth;
      node.forEach(pushChild);
    };
    push(root, 0);
    let emitted = 0;
    let nodes = 0;
    const rootWord = root.get('');
    if (n === 0 && prefix && typeof rootWord === 'number') emit(rootWord, 0);
    while (stackLabel.length > 0 && emitted < limit) {
      const label = stackLabel.pop()!;
      const node = stackNode.pop()!;
      const base = stackDepth.pop()!;
      let open = true;
      let d = base;
      for (let e = 0; e < label.length && open; e++) {
        d = base + e + 1;
        nodes++;
        const rowMin = typoRow(term, rows, pathChar, d, label.charCodeAt(e));
        best[d] = Math.min(best[d - 1]!, rows[d * width + n]!);
        open = (rowMin <= maxTypos || (prefix && best[d]! <= maxTypos)) && d < depthLimit;
        if (e < label.length - 1 && !open) d = -1;
      }
      if (d < 0) continue;
      const typos = prefix ? best[d]! : rows[d * width + n]!;
      const id = node.get('');
      if (typeof id === 'number' && typos <= maxTypos) {
        emit(id, typos);
        emitted++;
      }
      if (open) push(node, d);
    }
    if (work) {
      work.nodes += nodes;
      work.words += emitted;
    }
  };
}
