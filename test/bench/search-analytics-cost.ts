/**
 * `npm run bench -- search-experiments`, measurement 4: what recording costs a search. The same
 * simulated sessions on Best Buy go through two search handlers over the same registry: one
 * without analytics, one with SearchAnalytics (memory, then SQLite) asked `clickAnalytics=true`
 * with the visitor id, each session's clicks, views and conversions posted to POST
 * /search/events after its search. Only `GET /search` is timed: each session searches both
 * handlers back to back, alternating which goes first; the figures are each handler's p50.
 */
import { sqliteStorage } from '../../adapters/sql/sqlite';
import { createSearchHandler } from '../../src/http/index';
import { memoryStorage, type Storage } from '../../src/index';
import { loadBestBuy } from '../helpers/bestbuy';
import { type SearchAnswer, Shoppers, searchEvents } from '../helpers/shoppers';
import { analyticsOver } from '../sim/analytics';
import { httpSearch, postEvents } from '../sim/http';
import { readHoldoutQueries, readJudgedQueries } from './relevance-judgments';
import { median } from './relevance-metrics';

const SESSIONS = 2000;

/** Times one call. */
async function timed<T>(run: () => Promise<T>): Promise<[T, number]> {
  const start = performance.now();
  const out = await run();
  return [out, performance.now() - start];
}

/** Prints p50 with and without recording, per store, and their ratio. */
export async function benchSearchAnalyticsCost(): Promise<{ store: string; ratio: number }[]> {
  const { registry, catalog } = await loadBestBuy();
  const queries = [...readJudgedQueries(), ...readHoldoutQueries()];
  const id = catalog.identifier;
  console.log('\n## Search experiments: the cost of recording searches and events');
  console.log(
    `Best Buy, GET /search (hitsPerPage 10) of ${SESSIONS.toLocaleString('en')} simulated sessions (after 100 to warm up), each searching both handlers back to back, alternating which goes first; with analytics: clickAnalytics=true&visitorId=…, the shopper browses that answer and its events are posted (untimed) to POST /search/events, counters written in the background (every 1,000 keys or second).`,
  );
  console.log('| analytics store | p50 without (ms) | p50 with (ms) | p50 with / p50 without | median of per-session ratios |');
  console.log('|---|---|---|---|---|');
  const out = [];
  const stores: [string, () => Promise<Storage>][] = [
    ['memory', async () => memoryStorage()],
    ['SQLite (in memory)', () => sqliteStorage({ filename: ':memory:' })],
  ];
  for (const [name, open] of stores) {
    const storage = await open();
    const analytics = analyticsOver(storage, catalog);
    const plain = httpSearch(createSearchHandler({ registry }), id, {});
    const recording = createSearchHandler({ registry, analytics });
    const tracked = httpSearch(recording, id);
    const shoppers = new Shoppers({ queries, seed: 44, noResultShare: 0.05, sessionsPerVisitor: 3 });
    const without: number[] = [];
    const withIt: number[] = [];
    // Each session searches both handlers back to back, alternating which goes first, so both see
    // the same query and the same moment of a shared machine; the shopper then browses the
    // recorded answer and its events are posted (untimed). The first 100 sessions warm up.
    for (let i = 0; i < SESSIONS + 100; i++) {
      const { text, visitorId } = shoppers.plan(i);
      const request = { text, visitorId, hitsPerPage: 10 };
      const runPlain = () => timed(() => plain(request));
      const runTracked = () => timed(() => tracked(request));
      let a: number;
      let b: number;
      let answer: SearchAnswer;
      if (i % 2 === 0) {
        [, a] = await runPlain();
        [answer, b] = await runTracked();
      } else {
        [answer, b] = await runTracked();
        [, a] = await runPlain();
      }
      const session = await shoppers.session(i, async () => answer);
      await postEvents(recording, id, searchEvents(session));
      if (i < 100) continue;
      without.push(a);
      withIt.push(b);
    }
    await analytics.close();
    await storage.close();
    const ratio = median(withIt) / median(without);
    const paired = median(withIt.map((b, i) => b / without[i]!));
    console.log(
      `| ${name} | ${median(without).toFixed(3)} | ${median(withIt).toFixed(3)} | ${ratio.toFixed(3)} × | ${paired.toFixed(3)} × |`,
    );
    out.push({ store: name, ratio });
  }
  return out;
}
