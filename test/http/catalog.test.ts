import { describe, expect, it } from 'vitest';
import { CatalogRegistry, memoryStorage } from '../../src/index';
import { createCatalogHandler } from '../../src/http/catalog';
import { item } from '../helpers/search';

const CATALOG_KEY = 'ck-acme-0123456789abcdef0123456789abcdef';
const SEARCH_KEY = 'sk-acme-0123456789abcdef0123456789abcdef';
const PREFIX = '/catalog/v1';
const MB = 1024 * 1024;

interface ErrorBody {
  error: string;
  message: string;
  details?: { index?: number; id?: string; field?: string; expected?: string; actual?: string; reason: string }[];
}

async function setup(options: { prefix?: string } = {}) {
  const registry = new CatalogRegistry({ storage: memoryStorage() });
  const { catalog } = await registry.create({ identifier: 'acme', catalogApiKey: CATALOG_KEY, searchApiKey: SEARCH_KEY });
  const errors: unknown[] = [];
  const prefix = 'prefix' in options ? options.prefix : PREFIX;
  const handler = createCatalogHandler({ registry, prefix, onError: (e) => errors.push(e) });
  const call = (
    method: string,
    path: string,
    body?: unknown,
    headers: Record<string, string> = { authorization: `Bearer ${CATALOG_KEY}` },
  ) =>
    handler(
      new Request(`http://abkit.test${prefix ?? ''}${path}`, {
        method,
        headers: { 'content-type': 'application/json', ...headers },
        ...(body === undefined ? {} : { body: typeof body === 'string' ? body : JSON.stringify(body) }),
      }),
    );
  return { registry, catalog, handler, call, errors };
}

async function errorBody(res: Response, status: number): Promise<ErrorBody> {
  expect(res.status).toBe(status);
  expect(res.headers.get('content-type')).toBe('application/json');
  const body = (await res.json()) as ErrorBody;
  expect(typeof body.error).toBe('string');
  expect(typeof body.message).toBe('string');
  expect(body.message.length).toBeGreaterThan(0);
  return body;
}

