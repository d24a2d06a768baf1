import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { sqliteStorage } from '../../adapters/sql/sqlite';
import { SearchAnalytics, type SearchAnalyticsOptions } from '../../src/analytics/service';
import { CatalogRegistry, memoryStorage, ValidationError, type Storage } from '../../src/index';
import { item } from '../helpers/search';

const DAY = 86_400_000;
const T0 = Date.parse('2026-11-20T10:00:00Z');

function setup(options: Partial<SearchAnalyticsOptions> = {}) {
  let now = T0;
  let n = 0;
  const storage = options.storage ?? memoryStorage();
  const analytics = new SearchAnalytics({
    storage,
    clock: () => now,
    // Reproducible query ids: each 16-byte id ends with its number.
    random: (size) => {
      const bytes = new Uint8Array(size);
      for (let at = 12; at + 4 <= size; at += 16) new DataView(bytes.buffer).setUint32(at, ++n);
      return bytes;
    },
    flushIntervalMs: 60_000,
    ...options,
  });
  return { analytics, storage, advance: (ms: number) => (now += ms) };
}

const search = (text: string, hits: string[], over: Record<string, unknown> = {}) => ({
  catalog: 'shop',
  kind: 'search' as const,
  text,
  totalHits: hits.length,
  filters: [],
  latencyMs: 2,
  hits,
  page: 0,
  hitsPerPage: 20,
  clickAnalytics: true,
  ...over,
});

function reasonOf(fn: () => Promise<unknown>) {
  return fn().then(
    () => undefined,
    (e: unknown) => e,
  );
}

