/**
 * The statistics against reference values computed independently with SciPy
 * (test/fixtures/results/generate.py wrote test/fixtures/results/reference.json; see its
 * `method`), and property tests of the pure functions.
 */
import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compileConfig } from '../../src/decision/compile';
import { analyzeCampaign } from '../../src/results/results';
import { chiSquareTail, incompleteBeta, normalCdf, normalQuantile, studentTQuantile, studentTTail } from '../../src/results/distributions';
import { chanceToBeatBeta, chanceToBeatNormal, sampleRatioMismatch, twoProportionZTest, welchTTest } from '../../src/results/statistics';
import { parseBucketingConfig } from '../../src/model/bucketing-config';
import type { VariationAggregate } from '../../src/storage/events';

interface Interval {
  estimate: number;
  lower: number;
  upper: number;
}
interface FixtureVariation {
  id: string;
  allocation: number;
  exposed: number;
  converted: number;
  values?: [number, number][];
}
interface Fixture {
  method: string;
  computedWith: string;
  datasets: {
    name: string;
    variations: FixtureVariation[];
    srm: { chiSquare: number; pValue: number; degreesOfFreedom: number } | null;
    comparisons: {
      variationId: string;
      rate: { z: number | null; pValue: number | null; difference: Interval | null; relative: Interval | null; chanceToBeat: number };
      value: {
        t: number | null;
        df: number | null;
        pValue: number | null;
        difference: Interval | null;
        relative: Interval | null;
        chanceToBeat: number | null;
      } | null;
    }[];
  }[];
}

const fixture = JSON.parse(readFileSync(new URL('../fixtures/results/reference.json', import.meta.url), 'utf8')) as Fixture;

/** |actual − expected| within a relative tolerance (or an absolute one near 0); null stays null. */
function close(actual: number | null | undefined, expected: number | null, what: string, rel = 1e-9, abs = 1e-12): void {
  if (expected === null) {
    expect(actual ?? null, what).toBeNull();
    return;
  }
  expect(actual, what).not.toBeNull();
  const error = Math.abs(actual! - expected);
  expect(error <= Math.max(abs, rel * Math.abs(expected)), `${what}: ${actual} vs SciPy ${expected}`).toBe(true);
}

function closeInterval(actual: Interval | null | undefined, expected: Interval | null, what: string, rel = 1e-9): void {
  if (expected === null) {
    expect(actual ?? null, what).toBeNull();
    return;
  }
  for (const k of ['estimate', 'lower', 'upper'] as const) close(actual?.[k] ?? null, expected[k], `${what}.${k}`, rel, 1e-12);
}

function campaignOf(variations: FixtureVariation[]) {
  const config = parseBucketingConfig({
    campaigns: [
      {
        id: 'c',
        type: 'ab',
        variationGroups: [
          {
            id: 'g',
            targeting: { targetingGroups: [] },
            variations: variations.map((v, i) => ({
              id: v.id,
              allocation: v.allocation,
              reference: i === 0,
              modifications: { type: 'FLAG', value: {} },
            })),
          },
        ],
      },
    ],
  });
  return compileConfig({ id: 'env', accountId: 'a', apiKeyHash: null, config, version: 1, updatedAt: 0 }).campaigns[0]!;
}

function aggregateOf(v: FixtureVariation): VariationAggregate {
  const values = v.values ?? [];
  return {
    variationGroupId: 'g',
    variationId: v.id,
    exposed: v.exposed,
    converted: v.converted,
    valued: values.reduce((s, [x, c]) => s + (x !== 0 ? c : 0), 0),
    valueSum: values.reduce((s, [x, c]) => s + x * c, 0),
    valueSumSquares: values.reduce((s, [x, c]) => s + x * x * c, 0),
  };
}

describe('results statistics against SciPy reference values', () => {
  it('has at least 10 datasets and says how they were computed', () => {
    expect(fixture.datasets.length).toBeGreaterThanOrEqual(10);
    expect(fixture.computedWith).toMatch(/SciPy/);
    expect(fixture.method).toMatch(/chi2_contingency/);
  });

  for (const dataset of fixture.datasets) {
    it(dataset.name, () => {
      const results = analyzeCampaign(campaignOf(dataset.variations), dataset.variations.map(aggregateOf), {
        environmentId: 'env',
        metric: 'm',
      });
      const [group] = results.groups;
      expect(group!.variations.map((v) => v.variationId)).toEqual(dataset.variations.map((v) => v.id));
      expect(group!.referenceVariationId).toBe(dataset.variations[0]!.id);
      if (dataset.srm === null) expect(group!.sampleRatio).toBeNull();
      else {
        close(group!.sampleRatio?.statistic, dataset.srm.chiSquare, 'srm chi-square', 1e-9, 1e-12);
        close(group!.sampleRatio?.pValue, dataset.srm.pValue, 'srm p', 1e-8, 1e-15);
        expect(group!.sampleRatio?.degreesOfFreedom).toBe(dataset.srm.degreesOfFreedom);
        expect(group!.sampleRatio?.mismatch).toBe(dataset.srm.pValue < 0.001);
      }
      for (const expected of dataset.comparisons) {
        const v = group!.variations.find((x) => x.variationId === expected.variationId)!;
        const rate = v.comparison!.conversionRate;
        close(rate.zScore, expected.rate.z, 'z');
        close(rate.pValue, expected.rate.pValue, 'rate p', 1e-8, 1e-15);
        closeInterval(rate.difference, expected.rate.difference, 'rate difference');
        closeInterval(rate.uplift, expected.rate.relative, 'rate uplift');
        // Exact Beta sum against numerical integration; the normal approximation past 50,000 terms.
        close(rate.chanceToBeat, expected.rate.chanceToBeat, 'chance to beat (rate)', 0, v.exposed > 100_000 ? 1e-3 : 1e-8);
        if (expected.value === null) {
          expect(v.comparison!.value).toBeNull();
          continue;
        }
        const value = v.comparison!.value!;
        close(value.tStatistic, expected.value.t, 't', 1e-8);
        close(value.degreesOfFreedom, expected.value.df, 'df', 1e-8);
        close(value.pValue, expected.value.pValue, 'value p', 1e-7, 1e-15);
        closeInterval(value.difference, expected.value.difference, 'value difference', 1e-8);
        closeInterval(value.uplift, expected.value.relative, 'value uplift', 1e-8);
        close(value.chanceToBeat, expected.value.chanceToBeat, 'chance to beat (value)', 1e-8, 1e-12);
      }
    });
  }
});