describe('the five endpoints under a prefix', () => {
  it('PUT /indexes/catalog/{itemID} adds then wholly replaces an item', async () => {
    const { call, catalog } = await setup();
    const res = await call('PUT', '/indexes/catalog/sku-1', item('sku-1', { color: 'red' }));
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/json');
    expect(await res.json()).toEqual({ accepted: 1, upserted: 1, deleted: 0 });
    expect(await catalog.get('sku-1')).toEqual(item('sku-1', { color: 'red' }));
    expect((await call('PUT', '/indexes/catalog/sku-1', item('sku-1'))).status).toBe(200);
    expect(await catalog.get('sku-1')).not.toHaveProperty('color');
  });

  it('PUT decodes a percent-encoded item id', async () => {
    const { call, catalog } = await setup();
    const res = await call('PUT', `/indexes/catalog/${encodeURIComponent('sku/1 é')}`, item('sku/1 é'));
    expect(res.status).toBe(200);
    expect(await catalog.get('sku/1 é')).toBeDefined();
  });

  it('DELETE /indexes/catalog/{itemID} with a body carrying the id deletes the item', async () => {
    const { call, catalog } = await setup();
    await catalog.put(item('sku-1'));
    const res = await call('DELETE', '/indexes/catalog/sku-1', { id: 'sku-1' });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ accepted: 1, upserted: 0, deleted: 1 });
    expect(await catalog.get('sku-1')).toBeUndefined();
  });

  it('DELETE /indexes/catalog deletes every item and keeps the schema', async () => {
    const { call, catalog } = await setup();
    await catalog.batch([
      { operation: 'create-replace', product: item('a', { color: 'red' }) },
      { operation: 'create-replace', product: item('b') },
    ]);
    const res = await call('DELETE', '/indexes/catalog');
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ deleted: 2 });
    expect(await catalog.count()).toBe(0);
    expect((await catalog.schema()).fields.find((f) => f.name === 'color')?.type).toBe('string');
  });

  it('DELETE /indexes/catalog/schema/{fieldID} deletes a field so it can be recreated with another type', async () => {
    const { call, catalog } = await setup();
    await call('PUT', '/indexes/catalog/a', item('a', { size: 42 }));
    const refused = await errorBody(await call('PUT', '/indexes/catalog/b', item('b', { size: 'XL' })), 400);
    expect(refused.details).toEqual([{ id: 'b', field: 'size', expected: 'number', actual: 'string', reason: expect.any(String) }]);
    const res = await call('DELETE', '/indexes/catalog/schema/size');
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ deleted: 'size' });
    expect(await catalog.get('a')).not.toHaveProperty('size');
    expect((await call('PUT', '/indexes/catalog/b', item('b', { size: 'XL' }))).status).toBe(200);
  });

  it('POST /indexes/catalog/batch applies operations in order', async () => {
    const { call, catalog } = await setup();
    const res = await call('POST', '/indexes/catalog/batch', [
      { operation: 'create-replace', product: item('a') },
      { operation: 'create-replace', product: item('b') },
      { operation: 'delete', product: { id: 'a' } },
    ]);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ accepted: 3, upserted: 2, deleted: 1 });
    expect(await catalog.get('a')).toBeUndefined();
    expect(await catalog.get('b')).toBeDefined();
  });

  it('writes are not visible until the catalog syncs', async () => {
    const { call, catalog } = await setup();
    await call('PUT', '/indexes/catalog/a', item('a'));
    expect((await catalog.visible()).items).toEqual([]);
    await catalog.sync();
    expect((await catalog.visible()).items.map((i) => i.id)).toEqual(['a']);
  });

  it('answers only under its prefix; the prefix is configurable and may be empty', async () => {
    const { handler } = await setup();
    const auth = { authorization: `Bearer ${CATALOG_KEY}` };
    expect((await handler(new Request('http://abkit.test/indexes/catalog', { method: 'DELETE', headers: auth }))).status).toBe(404);
    expect((await handler(new Request('http://abkit.test/catalog/v1/indexes/catalog', { method: 'DELETE', headers: auth }))).status).toBe(
      200,
    );
    expect((await handler(new Request('http://abkit.test/catalog/v1/indexes/other', { method: 'DELETE', headers: auth }))).status).toBe(
      404,
    );

    const bare = await setup({ prefix: undefined });
    expect((await bare.call('DELETE', '/indexes/catalog')).status).toBe(200);
    const slashed = await setup({ prefix: '/api/catalog/' });
    expect(
      (await slashed.handler(new Request('http://abkit.test/api/catalog/indexes/catalog', { method: 'DELETE', headers: auth }))).status,
    ).toBe(200);
  });
});

