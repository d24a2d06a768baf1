import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { gain, median, ndcgAt, percentile, precisionAt, reciprocalRankAt, unjudgedAt } from './relevance-metrics';

// a exact, b relevant, d marginal, c judged irrelevant; x and y were never judged.
const judged = new Map([
  ['a', 3],
  ['b', 2],
  ['c', 0],
  ['d', 1],
]);

describe('nDCG@k', () => {
  it('uses the exponential gain 2^grade - 1', () => {
    expect([0, 1, 2, 3].map(gain)).toEqual([0, 1, 3, 7]);
  });

  it('matches a hand computation, unjudged results counting 0', () => {
    // grades 0, 3, -, 2 → DCG 7/log2(3) + 3/log2(5) = 5.70853; ideal 3, 2, 1 → 7 + 3/log2(3) + 1/2 = 9.39279
    expect(ndcgAt(['c', 'a', 'x', 'b'], judged, 10)).toBeCloseTo(5.70853 / 9.39279, 4);
  });

  it('is 1 for the ideal order and cut at k', () => {
    expect(ndcgAt(['a', 'b', 'd', 'c'], judged, 10)).toBe(1);
    expect(ndcgAt(['a', 'x'], judged, 1)).toBe(1);
    expect(ndcgAt(['b', 'a'], judged, 1)).toBeCloseTo(3 / 7, 10);
  });

  it('is 0 when nothing is judged relevant or nothing is returned', () => {
    expect(ndcgAt(['c'], new Map([['c', 0]]), 10)).toBe(0);
    expect(ndcgAt([], judged, 10)).toBe(0);
  });

  it('stays in [0, 1] and reaches 1 only when the top k holds the best grades in order', () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 0, max: 3 }), { minLength: 1, maxLength: 30 }),
        fc.integer({ min: 1, max: 12 }),
        fc.func(fc.integer()),
        (grades, k, key) => {
          const j = new Map(grades.map((g, i) => [`p${i}`, g]));
          const shuffled = [...j.keys()].sort((p, q) => key(p) - key(q));
          const value = ndcgAt(shuffled, j, k);
          expect(value).toBeGreaterThanOrEqual(0);
          expect(value).toBeLessThanOrEqual(1 + 1e-12);
          const ideal = [...j.keys()].sort((p, q) => j.get(q)! - j.get(p)!);
          if (grades.some((g) => g > 0)) expect(ndcgAt(ideal, j, k)).toBeCloseTo(1, 12);
        },
      ),
    );
  });
});

describe('MRR@k and P@k', () => {
  it('takes the first result of grade 2 or more within k', () => {
    expect(reciprocalRankAt(['c', 'd', 'b', 'a'], judged, 10)).toBeCloseTo(1 / 3, 10);
    expect(reciprocalRankAt(['a'], judged, 10)).toBe(1);
    expect(reciprocalRankAt(['c', 'd', 'b'], judged, 2)).toBe(0);
    expect(reciprocalRankAt(['x', 'y'], judged, 10)).toBe(0);
  });

  it('divides by k even when fewer results came back', () => {
    expect(precisionAt(['a', 'b', 'c'], judged, 5)).toBe(0.4);
    expect(precisionAt(['d', 'x', 'a', 'b', 'a', 'b'], judged, 5)).toBe(0.6);
  });

  it('counts unjudged results within k', () => {
    expect(unjudgedAt(['a', 'x', 'y', 'b'], judged, 3)).toBe(2);
  });
});

describe('percentiles', () => {
  it('uses the nearest rank', () => {
    const values = Array.from({ length: 100 }, (_, i) => i + 1);
    expect(percentile(values, 50)).toBe(50);
    expect(percentile(values, 99)).toBe(99);
    expect(percentile([5], 99)).toBe(5);
    expect(median([9, 1, 5])).toBe(5);
  });
});
