/**
 * Simulated shoppers through search analytics (measurement 1 of #27): every session's search is
 * recorded with a queryID, its clicks, views and conversions sent as search events, its page views
 * and purchases as linked analytics events; then every count the store rolled up and the report
 * gives is compared with the plain tally of the same sessions.
 */
import { createSearchHandler, SearchAnalytics } from '../../src/http/index';
import type { Catalog, CatalogRegistry, Storage } from '../../src/index';
import { normalizeQuery } from '../../src/search/behaviour';
import type { DayRange } from '../../src/storage/search-analytics';
import { type LinkedEvent, linkedEvents, type Search, type SearchEvent, searchEvents, type Session, type Tally } from '../helpers/shoppers';
import type { CachedSearches } from './ab';
import { httpSearch, postEvents } from './http';

/** The day every simulated search happens on (the analytics clock is fixed). */
export const SIM_DAY = '2026-11-02';
const NOW = Date.parse(`${SIM_DAY}T12:00:00Z`);
const BATCH = 1000;

/** A SearchAnalytics over `storage` whose clock stands at {@link SIM_DAY}, linking through `catalog`. */
export function analyticsOver(storage: Storage, catalog: Catalog): SearchAnalytics {
  return new SearchAnalytics({ storage, catalogs: { get: async () => catalog }, clock: () => NOW, flushIntervalMs: 60_000 });
}

/** A page of ids for a text: what a search answers, before analytics records it. */
export type PageOf = (text: string, hitsPerPage: number) => Promise<{ ids: string[]; totalHits: number }>;

/**
 * Sends what a session did besides searching: its search events (through `send`, in batches of
 * 1,000) and its page views and purchases (through `sendLinked`, by default `analytics.linkEvents`).
 * `flush` sends the rest and writes what analytics holds.
 */
function sessionRecorder(
  analytics: SearchAnalytics,
  catalog: string,
  send: (events: readonly SearchEvent[]) => Promise<unknown>,
  sendLinked: (events: readonly LinkedEvent[]) => Promise<unknown> = (events) => analytics.linkEvents(catalog, events),
) {
  let events: SearchEvent[] = [];
  let linked: LinkedEvent[] = [];
  const flush = async () => {
    for (let i = 0; i < events.length; i += BATCH) await send(events.slice(i, i + BATCH));
    for (let i = 0; i < linked.length; i += BATCH) await sendLinked(linked.slice(i, i + BATCH));
    events = [];
    linked = [];
    await analytics.flush();
  };
  const record = async (s: Session) => {
    events.push(...searchEvents(s));
    linked.push(...linkedEvents(s));
    if (events.length >= BATCH || linked.length >= BATCH) await flush();
  };
  return { record, flush };
}

/**
 * In process: a search through `pageOf` (by default `searches` with the default settings)
 * recorded by `analytics` with clickAnalytics, and a recorder of the sessions' events.
 */
export function recordedSearch(searches: CachedSearches | PageOf, analytics: SearchAnalytics, catalog: string) {
  const pageOf: PageOf = typeof searches === 'function' ? searches : (text, hitsPerPage) => searches.page({}, text, hitsPerPage);
  const search: Search = async ({ text, visitorId, hitsPerPage }) => {
    const started = performance.now();
    const page = await pageOf(text, hitsPerPage);
    const queryID = analytics.recordSearch({
      catalog,
      kind: 'search',
      text,
      totalHits: page.totalHits,
      filters: [],
      latencyMs: performance.now() - started,
      hits: page.ids,
      page: 0,
      hitsPerPage,
      visitorId,
      clickAnalytics: true,
    });
    return { ...page, queryID };
  };
  return { search, ...sessionRecorder(analytics, catalog, (events) => analytics.recordEvents(catalog, events)) };
}

/**
 * Over HTTP: `GET /search?clickAnalytics=true&visitorId=…` and `POST /search/events` (its
 * `events`, then its `linked` page views and purchases) through a search handler given `analytics`.
 */
export function httpShop(registry: CatalogRegistry, analytics: SearchAnalytics, catalog: string) {
  const handler = createSearchHandler({ registry, analytics });
  return {
    search: httpSearch(handler, catalog),
    ...sessionRecorder(
      analytics,
      catalog,
      (events) => postEvents(handler, catalog, events),
      (linked) => postEvents(handler, catalog, linked, 'linked'),
    ),
  };
}