describe('authentication (interfaces.md, Catalog keys)', () => {
  const routes: [string, string, unknown][] = [
    ['PUT', '/indexes/catalog/a', item('a')],
    ['DELETE', '/indexes/catalog/a', { id: 'a' }],
    ['DELETE', '/indexes/catalog', undefined],
    ['DELETE', '/indexes/catalog/schema/color', undefined],
    ['POST', '/indexes/catalog/batch', [{ operation: 'create-replace', product: item('a') }]],
  ];

  it.each(routes)('%s %s: 401 with WWW-Authenticate without a key', async (method, path, body) => {
    const { call, catalog } = await setup();
    const res = await call(method, path, body, {});
    const error = await errorBody(res, 401);
    expect(res.headers.get('www-authenticate')).toMatch(/^Bearer/);
    expect(error.message).toMatch(/authorization/i);
    expect(await catalog.count()).toBe(0);
  });

  it.each(routes)('%s %s: 401 with an unknown key', async (method, path, body) => {
    const { call } = await setup();
    const res = await call(method, path, body, { authorization: 'Bearer ck-acme-0123456789abcdef0123456789abcdeX' });
    await errorBody(res, 401);
    expect(res.headers.get('www-authenticate')).toMatch(/^Bearer/);
  });

  it.each(routes)('%s %s: 403 with the search key', async (method, path, body) => {
    const { call, catalog } = await setup();
    await catalog.put(item('a', { color: 'red' }));
    const res = await call(method, path, body, { authorization: `Bearer ${SEARCH_KEY}` });
    const error = await errorBody(res, 403);
    expect(error.message).toMatch(/catalog key/);
    expect(await catalog.get('a')).toMatchObject({ color: 'red' });
  });

  // One Bearer parser for every interface: a malformed header is a 400 invalid_request (RFC 6750 §3.1).
  it.each([['Basic Y2s6c2VjcmV0'], [CATALOG_KEY], ['Bearer'], [`Bearer ${CATALOG_KEY} extra`]])(
    '400 for a malformed authorization header %j',
    async (header) => {
      const { call, catalog } = await setup();
      await catalog.put(item('a'));
      const res = await call('DELETE', '/indexes/catalog', undefined, { authorization: header });
      expect(await errorBody(res, 400)).toMatchObject({ error: 'invalid_request' });
      expect(res.headers.get('www-authenticate')).toMatch(/^Bearer realm="abkit", error="invalid_request"/);
      expect(await catalog.count()).toBe(1);
    },
  );

  it('accepts the scheme in any case', async () => {
    const { call } = await setup();
    expect((await call('DELETE', '/indexes/catalog', undefined, { authorization: `bearer ${CATALOG_KEY}` })).status).toBe(200);
  });

  it('a catalog key opens only its own catalog', async () => {
    const { registry, call, catalog } = await setup();
    const beta = await registry.create({ identifier: 'beta' });
    const res = await call('PUT', '/indexes/catalog/x', item('x'), { authorization: `Bearer ${beta.catalogApiKey}` });
    expect(res.status).toBe(200);
    expect(await beta.catalog.get('x')).toBeDefined();
    expect(await catalog.get('x')).toBeUndefined();
  });

  it('authenticates before validating', async () => {
    const { call } = await setup();
    await errorBody(await call('PUT', `/indexes/catalog/${'x'.repeat(41)}`, 'not json', {}), 401);
    await errorBody(await call('POST', '/indexes/catalog/batch', 'not json', { authorization: `Bearer ${SEARCH_KEY}` }), 403);
  });
});

