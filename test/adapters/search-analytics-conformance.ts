/**
 * The search analytics part of the storage conformance suite (run by runConformance for every
 * adapter): rollups add up across writes, reads sum the range's days, the registry keeps first
 * records, and purge forgets by day, time and count.
 */
import { describe, expect, it } from 'vitest';
import type { Storage } from '../../src/index';
import type { ItemCounts, QueryCounts, SearchAnalyticsWrite, TrackedSearch } from '../../src/storage/search-analytics';

const ZERO_QUERY: QueryCounts = { searches: 0, tracked: 0, zeroResults: 0, clicks: 0, clickPositions: 0, conversions: 0, latencyMs: 0 };
const ZERO_ITEM: ItemCounts = { clicks: 0, conversions: 0, views: 0, purchases: 0, pageviews: 0 };

const q = (catalog: string, day: number, query: string, counts: Partial<QueryCounts>) => ({
  catalog,
  day,
  query,
  counts: { ...ZERO_QUERY, ...counts },
});
const i = (catalog: string, day: number, itemId: string, counts: Partial<ItemCounts>) => ({
  catalog,
  day,
  itemId,
  counts: { ...ZERO_ITEM, ...counts },
});
const write = (w: Partial<SearchAnalyticsWrite>): SearchAnalyticsWrite => ({
  queries: [],
  items: [],
  queryItems: [],
  searches: [],
  filters: [],
  ...w,
});
const search = (queryId: string, time: number, over: Partial<TrackedSearch> = {}): TrackedSearch => ({
  queryId,
  catalog: 'shop',
  query: 'usb c',
  hits: ['a', 'b'],
  offset: 0,
  visitorId: null,
  time,
  ...over,
});

