import fc from 'fast-check';
import qs from 'qs';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  CatalogRegistry,
  memoryStorage,
  SearchService,
  type Catalog,
  type Handler,
  type SearchQueryInput,
  type SearchResponse,
} from '../../src/index';
import { createSearchHandler } from '../../src/http/search';
import { RANGE_OPERATORS } from '../../src/search/query';
import { loadBestBuy, type BestBuyCatalog } from '../helpers/bestbuy';
import { describeWithBestBuy } from '../helpers/bestbuy-suite';
import { ids, item } from '../helpers/search';

const ACME_CATALOG_KEY = 'ck-acme-0123456789abcdef0123456789abcdef';
const ACME_SEARCH_KEY = 'sk-acme-0123456789abcdef0123456789abcdef';
const GLOBEX_SEARCH_KEY = 'sk-globex-0123456789abcdef0123456789abcd';

interface ErrorBody {
  error: string;
  message: string;
}

/** Two catalogs: acme (with fields named constructor, toString and valueOf) and globex. */
async function tenants(): Promise<{ registry: CatalogRegistry; acme: Catalog; globex: Catalog }> {
  const registry = new CatalogRegistry({ storage: memoryStorage() });
  const { catalog: acme } = await registry.create({ identifier: 'acme', catalogApiKey: ACME_CATALOG_KEY, searchApiKey: ACME_SEARCH_KEY });
  const { catalog: globex } = await registry.create({ identifier: 'globex', searchApiKey: GLOBEX_SEARCH_KEY });
  await acme.batch([
    {
      operation: 'create-replace',
      product: item('a1', 'Acme rocket', { brand: 'Acme', constructor: 'oak', toString: 'blue', valueOf: 3, price: 100 }),
    },
    { operation: 'create-replace', product: item('a2', 'Acme anvil', { brand: 'Acme', constructor: 'pine', valueOf: 5, price: 50 }) },
    { operation: 'create-replace', product: item('a3', 'Roadrunner trap', { brand: 'Coyote', price: 20 }) },
  ]);
  await globex.batch([{ operation: 'create-replace', product: item('g1', 'Globex doomsday device', { brand: 'Globex' }) }]);
  await acme.sync();
  await globex.sync();
  return { registry, acme, globex };
}

function get(handler: Handler, url: string, headers: Record<string, string> = {}, method = 'GET'): Promise<Response> {
  return handler(new Request(url.startsWith('http') ? url : `http://search.example${url}`, { method, headers }));
}

async function ok<T = SearchResponse>(res: Response): Promise<T> {
  const body = await res.text();
  expect(res.status, body).toBe(200);
  expect(res.headers.get('content-type')).toBe('application/json');
  return JSON.parse(body) as T;
}

async function errorBody(res: Response, status: number): Promise<ErrorBody> {
  const text = await res.text();
  expect(res.status, text).toBe(status);
  expect(res.headers.get('content-type')).toBe('application/json');
  const body = JSON.parse(text) as ErrorBody;
  expect(typeof body.error).toBe('string');
  expect(typeof body.message).toBe('string');
  expect(body.message.length).toBeGreaterThan(0);
  return body;
}

const asJson = <T>(value: T): T => JSON.parse(JSON.stringify(value)) as T;

// ---------------------------------------------------------------------------------------------