describe('clear 400s', () => {
  it('PUT whose body id differs from the path', async () => {
    const { call, catalog } = await setup();
    const error = await errorBody(await call('PUT', '/indexes/catalog/sku-1', item('sku-2')), 400);
    expect(error.message).toContain('sku-1');
    expect(error.message).toContain('sku-2');
    expect(error.details).toEqual([{ field: 'id', reason: expect.any(String) }]);
    expect(await catalog.count()).toBe(0);
  });

  it('PUT whose body has no id', async () => {
    const { call } = await setup();
    const body: Record<string, unknown> = item('x');
    delete body.id;
    await errorBody(await call('PUT', '/indexes/catalog/sku-1', body), 400);
  });

  it('DELETE whose body id differs from the path', async () => {
    const { call, catalog } = await setup();
    await catalog.put(item('sku-1'));
    await catalog.put(item('sku-2'));
    const error = await errorBody(await call('DELETE', '/indexes/catalog/sku-1', { id: 'sku-2' }), 400);
    expect(error.message).toContain('sku-1');
    expect(error.message).toContain('sku-2');
    expect(error.details).toEqual([{ field: 'id', reason: expect.any(String) }]);
    expect(await catalog.count()).toBe(2);
  });

  it('DELETE whose body is not an object carrying the id', async () => {
    const { call } = await setup();
    await errorBody(await call('DELETE', '/indexes/catalog/sku-1', { product: { id: 'sku-1' } }), 400);
    await errorBody(await call('DELETE', '/indexes/catalog/sku-1', ['sku-1']), 400);
  });

  it('an id of 41 characters in the path of PUT and DELETE', async () => {
    const { call, catalog } = await setup();
    const long = 'x'.repeat(41);
    const put = await errorBody(await call('PUT', `/indexes/catalog/${long}`, item(long)), 400);
    expect(put.message).toMatch(/41/);
    expect(put.details).toEqual([{ field: 'itemID', reason: expect.stringContaining('40') }]);
    await errorBody(await call('DELETE', `/indexes/catalog/${long}`, { id: long }), 400);
    expect(await catalog.count()).toBe(0);
    expect((await call('PUT', `/indexes/catalog/${'x'.repeat(40)}`, item('x'.repeat(40)))).status).toBe(200);
  });

  it('an id of 41 characters in a batch body (create-replace and delete)', async () => {
    const { call, catalog } = await setup();
    const long = 'y'.repeat(41);
    const error = await errorBody(
      await call('POST', '/indexes/catalog/batch', [
        { operation: 'create-replace', product: item('ok') },
        { operation: 'create-replace', product: item(long) },
        { operation: 'delete', product: { id: long } },
      ]),
      400,
    );
    expect(error.details).toEqual([
      { index: 1, id: long, field: 'id', reason: expect.stringContaining('41') },
      { index: 2, id: long, field: 'id', reason: expect.stringContaining('41') },
    ]);
    expect(await catalog.count()).toBe(0);
  });

  it.each(['is_recommendable', 'name', 'absolute_link', 'img_link', 'price', 'categories_ids'])(
    'a missing standard field: %s',
    async (field) => {
      const { call, catalog } = await setup();
      const body = item('sku-1');
      delete body[field];
      const error = await errorBody(await call('PUT', '/indexes/catalog/sku-1', body), 400);
      expect(error.details).toEqual([{ id: 'sku-1', field, reason: expect.stringContaining(field) }]);
      expect(await catalog.count()).toBe(0);
    },
  );

  it('a missing standard field in a batch names the operation index', async () => {
    const { call } = await setup();
    const body = item('sku-1');
    delete body.price;
    const error = await errorBody(
      await call('POST', '/indexes/catalog/batch', [
        { operation: 'create-replace', product: item('a') },
        { operation: 'create-replace', product: body },
      ]),
      400,
    );
    expect(error.details).toEqual([{ index: 1, id: 'sku-1', field: 'price', reason: expect.any(String) }]);
  });

  it('a batch of 10,001 operations (10,000 are accepted)', async () => {
    const { call, catalog } = await setup();
    const ops = Array.from({ length: 10_001 }, (_, i) => ({ operation: 'create-replace', product: item(`s-${i}`) }));
    const error = await errorBody(await call('POST', '/indexes/catalog/batch', ops), 400);
    expect(error.error).toBe('too_many_operations');
    expect(error.message).toContain('10000');
    expect(error.message).toContain('10001');
    expect(await catalog.count()).toBe(0);
    const ok = await call('POST', '/indexes/catalog/batch', ops.slice(0, 10_000));
    expect(ok.status).toBe(200);
    expect(await ok.json()).toMatchObject({ accepted: 10_000 });
  });

  it('an unknown operation', async () => {
    const { call, catalog } = await setup();
    const error = await errorBody(
      await call('POST', '/indexes/catalog/batch', [
        { operation: 'create-replace', product: item('a') },
        { operation: 'upsert', product: item('b') },
      ]),
      400,
    );
    expect(error.details).toEqual([{ index: 1, field: 'operation', reason: expect.stringContaining('upsert') }]);
    expect(await catalog.count()).toBe(0);
  });

  it('invalid JSON in a batch and in a PUT', async () => {
    const { call } = await setup();
    const batch = await errorBody(await call('POST', '/indexes/catalog/batch', '[{"operation": "create-replace",'), 400);
    expect(batch.error).toBe('invalid_json');
    const single = await errorBody(await call('PUT', '/indexes/catalog/a', '{"id": "a",'), 400);
    expect(single.error).toBe('invalid_json');
  });

  it.each([['{"operation":"create-replace"}'], ['null'], ['"batch"'], ['42'], ['']])('a non-array batch body %j', async (raw) => {
    const { call } = await setup();
    const error = await errorBody(await call('POST', '/indexes/catalog/batch', raw), 400);
    expect(error.message).toMatch(/array|JSON/);
  });

  it('a PUT without a body or with a non-object body', async () => {
    const { call } = await setup();
    await errorBody(await call('PUT', '/indexes/catalog/a'), 400);
    await errorBody(await call('PUT', '/indexes/catalog/a', '[]'), 400);
    await errorBody(await call('PUT', '/indexes/catalog/a', 'null'), 400);
  });

  it('a type mismatch names id, field, expected and actual type', async () => {
    const { call } = await setup();
    await call('PUT', '/indexes/catalog/a', item('a', { color: 'red' }));
    const error = await errorBody(await call('PUT', '/indexes/catalog/b', item('b', { color: 5 })), 400);
    expect(error.details).toEqual([{ id: 'b', field: 'color', expected: 'string', actual: 'number', reason: expect.any(String) }]);
    for (const part of ['b', 'color', 'string', 'number']) expect(error.message).toContain(part);
  });

  it('a batch lists every failing operation (index, id, field, reason) and applies nothing', async () => {
    const { call, catalog } = await setup();
    await catalog.put(item('keep', { color: 'red' }));
    const noName = item('n');
    delete noName.name;
    const error = await errorBody(
      await call('POST', '/indexes/catalog/batch', [
        { operation: 'create-replace', product: item('a', { brand: 'Acme' }) },
        { operation: 'create-replace', product: item('b', { color: 3 }) },
        { operation: 'delete', product: { id: 'keep' } },
        { operation: 'create-replace', product: item('c', { brand: 7 }) },
        { operation: 'create-replace', product: noName },
        { operation: 'delete', product: {} },
      ]),
      400,
    );
    expect(error.details).toEqual([
      { index: 1, id: 'b', field: 'color', expected: 'string', actual: 'number', reason: expect.any(String) },
      { index: 3, id: 'c', field: 'brand', expected: 'string', actual: 'number', reason: expect.any(String) },
      { index: 4, id: 'n', field: 'name', reason: expect.any(String) },
      { index: 5, field: 'id', reason: expect.any(String) },
    ]);
    expect(await catalog.count()).toBe(1);
    expect(await catalog.get('keep')).toBeDefined();
    expect((await catalog.schema()).fields.some((f) => f.name === 'brand')).toBe(false);
  });

  it('deleting a standard field is a 400', async () => {
    const { call } = await setup();
    const error = await errorBody(await call('DELETE', '/indexes/catalog/schema/price'), 400);
    expect(error.message).toContain('price');
  });
});

