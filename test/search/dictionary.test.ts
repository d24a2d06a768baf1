import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { damerau } from '../helpers/damerau';
import { Dictionary, type LookupWork } from '../../src/search/dictionary';

/** Every word the lookup emits, with its typos. */
function lookup(dict: Dictionary, term: string, typos: number, prefix: boolean, limit = 10_000, work?: LookupWork): Map<string, number> {
  const out = new Map<string, number>();
  dict.lookup(term, typos, prefix, limit, (id, t) => out.set(dict.words[id]!, t), work);
  return out;
}

/** Brute force: the distance to the word, or (prefix) the least distance to any prefix of it. */
function brute(words: readonly string[], term: string, typos: number, prefix: boolean): Map<string, number> {
  const out = new Map<string, number>();
  for (const w of words) {
    let d = damerau(term, w);
    if (prefix) for (let k = 0; k <= w.length; k++) d = Math.min(d, damerau(term, w.slice(0, k)));
    if (d <= typos) out.set(w, d);
  }
  return out;
}

const letters = fc.string({ unit: fc.constantFrom('a', 'b', 'c', 'd'), minLength: 1, maxLength: 7 });

describe('Dictionary.lookup: a bounded Damerau automaton over a trie', () => {
  const dict = Dictionary.of(['case', 'cases', 'casemate', 'galaxy', 'samsung', 'phone', 'smartphone', 'keyboard']);

  it('finds a word exactly, and its completions as a prefix', () => {
    expect(lookup(dict, 'case', 0, false)).toEqual(new Map([['case', 0]]));
    expect(lookup(dict, 'case', 0, true)).toEqual(
      new Map([
        ['case', 0],
        ['cases', 0],
        ['casemate', 0],
      ]),
    );
  });

  it('counts an adjacent swap as one typo, two swaps as two', () => {
    expect(lookup(dict, 'galxay', 1, false)).toEqual(new Map([['galaxy', 1]]));
    expect(lookup(dict, 'kebyaord', 1, false)).toEqual(new Map());
    expect(lookup(dict, 'kebyaord', 2, false)).toEqual(new Map([['keyboard', 2]]));
  });

  it('accepts typos inside a prefix', () => {
    expect(lookup(dict, 'sansu', 1, true)).toEqual(new Map([['samsung', 1]]));
    expect(lookup(dict, 'smartpj', 1, true)).toEqual(new Map([['smartphone', 1]]));
  });

  it('stops at the limit', () => {
    expect(lookup(dict, 'cas', 0, true, 2).size).toBe(2);
  });

  it('agrees with the brute force distance, whole words and prefixes (property)', () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(letters, { minLength: 1, maxLength: 30 }),
        letters,
        fc.constantFrom(0, 1, 2),
        fc.boolean(),
        (words, term, typos, prefix) => {
          expect(lookup(Dictionary.of(words), term, typos, prefix)).toEqual(brute(words, term, typos, prefix));
        },
      ),
      { numRuns: 400 },
    );
  });

  it('emits the same words in the same order whatever the order the words were given in (property)', () => {
    const emitted = (dict: Dictionary, term: string, typos: number, prefix: boolean, limit: number) => {
      const out: string[] = [];
      dict.lookup(term, typos, prefix, limit, (id) => out.push(dict.words[id]!));
      return out;
    };
    fc.assert(
      fc.property(
        fc.uniqueArray(letters, { minLength: 1, maxLength: 40 }),
        letters,
        fc.constantFrom(0, 1, 2),
        fc.boolean(),
        fc.integer({ min: 1, max: 10 }),
        (words, term, typos, prefix, limit) => {
          const sorted = [...words].sort();
          expect(emitted(Dictionary.of(words), term, typos, prefix, limit)).toEqual(
            emitted(Dictionary.of(sorted), term, typos, prefix, limit),
          );
          expect(emitted(Dictionary.of([...sorted].reverse()), term, typos, prefix, limit)).toEqual(
            emitted(Dictionary.of(sorted), term, typos, prefix, limit),
          );
        },
      ),
      { numRuns: 300 },
    );
  });

  it('visits each trie node at most once, whatever the term', () => {
    const words = Array.from({ length: 2000 }, (_, i) => `w${i.toString(36)}x${(i * 7919).toString(36)}`);
    const big = Dictionary.of(words);
    const nodes = new Set(words.flatMap((w) => Array.from({ length: w.length }, (_, k) => w.slice(0, k + 1)))).size;
    for (const term of ['w1x', 'wzzzzzzzzz', 'w'.repeat(64)]) {
      const work: LookupWork = { nodes: 0, words: 0 };
      lookup(big, term, 2, true, Infinity, work);
      expect(work.nodes, term).toBeLessThanOrEqual(nodes);
    }
  });
});