describe('SearchAnalytics', () => {
  it('counts searches, zero results, clicks, positions and conversions exactly (a hand computation)', async () => {
    const { analytics } = setup();
    const q1 = analytics.recordSearch(search('USB-C  Cable', ['a', 'b', 'c']))!;
    const q2 = analytics.recordSearch(search('usb c cable', ['b', 'a']))!;
    analytics.recordSearch(search('tv stand', [], { clickAnalytics: false }));
    analytics.recordSearch(search('TV stand', []));
    analytics.recordSearch(search('lamp', ['l'], { clickAnalytics: false, latencyMs: 10, filters: ['brand', 'price', 'brand'] }));
    analytics.recordSearch(search('lamp', [], { clickAnalytics: false, latencyMs: 0, filters: ['brand'] }));
    await analytics.recordEvents('shop', [
      { type: 'click', queryID: q1, itemId: 'b', position: 2 },
      { type: 'click', queryID: q2, itemId: 'b', position: 1, visitorId: 'v1' },
      { type: 'conversion', queryID: q2, itemId: 'b' },
      { type: 'view', queryID: q1, itemId: 'c', position: 3 },
    ]);
    const report = await analytics.analytics('shop', { since: '2026-11-19', until: '2026-11-20' });
    expect(report.totals).toEqual({
      searches: 6,
      trackedSearches: 3,
      zeroResults: 3,
      zeroResultRate: 3 / 6,
      clicks: 2,
      conversions: 1,
      clickThroughRate: 2 / 3,
      conversionRate: 1 / 3,
      meanClickPosition: 1.5,
      meanLatencyMs: 18 / 6,
    });
    expect(report.days.map((d) => [d.day, d.searches])).toEqual([
      ['2026-11-19', 0],
      ['2026-11-20', 6],
    ]);
    expect(report.topQueries.map((q) => [q.query, q.count, q.zeroResults, q.clicks, q.conversions, q.meanClickPosition])).toEqual([
      ['lamp', 2, 1, 0, 0, null],
      ['tv stand', 2, 2, 0, 0, null],
      ['usb c cable', 2, 0, 2, 1, 1.5],
    ]);
    expect(report.noResultQueries).toEqual([
      { query: 'tv stand', count: 2 },
      { query: 'lamp', count: 1 },
    ]);
    // A field counts once per search that filtered on it.
    expect(report.topFilters).toEqual([
      { field: 'brand', count: 2 },
      { field: 'price', count: 1 },
    ]);
    expect(report.topClickedItems).toEqual([{ itemId: 'b', clicks: 2, conversions: 1, views: 0 }]);
  });

  it('gives a query id only when asked, and records autocomplete only then', async () => {
    const { analytics } = setup();
    expect(analytics.recordSearch(search('a', ['x'], { clickAnalytics: false }))).toBeUndefined();
    expect(analytics.recordSearch(search('a', ['x'], { kind: 'autocomplete', clickAnalytics: false }))).toBeUndefined();
    expect(analytics.recordSearch(search('a', ['x'], { kind: 'autocomplete' }))).toMatch(/^[0-9a-f]{32}$/);
    expect((await analytics.analytics('shop')).totals.searches).toBe(2);
  });

  it('refuses an unknown query id, one of another catalog, and bad fields, naming each and recording nothing', async () => {
    const { analytics } = setup();
    const q = analytics.recordSearch(search('a', ['x']))!;
    const other = analytics.recordSearch(search('a', ['x'], { catalog: 'other' }))!;
    await analytics.flush();
    const unknown = 'f'.repeat(32);
    const error = await reasonOf(() =>
      analytics.recordEvents('shop', [
        { type: 'click', queryID: q, itemId: 'x', position: 1 },
        { type: 'click', queryID: unknown, itemId: 'x', position: 1 },
        { type: 'view', queryID: other, itemId: 'x' },
      ]),
    );
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ValidationError).details.map((d) => d.path)).toEqual([
      ['events', 1, 'queryID'],
      ['events', 2, 'queryID'],
    ]);
    const bad = await reasonOf(() =>
      analytics.recordEvents('shop', [
        { type: 'click', queryID: q, itemId: 'x' },
        { type: 'buy', queryID: 'nope', itemId: '', position: 0 },
        { type: 'view', queryID: q, itemId: 'y'.repeat(257), visitorId: 7 },
      ] as never),
    );
    expect((bad as ValidationError).details.map((d) => d.path.join('.'))).toEqual([
      'events.0.position',
      'events.1.type',
      'events.1.queryID',
      'events.1.itemId',
      'events.1.position',
      'events.2.itemId',
      'events.2.visitorId',
    ]);
    const many = Array.from({ length: 1001 }, () => ({ type: 'view' as const, queryID: q, itemId: 'x' }));
    expect(((await reasonOf(() => analytics.recordEvents('shop', many))) as ValidationError).details[0]!.message).toMatch(/at most 1000/);
    expect((await analytics.analytics('shop')).totals.clicks).toBe(0);
  });

  it('answers events with the search’s normalized query and visitor', async () => {
    const { analytics } = setup();
    const q = analytics.recordSearch(search(' Big  TV ', ['x'], { visitorId: 'v9' }))!;
    const recorded = await analytics.recordEvents('shop', [
      { type: 'click', queryID: q, itemId: 'x', position: 1 },
      { type: 'conversion', queryID: q, itemId: 'x', visitorId: 'v2' },
    ]);
    expect(recorded.map((e) => [e.query, e.visitorId])).toEqual([
      ['big tv', 'v9'],
      ['big tv', 'v2'],
    ]);
  });

  it('writes in batches: nothing before a flush, everything after; a full buffer flushes on its own', async () => {
    const { analytics, storage } = setup({ flushSize: 3 });
    const range = { catalog: 'shop', since: 0, until: 100_000 };
    analytics.recordSearch(search('one', ['x'], { clickAnalytics: false }));
    expect(await storage.searchAnalytics.days(range)).toEqual([]);
    analytics.recordSearch(search('two', ['x'], { clickAnalytics: false }));
    analytics.recordSearch(search('three', ['x'], { clickAnalytics: false })); // the third key starts a write
    await analytics.flush();
    expect((await storage.searchAnalytics.days(range))[0]!.searches).toBe(3);
  });

  it('attributes events to the day of their search and purges days beyond the retention', async () => {
    const { analytics, advance } = setup({ retentionDays: 2 });
    const q = analytics.recordSearch(search('old', ['x']))!;
    advance(DAY);
    await analytics.recordEvents('shop', [{ type: 'click', queryID: q, itemId: 'x', position: 1 }]);
    const report = await analytics.analytics('shop', { since: '2026-11-20', until: '2026-11-21' });
    expect(report.days.map((d) => [d.day, d.searches, d.clicks])).toEqual([
      ['2026-11-20', 1, 1],
      ['2026-11-21', 0, 0],
    ]);
    advance(2 * DAY);
    analytics.recordSearch(search('new', []));
    await analytics.flush(); // purges hourly at most: the first flush did, this one is a day later
    const after = await analytics.analytics('shop', { since: '2026-11-20', until: '2026-11-23' });
    expect(after.days.map((d) => d.searches)).toEqual([0, 0, 0, 1]);
    expect(
      ((await reasonOf(() => analytics.recordEvents('shop', [{ type: 'view', queryID: q, itemId: 'x' }]))) as ValidationError).details[0]!
        .path,
    ).toEqual(['events', 0, 'queryID']);
  });

  it('keeps at most 1.1 × maxQueryIds query ids per catalog, however fast searches come within the hour', async () => {
    const { analytics, storage } = setup({ maxQueryIds: 100, flushSize: 10 });
    const ids: string[] = [];
    for (let i = 0; i < 1000; i++) {
      ids.push(analytics.recordSearch(search('q', ['x']))!);
      if (i % 10 === 9) await analytics.flush();
    }
    await analytics.flush();
    const kept = await storage.searchAnalytics.lookup('shop', ids);
    expect(kept.size).toBeGreaterThanOrEqual(100);
    expect(kept.size).toBeLessThanOrEqual(110);
    expect(kept.has(ids.at(-1)!)).toBe(true);
  });

  it('bounds what counts can grow by: events name a hit of their answer, distinct queries per day are capped, feedback stops at position 100', async () => {
    const { analytics, storage } = setup({ maxQueriesPerDay: 2 });
    const q = analytics.recordSearch(search('one', ['x', 'y']))!;
    const foreign = await reasonOf(() => analytics.recordEvents('shop', [{ type: 'click', queryID: q, itemId: 'z', position: 3 }]));
    expect((foreign as ValidationError).details).toEqual([
      { path: ['events', 0, 'itemId'], message: 'is not among the hits of that answer' },
    ]);
    analytics.recordSearch(search('two', []));
    analytics.recordSearch(search('three', [])); // a third distinct query today
    analytics.recordSearch(search('four', []));
    analytics.recordSearch(search('one', []));
    expect((await analytics.analytics('shop')).topQueries.map((r) => [r.query, r.count])).toEqual([
      ['(other)', 2],
      ['one', 2],
      ['two', 1],
    ]);
    const deep = Array.from({ length: 20 }, (_, i) => `d${i}`);
    analytics.recordSearch(search('one', deep, { page: 4, hitsPerPage: 20 })); // positions 81 to 100
    analytics.recordSearch(search('one', deep, { page: 5, hitsPerPage: 20 })); // 101 to 120: not counted
    await analytics.flush();
    const pairs = await storage.searchAnalytics.queryItems({ catalog: 'shop', since: 0, until: 100_000 }, 100);
    expect(pairs.find((p) => p.itemId === 'd19')!.examined).toBe(1 / 100);
    expect(pairs.find((p) => p.itemId === 'd0')!.examined).toBe(1 / 81);
  });

  it('checks the range: calendar days, since ≤ until, at most 366 days', async () => {
    const { analytics } = setup();
    const fields = async (range: object) => ((await reasonOf(() => analytics.analytics('shop', range))) as ValidationError).details;
    expect(await fields({ since: '2026-02-30' })).toEqual([{ path: ['since'], message: 'must be a calendar day as YYYY-MM-DD' }]);
    expect((await fields({ since: '2026-11-21', until: '2026-11-20' }))[0]!.path).toEqual(['since']);
    expect((await fields({ since: '2025-01-01', until: '2026-01-02' }))[0]!.message).toMatch(/367 days; at most 366/);
    expect((await analytics.analytics('shop', { since: '2025-01-02', until: '2026-01-02' })).days).toHaveLength(366);
    const defaults = await analytics.analytics('shop');
    expect([defaults.since, defaults.until, defaults.days.length]).toEqual(['2026-10-22', '2026-11-20', 30]);
  });

  it('checks its options, naming each', () => {
    const storage = memoryStorage();
    const make = (options: object) => () => new SearchAnalytics({ storage, ...options } as SearchAnalyticsOptions);
    expect(make({ storage: {} })).toThrow('SearchAnalytics: storage must be a Storage with a searchAnalytics store');
    expect(make({ retentionDays: 0 })).toThrow('SearchAnalytics: retentionDays must be an integer from 1 to 3650, got 0');
    expect(make({ maxQueryIds: 1.5 })).toThrow('maxQueryIds must be a positive integer');
    expect(make({ flushSize: -1 })).toThrow('flushSize must be a positive integer');
    expect(make({ halfLifeDays: 0 })).toThrow('halfLifeDays must be a positive number');
    expect(make({ signalWeights: { clicks: -1 } })).toThrow('signalWeights.clicks must be a number ≥ 0, got -1');
    expect(make({ catalogs: {} })).toThrow('catalogs must have a get(identifier) method');
  });
});