const proportion = fc
  .tuple(fc.integer({ min: 0, max: 5000 }), fc.integer({ min: 0, max: 5000 }))
  .map(([a, b]) => ({ exposed: Math.max(a, b), converted: Math.min(a, b) }));
const sample = fc
  .array(fc.double({ min: -1e4, max: 1e4, noNaN: true }), { minLength: 0, maxLength: 40 })
  .map((xs) => ({ n: xs.length, sum: xs.reduce((s, x) => s + x, 0), sumSquares: xs.reduce((s, x) => s + x * x, 0) }));
const inUnit = (p: number | null | undefined) => p === null || p === undefined || (p >= 0 && p <= 1);

describe('results statistics: properties', () => {
  it('p-values and chances lie in [0, 1], and swapping the variations mirrors them', () => {
    fc.assert(
      fc.property(proportion, proportion, (a, b) => {
        const ab = twoProportionZTest(a, b);
        const ba = twoProportionZTest(b, a);
        expect(inUnit(ab?.pValue)).toBe(true);
        expect(ba === null).toBe(ab === null);
        if (ab) {
          expect(ba!.pValue).toBeCloseTo(ab.pValue, 12);
          expect(ba!.statistic).toBeCloseTo(-ab.statistic, 9);
        }
        const chance = chanceToBeatBeta(a, b);
        expect(inUnit(chance)).toBe(true);
        // Different branches of the exact sum (smallest parameter) must agree.
        expect(chance + chanceToBeatBeta(b, a)).toBeCloseTo(1, 9);
      }),
      { numRuns: 300 },
    );
  });

  it("Welch's test and the normal chance are symmetric and bounded", () => {
    fc.assert(
      fc.property(sample, sample, (a, b) => {
        const ab = welchTTest(a, b);
        expect(inUnit(ab?.pValue)).toBe(true);
        if (ab) {
          expect(welchTTest(b, a)!.pValue).toBeCloseTo(ab.pValue, 9);
          expect(ab.degreesOfFreedom!).toBeGreaterThanOrEqual(Math.min(a.n, b.n) - 1 - 1e-9);
        }
        const chance = chanceToBeatNormal(a, b);
        expect(inUnit(chance)).toBe(true);
        if (chance !== null) expect(chance + chanceToBeatNormal(b, a)!).toBeCloseTo(1, 9);
      }),
      { numRuns: 300 },
    );
  });

  it('the sample-ratio check is 0 (p = 1) for counts in the allocated proportions, and p lies in [0, 1]', () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 1, max: 100 }), { minLength: 2, maxLength: 6 }),
        fc.integer({ min: 1, max: 1000 }),
        (weights, scale) => {
          const exact = sampleRatioMismatch(
            weights.map((w) => w * scale),
            weights,
          )!;
          expect(exact.statistic).toBeCloseTo(0, 9);
          expect(exact.pValue).toBeCloseTo(1, 9);
          const skewed = sampleRatioMismatch(
            weights.map((w, i) => w * scale + (i === 0 ? scale : 0)),
            weights,
          )!;
          expect(inUnit(skewed.pValue)).toBe(true);
          expect(skewed.degreesOfFreedom).toBe(weights.length - 1);
        },
      ),
    );
  });

  it('the distributions invert and mirror', () => {
    fc.assert(
      // Right of ~3, 1 − Φ(z) has too few bits left in a double for a tight round trip.
      fc.property(fc.double({ min: -8, max: 3, noNaN: true }), (z) => {
        expect(normalQuantile(normalCdf(z))).toBeCloseTo(z, 7);
        expect(normalCdf(z) + normalCdf(-z)).toBeCloseTo(1, 14);
      }),
    );
    fc.assert(
      // x on a binary grid, so that 1 − x is exact.
      fc.property(
        fc.integer({ min: 0, max: 1024 }),
        fc.double({ min: 0.05, max: 500, noNaN: true }),
        fc.double({ min: 0.05, max: 500, noNaN: true }),
        (k, a, b) => {
          expect(incompleteBeta(k / 1024, a, b) + incompleteBeta(1 - k / 1024, b, a)).toBeCloseTo(1, 9);
        },
      ),
    );
    fc.assert(
      fc.property(fc.double({ min: 0.51, max: 0.9999, noNaN: true }), fc.double({ min: 0.5, max: 1e5, noNaN: true }), (p, df) => {
        expect(studentTTail(studentTQuantile(p, df), df)).toBeCloseTo(1 - p, 9);
      }),
    );
  });

  it('matches textbook values', () => {
    expect(normalQuantile(0.975)).toBeCloseTo(1.959963984540054, 12);
    expect(chiSquareTail(3.841458820694124, 1)).toBeCloseTo(0.05, 12);
    expect(2 * studentTTail(2.228138851986274, 10)).toBeCloseTo(0.05, 10);
    expect(studentTQuantile(0.975, 10)).toBeCloseTo(2.228138851986274, 9);
  });
});
