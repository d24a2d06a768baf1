import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Dictionary, type LookupWork } from '../../src/search/dictionary';
import { buildDictionary, type DictionaryKind } from './minisearch-dictionary';
import type { TermDictionary } from './radix-dictionary';

/** Every emission of a lookup in order, and the work counted. */
function trace(dict: TermDictionary, term: string, typos: number, prefix: boolean, limit: number) {
  const out: [string, number][] = [];
  const work: LookupWork = { nodes: 0, words: 0 };
  dict.lookup(term, typos, prefix, limit, (id, t) => out.push([dict.words[id]!, t]), work);
  return { out, work };
}

const letters = fc.string({ unit: fc.constantFrom('a', 'b', 'c', 'd'), minLength: 1, maxLength: 7 });

describe('the SearchableMap-backed dictionary of the minisearch benchmark', () => {
  it('emits what the trie emits, in its order, visiting as many nodes, whatever the insertion order (property)', () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(letters, { minLength: 1, maxLength: 40 }),
        letters,
        fc.constantFrom(0, 1, 2),
        fc.boolean(),
        fc.integer({ min: 1, max: 50 }),
        (words, term, typos, prefix, limit) => {
          const trie = trace(Dictionary.of(words), term, typos, prefix, limit);
          const radix = buildDictionary('searchable-map', words);
          expect(trace(radix, term, typos, prefix, limit)).toEqual(trie);
          for (const w of words) expect(radix.id(w)).toBe(words.indexOf(w));
          expect(radix.id(`${term}x`)).toBe(words.indexOf(`${term}x`));
        },
      ),
      { numRuns: 500 },
    );
  });

  it('through the public API only, loses the completions of a mistyped prefix', () => {
    const words = ['samsung', 'galaxy', 'gala'];
    const found = (kind: DictionaryKind, term: string) => trace(buildDictionary(kind, words), term, 1, true, 100).out;
    expect(found('searchable-map', 'samsnu')).toEqual([['samsung', 1]]);
    expect(found('searchable-map-public', 'samsnu')).toEqual([]);
    // Whole words within one Damerau typo still come back, a swap included (two Levenshtein edits).
    expect(found('searchable-map-public', 'galxay')).toEqual([['galaxy', 1]]);
  });
});