describe('SearchAnalytics on a shared database', () => {
  it('adds up what two instances count (writes are increments), and one accepts events following the other’s searches once written', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'abkit-analytics-'));
    const file = join(dir, 'shared.db');
    const [a, b] = [await sqliteStorage({ filename: file }), await sqliteStorage({ filename: file })];
    try {
      const one = setup({ storage: a }).analytics;
      const two = setup({ storage: b, random: (size) => new Uint8Array(size).map((_, i) => (i * 7 + 3) & 0xff) }).analytics;
      const q = one.recordSearch(search('shared query', ['x']))!;
      two.recordSearch(search('Shared  Query', []));
      await one.flush();
      await two.recordEvents('shop', [{ type: 'click', queryID: q, itemId: 'x', position: 1 }]);
      const report = await two.analytics('shop');
      expect(report.topQueries.map((r) => [r.query, r.count, r.zeroResults, r.clicks])).toEqual([['shared query', 2, 1, 1]]);
      expect((await one.analytics('shop')).totals.clicks).toBe(1);
    } finally {
      await a.close();
      await b.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('SearchAnalytics.behaviour', () => {
  it('answers click feedback per query and item: examinations weighted 1/position, and down to the deepest click once clicked', async () => {
    const { analytics } = setup();
    const q1 = analytics.recordSearch(search('Phone case', ['a', 'b']))!;
    analytics.recordSearch(search('phone case', ['b', 'a'], { page: 1, hitsPerPage: 2 })); // positions 3 and 4
    await analytics.recordEvents('shop', [{ type: 'click', queryID: q1, itemId: 'b', position: 2 }]);
    expect(analytics.behaviour.queryFeedback('shop', 'phone case')).toBeUndefined(); // no snapshot yet
    await analytics.refresh('shop');
    const feedback = analytics.behaviour.queryFeedback('shop', 'phone case')!;
    // The clicked answer read down to b (a and b examined once); the other, never clicked, 1/position.
    expect(feedback.get('a')).toEqual({ clicks: 0, examined: 1 + 1 / 4 });
    expect(feedback.get('b')).toEqual({ clicks: 1, examined: 1 + 1 / 3 });
    expect(analytics.behaviour.queryFeedback('shop', 'other')).toBeUndefined();
  });

  it('counts the items below the deepest click of an answer as not examined, until a deeper click (the cascade model)', async () => {
    const { analytics } = setup();
    const q = analytics.recordSearch(search('lamp', ['a', 'b', 'c', 'd']))!;
    const examined = async () => {
      await analytics.refresh('shop');
      const feedback = analytics.behaviour.queryFeedback('shop', 'lamp')!;
      return ['a', 'b', 'c', 'd'].map((id) => Math.round((feedback.get(id)?.examined ?? 0) * 1e9) / 1e9);
    };
    await analytics.recordEvents('shop', [{ type: 'click', queryID: q, itemId: 'a', position: 1 }]);
    expect(await examined()).toEqual([1, 0, 0, 0]);
    // Clicking again above the deepest click changes nothing; a deeper click opens the items down to it.
    await analytics.recordEvents('shop', [{ type: 'click', queryID: q, itemId: 'a', position: 1 }]);
    expect(await examined()).toEqual([1, 0, 0, 0]);
    await analytics.recordEvents('shop', [{ type: 'click', queryID: q, itemId: 'c', position: 3 }]);
    expect(await examined()).toEqual([1, 1, 1, 0]);
  });

  it('decays item signals by the half-life and weighs purchases and page views linked through the catalog', async () => {
    const storage = memoryStorage();
    const catalogs = new CatalogRegistry({ storage });
    const { catalog } = await catalogs.create({ identifier: 'shop' });
    await catalog.batch(
      [item('a', { item_purchase_key: ['SKU-A'] }), item('b', { item_pageview_key: ['/p/b'] })].map((product) => ({
        operation: 'create-replace' as const,
        product,
      })),
    );
    await catalog.sync();
    const { analytics, advance } = setup({ storage, catalogs, halfLifeDays: 1, refreshMs: 1000 });
    const q = analytics.recordSearch(search('x', ['a', 'b']))!;
    await analytics.recordEvents('shop', [
      { type: 'click', queryID: q, itemId: 'a', position: 1 },
      { type: 'conversion', queryID: q, itemId: 'a' },
    ]);
    expect(
      await analytics.linkEvents('shop', [
        { name: 'purchase', properties: { sku: 'SKU-A' } },
        { name: 'pageview', properties: { url: '/p/b' } },
      ]),
    ).toBe(2);
    await analytics.refresh('shop');
    expect(Object.fromEntries(analytics.behaviour.itemSignals('shop')!)).toEqual({ a: 1 + 5 + 5, b: 0.2 });
    advance(DAY);
    expect(Object.fromEntries(analytics.behaviour.itemSignals('shop')!)).toEqual({ a: 11, b: 0.2 }); // stale: answers, refreshes behind
    await analytics.refresh('shop');
    expect(Object.fromEntries(analytics.behaviour.itemSignals('shop')!)).toEqual({ a: 11 / 2, b: 0.1 });
  });
});

/** A random session of searches and events, and what a naive count of it gives. */
const scenario = fc.array(
  fc.record({
    query: fc.constantFrom('tv', 'TV ', 'phone case', 'lamp', 'usb-c'),
    hits: fc.array(fc.constantFrom('a', 'b', 'c', 'd'), { maxLength: 4 }),
    tracked: fc.boolean(),
    dayShift: fc.integer({ min: 0, max: 2 }),
    events: fc.array(
      fc.record({
        type: fc.constantFrom('view', 'click', 'conversion'),
        item: fc.nat(),
        position: fc.integer({ min: 1, max: 20 }),
      }),
      {
        maxLength: 3,
      },
    ),
  }),
  { maxLength: 25 },
);

async function rollupsEqualNaive(open: () => Promise<Storage>, runs: number) {
  await fc.assert(
    fc.asyncProperty(scenario, async (sessions) => {
      const storage = await open();
      const { analytics, advance } = setup({ storage });
      const naive = new Map<string, { count: number; zero: number; clicks: number; positions: number; conversions: number }>();
      const items = new Map<string, { clicks: number; conversions: number; views: number }>();
      let shifted = 0;
      try {
        for (const s of sessions) {
          advance(s.dayShift * DAY);
          shifted += s.dayShift;
          const q = analytics.recordSearch(search(s.query, s.hits, { clickAnalytics: s.tracked }));
          const key = s.query.trim().toLowerCase().replace('-', ' ');
          const n = naive.get(key) ?? { count: 0, zero: 0, clicks: 0, positions: 0, conversions: 0 };
          n.count++;
          if (s.hits.length === 0) n.zero++;
          naive.set(key, n);
          if (!q) continue;
          // Events name items of the answer (the service refuses others).
          const events = s.hits.length === 0 ? [] : s.events.map((e) => ({ ...e, item: s.hits[e.item % s.hits.length]! }));
          await analytics.recordEvents(
            'shop',
            events.map((e) => ({ type: e.type as 'view', queryID: q, itemId: e.item, position: e.position })),
          );
          for (const e of events) {
            const it = items.get(e.item) ?? { clicks: 0, conversions: 0, views: 0 };
            if (e.type === 'click') {
              n.clicks++;
              n.positions += e.position;
              it.clicks++;
            } else if (e.type === 'conversion') {
              n.conversions++;
              it.conversions++;
            } else it.views++;
            items.set(e.item, it);
          }
        }
        const report = await analytics.analytics('shop', {
          since: '2026-11-20',
          until: new Date(T0 + shifted * DAY).toISOString().slice(0, 10),
        });
        const got = Object.fromEntries(
          report.topQueries.map((q) => [
            q.query,
            {
              count: q.count,
              zero: q.zeroResults,
              clicks: q.clicks,
              positions: (q.meanClickPosition ?? 0) * q.clicks,
              conversions: q.conversions,
            },
          ]),
        );
        for (const g of Object.values(got)) g.positions = Math.round(g.positions);
        expect(got).toEqual(Object.fromEntries(naive));
        const clicked = [...items].filter(([, c]) => c.clicks > 0 || c.conversions > 0);
        expect(Object.fromEntries(report.topClickedItems.map(({ itemId, ...c }) => [itemId, c]))).toEqual(Object.fromEntries(clicked));
        expect(report.days.reduce((sum, d) => sum + d.searches, 0)).toBe(sessions.length);
      } finally {
        await storage.close();
      }
    }),
    { numRuns: runs },
  );
}

describe('rollups equal a naive count of random sessions (property)', () => {
  it('in memory', () => rollupsEqualNaive(async () => memoryStorage(), 100));
  it('on SQLite', () => rollupsEqualNaive(() => sqliteStorage({ filename: ':memory:' }), 20));
});
