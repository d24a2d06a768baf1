/**
 * An A/B of search settings driven by simulated shoppers, two ways: deciding, exposing and
 * tracking in process (DecisionEngine, ExperimentService), and over HTTP (GET /search?visitorId=
 * decided by SearchExperiments, POST /search/events tracked for the results). The same seed gives
 * the same visitors, variations, pages and draws, so the results must be identical.
 */
import { describe, expect, it } from 'vitest';
import { Shoppers } from '../helpers/shoppers';
import { type Arm, abConfig, CachedSearches, experimentOf, httpArms, inProcessArms, readResults, runCheckpoints } from './ab';
import { QUERIES, registryOf } from './fixture';

const ARMS: readonly [Arm, Arm] = [
  { id: 'plain', settings: {} },
  { id: 'by-name', settings: { rankingRules: ['customRanking', 'bm25'], customRanking: ['name:desc'] } },
];

describe('search A/B with simulated shoppers', () => {
  it('reads the same results in process and over HTTP, every visitor exposed once', async () => {
    const { registry, catalog } = await registryOf('ab');
    const shoppers = () => new Shoppers({ queries: QUERIES, seed: 9, sessionsPerVisitor: 2, noResultShare: 0.05 });
    const searches = new CachedSearches(catalog);
    // The arms rank differently, so over HTTP a variation's settings must apply for the counts to match.
    const pages = async (settings: Arm['settings']) =>
      Promise.all(QUERIES.map(async (q) => (await searches.page(settings, q.query, 10)).ids));
    expect(await pages(ARMS[1].settings)).not.toEqual(await pages(ARMS[0].settings));
    const { engine, experiments } = await experimentOf(abConfig(ARMS));
    const local = inProcessArms(searches, ARMS, engine, experiments);
    const expected = await runCheckpoints(
      shoppers(),
      local.search,
      local.record,
      local.flush,
      (n) => readResults(experiments, n),
      [200, 600],
    );
    const http = await httpArms(registry, 'ab', ARMS);
    const got = await runCheckpoints(shoppers(), http.search, http.record, http.flush, http.read, [200, 600]);
    await http.close();
    expect(got).toEqual(expected);
    const end = got.at(-1)!;
    expect(end.exposed[0] + end.exposed[1]).toBe(300);
    expect(end.click.rates[0]).toBeGreaterThan(0);
    expect(end.click.pValue).not.toBeNull();
  });
});
