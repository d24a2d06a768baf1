/**
 * `npm run bench -- search-analytics`: what recording search analytics costs a search, through
 * the search handler (`GET /search` as a `new Request`) on the Best Buy catalog: no analytics
 * (the baseline), analytics counting the search, analytics with `clickAnalytics=true` (a query id,
 * the page's hits registered, their impressions counted), and the same over SQLite, whose batched
 * writes run on the main thread between searches. Variants alternate query by query, rotating
 * which goes first; p50 and p99 per variant, and the p50 ratio to the baseline (issue #27: within
 * 10 %). Then the cost of `POST /search/events` with 10 clicks.
 */
import { sqliteStorage } from '../../adapters/sql/sqlite';
import { SearchAnalytics } from '../../src/analytics/service';
import { createSearchHandler } from '../../src/http/search';
import type { Handler, Storage } from '../../src/index';
import { loadBestBuy } from '../helpers/bestbuy';
import { measure } from './measure';
import { percentile } from './relevance-metrics';
import { QUERIES } from './search';

interface Variant {
  readonly name: string;
  readonly handler: Handler;
  readonly query: string;
}

async function get(handler: Handler, url: string): Promise<string> {
  return (await handler(new Request(url))).text();
}

/** p50 and p99 of each variant over `rounds` passes of the queries, alternated and rotated. */
async function alternate(variants: readonly Variant[], rounds: number): Promise<{ p50: number; p99: number }[]> {
  const url = (v: Variant, q: string) => `http://bench.example/search?index=bestbuy_Catalog&text=${encodeURIComponent(q)}${v.query}`;
  for (const v of variants) for (const q of QUERIES) await get(v.handler, url(v, q));
  const times = variants.map(() => [] as number[]);
  for (let round = 0; round < rounds; round++)
    for (const q of QUERIES)
      for (let j = 0; j < variants.length; j++) {
        const k = (j + round) % variants.length;
        const t = performance.now();
        await get(variants[k]!.handler, url(variants[k]!, q));
        times[k]!.push(performance.now() - t);
      }
  return times.map((t) => {
    const sorted = t.sort((a, b) => a - b);
    return { p50: percentile(sorted, 50), p99: percentile(sorted, 99) };
  });
}

export async function benchSearchAnalytics(): Promise<void> {
  const { registry, products } = await loadBestBuy();
  const rounds = Number(process.env.BENCH_ROUNDS ?? 60);
  const sqlite: Storage = await sqliteStorage({ filename: ':memory:' });
  const memory = new SearchAnalytics({ storage: registry.storage, catalogs: registry });
  const onSqlite = new SearchAnalytics({ storage: sqlite });
  const variants: Variant[] = [
    { name: 'no analytics (baseline)', handler: createSearchHandler({ registry }), query: '' },
    { name: 'analytics in memory, search counted', handler: createSearchHandler({ registry, analytics: memory }), query: '' },
    {
      name: 'analytics in memory, clickAnalytics=true (query id, hits registered)',
      handler: createSearchHandler({ registry, analytics: memory }),
      query: '&clickAnalytics=true&visitorId=v1',
    },
    {
      name: 'analytics on SQLite, clickAnalytics=true (batched writes on the main thread)',
      handler: createSearchHandler({ registry, analytics: onSqlite }),
      query: '&clickAnalytics=true&visitorId=v1',
    },
  ];
  const rows = await alternate(variants, rounds);
  console.log(
    `\n## Search analytics: cost of recording (GET /search through the handler, ${products.length.toLocaleString('en-US')} Best Buy items, ${rounds} rounds × ${QUERIES.length} queries, alternated)`,
  );
  const base = rows[0]!.p50;
  variants.forEach((v, i) => {
    const { p50, p99 } = rows[i]!;
    console.log(`${v.name.padEnd(78)} p50 ${p50.toFixed(3)} ms  p99 ${p99.toFixed(3)} ms  p50 ${(p50 / base).toFixed(3)} × baseline`);
  });

  // recordSearch alone, the work a search adds: a page of 20 hits, tracked (registered, 20 impressions) or not.
  const hits = Array.from({ length: 20 }, (_, i) => `bb-${i}`);
  const recorded = (clickAnalytics: boolean) => () =>
    memory.recordSearch({
      catalog: 'bestbuy',
      kind: 'search',
      text: 'galaxy s7 case',
      totalHits: 120,
      filters: [],
      latencyMs: 1,
      hits,
      page: 0,
      hitsPerPage: 20,
      clickAnalytics,
    });
  // Batches of 1,000 calls, each followed by the flush a server's next turns would run: the cost includes writing to memory.
  for (const [label, op] of [
    ['recordSearch, counted only (with its share of the flush)', recorded(false)],
    ['recordSearch, clickAnalytics=true, 20 hits (with its share of the flush)', recorded(true)],
  ] as const) {
    const row = await measure(label, async () => {
      for (let i = 0; i < 1000; i++) op();
      await memory.flush();
    });
    console.log(`${label.padEnd(78)} ${(1e6 / row.opsPerSec / 1000).toFixed(2)} µs per call`);
  }

  // Events: a tracked search's page clicked 10 times in one POST.
  const handler = createSearchHandler({ registry, analytics: memory });
  const answer = JSON.parse(await get(handler, 'http://bench.example/search?index=bestbuy_Catalog&text=case&clickAnalytics=true')) as {
    queryID: string;
    hits: { id: string }[];
  };
  const body = JSON.stringify({
    events: answer.hits.slice(0, 10).map((h, i) => ({ type: 'click', queryID: answer.queryID, itemId: h.id, position: i + 1 })),
  });
  const post = () =>
    handler(
      new Request('http://bench.example/search/events?index=bestbuy_Catalog', {
        method: 'POST',
        body,
        headers: { 'content-type': 'application/json' },
      }),
    );
  for (let i = 0; i < 200; i++) await post();
  const times: number[] = [];
  for (let i = 0; i < 2000; i++) {
    const t = performance.now();
    await post();
    times.push(performance.now() - t);
  }
  times.sort((a, b) => a - b);
  console.log(`POST /search/events with 10 clicks: p50 ${percentile(times, 50).toFixed(3)} ms, p99 ${percentile(times, 99).toFixed(3)} ms`);
  await memory.close();
  await onSqlite.close();
  await sqlite.close();
}
