/**
 * Measurement 1 of #27 in small, on every run: simulated shoppers search a small catalog through
 * GET /search and POST /search/events with SearchAnalytics, and what the memory store rolled up, the report and behaviour's feedback equal
 * the plain tally of the simulated events exactly. (The bench runs the same on Best Buy, with
 * SQLite and PostgreSQL too.)
 */
import { describe, expect, it } from 'vitest';
import { memoryStorage } from '../../src/index';
import { catalogOf } from '../helpers/search';
import { Shoppers, tally } from '../helpers/shoppers';
import { CachedSearches } from './ab';
import { analyticsOver, differences, httpShop, recordedSearch } from './analytics';
import { ITEMS, QUERIES, registryOf } from './fixture';

describe('search analytics against simulated shoppers', () => {
  it('counts every simulated search, click, view, conversion, page view and purchase exactly, over HTTP (memory store)', async () => {
    const { registry, catalog } = await registryOf('sim');
    const storage = memoryStorage();
    const analytics = analyticsOver(storage, catalog);
    try {
      const { search, record, flush } = httpShop(registry, analytics, 'sim');
      const shoppers = new Shoppers({ queries: QUERIES, seed: 27, noResultShare: 0.1, sessionsPerVisitor: 3 });
      const sessions = await shoppers.run(search, 800, 0, record);
      await flush();
      const t = tally(sessions);
      // The simulation exercised what the comparison checks.
      expect(t.totals.zeroResults).toBeGreaterThan(40);
      expect(t.totals.clicks).toBeGreaterThan(500);
      expect(t.totals.conversions).toBeGreaterThan(50);
      expect(await differences(analytics, storage, catalog.identifier, t)).toEqual([]);
    } finally {
      await analytics.close();
    }
  });

  it('sees a lost event: one click fewer is a difference', async () => {
    const catalog = await catalogOf(ITEMS);
    const storage = memoryStorage();
    const analytics = analyticsOver(storage, catalog);
    try {
      const { search, record, flush } = recordedSearch(new CachedSearches(catalog), analytics, catalog.identifier);
      const sessions = await new Shoppers({ queries: QUERIES, seed: 28 }).run(search, 200);
      const clicked = sessions.findIndex((s) => s.browse.clicks.length > 0);
      for (const [i, s] of sessions.entries())
        await record(i === clicked ? { ...s, browse: { ...s.browse, clicks: s.browse.clicks.slice(1) } } : s);
      await flush();
      const found = await differences(analytics, storage, catalog.identifier, tally(sessions));
      expect(found.some((d) => d.startsWith(`query ${sessions[clicked]!.query}:`))).toBe(true);
    } finally {
      await analytics.close();
    }
  });
});