export function searchAnalyticsConformance(store: () => Storage): void {
  describe('search analytics', () => {
    it('adds writes to the same key and sums a range per day and per query', async () => {
      const s = store().searchAnalytics;
      await s.write(
        write({
          queries: [
            q('shop', 10, 'usb c', { searches: 2, tracked: 1, latencyMs: 2.5 }),
            q('shop', 10, 'tv', { searches: 1, zeroResults: 1 }),
          ],
        }),
      );
      await s.write(
        write({
          queries: [
            q('shop', 10, 'usb c', { searches: 1, clicks: 2, clickPositions: 5 }),
            q('shop', 11, 'usb c', { searches: 4, conversions: 1 }),
          ],
        }),
      );
      await s.write(write({ queries: [q('other', 10, 'usb c', { searches: 100 }), q('shop', 12, 'tv', { searches: 7 })] }));
      const range = { catalog: 'shop', since: 10, until: 11 };
      expect(await s.days(range)).toEqual([
        { ...ZERO_QUERY, day: 10, searches: 4, tracked: 1, zeroResults: 1, clicks: 2, clickPositions: 5, latencyMs: 2.5 },
        { ...ZERO_QUERY, day: 11, searches: 4, conversions: 1 },
      ]);
      expect(await s.queries(range, 'searches', 10)).toEqual([
        { ...ZERO_QUERY, query: 'usb c', searches: 7, tracked: 1, clicks: 2, clickPositions: 5, conversions: 1, latencyMs: 2.5 },
        { ...ZERO_QUERY, query: 'tv', searches: 1, zeroResults: 1 },
      ]);
      expect(await s.queries(range, 'searches', 1)).toHaveLength(1);
      expect(await s.queries(range, 'zeroResults', 10)).toEqual([{ ...ZERO_QUERY, query: 'tv', searches: 1, zeroResults: 1 }]);
      expect(await s.days({ catalog: 'none', since: 0, until: 100 })).toEqual([]);
    });

    it('orders ties by query in code-unit order', async () => {
      const s = store().searchAnalytics;
      await s.write(write({ queries: ['b', 'B', 'a', 'é'].map((query) => q('shop', 1, query, { searches: 1 })) }));
      expect((await s.queries({ catalog: 'shop', since: 1, until: 1 }, 'searches', 10)).map((r) => r.query)).toEqual(['B', 'a', 'b', 'é']);
    });

    it('sums items, lists clicked or converted ones first by clicks, and gives per-day rows newest first', async () => {
      const s = store().searchAnalytics;
      await s.write(
        write({
          items: [i('shop', 5, 'x', { clicks: 1, views: 3 }), i('shop', 5, 'y', { conversions: 2 }), i('shop', 5, 'z', { pageviews: 9 })],
        }),
      );
      await s.write(write({ items: [i('shop', 6, 'x', { clicks: 1, purchases: 1 }), i('shop', 6, 'y', { clicks: 2 })] }));
      const range = { catalog: 'shop', since: 0, until: 10 };
      expect(await s.items(range, 10)).toEqual([
        { ...ZERO_ITEM, itemId: 'y', clicks: 2, conversions: 2 },
        { ...ZERO_ITEM, itemId: 'x', clicks: 2, views: 3, purchases: 1 },
      ]);
      expect(await s.itemDays(range, 10)).toEqual([
        { ...ZERO_ITEM, day: 6, itemId: 'x', clicks: 1, purchases: 1 },
        { ...ZERO_ITEM, day: 6, itemId: 'y', clicks: 2 },
        { ...ZERO_ITEM, day: 5, itemId: 'x', clicks: 1, views: 3 },
        { ...ZERO_ITEM, day: 5, itemId: 'y', conversions: 2 },
        { ...ZERO_ITEM, day: 5, itemId: 'z', pageviews: 9 },
      ]);
      expect(await s.itemDays(range, 2)).toHaveLength(2);
    });

    it('sums query-item feedback over the range, most examined first', async () => {
      const s = store().searchAnalytics;
      const qi = (day: number, query: string, itemId: string, clicks: number, examined: number) => ({
        catalog: 'shop',
        day,
        query,
        itemId,
        counts: { clicks, examined, conversions: 0 },
      });
      await s.write(write({ queryItems: [qi(1, 'tv', 'a', 1, 1), qi(1, 'tv', 'b', 0, 0.5), qi(2, 'tv', 'b', 1, 0.75)] }));
      await s.write(write({ queryItems: [qi(2, 'tv', 'a', 0, 1), qi(3, 'tv', 'a', 5, 5)] }));
      expect(await s.queryItems({ catalog: 'shop', since: 1, until: 2 }, 10)).toEqual([
        { query: 'tv', itemId: 'a', clicks: 1, examined: 2, conversions: 0 },
        { query: 'tv', itemId: 'b', clicks: 1, examined: 1.25, conversions: 0 },
      ]);
      expect(await s.queryItems({ catalog: 'shop', since: 1, until: 3 }, 1)).toEqual([
        { query: 'tv', itemId: 'a', clicks: 6, examined: 7, conversions: 0 },
      ]);
    });

    it('sums searches per filtered field, most used first, ties by name', async () => {
      const s = store().searchAnalytics;
      const f = (day: number, field: string, searches: number) => ({ catalog: 'shop', day, field, searches });
      await s.write(write({ filters: [f(1, 'brand', 2), f(1, 'price', 1), f(2, 'color', 3)] }));
      await s.write(write({ filters: [f(2, 'brand', 1), f(9, 'brand', 50), { catalog: 'other', day: 1, field: 'size', searches: 9 }] }));
      expect(await s.filters({ catalog: 'shop', since: 1, until: 2 }, 10)).toEqual([
        { field: 'brand', searches: 3 },
        { field: 'color', searches: 3 },
        { field: 'price', searches: 1 },
      ]);
      expect(await s.filters({ catalog: 'shop', since: 1, until: 2 }, 1)).toHaveLength(1);
      await s.purge({ beforeDay: 2, beforeTime: 0, maxSearches: 10 });
      expect(await s.filters({ catalog: 'shop', since: 0, until: 100 }, 10)).toEqual([
        { field: 'brand', searches: 51 },
        { field: 'color', searches: 3 },
      ]);
    });

    it('registers searches once and finds them only in their catalog', async () => {
      const s = store().searchAnalytics;
      const first = search('a'.repeat(32), 1000, { visitorId: 'v1', hits: ['x', 'é"\\'], offset: 20 });
      await s.write(write({ searches: [first, search('b'.repeat(32), 1001, { catalog: 'other' })] }));
      await s.write(write({ searches: [search('a'.repeat(32), 2000, { query: 'changed' })] }));
      const found = await s.lookup('shop', ['a'.repeat(32), 'b'.repeat(32), 'c'.repeat(32)]);
      expect([...found.keys()]).toEqual(['a'.repeat(32)]);
      expect(found.get('a'.repeat(32))).toEqual(first);
      expect((await s.lookup('other', ['b'.repeat(32)])).size).toBe(1);
    });

    it('purges days before the retention, searches before a time, and the oldest beyond the cap per catalog', async () => {
      const s = store().searchAnalytics;
      await s.write(
        write({
          queries: [q('shop', 8, 'old', { searches: 1 }), q('shop', 9, 'kept', { searches: 1 })],
          items: [i('shop', 8, 'old', { clicks: 1 }), i('shop', 9, 'kept', { clicks: 1 })],
          queryItems: [{ catalog: 'shop', day: 8, query: 'old', itemId: 'old', counts: { clicks: 1, examined: 1, conversions: 0 } }],
          searches: [1, 2, 3, 4, 5]
            .map((n) => search(String(n).repeat(32), 1000 * n))
            .concat([search('9'.repeat(32), 1000, { catalog: 'other' })]),
        }),
      );
      await s.purge({ beforeDay: 9, beforeTime: 2000, maxSearches: 2 });
      const range = { catalog: 'shop', since: 0, until: 100 };
      expect((await s.days(range)).map((d) => d.day)).toEqual([9]);
      expect((await s.items(range, 10)).map((r) => r.itemId)).toEqual(['kept']);
      expect(await s.queryItems(range, 10)).toEqual([]);
      const ids = [1, 2, 3, 4, 5].map((n) => String(n).repeat(32));
      expect([...(await s.lookup('shop', ids)).keys()].sort()).toEqual([ids[3], ids[4]]);
      expect((await s.lookup('other', ['9'.repeat(32)])).size).toBe(0);
    });
  });
}
