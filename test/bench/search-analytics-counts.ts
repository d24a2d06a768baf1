/**
 * `npm run bench -- search-experiments`, measurement 1: simulated shoppers on the judged Best Buy
 * queries (and no-result words) through the search handler (GET /search, POST /search/events) and SearchAnalytics on memory, SQLite and PostgreSQL (skipped,
 * saying so, when unreachable); every rolled-up count, the report and behaviour's feedback are
 * compared with the plain tally of the simulated events.
 */
import { sqliteStorage } from '../../adapters/sql/sqlite';
import { memoryStorage, type Storage } from '../../src/index';
import { loadBestBuy } from '../helpers/bestbuy';
import { dropSchema, POSTGRES_URL, postgresAvailable, testSchema } from '../helpers/postgres';
import { Shoppers, tally } from '../helpers/shoppers';
import { analyticsOver, differences, httpShop } from '../sim/analytics';
import { readHoldoutQueries, readJudgedQueries } from './relevance-judgments';

const SESSIONS = 1000;

/** The stores compared: memory, SQLite in memory, PostgreSQL in a fresh schema when it answers. */
async function stores(): Promise<{ name: string; open: () => Promise<{ storage: Storage; drop: () => Promise<void> }> }[]> {
  const list = [
    { name: 'memory', open: async () => ({ storage: memoryStorage(), drop: async () => {} }) },
    { name: 'SQLite', open: async () => ({ storage: await sqliteStorage({ filename: ':memory:' }), drop: async () => {} }) },
  ];
  if (await postgresAvailable()) {
    const { postgresStorage } = await import('../../adapters/sql/postgres');
    list.push({
      name: 'PostgreSQL',
      open: async () => {
        const schema = testSchema('simcounts');
        return { storage: await postgresStorage({ connectionString: POSTGRES_URL, schema }), drop: () => dropSchema(schema) };
      },
    });
  } else console.log(`PostgreSQL: SKIPPED, ${POSTGRES_URL} is unreachable`);
  return list;
}

/** Runs the simulation on each store and prints what was counted and how many counts differ. */
export async function benchSearchAnalyticsCounts(): Promise<{ store: string; differences: string[] }[]> {
  const { catalog, registry } = await loadBestBuy();
  const queries = [...readJudgedQueries(), ...readHoldoutQueries()];
  console.log('\n## Search experiments: analytics counts against the simulated events');
  console.log(
    `Best Buy, ${SESSIONS.toLocaleString('en')} sessions: ${queries.length} judged queries (Zipf-popular) and 5 % no-result words, 3 sessions per visitor; every search through GET /search?clickAnalytics=true&visitorId=…, its clicks, views and conversions posted to POST /search/events (batches of 1,000), its page views and purchases posted there as linked events.`,
  );
  console.log('| store | searches | zero-result | clicks | conversions | queries | items | query-item pairs | counts differing |');
  console.log('|---|---|---|---|---|---|---|---|---|');
  const results = [];
  for (const { name, open } of await stores()) {
    const { storage, drop } = await open();
    const analytics = analyticsOver(storage, catalog);
    try {
      const { search, record, flush } = httpShop(registry, analytics, catalog.identifier);
      const shoppers = new Shoppers({ queries, seed: 2701, noResultShare: 0.05, sessionsPerVisitor: 3 });
      const t = tally(await shoppers.run(search, SESSIONS, 0, record));
      await flush();
      const found = await differences(analytics, storage, catalog.identifier, t);
      const pairs = [...t.pairs.values()].reduce((n, m) => n + m.size, 0);
      console.log(
        `| ${name} | ${t.totals.searches} | ${t.totals.zeroResults} | ${t.totals.clicks} | ${t.totals.conversions} | ${t.queries.size} | ${t.items.size} | ${pairs} | ${found.length} |`,
      );
      for (const d of found.slice(0, 5)) console.log(`  ${d}`);
      results.push({ store: name, differences: found });
    } finally {
      await analytics.close();
      await storage.close();
      await drop();
    }
  }
  console.log(
    "Compared: per query searches, tracked searches, zero results, clicks, Σ click positions, conversions; per item clicks, conversions, views, purchases, page views; per query and item clicks, conversions, examined (as analytics weighs impressions, to 1e-9) and behaviour feedback; the report's totals, top queries, no-result queries and top clicked items.",
  );
  return results;
}