describe('batch size limit (interfaces.md, Limits)', () => {
  /** A body of `chunks` chunks of 1 MiB of JSON whitespace inside an array; counts the chunks pulled. */
  function streamedBody(chunks: number) {
    const stats = { pulled: 0, cancelled: false };
    const filler = new Uint8Array(MB).fill(0x20);
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (stats.pulled === 0) controller.enqueue(new TextEncoder().encode('['));
        if (stats.pulled === chunks) {
          controller.enqueue(new TextEncoder().encode(']'));
          controller.close();
          return;
        }
        stats.pulled++;
        controller.enqueue(filler);
      },
      cancel() {
        stats.cancelled = true;
      },
    });
    return { stream, stats };
  }

  function post(handler: (r: Request) => Promise<Response>, body: BodyInit, key = CATALOG_KEY) {
    return handler(
      new Request(`http://abkit.test${PREFIX}/indexes/catalog/batch`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body,
        duplex: 'half',
      } as RequestInit),
    );
  }

  it('413 for a streamed body of 60 MB, detected while reading without consuming it all', async () => {
    const { handler } = await setup();
    const { stream, stats } = streamedBody(60);
    const res = await post(handler, stream);
    const error = await errorBody(res, 413);
    expect(error.error).toBe('payload_too_large');
    expect(stats.pulled).toBeGreaterThanOrEqual(50);
    expect(stats.pulled).toBeLessThan(60);
    expect(stats.cancelled).toBe(true);
  });

  it('413 for a body of exactly 50 MB; 200 for one byte less', async () => {
    const { handler } = await setup();
    const limit = 50 * MB;
    const body = (size: number) => `[${' '.repeat(size - 2)}]`;
    await errorBody(await post(handler, body(limit)), 413);
    const res = await post(handler, body(limit - 1));
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ accepted: 0, upserted: 0, deleted: 0 });
  });

  it('413 when content-length announces 50 MB or more, before reading', async () => {
    const { handler } = await setup();
    const { stream, stats } = streamedBody(60);
    const res = await handler(
      new Request(`http://abkit.test${PREFIX}/indexes/catalog/batch`, {
        method: 'POST',
        headers: { authorization: `Bearer ${CATALOG_KEY}`, 'content-type': 'application/json', 'content-length': String(60 * MB) },
        body: stream,
        duplex: 'half',
      } as RequestInit),
    );
    await errorBody(res, 413);
    expect(stats.pulled).toBeLessThanOrEqual(1);
  });

  it('413 for a single-item PUT over maxItemBytes (1 MiB by default); under it, 400 for an item over 100,000 characters', async () => {
    const { call, catalog } = await setup();
    await errorBody(await call('PUT', '/indexes/catalog/a', item('a', { description: 'd'.repeat(MB + 1) })), 413);
    const big = await errorBody(await call('PUT', '/indexes/catalog/a', item('a', { description: 'd'.repeat(MB - 1000) })), 400);
    expect(big.details?.[0]?.reason).toMatch(/characters or more as JSON; the limit is 100000/);
    expect((await call('PUT', '/indexes/catalog/a', item('a', { description: 'd'.repeat(99_000) }))).status).toBe(200);
    expect(await catalog.count()).toBe(1);
  });

  it('a streamed body under the limit is accepted', async () => {
    const { handler } = await setup();
    const { stream, stats } = streamedBody(3);
    const res = await post(handler, stream);
    expect(res.status).toBe(200);
    expect(stats.pulled).toBe(3);
  });
});