describeWithBestBuy('search over HTTP on the Best Buy catalog (the only catalog: used by default)', () => {
  let bb: BestBuyCatalog;
  let handler: Handler;
  let library: SearchService;

  beforeAll(async () => {
    bb = await loadBestBuy();
    handler = createSearchHandler({ registry: bb.registry });
    library = new SearchService({ catalog: bb.catalog });
    await library.search({ text: '' });
    await ok(await get(handler, '/search?text='));
  });

  /** The handler's answer to `search` equals the library's answer to `query`. */
  async function same(search: string, query: SearchQueryInput, path = '/search'): Promise<SearchResponse> {
    const body = await ok(await get(handler, `${path}?${search}`));
    expect(body, search).toEqual(asJson(await library.search(query)));
    return body;
  }

  it('answers the interfaces.md, Search response', async () => {
    const body = await ok(await get(handler, '/search?text=galaxy&hitsPerPage=3'));
    expect(Object.keys(body).sort()).toEqual(['facets', 'hits', 'hitsPerPage', 'page', 'totalHits', 'totalPages']);
    expect(body).toMatchObject({ hitsPerPage: 3, page: 0, totalPages: Math.ceil(body.totalHits / 3) });
    expect(body.hits).toHaveLength(3);
    expect(body.hits[0]).toMatchObject({
      id: expect.any(String),
      name: expect.any(String),
      price: expect.any(Number),
      img_link: expect.any(String),
    });
    expect(body.facets.price).toEqual({ type: 'range', values: { min: expect.any(Number), max: expect.any(Number) } });
    expect(body.facets.brand?.type).toBe('list');
    for (const pair of body.facets.brand!.values as unknown[]) expect(pair).toEqual([expect.any(String), expect.any(Number)]);
  });

  it('reads repeated [] values as a list filter (interfaces.md, Search: a repeated `[]` is a list)', async () => {
    const body = await same('text=&filters[brand][]=Samsung&filters[brand][]=Apple', {
      text: '',
      filters: { brand: ['Samsung', 'Apple'] },
    });
    expect(body.totalHits).toBe(146 + 165);
  });

  it('reads indexed objects with URL-encoded operators as a range filter (rule 3)', async () => {
    const body = await same(
      'text=&filters[price][0][operator]=%3E%3D&filters[price][0][value]=100&filters[price][1][operator]=%3C&filters[price][1][value]=200',
      {
        text: '',
        filters: {
          price: [
            { operator: '>=', value: 100 },
            { operator: '<', value: 200 },
          ],
        },
      },
    );
    expect(body.totalHits).toBe(bb.items.filter((i) => i.price >= 100 && i.price < 200).length);
    const { min, max } = body.facets.price!.values as { min: number; max: number };
    expect(min).toBeGreaterThanOrEqual(100);
    expect(max).toBeLessThan(200);
  });

  it('accepts every operator, URL-encoded or not', async () => {
    for (const operator of RANGE_OPERATORS) {
      const query = { text: '', filters: { price: [{ operator, value: 49.99 }] } };
      const encoded = await same(`text=&filters[price][0][operator]=${encodeURIComponent(operator)}&filters[price][0][value]=49.99`, query);
      const raw = await ok(await get(handler, `/search?text=&filters[price][0][operator]=${operator}&filters[price][0][value]=49.99`));
      expect(raw, operator).toEqual(encoded);
      expect(encoded.totalHits, operator).toBe(
        bb.items.filter(
          (i) =>
            ({ '>': i.price > 49.99, '<': i.price < 49.99, '>=': i.price >= 49.99, '<=': i.price <= 49.99, '=': i.price === 49.99 })[
              operator
            ],
        ).length,
      );
    }
  });

  it('answers what qs.stringify produces by default exactly like the library', async () => {
    const queries = [
      { text: 'samsung galaxy' },
      { text: 'case', filters: { brand: ['OtterBox', 'Incipio'] }, page: 1, hitsPerPage: 7 },
      {
        text: '',
        filters: {
          price: [
            { operator: '>=', value: 100 },
            { operator: '<', value: 200 },
          ],
          categories_ids: ['unlocked-cell-phones'],
        },
        sort: ['price:asc'],
      },
      { text: 'AT&T prepaid', filters: { brand: ['AT&T GoPhone'] }, sort: ['price:desc', 'name:asc'], rankingScoreThreshold: 0.5 },
      { text: 'iphone', semanticRatio: 0.5, hitsPerPage: 1000 },
      { text: 'charger', filters: { popularity: [{ operator: '>', value: 1000 }] }, sort: ['popularity:desc'] },
    ];
    for (const query of queries) {
      await same(qs.stringify(query), query);
      await same(qs.stringify(query, { encodeValuesOnly: true }), query);
    }
  });

  it('answers random queries built with qs.stringify exactly like the library (property)', async () => {
    const brands = ['Samsung', 'Apple', 'Incipio', 'OtterBox', 'AT&T GoPhone', 'Insignia™', 'Speck'];
    await fc.assert(
      fc.asyncProperty(
        fc.record(
          {
            text: fc.constantFrom('', 'case', 'galaxy s7', 'samsnug', 'otterbox def', 'iphone 6 plus'),
            filters: fc.record(
              {
                brand: fc.subarray(brands, { minLength: 1 }),
                price: fc.array(fc.record({ operator: fc.constantFrom(...RANGE_OPERATORS), value: fc.integer({ min: 0, max: 900 }) }), {
                  minLength: 1,
                  maxLength: 2,
                }),
              },
              { requiredKeys: [] },
            ),
            page: fc.integer({ min: 0, max: 5 }),
            hitsPerPage: fc.integer({ min: 1, max: 50 }),
            sort: fc.subarray(['price:asc', 'price:desc', 'popularity:desc', 'name:asc'], { maxLength: 2 }),
          },
          { requiredKeys: ['text'] },
        ),
        async (query) => {
          await same(qs.stringify(query), query);
        },
      ),
      { numRuns: 25 },
    );
  });

  it('keeps 25 list values a list, repeated or indexed', async () => {
    const brands = [...new Set(bb.items.map((i) => i.brand))].slice(0, 25);
    expect(brands).toHaveLength(25);
    const expected = bb.items.filter((i) => brands.includes(i.brand)).length;
    const repeated = await same(`text=&${brands.map((b) => `filters[brand][]=${encodeURIComponent(b)}`).join('&')}&hitsPerPage=1`, {
      text: '',
      filters: { brand: brands },
      hitsPerPage: 1,
    });
    expect(repeated.totalHits).toBe(expected);
    const indexed = await same(qs.stringify({ text: '', filters: { brand: brands }, hitsPerPage: 1 }), {
      text: '',
      filters: { brand: brands },
      hitsPerPage: 1,
    });
    expect(indexed.totalHits).toBe(expected);
    expect((indexed.facets.brand!.values as [string, number][]).map(([b]) => b).sort()).toEqual([...brands].sort());
  });

  it('never misreads a range condition sent without its index as a list of values', async () => {
    // filters[price][operator]=>&filters[price][value]=100 is not a documented form; it must be read as the
    // condition it looks like, or refused naming filters[price] — not become the list [">", "100"].
    const res = await get(handler, '/search?text=&filters[price][operator]=%3E&filters[price][value]=100&hitsPerPage=1');
    if (res.status === 200) expect((await ok(res)).totalHits).toBe(bb.items.filter((i) => i.price > 100).length);
    else expect((await errorBody(res, 400)).message).toMatch(/filters\[price\]/);
  });

  it('sort=price:asc is ordered over HTTP', async () => {
    const body = await same('text=case&sort[]=price:asc&hitsPerPage=200', { text: 'case', sort: ['price:asc'], hitsPerPage: 200 });
    for (let i = 1; i < body.hits.length; i++) expect(body.hits[i - 1]!.price as number).toBeLessThanOrEqual(body.hits[i]!.price as number);
    expect(await ok(await get(handler, '/search?text=case&sort=price%3Aasc&hitsPerPage=200'))).toEqual(body);
  });

  it('serves v0.4 at /search and /v0.4/search, and v0.3 at /v0.3/search without sort', async () => {
    const search = 'text=galaxy&filters[brand][]=Samsung&page=1&hitsPerPage=5';
    const v4 = await ok(await get(handler, `/search?${search}`));
    expect(await ok(await get(handler, `/v0.4/search?${search}`))).toEqual(v4);
    expect(await ok(await get(handler, `/v0.3/search?${search}`))).toEqual(v4);
    expect(v4.hits).toHaveLength(5);
  });

  it('autocomplete of "gala" suggests Galaxy products, de-duplicated, 10 by default', async () => {
    const body = await ok<{ suggestions: { text: string }[] }>(await get(handler, '/autocomplete?query=gala'));
    expect(Object.keys(body)).toEqual(['suggestions']);
    expect(body.suggestions.length).toBeGreaterThan(0);
    expect(body.suggestions.length).toBeLessThanOrEqual(10);
    expect(body.suggestions.filter((s) => /galaxy/i.test(s.text)).length).toBeGreaterThanOrEqual(5);
    for (const s of body.suggestions) expect(Object.keys(s)).toEqual(['text']);
    expect(body).toEqual(asJson(await library.autocomplete({ query: 'gala' })));
    expect(await ok(await get(handler, '/v0.2/autocomplete?query=gala'))).toEqual(body);
    const three = await ok<{ suggestions: unknown[] }>(await get(handler, '/autocomplete?query=gala&hits_per_page=3'));
    expect(three.suggestions).toEqual(body.suggestions.slice(0, 3));
  });

  it('finds Samsung products for "samsnug" over HTTP', async () => {
    const body = await ok(await get(handler, '/search?text=samsnug&filters[brand][]=Samsung&hitsPerPage=1'));
    expect(body.totalHits).toBe(146);
  });

  it('adds _rankingScoreDetails with showRankingScoreDetails=true, as the library does', async () => {
    const body = await same('text=galaxy%20case&hitsPerPage=5&showRankingScoreDetails=true', {
      text: 'galaxy case',
      hitsPerPage: 5,
      showRankingScoreDetails: true,
    });
    for (const h of body.hits)
      expect(Object.keys(h._rankingScoreDetails ?? {})).toEqual([
        'words',
        'typo',
        'exactness',
        'subject',
        'proximity',
        'bm25',
        'attribute',
        'tieBreak',
      ]);
    const plain = await ok(await get(handler, '/search?text=galaxy%20case&hitsPerPage=5'));
    for (const h of plain.hits) expect(h).not.toHaveProperty('_rankingScoreDetails');
    expect((await errorBody(await get(handler, '/search?text=a&showRankingScoreDetails=yes'), 400)).message).toMatch(
      /showRankingScoreDetails must be true or false/,
    );
  });

  it('answers a 512-character word on /search and /autocomplete', async () => {
    const word = 'a'.repeat(512);
    expect((await ok(await get(handler, `/search?text=${word}`))).totalHits).toBe(0);
    expect(await ok(await get(handler, `/autocomplete?query=${word}`))).toEqual({ suggestions: [] });
  });
});

