/**
 * The needle automaton of targeting lists (src/decision/automaton.ts) against the naive loops it
 * replaces, and its work counted: one pass over the text, whatever the number of needles.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { automatonWork, Needles, reversed } from '../../src/decision/automaton';

// Small alphabets make needles overlap and recur (what failure links are for); the others
// bring surrogates and any code unit.
const small = fc.string({ unit: fc.constantFrom('a', 'b', 'c', 'ab'), maxLength: 8 });
const text = fc.oneof(
  small,
  fc.string({ maxLength: 30 }),
  fc.string({ unit: 'grapheme', maxLength: 10 }),
  fc.string({ unit: 'binary', maxLength: 12 }),
);
const needles = fc.array(fc.oneof(small, fc.string({ maxLength: 6 }), fc.string({ unit: 'binary', maxLength: 4 })), {
  minLength: 1,
  maxLength: 40,
});

describe('Needles', () => {
  it('containsAny agrees with testing every needle with includes', () => {
    fc.assert(
      fc.property(needles, text, (list, t) => {
        expect(new Needles(list, true).containsAny(t)).toBe(list.some((n) => t.includes(n)));
      }),
      { numRuns: 5000 },
    );
  });

  it('prefixOf agrees with startsWith, and suffixOf over reversed needles with endsWith', () => {
    fc.assert(
      fc.property(needles, text, (list, t) => {
        expect(new Needles(list, false).prefixOf(t)).toBe(list.some((n) => t.startsWith(n)));
        expect(new Needles(list.map(reversed), false).suffixOf(t)).toBe(list.some((n) => t.endsWith(n)));
      }),
      { numRuns: 3000 },
    );
  });

  it('finds needles that are suffixes of others, prefixes of others, and the empty needle', () => {
    const n = new Needles(['she', 'he', 'hers', 'his'], true);
    expect(['ushers', 'ahis', 'xhex', 'hi', 'sh', ''].map((t) => n.containsAny(t))).toEqual([true, true, true, false, false, false]);
    expect(new Needles(['abcd', 'bc'], true).containsAny('xabcx')).toBe(true);
    expect(new Needles([''], true).containsAny('')).toBe(true);
    expect(new Needles(['', 'zz'], false).prefixOf('a')).toBe(true);
  });

  it('takes at most two transitions per character of the text, however many needles: 74,000 as 10', () => {
    const value = 'q'.repeat(50_000) + 'needle-73999'.repeat(4_000); // ~100 KB, near-misses throughout
    const work = (count: number) => {
      const list = Array.from({ length: count }, (_, i) => `needle-${String(i).padStart(5, '0')}x`);
      const n = new Needles(list, true);
      const before = automatonWork.steps;
      expect(n.containsAny(value)).toBe(false);
      return automatonWork.steps - before;
    };
    const few = work(10);
    const many = work(74_000);
    expect(many).toBeLessThanOrEqual(2 * value.length);
    expect(few).toBeLessThanOrEqual(2 * value.length);
    expect(many).toBeLessThan(few * 1.5);
  });
});
