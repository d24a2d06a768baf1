/**
 * The dictionaries `npm run bench -- minisearch` sets beside abkit's own trie
 * (src/search/dictionary.ts): {@link RadixDictionary} (a `SearchableMap` walked by abkit's
 * automaton, radix-dictionary.ts) and {@link PublicApiDictionary} (`SearchableMap`'s public
 * lookups only, as the issue suggests: `atPrefix(term)` for completions without typo,
 * `fuzzyGet(term, 2k)` (Levenshtein counts a swap as two) then the Damerau check; completions
 * of a mistyped prefix, "samsnu" → "samsung", are lost).
 *
 * {@link useDictionary} swaps the one the search index builds, for the indexes built while it is
 * in force (the default is not changed anywhere else).
 *
 * @module
 */
import { Dictionary } from '../../src/search/dictionary';
import { damerau } from '../helpers/damerau';
import { RadixDictionary, SearchableMapWords, type TermDictionary } from './radix-dictionary';

/**
 * `SearchableMap`'s public lookups only: completions of the exact term (`atPrefix`, no typo),
 * then whole words within `2k` Levenshtein edits (`fuzzyGet`) kept when their Damerau distance
 * is at most `k` (a swap is one typo to abkit, two to Levenshtein). No completion of a mistyped
 * prefix: the public API has no such lookup.
 */
export class PublicApiDictionary extends SearchableMapWords {
  static steps(words: readonly string[]): Generator<void, PublicApiDictionary> {
    return new PublicApiDictionary(words).fill();
  }

  readonly lookup: TermDictionary['lookup'] = (term, maxTypos, prefix, limit, emit, work) => {
    const seen = new Set<number>();
    const out = (id: number, typos: number) => {
      if (seen.size >= limit || seen.has(id)) return;
      seen.add(id);
      emit(id, typos);
    };
    if (prefix) for (const id of this.map.atPrefix(term).values()) out(id, 0);
    else {
      const id = this.ids.get(term);
      if (id !== undefined) out(id, 0);
    }
    if (maxTypos > 0) {
      for (const [word, [id]] of this.map.fuzzyGet(term, 2 * maxTypos)) {
        const typos = damerau(term, word, maxTypos);
        if (typos <= maxTypos) out(id, typos);
      }
    }
    if (work) work.words += seen.size;
  };
}

/** The dictionaries compared: abkit's trie, the SearchableMap walked by abkit's automaton, SearchableMap's public API. */
export type DictionaryKind = 'trie' | 'searchable-map' | 'searchable-map-public';

const TRIE_STEPS = Dictionary.steps;
const STEPS: Record<DictionaryKind, (words: readonly string[]) => Generator<void, TermDictionary>> = {
  trie: TRIE_STEPS,
  'searchable-map': RadixDictionary.steps,
  'searchable-map-public': PublicApiDictionary.steps,
};

/**
 * Makes the search indexes built from now on hold a `kind` dictionary (the search index calls
 * `Dictionary.steps`; the others answer the same calls), each one handed to `built` too;
 * `useDictionary('trie')` restores the default.
 */
export function useDictionary(kind: DictionaryKind, built?: (dictionary: TermDictionary) => void): void {
  const steps = STEPS[kind];
  (Dictionary as unknown as { steps: (typeof STEPS)[DictionaryKind] }).steps = built
    ? function* (words) {
        const dictionary = yield* steps(words);
        built(dictionary);
        return dictionary;
      }
    : steps;
}

/** A dictionary of `kind` over `words`, built in one go. */
export function buildDictionary(kind: DictionaryKind, words: readonly string[]): TermDictionary {
  const steps = STEPS[kind](words);
  let step = steps.next();
  while (!step.done) step = steps.next();
  return step.value;
}