// ---------------------------------------------------------------------------------------------

describe('field names constructor, toString and __proto__ over HTTP', () => {
  let handler: Handler;

  beforeAll(async () => {
    const { registry } = await tenants();
    handler = createSearchHandler({ registry });
  });

  it('filter on constructor and toString like any field', async () => {
    expect(ids(await ok(await get(handler, '/search?index=acme_Catalog&text=&filters[constructor][]=oak')))).toEqual(['a1']);
    expect(
      ids(await ok(await get(handler, '/search?index=acme_Catalog&text=&filters[constructor][]=oak&filters[constructor][]=pine'))),
    ).toEqual(['a1', 'a2']);
    expect(ids(await ok(await get(handler, '/search?index=acme_Catalog&text=&filters[toString][]=blue')))).toEqual(['a1']);
    expect(
      ids(await ok(await get(handler, '/search?index=acme_Catalog&text=&filters[valueOf][0][operator]=%3E&filters[valueOf][0][value]=4'))),
    ).toEqual(['a2']);
    expect(
      ids(await ok(await get(handler, `/search?${qs.stringify({ index: 'acme_Catalog', text: '', filters: { constructor: ['pine'] } })}`))),
    ).toEqual(['a2']);
  });

  it('facet and sort on them', async () => {
    const body = await ok(await get(handler, '/search?index=acme_Catalog&text=&sort[]=valueOf:desc'));
    expect(ids(body)).toEqual(['a2', 'a1', 'a3']);
    expect(body.facets.constructor).toEqual({
      type: 'list',
      values: [
        ['oak', 1],
        ['pine', 1],
      ],
    });
    expect(body.facets.toString).toEqual({ type: 'list', values: [['blue', 1]] });
  });

  it('never drops a filter on constructor or toString silently: an unknown one is a 400 naming it', async () => {
    const body = await errorBody(await get(handler, '/search?index=globex_Catalog&text=&filters[constructor][]=oak'), 400);
    expect(body.message).toMatch(/filters\[constructor\]/);
    const other = await errorBody(await get(handler, '/search?index=globex_Catalog&text=&filters[toString][]=x'), 400);
    expect(other.message).toMatch(/filters\[toString\]/);
  });

  it('refuses __proto__ as a filter name with a 400 naming it, polluting nothing', async () => {
    for (const search of [
      'text=&filters[__proto__][]=x',
      'text=&filters[__proto__][polluted]=1',
      'text=&filters%5B__proto__%5D%5B%5D=x',
      'text=&filters[brand][__proto__][polluted]=1',
    ]) {
      const body = await errorBody(await get(handler, `/search?index=acme_Catalog&${search}`), 400);
      expect(body.message, search).toMatch(/__proto__/);
    }
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect((Object.prototype as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('refuses a top-level __proto__[...] parameter with a 400 naming it, rather than dropping it', async () => {
    const body = await errorBody(await get(handler, '/search?index=acme_Catalog&text=&__proto__[polluted]=1'), 400);
    expect(body.message).toMatch(/__proto__/);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('does not let constructor[prototype] pollute anything', async () => {
    await errorBody(await get(handler, '/search?index=acme_Catalog&text=&filters[constructor][prototype][polluted]=1'), 400);
    await ok(await get(handler, '/search?index=acme_Catalog&text=&constructor[prototype][polluted]=1'));
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect((Object as unknown as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('autocomplete refuses __proto__ too', async () => {
    const body = await errorBody(await get(handler, '/autocomplete?client_id=acme&query=ac&__proto__=x'), 400);
    expect(body.message).toMatch(/__proto__/);
  });
});

// ---------------------------------------------------------------------------------------------

describe('errors: JSON naming the parameter', () => {
  let handler: Handler;
  const search = (q: string, path = '/search') => get(handler, `${path}?index=acme_Catalog&${q}`);

  beforeAll(async () => {
    const { registry } = await tenants();
    handler = createSearchHandler({ registry, onError: (e) => expect.fail(String(e)) });
  });

  async function named(q: string, pattern: RegExp, path?: string): Promise<void> {
    const body = await errorBody(await search(q, path), 400);
    expect(body.error).toBe('validation_error');
    expect(body.message).toMatch(pattern);
    expect(body.message).not.toMatch(/^abkit: /);
  }

  it('missing text', () => named('page=0', /\btext\b.*required/));
  it('text given twice', () => named('text=a&text=b', /\btext\b/));
  it('negative page', () => named('text=&page=-1', /\bpage\b/));
  it('fractional page', () => named('text=&page=1.5', /\bpage\b/));
  it('non-numeric page', () => named('text=&page=first', /\bpage\b/));
  it('hitsPerPage 0', () => named('text=&hitsPerPage=0', /\bhitsPerPage\b/));
  it('hitsPerPage above 1000', () => named('text=&hitsPerPage=1001', /\bhitsPerPage\b.*1000/));
  it('unknown operator', () => named('text=&filters[price][0][operator]=%21%3D&filters[price][0][value]=1', /filters\[price\].*operator/));
  it('non-numeric range value', () =>
    named('text=&filters[price][0][operator]=%3E&filters[price][0][value]=cheap', /filters\[price\].*number/));
  it('filter on an unknown field', () => named('text=&filters[color][]=red', /filters\[color\].*unknown field/));
  it('range filter on a string field', () =>
    named('text=&filters[brand][0][operator]=%3E&filters[brand][0][value]=1', /filters\[brand\].*number field/));
  it('sort on an unknown field', () => named('text=&sort[]=color:asc', /\bsort\b.*unknown field color/));
  it('sort with a direction other than asc or desc', () => named('text=&sort[]=price:up', /\bsort\b.*asc.*desc/));
  it('sort on v0.3', () => named('text=&sort[]=price:asc', /\bsort\b.*v0\.3/, '/v0.3/search'));
  it('rankingScoreThreshold below 0', () => named('text=&rankingScoreThreshold=-0.1', /\brankingScoreThreshold\b/));
  it('rankingScoreThreshold above 1', () => named('text=&rankingScoreThreshold=1.5', /\brankingScoreThreshold\b/));
  it('semanticRatio below 0', () => named('text=&semanticRatio=-1', /\bsemanticRatio\b/));
  it('semanticRatio above 1', () => named('text=&semanticRatio=2', /\bsemanticRatio\b/));
  it('a malformed index', () => named('text=&index=acme', /\bindex\b/));
  it('a query string over the parser limits', () =>
    named(`text=&${Array.from({ length: 1001 }, (_, i) => `filters[brand][]=b${i}`).join('&')}`, /too large or too deep/));
  it('autocomplete without query', () => named('hits_per_page=5', /\bquery\b.*required/, '/autocomplete'));
  it('autocomplete hits_per_page 0', () => named('query=ac&hits_per_page=0', /\bhits_per_page\b/, '/autocomplete'));
  it('autocomplete hits_per_page above 100', () => named('query=ac&hits_per_page=101', /\bhits_per_page\b/, '/autocomplete'));

  it('details name each parameter in the query string notation', async () => {
    const body = (await errorBody(
      await search('text=&page=-1&filters[price][0][operator]=%21%3D&filters[price][0][value]=1'),
      400,
    )) as ErrorBody & { details?: { parameter: string; message: string }[] };
    expect(body.details?.map((d) => d.parameter).sort()).toEqual(['filters[price]', 'page']);
    const unknown = (await errorBody(await search('text=&filters[color][]=red'), 400)) as ErrorBody & { details?: { parameter: string }[] };
    expect(unknown.details).toEqual([{ parameter: 'filters[color]', message: expect.stringMatching(/unknown field color/) }]);
  });

  it('accepts the limits themselves', async () => {
    await ok(await search('text=&page=0&hitsPerPage=1000&rankingScoreThreshold=0&semanticRatio=1'));
    await ok(await search('text=&hitsPerPage=1&rankingScoreThreshold=1'));
    await ok(await search('query=ac&hits_per_page=100', '/autocomplete'));
  });

  it('405 for POST (and other methods), with Allow', async () => {
    for (const [method, path] of [
      ['POST', '/search'],
      ['PUT', '/v0.4/search'],
      ['DELETE', '/v0.3/search'],
      ['POST', '/autocomplete'],
    ] as const) {
      const res = await get(handler, `${path}?index=acme_Catalog&text=`, {}, method);
      const body = await errorBody(res, 405);
      expect(res.headers.get('allow')).toBe('GET, HEAD');
      expect(body.message).toMatch(new RegExp(method));
    }
  });

  it('404 for other paths', async () => {
    expect((await get(handler, '/searches?text=')).status).toBe(404);
    expect((await get(handler, '/v0.5/search?text=')).status).toBe(404);
  });
});

// ---------------------------------------------------------------------------------------------

describe('tenancy', () => {
  let registry: CatalogRegistry;
  let handler: Handler;

  beforeAll(async () => {
    ({ registry } = await tenants());
    handler = createSearchHandler({ registry });
  });

  const names = async (res: Response) => (await ok(res)).hits.map((h) => h.name);

  it('from the leading label of the Host header, when it names a catalog', async () => {
    expect(await names(await get(handler, 'http://acme.search.example/search?text=acme'))).toEqual(['Acme anvil', 'Acme rocket']); // equal but for length: the shorter name (more of it typed) first
    expect(await names(await get(handler, 'http://globex.search.example/search?text='))).toEqual(['Globex doomsday device']);
    expect(await names(await get(handler, 'http://localhost/search?text=', { host: 'globex.search.example' }))).toEqual([
      'Globex doomsday device',
    ]);
    expect(await names(await get(handler, 'http://localhost/search?text=', { host: 'ACME.search.example:8443' }))).toEqual([
      'Acme rocket',
      'Acme anvil',
      'Roadrunner trap',
    ]);
  });

  it('from index=<identifier>_Catalog, before the host', async () => {
    expect(await names(await get(handler, 'http://globex.search.example/search?text=&index=acme_Catalog'))).toHaveLength(3);
    expect(await names(await get(handler, '/search?text=&index=globex_Catalog'))).toEqual(['Globex doomsday device']);
  });

  it('from client_id for autocomplete', async () => {
    const body = await ok<{ suggestions: { text: string }[] }>(await get(handler, '/autocomplete?query=acme&client_id=acme'));
    expect(body.suggestions.map((s) => s.text)).toEqual(['Acme anvil', 'Acme rocket']);
    const globex = await ok<{ suggestions: { text: string }[] }>(
      await get(handler, 'http://acme.search.example/autocomplete?query=glob&client_id=globex'),
    );
    expect(globex.suggestions).toEqual([{ text: 'Globex doomsday device' }]);
    const byHost = await ok<{ suggestions: { text: string }[] }>(
      await get(handler, 'http://globex.search.example/autocomplete?query=glob'),
    );
    expect(byHost.suggestions).toEqual([{ text: 'Globex doomsday device' }]);
  });

  it('an unknown identifier is a 404', async () => {
    await errorBody(await get(handler, '/search?text=&index=initech_Catalog'), 404);
    await errorBody(await get(handler, '/autocomplete?query=a&client_id=initech'), 404);
    await errorBody(await get(handler, 'http://initech.search.example/search?text='), 404);
  });

  it('with several catalogs and no hint, a 404', async () => {
    await errorBody(await get(handler, 'http://localhost/search?text='), 404);
    await errorBody(await get(handler, 'http://search.example/search?text='), 404);
    // client_id names a catalog for autocomplete only.
    await errorBody(await get(handler, 'http://localhost/search?text=&client_id=acme'), 404);
    await errorBody(await get(handler, 'http://localhost/autocomplete?query=a'), 404);
  });

  it('a single catalog is used by default', async () => {
    const single = new CatalogRegistry({ storage: memoryStorage() });
    const { catalog } = await single.create({ identifier: 'solo' });
    await catalog.put(item('s1', 'Solo item'));
    await catalog.sync();
    const h = createSearchHandler({ registry: single });
    expect(await names(await get(h, 'http://localhost/search?text='))).toEqual(['Solo item']);
    expect(await names(await get(h, 'http://www.shop.example/search?text=solo'))).toEqual(['Solo item']);
    expect((await ok<{ suggestions: unknown[] }>(await get(h, 'http://localhost/autocomplete?query=sol'))).suggestions).toEqual([
      { text: 'Solo item' },
    ]);
    // An identifier that is not that catalog is still a 404.
    await errorBody(await get(h, '/search?text=&index=other_Catalog'), 404);
  });

  it('a handler bound to one catalog serves it whatever the request names', async () => {
    const bound = createSearchHandler({ registry, catalog: 'globex' });
    expect(await names(await get(bound, 'http://acme.search.example/search?text=&index=acme_Catalog'))).toEqual(['Globex doomsday device']);
  });

  it('mounts under a prefix', async () => {
    const mounted = createSearchHandler({ registry, prefix: '/api/' });
    expect(await names(await get(mounted, 'http://globex.search.example/api/search?text='))).toEqual(['Globex doomsday device']);
    expect((await get(mounted, 'http://globex.search.example/search?text=')).status).toBe(404);
  });

  it('follows the catalog sync with no restart', async () => {
    const { registry: r, acme } = await tenants();
    const h = createSearchHandler({ registry: r });
    expect(await names(await get(h, '/search?index=acme_Catalog&text=coyote'))).toEqual(['Roadrunner trap']);
    await acme.put(item('a4', 'Coyote rocket skates', { brand: 'Coyote' }));
    expect(await names(await get(h, '/search?index=acme_Catalog&text=coyote'))).toEqual(['Roadrunner trap']);
    await acme.sync();
    expect((await names(await get(h, '/search?index=acme_Catalog&text=coyote'))).sort()).toEqual([
      'Coyote rocket skates',
      'Roadrunner trap',
    ]);
  });
});

// ---------------------------------------------------------------------------------------------

describe('requireSearchKey', () => {
  let handler: Handler;
  let some: Handler;

  beforeAll(async () => {
    const { registry } = await tenants();
    handler = createSearchHandler({ registry, requireSearchKey: true });
    some = createSearchHandler({ registry, requireSearchKey: ['acme'] });
  });

  it('401 without a key, with WWW-Authenticate', async () => {
    const res = await get(handler, '/search?index=acme_Catalog&text=');
    await errorBody(res, 401);
    expect(res.headers.get('www-authenticate')).toMatch(/^Bearer/);
    await errorBody(await get(handler, '/autocomplete?client_id=acme&query=a'), 401);
  });

  it('401 with an unknown key', async () => {
    await errorBody(
      await get(handler, '/search?index=acme_Catalog&text=', { authorization: 'Bearer sk-nobody-0123456789abcdef0123456789abcdef' }),
      401,
    );
  });

  it("403 with another catalog's key", async () => {
    await errorBody(await get(handler, '/search?index=acme_Catalog&text=', { authorization: `Bearer ${GLOBEX_SEARCH_KEY}` }), 403);
    await errorBody(await get(handler, '/autocomplete?client_id=acme&query=a', { 'x-api-key': GLOBEX_SEARCH_KEY }), 403);
  });

  it('200 with the search key, as a Bearer token or x-api-key', async () => {
    expect(
      ids(await ok(await get(handler, '/search?index=acme_Catalog&text=rocket', { authorization: `Bearer ${ACME_SEARCH_KEY}` }))),
    ).toEqual(['a1']);
    expect(ids(await ok(await get(handler, 'http://acme.search.example/search?text=rocket', { 'x-api-key': ACME_SEARCH_KEY })))).toEqual([
      'a1',
    ]);
    await ok(await get(handler, '/autocomplete?client_id=acme&query=roc', { authorization: `bearer ${ACME_SEARCH_KEY}` }));
    await ok(await get(handler, '/search?index=globex_Catalog&text=', { authorization: `Bearer ${GLOBEX_SEARCH_KEY}` }));
  });

  it('200 with the catalog key too', async () => {
    await ok(await get(handler, '/search?index=acme_Catalog&text=', { authorization: `Bearer ${ACME_CATALOG_KEY}` }));
  });

  it('for the listed catalogs only', async () => {
    await errorBody(await get(some, '/search?index=acme_Catalog&text='), 401);
    await ok(await get(some, '/search?index=globex_Catalog&text='));
  });
});

describe('onSearch', () => {
  it('hears every answered search and autocomplete with its route, catalog and hit count, and never a refused one', async () => {
    const { registry } = await tenants();
    const events: unknown[] = [];
    const handler = createSearchHandler({ registry, prefix: '/api', onSearch: (event) => events.push(event) });
    await ok(await get(handler, '/api/search?index=acme_Catalog&text=acme'));
    await ok(await get(handler, '/api/v0.3/search?index=globex_Catalog&text=zzzqqq'));
    await ok(await get(handler, '/api/autocomplete?client_id=acme&query=roadr'));
    await errorBody(await get(handler, '/api/search?index=nowhere_Catalog&text=acme'), 404);
    expect(events).toEqual([
      { kind: 'search', route: '/api/search', catalog: 'acme', totalHits: 2 },
      { kind: 'search', route: '/api/v0.3/search', catalog: 'globex', totalHits: 0 },
      { kind: 'autocomplete', route: '/api/autocomplete', catalog: 'acme', totalHits: 1 },
    ]);
  });

  it('a hook that throws is reported, and the client still gets its answer', async () => {
    const { registry } = await tenants();
    const reported: unknown[] = [];
    const handler = createSearchHandler({
      registry,
      onError: (e) => reported.push(e),
      onSearch: () => {
        throw new Error('hook broke');
      },
    });
    expect((await ok(await get(handler, '/search?index=acme_Catalog&text=acme'))).totalHits).toBe(2);
    expect(reported).toEqual([new Error('hook broke')]);
  });
});
