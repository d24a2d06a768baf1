import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  gain,
  median,
  ndcgAt,
  pairedBootstrap,
  percentile,
  precisionAt,
  reciprocalRankAt,
  seededRandom,
  unjudgedAt,
} from './relevance-metrics';

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

describe('paired bootstrap interval', () => {
  const scores = fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { minLength: 2, maxLength: 60 });

  it('puts an engine compared with itself at exactly 0', () => {
    fc.assert(
      fc.property(scores, (a) => {
        const ci = pairedBootstrap(a, a, { resamples: 200 });
        expect([ci.mean, ci.low, ci.high]).toEqual([0, 0, 0]);
      }),
    );
  });

  it('is above 0 against a clearly worse copy, and around the mean difference', () => {
    fc.assert(
      fc.property(scores, fc.double({ min: 0.05, max: 0.5, noNaN: true }), (a, drop) => {
        const worse = a.map((x, i) => x - drop - (i % 3) * 0.01);
        const ci = pairedBootstrap(a, worse, { resamples: 500 });
        expect(ci.low).toBeGreaterThan(0);
        expect(ci.low).toBeLessThanOrEqual(ci.mean + 1e-12);
        expect(ci.high).toBeGreaterThanOrEqual(ci.mean - 1e-12);
      }),
    );
  });

  it('straddles 0 when the two engines trade wins evenly', () => {
    const a = Array.from({ length: 80 }, (_, i) => (i % 2 === 0 ? 0.9 : 0.1));
    const b = a.map((x) => 1 - x);
    const ci = pairedBootstrap(a, b);
    expect(ci.mean).toBeCloseTo(0, 10);
    expect(ci.low).toBeLessThan(0);
    expect(ci.high).toBeGreaterThan(0);
  });

  it('is reproducible for a seed and differs across seeds', () => {
    const a = Array.from({ length: 50 }, (_, i) => ((i * 37) % 11) / 10);
    const b = Array.from({ length: 50 }, (_, i) => ((i * 17) % 7) / 10);
    expect(pairedBootstrap(a, b)).toEqual(pairedBootstrap(a, b));
    expect(pairedBootstrap(a, b, { seed: 1 })).not.toEqual(pairedBootstrap(a, b, { seed: 2 }));
    const r = seededRandom(7);
    const draws = Array.from({ length: 1000 }, r);
    expect(Math.min(...draws)).toBeGreaterThanOrEqual(0);
    expect(Math.max(...draws)).toBeLessThan(1);
  });

  it('refuses score lists of different lengths', () => {
    expect(() => pairedBootstrap([1, 2], [1])).toThrow(/2 scores against 1/);
  });
});