const close = (a: number, b: number) => Math.abs(a - b) <= 1e-9 * Math.max(1, Math.abs(a), Math.abs(b));

/**
 * Every difference between what `storage` and `analytics` hold for `catalog` on {@link SIM_DAY}
 * and the tally: per query (searches, zero results, clicks, click positions, conversions, all
 * searches tracked), per item (clicks, conversions, views, purchases, page views), per query and
 * item (clicks, conversions, examined to 1e-9), the report's totals and lists, and behaviour's
 * query feedback. Empty when they agree.
 */
export async function differences(analytics: SearchAnalytics, storage: Storage, catalog: string, t: Tally): Promise<string[]> {
  const out: string[] = [];
  const expect = (what: string, got: unknown, want: unknown) => {
    if (JSON.stringify(got) !== JSON.stringify(want)) out.push(`${what}: got ${JSON.stringify(got)}, want ${JSON.stringify(want)}`);
  };
  const report = await analytics.analytics(catalog, { since: SIM_DAY, until: SIM_DAY });
  const day = Math.floor(NOW / 86_400_000);
  const range: DayRange = { catalog, since: day, until: day };
  const store = storage.searchAnalytics;
  const queries = await store.queries(range, 'searches', 100_000);
  expect('queries counted', queries.length, t.queries.size);
  for (const q of queries) {
    const w = t.queries.get(q.query);
    if (!w) {
      out.push(`query ${q.query}: not simulated`);
      continue;
    }
    expect(
      `query ${q.query}`,
      [q.searches, q.tracked, q.zeroResults, q.clicks, q.clickPositions, q.conversions],
      [w.searches, w.searches, w.zeroResults, w.clicks, w.clickPositions, w.conversions],
    );
  }
  const items = await store.itemDays(range, 1_000_000);
  expect('items counted', items.length, t.items.size);
  for (const i of items) {
    const w = t.items.get(i.itemId);
    expect(
      `item ${i.itemId}`,
      [i.clicks, i.conversions, i.views, i.purchases, i.pageviews],
      w && [w.clicks, w.conversions, w.views, w.purchases, w.pageviews],
    );
  }
  const pairs = await store.queryItems(range, 1_000_000);
  expect(
    'query-item pairs counted',
    pairs.length,
    [...t.pairs.values()].reduce((n, m) => n + m.size, 0),
  );
  await analytics.refresh(catalog);
  for (const p of pairs) {
    const w = t.pairs.get(p.query)?.get(p.itemId);
    expect(`pair ${p.query} / ${p.itemId}`, [p.clicks, p.conversions], w && [w.clicks, w.conversions]);
    if (w && !close(p.examined, w.examined)) out.push(`pair ${p.query} / ${p.itemId} examined: got ${p.examined}, want ${w.examined}`);
    const f = analytics.behaviour.queryFeedback(catalog, p.query)?.get(p.itemId);
    if (!f || f.clicks !== p.clicks || !close(f.examined, p.examined))
      out.push(`behaviour feedback ${p.query} / ${p.itemId}: ${JSON.stringify(f)}`);
  }
  const { totals } = report;
  expect(
    'report totals',
    [totals.searches, totals.trackedSearches, totals.zeroResults, totals.clicks, totals.conversions],
    [t.totals.searches, t.totals.searches, t.totals.zeroResults, t.totals.clicks, t.totals.conversions],
  );
  for (const q of report.topQueries)
    expect(
      `report query ${q.query}`,
      [q.count, q.clicks, q.conversions],
      [t.queries.get(q.query)?.searches, t.queries.get(q.query)?.clicks, t.queries.get(q.query)?.conversions],
    );
  const noResult = [...t.queries].filter(([, q]) => q.zeroResults > 0);
  expect('report no-result queries', report.noResultQueries.length, Math.min(100, noResult.length));
  for (const q of report.noResultQueries) expect(`report no-result ${q.query}`, q.count, t.queries.get(q.query)?.zeroResults);
  for (const i of report.topClickedItems)
    expect(`report item ${i.itemId}`, [i.clicks, i.conversions], [t.items.get(i.itemId)?.clicks, t.items.get(i.itemId)?.conversions]);
  const most = Math.max(...[...t.queries.values()].map((q) => q.searches));
  expect('most searched query first', report.topQueries[0]?.count, most);
  if (report.topQueries.some((q) => q.query !== normalizeQuery(q.query))) out.push('a reported query is not normalized');
  return out;
}
