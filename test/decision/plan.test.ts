/**
 * A decision with nothing forced or traced walks the configuration's flat plan; an explanation
 * walks the compiled campaigns one by one. Both must serve the same variations, stored
 * assignments included.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DecisionEngine, memoryStorage, type BucketingConfig } from '../../src/index';

const rule = fc.constantFrom(
  { key: 'fs_all_users', operator: 'EQUALS', value: '' },
  { key: 'plan', operator: 'EQUALS', value: 'gold' },
  { key: 'plan', operator: 'NOT_EQUALS', value: 'free' },
  { key: 'age', operator: 'GREATER_THAN', value: 30 },
  { key: 'age', operator: 'EXISTS', value: true },
);
// Allocations: whole or fractional, summing to at most 100 (a gap leaves visitors untracked); some missing.
const variations = fc
  .array(fc.option(fc.constantFrom(0, 12.5, 25, 33, 50, 87.5), { nil: undefined }), { minLength: 1, maxLength: 3 })
  .map((split) => {
    let total = 0;
    return split.map((a, i) => {
      const allocation = a === undefined || total + a > 100 ? undefined : a;
      total += allocation ?? 0;
      return { id: `v${i}`, ...(allocation === undefined ? {} : { allocation }), modifications: { type: 'FLAG', value: { [`k${i}`]: i } } };
    });
  });
const config = fc
  .array(
    fc.record({
      type: fc.constantFrom('ab', 'toggle'),
      ranges: fc.option(
        fc.array(fc.tuple(fc.integer({ min: 0, max: 60 }), fc.integer({ min: 1, max: 40 })), { minLength: 1, maxLength: 2 }),
        { nil: undefined },
      ),
      groups: fc.array(fc.record({ targeting: fc.array(fc.array(rule, { maxLength: 3 }), { minLength: 1, maxLength: 2 }), variations }), {
        minLength: 1,
        maxLength: 3,
      }),
    }),
    { minLength: 1, maxLength: 8 },
  )
  .map(
    (campaigns): BucketingConfig =>
      ({
        campaigns: campaigns.map((c, i) => ({
          id: `c${i}`,
          type: c.type,
          ...(c.ranges ? { bucketRanges: c.ranges.map(([lo, width]) => ({ r: [lo, lo + width] as [number, number] })) } : {}),
          variationGroups: c.groups.map((g, j) => ({
            id: `c${i}-g${j}`,
            targeting: { targetingGroups: g.targeting.map((targetings) => ({ targetings })) },
            variations: g.variations.map((v) => ({ ...v, id: `c${i}-g${j}-${v.id}` })),
          })),
        })),
      }) as BucketingConfig,
  );
// Per visitor, what it has stored for each group: 0 nothing, 1 a variation that does not exist, n a variation.
const stored = fc.array(fc.nat(5), { maxLength: 4 });
const context = fc.record({ plan: fc.constantFrom('gold', 'free'), age: fc.integer({ min: 18, max: 50 }) }, { requiredKeys: [] });

describe('the flat decision plan', () => {
  it('serves what the campaign-by-campaign evaluation explains, for any configuration and visitor', async () => {
    await fc.assert(
      fc.asyncProperty(
        config,
        fc.array(fc.tuple(fc.string({ minLength: 1, maxLength: 12 }), context, stored), { minLength: 1, maxLength: 20 }),
        async (cfg, visitors) => {
          const storage = memoryStorage();
          const engine = new DecisionEngine({ storage });
          await engine.load(cfg);
          const groups = cfg.campaigns.flatMap((c) => c.variationGroups);
          for (const [visitorId, ctx, picks] of visitors) {
            if (picks.length > 0) {
              const sticky: Record<string, string> = {};
              groups.forEach((g, i) => {
                const pick = picks[i % picks.length]!;
                if (pick > 0) sticky[g.id] = pick === 1 ? 'gone' : g.variations[(pick - 2) % g.variations.length]!.id;
              });
              await storage.assignments.save('default', visitorId, sticky);
            }
            const request = { visitorId, context: ctx, triggerHit: false, visitorConsent: false };
            const decided = (await engine.decide(request)).campaigns.map((c) => `${c.id}/${c.variationGroupId}/${c.variation.id}`);
            const explained = (await engine.explain(request)).campaigns
              .filter((c) => c.outcome === 'assigned')
              .map((c) => `${c.campaignId}/${c.variationGroupId}/${c.variationId}`);
            expect(decided).toEqual(explained);
          }
        },
      ),
      { numRuns: 300 },
    );
  });
});
