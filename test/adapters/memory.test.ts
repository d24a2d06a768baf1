import { describe, expect, it } from 'vitest';
import { memoryStorage } from '../../src/index';
import { runConformance } from './conformance';

runConformance('memory', async () => memoryStorage());

describe('memory storage: bounded event log', () => {
  const event = (i: number) => ({ environmentId: 'env', visitorId: `v${i % 3}`, event: 'purchase', value: i, timestamp: i });

  it('keeps the newest maxEvents events; aggregation sees only those', async () => {
    const storage = memoryStorage({ maxEvents: 3 });
    await storage.activations.record([0, 1, 2].map((i) => ({ environmentId: 'env', visitorId: `v${i}`, anonymousId: null, campaignId: 'c', variationGroupId: 'g', variationId: 'a', timestamp: 0 })));
    await storage.events.record([event(0), event(1), event(2)]);
    await storage.events.record([event(3), event(4)]);
    expect((await storage.events.list({ environmentId: 'env' })).map((e) => e.value)).toEqual([2, 3, 4]);
    const [row] = await storage.events.aggregate({ environmentId: 'env', campaignId: 'c', event: 'purchase' });
    expect(row).toMatchObject({ exposed: 3, converted: 3, valued: 3, valueSum: 9, valueSumSquares: 4 + 9 + 16 });
  });

  it('forgets in bulk without growing (10,000 events through a bound of 100)', async () => {
    const storage = memoryStorage({ maxEvents: 100 });
    for (let i = 0; i < 10_000; i += 50) await storage.events.record(Array.from({ length: 50 }, (_, j) => event(i + j)));
    const kept = await storage.events.list({ environmentId: 'env' });
    expect(kept.map((e) => e.value)).toEqual(Array.from({ length: 100 }, (_, j) => 9_900 + j));
  });

  it.each([0, -1, 1.5, Number.NaN])('refuses maxEvents %s', (maxEvents) => {
    expect(() => memoryStorage({ maxEvents })).toThrow(/maxEvents must be a positive integer/);
  });
});