describe('item and schema limits (interfaces.md, Limits)', () => {
  const many = (n: number, prefix: string) => Object.fromEntries(Array.from({ length: n }, (_, i) => [`${prefix}${i}`, 'v']));

  it("400 naming the operation and the limit for the issue's batch of items with 3,000 fields; nothing is stored", async () => {
    const { call, catalog } = await setup();
    const ops = [0, 1, 2, 3].map((i) => ({ operation: 'create-replace', product: item(`p${i}`, i === 3 ? many(3000, 'x') : {}) }));
    const body = await errorBody(await call('POST', '/indexes/catalog/batch', ops), 400);
    expect(body.details).toEqual([
      { index: 3, id: 'p3', reason: expect.stringMatching(/^item "p3" has \d+ fields or more .*; the limit is 500$/) as unknown as string },
    ]);
    expect(await catalog.count()).toBe(0);
    expect((await catalog.schema()).fields.filter((f) => !f.standard)).toEqual([]);
  });

  it('400 naming the field for a PUT that would pass the schema ceiling, or a dotted name beside an object field', async () => {
    const { call, catalog } = await setup();
    for (let i = 0; i < 3; i++)
      expect((await call('PUT', `/indexes/catalog/a${i}`, item(`a${i}`, many(i === 2 ? 200 : 400, `f${i}_`)))).status).toBe(200);
    const over = await errorBody(await call('PUT', '/indexes/catalog/b', item('b', { extra: 1 })), 400);
    expect(over.details).toEqual([{ id: 'b', field: 'extra', reason: expect.stringContaining('the limit is 1000') as unknown as string }]);
    await catalog.deleteSchemaField('f0_0');
    expect((await call('PUT', '/indexes/catalog/b', item('b', { dims: { w: 7 } }))).status).toBe(200);
    const dotted = await errorBody(await call('PUT', '/indexes/catalog/c', item('c', { 'dims.w': 7 })), 400);
    expect(dotted.details).toEqual([
      {
        id: 'c',
        field: 'dims.w',
        reason: 'item "c": field dims.w cannot be created: dims is an object field, and dims.w names its key "w" in filters and facets',
      },
    ]);
  });
});

