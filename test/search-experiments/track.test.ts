import { afterAll, describe, expect, it } from 'vitest';
import { prng } from '../../examples/demo/generate-products';
import { sqliteStorage } from '../../adapters/sql/sqlite';
import { DecisionEngine, ExperimentService, memoryStorage, type Storage } from '../../src/index';
import { SEARCH_METRICS, SearchExperiments, type SearchEventInput } from '../../src/http/index';
import { dropSchema, POSTGRES_URL, postgresAvailable, testSchema } from '../helpers/postgres';
import { searchCampaign } from '../helpers/search-campaign';

const pgUp = await postgresAvailable();
const schema = testSchema('search_experiments');
const opened: Storage[] = [];
afterAll(async () => {
  for (const s of opened) await s.close();
  if (pgUp) await dropSchema(schema);
});

/** The stores search experiments run on: every adapter (PostgreSQL when it answers). */
const STORES: [string, () => Promise<Storage>][] = [
  ['memory', async () => memoryStorage()],
  ['sqlite', () => sqliteStorage({ filename: ':memory:' })],
  // postgresAvailable() says visibly when it is skipped.
  ...(pgUp
    ? ([
        [
          'postgres',
          async () => {
            const { postgresStorage } = await import('../../adapters/sql/postgres');
            return postgresStorage({ connectionString: POSTGRES_URL, schema });
          },
        ],
      ] as [string, () => Promise<Storage>][])
    : []),
];

async function setUp(open: () => Promise<Storage> = async () => memoryStorage()) {
  let now = Date.parse('2026-11-01T00:00:00Z');
  const storage = await open();
  opened.push(storage);
  const engine = new DecisionEngine({ storage, clock: () => now });
  await engine.load({ campaigns: [searchCampaign('rank', [{}, { customRanking: ['popularity:desc'] }])] });
  const experiments = new ExperimentService({ engine });
  const tick = () => (now += 1000);
  return { engine, experiments, searchExperiments: new SearchExperiments({ engine, experiments }), tick };
}

describe('SearchExperiments.track', () => {
  it.each(STORES)('turns clicks and conversions into events the results compare per variation (%s)', async (_, open) => {
    const { experiments, searchExperiments, tick } = await setUp(open);
    const random = prng(7);
    // The variation's visitors click at least once with 0.5, the reference's with 0.3.
    const rate: Record<string, number> = { 'rank-v0': 0.3, 'rank-v1': 0.5 };
    const clicks: Record<string, number> = { 'rank-v0': 0, 'rank-v1': 0 };
    const events: SearchEventInput[] = [];
    for (let i = 0; i < 1500; i++) {
      const visitorId = `v${i}`;
      const variationId = (await searchExperiments.decide('acme', visitorId))!.variations[0]!.variationId;
      events.push({ type: 'view', visitorId });
      if (random() < rate[variationId]!) {
        const n = 1 + Math.floor(random() * 3);
        for (let k = 0; k < n; k++) events.push({ type: 'click', visitorId });
        clicks[variationId]! += n;
        if (random() < 0.5) events.push({ type: 'conversion', visitorId });
      }
    }
    events.push({ type: 'click' }, { type: 'click', visitorId: null });
    tick();
    const clickEvents = events.filter((e) => e.type === 'click' && e.visitorId).length;
    const conversions = events.filter((e) => e.type === 'conversion').length;
    // Over 1,000 events: recorded in batches of the track limit.
    expect(clickEvents + conversions).toBeGreaterThan(1000);
    expect(await searchExperiments.track('acme', events)).toBe(clickEvents + conversions);

    const results = await experiments.results({ campaignId: 'rank', metric: SEARCH_METRICS.click });
    const [a, b] = results.groups[0]!.variations;
    expect(a!.exposed + b!.exposed).toBe(1500);
    expect(a!.valueSum).toBe(clicks['rank-v0']);
    expect(b!.valueSum).toBe(clicks['rank-v1']);
    expect(b!.conversionRate!).toBeGreaterThan(a!.conversionRate!);
    expect(b!.comparison!.conversionRate.pValue!).toBeLessThan(0.05);
    const bought = await experiments.results({ campaignId: 'rank', metric: SEARCH_METRICS.conversion });
    expect(bought.groups[0]!.variations.reduce((n, v) => n + v.converted, 0)).toBe(conversions);
  });

  it('records nothing for a catalog no campaign tests', async () => {
    const { searchExperiments, engine } = await setUp();
    await engine.load({ campaigns: [searchCampaign('rank', [{ catalog: 'other' }, { catalog: 'other', customRanking: ['p:asc'] }])] });
    expect(await searchExperiments.track('acme', [{ type: 'click', visitorId: 'v1' }])).toBe(0);
    expect(await engine.storage.events.list({ environmentId: 'default' })).toEqual([]);
    expect(await searchExperiments.track('other', [{ type: 'click', visitorId: 'v1' }])).toBe(1);
    expect((await engine.storage.events.list({ environmentId: 'default' })).map((e) => [e.visitorId, e.event, e.value])).toEqual([
      ['v1', 'search_click', 1],
    ]);
  });
});
