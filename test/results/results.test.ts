import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { sqliteStorage } from '../../adapters/sql/sqlite';
import { DecisionEngine, memoryStorage, NotFoundError, ValidationError, type Storage, ExperimentService } from '../../src/index';
import { config } from '../helpers/configs';
import { simulate } from '../helpers/experiment';

async function engineWith(split: number[], storage: Storage = memoryStorage(), clock?: () => number) {
  const engine = new DecisionEngine({ storage, clock });
  await engine.load(config([{ id: 'exp', slug: 'checkout', split }]));
  return { engine, experiments: new ExperimentService({ engine }) };
}

describe('ExperimentService.results', () => {
  it('counts exposed and converted visitors per variation, with the ids explain gives', async () => {
    let now = 1000;
    const { engine, experiments } = await engineWith([50, 50], memoryStorage(), () => now);
    const ids = ['ann', 'bob', 'cid', 'dan', 'eve', 'fay'];
    for (const visitorId of ids) await engine.decide({ visitorId });
    const explained = await Promise.all(ids.map((visitorId) => engine.explain({ visitorId })));
    now = 2000;
    await experiments.track([
      { visitorId: 'ann', event: 'purchase', value: 30 },
      { visitorId: 'ann', event: 'purchase', value: 12 },
      { visitorId: 'bob', event: 'purchase', value: 5 },
    ]);
    await experiments.track({ visitorId: 'cid', event: 'purchase', timestamp: 500 }); // before its exposure
    const results = await experiments.results({ campaignId: 'checkout', metric: 'purchase' });
    expect(results).toMatchObject({
      environmentId: 'default',
      campaignId: 'exp',
      metric: 'purchase',
      valueMetric: true,
      multipleExposures: 0,
      since: null,
      until: null,
    });
    const [group] = results.groups;
    expect(group!.variationGroupId).toBe(explained[0]!.campaigns[0]!.variationGroupId);
    expect(group!.referenceVariationId).toBe('exp-v0');
    for (const v of group!.variations) {
      const mine = explained.filter((e) => e.campaigns[0]!.variationId === v.variationId).map((e) => e.visitorId);
      expect(v.exposed).toBe(mine.length);
      expect(v.converted).toBe(mine.filter((id) => id === 'ann' || id === 'bob').length);
      expect(v.valueSum).toBe((mine.includes('ann') ? 42 : 0) + (mine.includes('bob') ? 5 : 0));
      expect(v.conversionRate).toBe(v.exposed === 0 ? null : v.converted / v.exposed);
      expect(v.meanValue).toBe(v.exposed === 0 ? null : v.valueSum / v.exposed);
      expect(v.comparison === null).toBe(v.reference);
    }
  });

  it('lists configured variations nobody saw, and a metric without values has no value comparison', async () => {
    const { engine, experiments } = await engineWith([0, 100]);
    await engine.decide({ visitorId: 'v1' });
    await experiments.track({ visitorId: 'v1', event: 'signup' });
    const { groups, valueMetric } = await experiments.results({ campaignId: 'exp', metric: 'signup' });
    expect(valueMetric).toBe(false);
    expect(groups[0]!.variations.map((v) => [v.variationId, v.exposed, v.converted])).toEqual([
      ['exp-v0', 0, 0],
      ['exp-v1', 1, 1],
    ]);
    expect(groups[0]!.variations[1]!.comparison).toMatchObject({ value: null, conversionRate: { pValue: null, uplift: null } });
    expect(groups[0]!.sampleRatio).toBeNull(); // one variation of positive allocation
  });

  it('restricts to the window and reports visitors exposed to two variations apart', async () => {
    let now = 1000;
    const { engine, experiments } = await engineWith([50, 50], memoryStorage(), () => now);
    await engine.decide({ visitorId: 'early' });
    now = 5000;
    await engine.decide({ visitorId: 'late' });
    await engine.decide({ visitorId: 'switcher', forcedVariations: { exp: 'exp-v0' } });
    await engine.decide({ visitorId: 'switcher', forcedVariations: { exp: 'exp-v1' } });
    const all = await experiments.results({ campaignId: 'exp', metric: 'm' });
    expect(all.multipleExposures).toBe(1);
    expect(all.groups[0]!.variations.reduce((s, v) => s + v.exposed, 0)).toBe(2);
    const late = await experiments.results({ campaignId: 'exp', metric: 'm', since: 2000, until: 10_000 });
    expect(late).toMatchObject({ since: 2000, until: 10_000 });
    expect(late.groups[0]!.variations.reduce((s, v) => s + v.exposed, 0)).toBe(1);
  });

  it.each([
    [{ campaignId: '', metric: 'm' }, 'campaignId'],
    [{ campaignId: 'exp', metric: '' }, 'metric'],
    [{ campaignId: 'exp', metric: 'x'.repeat(101) }, 'metric'],
    [{ campaignId: 'exp', metric: 'm', since: -1 }, 'since'],
    [{ campaignId: 'exp', metric: 'm', until: 1.5 }, 'until'],
    [{ campaignId: 'exp', metric: 'm', since: 10, until: 10 }, 'until'],
  ])('refuses %o naming %s', async (query, path) => {
    const { experiments } = await engineWith([50, 50]);
    const error = await experiments.results(query).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ValidationError).details.map((d) => d.path)).toEqual([[path]]);
  });

  it('answers NotFoundError for an unknown campaign or environment', async () => {
    const { experiments } = await engineWith([50, 50]);
    await expect(experiments.results({ campaignId: 'nope', metric: 'm' })).rejects.toThrow(NotFoundError);
    await expect(experiments.results({ campaignId: 'exp', metric: 'm', environment: 'nowhere' })).rejects.toThrow(NotFoundError);
  });
});

