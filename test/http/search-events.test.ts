import { describe, expect, it } from 'vitest';
import type { RecordedInteraction } from '../../src/analytics/events';
import { SearchAnalytics } from '../../src/analytics/service';
import { createSearchHandler } from '../../src/http/search';
import { CatalogRegistry, createAbkit, memoryStorage, type Handler } from '../../src/index';
import { item } from '../helpers/search';

const SEARCH_KEY = 'sk-acme-0123456789abcdef0123456789abcdef';

async function setup(options: { requireSearchKey?: boolean; linked?: boolean } = {}) {
  const storage = memoryStorage();
  const registry = new CatalogRegistry({ storage });
  const { catalog } = await registry.create({ identifier: 'acme', searchApiKey: SEARCH_KEY });
  await registry.create({ identifier: 'globex' });
  await catalog.batch(
    [
      item('a1', 'Acme rocket', options.linked ? { item_purchase_key: ['SKU-A1'] } : {}),
      item('a2', 'Acme anvil', options.linked ? { item_pageview_key: ['/p/a2'] } : {}),
      item('a3', 'Roadrunner trap'),
    ].map((product) => ({
      operation: 'create-replace' as const,
      product,
    })),
  );
  await catalog.sync();
  const analytics = new SearchAnalytics({ storage, catalogs: registry });
  const heard: [string, readonly RecordedInteraction[]][] = [];
  const handler = createSearchHandler({
    registry,
    analytics,
    requireSearchKey: options.requireSearchKey,
    onSearchEvents: (catalog, events) => void heard.push([catalog, events]),
  });
  return { handler, analytics, heard };
}

const get = (handler: Handler, path: string, headers: Record<string, string> = {}) =>
  handler(new Request(`http://search.example${path}`, { headers }));