describe('methods and unknown resources', () => {
  it.each([
    ['GET', '/indexes/catalog/a', 'PUT, DELETE'],
    ['POST', '/indexes/catalog/a', 'PUT, DELETE'],
    ['PATCH', '/indexes/catalog/a', 'PUT, DELETE'],
    ['GET', '/indexes/catalog', 'DELETE'],
    ['PUT', '/indexes/catalog', 'DELETE'],
    ['POST', '/indexes/catalog', 'DELETE'],
    ['GET', '/indexes/catalog/schema/color', 'DELETE'],
    ['PUT', '/indexes/catalog/schema/color', 'DELETE'],
    ['GET', '/indexes/catalog/batch', 'POST, PUT, DELETE'],
  ])('%s %s: 405 with Allow: %s', async (method, path, allow) => {
    const { call } = await setup();
    const res = await call(method, path);
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toBe(allow);
    expect(await res.json()).toMatchObject({ error: 'method_not_allowed' });
  });

  it('404 for an unknown schema field', async () => {
    const { call } = await setup();
    const error = await errorBody(await call('DELETE', '/indexes/catalog/schema/nope'), 404);
    expect(error.message).toContain('nope');
  });

  it('404 for a path outside the five endpoints', async () => {
    const { call } = await setup();
    expect((await call('DELETE', '/indexes/catalog/schema/a/b')).status).toBe(404);
    expect((await call('DELETE', '/indexes/other/a')).status).toBe(404);
  });

  it.each([['.'], ['..']])('a field named %j is refused, or deleting it through the endpoint deletes that field only', async (name) => {
    // URL normalisation turns /schema/%2E%2E into /indexes/catalog (delete-all) and /schema/%2E
    // into /indexes/catalog/schema (the item "schema"): such a field cannot be addressed.
    const { call, catalog } = await setup();
    await catalog.put(item('schema'));
    const created = await call('PUT', '/indexes/catalog/a', item('a', { [name]: 'x' }));
    if (created.status === 400) return;
    expect(created.status).toBe(200);
    await call('DELETE', `/indexes/catalog/schema/${name === '.' ? '%2E' : '%2E%2E'}`);
    expect(await catalog.count()).toBe(2);
    expect(await catalog.get('a')).not.toHaveProperty(name);
  });

  it('PUT and DELETE on /indexes/catalog/batch address the item "batch"', async () => {
    const { call, catalog } = await setup();
    expect((await call('PUT', '/indexes/catalog/batch', item('batch'))).status).toBe(200);
    expect(await catalog.get('batch')).toBeDefined();
    expect((await call('DELETE', '/indexes/catalog/batch', { id: 'batch' })).status).toBe(200);
    expect(await catalog.get('batch')).toBeUndefined();
  });

  it('reports no unexpected error on any of the above', async () => {
    const { call, errors } = await setup();
    await call('PUT', '/indexes/catalog/a', 'garbage');
    await call('POST', '/indexes/catalog/batch', '{}');
    await call('DELETE', '/indexes/catalog/schema/nope');
    expect(errors).toEqual([]);
  });
});