describe('simulated experiments through the real engine', () => {
  // 10% against 12% conversion (true relative uplift +20%) and revenue per visitor 5.00 against
  // 6.60 (converters spend 50 and 55 on average: +32%).
  const TRUE_RATE_UPLIFT = 0.2;
  const TRUE_VALUE_UPLIFT = (0.12 * 55) / (0.1 * 50) - 1;

  it.each([
    ['memory', async () => memoryStorage()],
    ['sqlite', () => sqliteStorage({ filename: ':memory:' })],
  ])('20,000 visitors with a known uplift: the intervals hold it (%s)', async (_, open) => {
    const storage = await open();
    try {
      const { engine, experiments } = await engineWith([50, 50], storage);
      await simulate(engine, {
        visitors: 20_000,
        rates: { 'exp-v0': 0.1, 'exp-v1': 0.12 },
        orderValue: { 'exp-v0': 50, 'exp-v1': 55 },
        seed: 7,
      });
      const { groups } = await experiments.results({ campaignId: 'exp', metric: 'purchase' });
      const [control, treatment] = groups[0]!.variations;
      expect(control!.exposed + treatment!.exposed).toBe(20_000);
      expect(groups[0]!.sampleRatio!.mismatch).toBe(false);
      const rate = treatment!.comparison!.conversionRate;
      expect(rate.uplift!.lower).toBeLessThan(TRUE_RATE_UPLIFT);
      expect(rate.uplift!.upper).toBeGreaterThan(TRUE_RATE_UPLIFT);
      expect(rate.uplift!.lower).toBeGreaterThan(0); // and it is detected
      expect(rate.pValue).toBeLessThan(0.05);
      expect(rate.chanceToBeat).toBeGreaterThan(0.95);
      const value = treatment!.comparison!.value!;
      expect(value.uplift!.lower).toBeLessThan(TRUE_VALUE_UPLIFT);
      expect(value.uplift!.upper).toBeGreaterThan(TRUE_VALUE_UPLIFT);
      expect(value.difference!.lower).toBeLessThan(6.6 - 5);
      expect(value.difference!.upper).toBeGreaterThan(6.6 - 5);
    } finally {
      await storage.close();
    }
  });

  it('A/A tests: no sample ratio mismatch and p-values roughly uniform across seeds', async () => {
    const pValues: number[] = [];
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 1, max: 2 ** 31 - 1 }), async (seed) => {
        const { engine, experiments } = await engineWith([50, 50]);
        await simulate(engine, { visitors: 2_000, rates: { 'exp-v0': 0.1, 'exp-v1': 0.1 }, seed });
        const { groups } = await experiments.results({ campaignId: 'exp', metric: 'purchase' });
        expect(groups[0]!.sampleRatio!.mismatch).toBe(false);
        const p = groups[0]!.variations[1]!.comparison!.conversionRate.pValue!;
        expect(p).toBeGreaterThanOrEqual(0);
        expect(p).toBeLessThanOrEqual(1);
        pValues.push(p);
      }),
      { numRuns: 60, seed: 15 },
    );
    // Kolmogorov–Smirnov distance to the uniform distribution, against its 1% critical value.
    const sorted = [...pValues].sort((a, b) => a - b);
    const n = sorted.length;
    const d = Math.max(...sorted.map((p, i) => Math.max((i + 1) / n - p, p - i / n)));
    expect(d).toBeLessThan(1.63 / Math.sqrt(n));
    expect(sorted.filter((p) => p < 0.05).length).toBeLessThanOrEqual(9); // about 3 expected
  });
});
