/** BM25 with named parameters (src/search/bm25.ts): the same numbers the ranking computed with its constants written out. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { bm25Idf, bm25Norm, bm25Share, BM25_PARAMETERS } from '../../src/search/bm25';
import { item, serviceOf } from '../helpers/search';

describe('BM25', () => {
  it('uses k1 = 1.2 and b = 0.75', () => {
    expect(BM25_PARAMETERS).toEqual({ k1: 1.2, b: 0.75 });
  });

  it('gives, to the bit, the shares of the formula with k1 + 1 = 2.2 and 1 - b = 0.25 written out', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 5000 }),
        fc.double({ min: 0, max: 1000, noNaN: true }),
        fc.integer({ min: 1, max: 255 }),
        fc.double({ min: 0.01, max: 10, noNaN: true }),
        (length, average, tf, weight) => {
          const norm = 1.2 * (0.25 + (0.75 * length) / (average || 1));
          expect(bm25Norm(length, average)).toBe(norm);
          expect(bm25Share(weight, tf, norm)).toBe(weight * ((tf * 2.2) / (tf + norm)));
        },
      ),
      { numRuns: 2000 },
    );
  });

  it('weighs a word once in a field of average length by the field weight alone, and rare terms above frequent ones', () => {
    expect(bm25Share(2, 1, bm25Norm(7, 7))).toBe(2);
    expect(bm25Idf(1000, 1)).toBeGreaterThan(bm25Idf(1000, 999));
    expect(bm25Idf(1000, 1000)).toBeGreaterThan(0);
  });
});

describe('BM25 over several fields', () => {
  it('saturates each field apart and adds the fields: a word in the name and in the description above the same word twice in the name', async () => {
    // Every name two words, every description three: each field of average length. True BM25F (the
    // counts added over fields, then saturated once) ties the two; the sum, measured better on the
    // judged catalogs (a word in two fields says more than twice in one), does not.
    const items = [item('a', 'lamp lamp', { description: 'soft warm light' }), item('b', 'lamp shade', { description: 'lamp warm light' })];
    const hits = (await (await serviceOf(items, { rankingRules: ['bm25'] })).search({ text: 'lamp' })).hits;
    expect(hits.map((h) => h.id)).toEqual(['b', 'a']);
  });
});
