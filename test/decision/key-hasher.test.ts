import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { hashPrefix, KeyHasher } from '../../src/decision/bucketing';
import { hashString } from '../helpers/murmur3';

describe('KeyHasher: prefix states compiled once, the key encoded once', () => {
  it('equals murmur3 of prefix + key for any strings, whatever order the prefixes come in', () => {
    const hasher = new KeyHasher();
    fc.assert(
      fc.property(
        fc.array(fc.string({ unit: 'binary', maxLength: 24 }), { minLength: 1, maxLength: 6 }),
        fc.string({ unit: 'binary', maxLength: 300 }),
        (prefixes, key) => {
          hasher.reset(key);
          for (const p of prefixes) expect(hasher.hash(hashPrefix(p))).toBe(hashString(p, key));
        },
      ),
      { numRuns: 500 },
    );
  });

  it('covers every prefix remainder against every short key (the partial first block)', () => {
    const hasher = new KeyHasher();
    for (const key of ['', 'a', 'ab', 'abc', 'abcd', 'abcde', 'é', 'vis€tor-1', '😀x']) {
      hasher.reset(key);
      for (const prefix of ['', 'v', 'vg', 'vg-', 'vg-1', 'vg-12', 'ü', 'vg-€']) {
        expect(hasher.hash(hashPrefix(prefix)), `${prefix}|${key}`).toBe(hashString(prefix, key));
      }
    }
  });

  it('forgets the previous key on reset (a long key then a short one)', () => {
    const hasher = new KeyHasher();
    const prefix = hashPrefix('vg-7');
    hasher.reset('x'.repeat(500)).hash(prefix);
    expect(hasher.reset('short').hash(prefix)).toBe(hashString('vg-7', 'short'));
  });
});
