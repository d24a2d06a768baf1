import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { matchQuality, rankingScore } from '../../src/index';

const RUNS = { numRuns: 300 };
const term = fc.string({ unit: fc.constantFrom('a', 'b', 'c', 'd', 'e'), minLength: 1, maxLength: 11 });

describe('matchQuality: one query term against one document word', () => {
  it('is 1 for an exact match, last term or not', () => {
    expect(matchQuality('galaxy', 'galaxy', false)).toBe(1);
    expect(matchQuality('galaxy', 'galaxy', true)).toBe(1);
    expect(matchQuality('s7', 's7', false)).toBe(1);
  });

  it('gives a prefix of the last term 0.5 + 0.5 · |t| / |w|', () => {
    expect(matchQuality('gal', 'galaxy', true)).toBeCloseTo(0.75, 12);
    expect(matchQuality('gala', 'galaxy', true)).toBeCloseTo(0.5 + 0.5 * (4 / 6), 12);
    expect(matchQuality('a', 'abc', true)).toBeCloseTo(2 / 3, 12);
  });

  it('gives nothing to a prefix that is not the last term', () => {
    expect(matchQuality('gal', 'galaxy', false)).toBe(0);
    expect(matchQuality('gala', 'galaxy', false)).toBe(0);
  });

  it('gives a word within the allowed typos 1 − 0.2 · d', () => {
    expect(matchQuality('samsnug', 'samsung', false)).toBeCloseTo(0.8, 12); // a swap is one typo
    expect(matchQuality('phnoe', 'phone', false)).toBeCloseTo(0.8, 12);
    expect(matchQuality('smartfone', 'smartphone', false)).toBeCloseTo(0.6, 12); // 10 letters: 2 typos
  });

  it('gives nothing past the allowed typos', () => {
    expect(matchQuality('cose', 'case', false)).toBe(0); // 4 letters: no typo
    expect(matchQuality('phmme', 'phone', false)).toBe(0); // 5 letters, 2 typos
    expect(matchQuality('kebyaord', 'keyboard', false)).toBe(0); // 8 letters, 2 swaps
    expect(matchQuality('smrtfone', 'smartphone', false)).toBe(0); // 3 typos
  });

  it('multiplies prefix and typo qualities for a last term with typos in the prefix', () => {
    // "smasu" vs "samsu" (first 5 letters of samsung): one swap.
    const prefix = 0.5 + 0.5 * (5 / 7);
    expect(matchQuality('smasu', 'samsung', true)).toBeCloseTo(prefix * 0.8, 12);
    expect(matchQuality('smasu', 'samsung', false)).toBe(0);
  });

  it('is in [0, 1], and 1 only for the word itself (property)', () => {
    fc.assert(
      fc.property(term, term, fc.boolean(), (t, w, isLast) => {
        const q = matchQuality(t, w, isLast);
        expect(q).toBeGreaterThanOrEqual(0);
        expect(q).toBeLessThanOrEqual(1);
        expect(q === 1).toBe(t === w);
      }),
      RUNS,
    );
  });

  it('rates a last-term prefix at least as high as the same term not last (property)', () => {
    fc.assert(
      fc.property(term, term, (t, w) => {
        expect(matchQuality(t, w, true)).toBeGreaterThanOrEqual(matchQuality(t, w, false));
      }),
      RUNS,
    );
  });
});

describe('rankingScore: absolute, in [0, 1]', () => {
  it('is 1 for an empty query (placeholder search)', () => {
    expect(rankingScore([], new Map())).toBe(1);
  });

  it('is 1 when every term matched exactly in a top-weighted field', () => {
    expect(rankingScore(['samsung', 'galaxy'], new Map([['samsung', 1], ['galaxy', 1], ['case', 1]]))).toBe(1);
  });

  it('is the mean of the term qualities', () => {
    const words = new Map([['samsung', 1], ['galaxy', 1]]);
    expect(rankingScore(['samsung', 'gal'], words)).toBeCloseTo((1 + 0.75) / 2, 12);
    expect(rankingScore(['samsung', 'iphone'], words)).toBeCloseTo(0.5, 12);
    expect(rankingScore(['samsnug', 'galaxy'], words)).toBeCloseTo((0.8 + 1) / 2, 12);
  });

  it('weighs a match by the weight of the field the word is in', () => {
    expect(rankingScore(['samsung'], new Map([['samsung', 0.5]]))).toBeCloseTo(0.5, 12);
    expect(rankingScore(['samsung', 'galaxy'], new Map([['samsung', 1], ['galaxy', 0.25]]))).toBeCloseTo(0.625, 12);
  });

  it('is 0 when nothing matches', () => {
    expect(rankingScore(['iphone'], new Map())).toBe(0);
    expect(rankingScore(['iphone'], new Map([['android', 1]]))).toBe(0);
  });

  it('does not depend on words the query does not match, nor on their order', () => {
    const a = new Map([['galaxy', 1], ['case', 1]]);
    const b = new Map([['case', 1], ['leather', 1], ['galaxy', 1], ['black', 1]]);
    expect(rankingScore(['galaxy', 'ca'], a)).toBe(rankingScore(['galaxy', 'ca'], b));
  });

  it('is in [0, 1], is 1 for exact matches of every term, and never drops when a word is added (property)', () => {
    const weights = fc.double({ min: 0.01, max: 1, noNaN: true });
    fc.assert(
      fc.property(fc.array(term, { maxLength: 4 }), fc.array(fc.tuple(term, weights), { maxLength: 6 }), term, weights, (terms, pairs, extra, w) => {
        const words = new Map(pairs);
        const score = rankingScore(terms, words);
        expect(score).toBeGreaterThanOrEqual(0);
        expect(score).toBeLessThanOrEqual(1);
        expect(rankingScore(terms, new Map(terms.map((t) => [t, 1])))).toBe(1);
        fc.pre(!words.has(extra));
        expect(rankingScore(terms, new Map([...words, [extra, w]]))).toBeGreaterThanOrEqual(score);
      }),
      RUNS,
    );
  });
});