const post = (handler: Handler, path: string, body: unknown, headers: Record<string, string> = {}) =>
  handler(
    new Request(`http://search.example${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: typeof body === 'string' ? body : JSON.stringify(body),
    }),
  );

describe('search analytics over HTTP', () => {
  it('adds a queryID to search and autocomplete answers asked with clickAnalytics=true, and only then', async () => {
    const { handler } = await setup();
    const tracked = (await (await get(handler, '/search?index=acme_Catalog&text=acme&clickAnalytics=true')).json()) as Record<
      string,
      unknown
    >;
    expect(tracked.queryID).toMatch(/^[0-9a-f]{32}$/);
    expect(Object.keys(tracked)).toEqual(['hits', 'facets', 'totalPages', 'totalHits', 'hitsPerPage', 'page', 'queryID']);
    const plain = (await (await get(handler, '/search?index=acme_Catalog&text=acme')).json()) as Record<string, unknown>;
    expect(plain.queryID).toBeUndefined();
    const suggested = (await (await get(handler, '/autocomplete?client_id=acme&query=acm&clickAnalytics=true')).json()) as Record<
      string,
      unknown
    >;
    expect(suggested.queryID).toMatch(/^[0-9a-f]{32}$/);
    expect((await (await get(handler, '/autocomplete?client_id=acme&query=acm')).json()) as object).not.toHaveProperty('queryID');
  });

  it('records the events of POST /search/events (204) and counts them in the report', async () => {
    const { handler, analytics, heard } = await setup();
    const answer = (await (await get(handler, '/search?index=acme_Catalog&text=Acme&clickAnalytics=true&visitorId=v1')).json()) as {
      queryID: string;
      hits: { id: string }[];
    };
    await get(handler, '/search?index=acme_Catalog&text=nothing%20here');
    const clicked = answer.hits[1]!.id;
    const response = await post(handler, '/search/events?index=acme_Catalog', {
      events: [
        { type: 'click', queryID: answer.queryID, itemId: clicked, position: 2 },
        { type: 'conversion', queryID: answer.queryID, itemId: clicked, visitorId: 'v2' },
      ],
    });
    expect(response.status).toBe(204);
    expect(heard).toEqual([
      [
        'acme',
        [
          { type: 'click', queryID: answer.queryID, itemId: clicked, position: 2, query: 'acme', visitorId: 'v1' },
          { type: 'conversion', queryID: answer.queryID, itemId: clicked, query: 'acme', visitorId: 'v2' },
        ],
      ],
    ]);
    const report = await analytics.analytics('acme');
    expect(report.totals).toMatchObject({
      searches: 2,
      trackedSearches: 1,
      zeroResults: 1,
      clicks: 1,
      conversions: 1,
      meanClickPosition: 2,
    });
    expect(report.noResultQueries).toEqual([{ query: 'nothing here', count: 1 }]);
    expect(report.topClickedItems).toEqual([{ itemId: clicked, clicks: 1, conversions: 1, views: 0 }]);
  });

  it('answers 400 naming the field of a bad event, an unknown queryID, or a queryID of another catalog', async () => {
    const { handler } = await setup();
    const { queryID } = (await (await get(handler, '/search?index=acme_Catalog&text=acme&clickAnalytics=true')).json()) as {
      queryID: string;
    };
    const unknown = await post(handler, '/search/events?index=acme_Catalog', {
      events: [
        { type: 'view', queryID, itemId: 'a1' },
        { type: 'view', queryID: '0'.repeat(32), itemId: 'a1' },
      ],
    });
    expect(unknown.status).toBe(400);
    const body = (await unknown.json()) as { error: string; details: { field: string; message: string }[] };
    expect(body.error).toBe('validation_error');
    expect(body.details).toEqual([{ field: 'events[1].queryID', message: expect.stringContaining('not a query id') }]);
    const elsewhere = await post(handler, '/search/events?index=globex_Catalog', { events: [{ type: 'view', queryID, itemId: 'a1' }] });
    expect(((await elsewhere.json()) as typeof body).details[0]!.field).toBe('events[0].queryID');
    const bad = await post(handler, '/search/events?index=acme_Catalog', {
      events: [{ type: 'click', queryID, itemId: 'a1', position: 1001 }],
    });
    expect(((await bad.json()) as typeof body).details).toEqual([
      { field: 'events[0].position', message: 'must be an integer from 1 to 1000' },
    ]);
    expect((await post(handler, '/search/events?index=acme_Catalog', [])).status).toBe(400);
    expect((await post(handler, '/search/events?index=acme_Catalog', {})).status).toBe(400);
    expect((await post(handler, '/search/events?index=acme_Catalog', '{')).status).toBe(400);
    const tooMany = Array.from({ length: 1001 }, () => ({ type: 'view', queryID, itemId: 'a1' }));
    expect((await post(handler, '/search/events?index=acme_Catalog', { events: tooMany })).status).toBe(400);
    const badParam = await get(handler, '/search?index=acme_Catalog&text=acme&clickAnalytics=yes');
    expect(((await badParam.json()) as { details: { parameter: string }[] }).details[0]!.parameter).toBe('clickAnalytics');
    expect((await get(handler, `/search?index=acme_Catalog&text=a&visitorId=${'v'.repeat(257)}`)).status).toBe(400);
  });

  it('counts linked purchases and page views for the items they name through their keys, and names a bad one', async () => {
    const { handler, analytics } = await setup({ linked: true });
    const ok = await post(handler, '/search/events?index=acme_Catalog', {
      linked: [
        { name: 'purchase', properties: { sku: 'SKU-A1', quantity: 2 } },
        { name: 'pageview', properties: { url: ['/p/a2', '/other'] } },
      ],
    });
    expect(ok.status).toBe(204);
    await analytics.refresh('acme');
    expect(Object.fromEntries(analytics.behaviour.itemSignals('acme')!)).toEqual({ a1: 5, a2: 0.2 });
    const bad = await post(handler, '/search/events?index=acme_Catalog', {
      linked: [{ name: 'refund', properties: { sku: { deep: 1 } } }],
    });
    expect(((await bad.json()) as { details: { field: string }[] }).details.map((d) => d.field)).toEqual([
      'linked[0].name',
      'linked[0].properties',
    ]);
    const neither = await post(handler, '/search/events?index=acme_Catalog', {});
    expect(((await neither.json()) as { details: { field: string }[] }).details.map((d) => d.field)).toEqual(['events']);
  });

  it('authorizes events as it does search: the search key when the catalog requires it', async () => {
    const { handler } = await setup({ requireSearchKey: true });
    const auth = { authorization: `Bearer ${SEARCH_KEY}` };
    const { queryID } = (await (await get(handler, '/search?index=acme_Catalog&text=acme&clickAnalytics=true', auth)).json()) as {
      queryID: string;
    };
    const events = { events: [{ type: 'view', queryID, itemId: 'a1' }] };
    expect((await post(handler, '/search/events?index=acme_Catalog', events)).status).toBe(401);
    expect((await post(handler, '/search/events?index=acme_Catalog', events, auth)).status).toBe(204);
  });

  it('answers 404 on POST /search/events without analytics, and abkit.handler records by default', async () => {
    const registry = new CatalogRegistry({ storage: memoryStorage() });
    await registry.create({ identifier: 'acme' });
    const plain = createSearchHandler({ registry });
    expect((await post(plain, '/search/events', { events: [] })).status).toBe(404);
    const abkit = createAbkit();
    await abkit.catalogs.create({ identifier: 'shop' });
    const handler = abkit.handler();
    const answer = (await (await get(handler, '/search?text=x&clickAnalytics=true')).json()) as { queryID?: string };
    expect(answer.queryID).toMatch(/^[0-9a-f]{32}$/);
    expect((await abkit.searchAnalytics.analytics('shop')).noResultQueries).toEqual([{ query: 'x', count: 1 }]);
    const off = abkit.handler({ search: { analytics: false } });
    expect(Object.hasOwn((await (await get(off, '/search?text=x&clickAnalytics=true')).json()) as object, 'queryID')).toBe(false);
    await abkit.close();
  });
});
