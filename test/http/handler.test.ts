import { Validator } from '@seriousme/openapi-schema-validator';
import { describe, expect, it } from 'vitest';
import { AccessManager, CatalogRegistry, createHandler, DecisionEngine, TokenService, memoryStorage } from '../../src/index';
import { CATALOG_ROUTES } from '../../src/http/catalog';
import { DECISION_ROUTES } from '../../src/http/decision';
import { REMOTE_CONTROL_ROUTES } from '../../src/http/remote';
import { SEARCH_ROUTES } from '../../src/http/search';
import { SERVICE_ROUTES } from '../../src/http/service';
import { TOKEN_ROUTES } from '../../src/http/token';
import { config } from '../helpers/configs';

async function setup(options: Partial<Parameters<typeof createHandler>[0]> = {}) {
  const engine = new DecisionEngine({ storage: memoryStorage(), defaultEnvironment: 'prod' });
  await engine.load(config([{ id: 'c1', split: [100] }]), { environment: 'prod', account: 'acme' });
  const accesses = new AccessManager({ storage: engine.storage });
  const tokens = new TokenService({ storage: engine.storage, accesses });
  const catalogs = new CatalogRegistry({ storage: engine.storage });
  const { catalogApiKey } = await catalogs.create({ identifier: 'shop' });
  const handler = createHandler({ decision: engine, access: tokens, catalog: catalogs, search: catalogs, onError: () => {}, ...options });
  return { handler, catalogApiKey, accesses };
}

describe('createHandler', () => {
  it('serves every interface through one handler', async () => {
    const { handler, catalogApiKey, accesses } = await setup();
    const decision = await handler(new Request('http://x/v2/campaigns', { method: 'POST', body: '{"visitor_id":"v"}' }));
    expect(decision.status).toBe(200);
    const { clientId, clientSecret } = await accesses.createAccess({ account: 'acme', name: 'n', actions: ['campaigns.read'] });
    const token = await handler(
      new Request('http://x/acme/token', {
        method: 'POST',
        body: JSON.stringify({ grant_type: 'client_credentials', client_id: clientId, client_secret: clientSecret }),
      }),
    );
    expect(token.status).toBe(200);
    const { access_token } = (await token.json()) as { access_token: string };
    const remote = await handler(
      new Request('http://x/v1/accounts/acme/environments/prod/panic', { headers: { authorization: `Bearer ${access_token}` } }),
    );
    expect(await remote.json()).toMatchObject({ panic: false });
    const item = {
      id: 'a',
      is_recommendable: true,
      name: 'Galaxy phone',
      absolute_link: null,
      img_link: null,
      price: 1,
      categories_ids: null,
    };
    const put = await handler(
      new Request('http://x/indexes/catalog/a', {
        method: 'PUT',
        headers: { authorization: `Bearer ${catalogApiKey}` },
        body: JSON.stringify(item),
      }),
    );
    expect(put.status).toBe(200);
    const search = await handler(new Request('http://x/search?text='));
    expect(((await search.json()) as { totalHits: number }).totalHits).toBe(0);
  });

  it('GET /health and a valid OpenAPI 3.1 document generated from the zod schemas', async () => {
    const { handler } = await setup();
    expect(await (await handler(new Request('http://x/health'))).json()).toEqual({
      status: 'ok',
      interfaces: { decision: true, access: true, remote: true, catalog: true, search: true, admin: false },
    });
    const doc = (await (await handler(new Request('http://x/openapi.json'))).json()) as { openapi: string; paths: Record<string, unknown> };
    expect(doc.openapi).toBe('3.1.0');
    const result = await new Validator().validate(doc as Parameters<Validator['validate']>[0]);
    expect(result.errors).toBeUndefined();
    expect(result.valid).toBe(true);
    expect(Object.keys(doc.paths)).toEqual(
      expect.arrayContaining([
        '/v2/campaigns',
        '/v2/activate',
        '/{account_id}/token',
        '/token',
        '/indexes/catalog/batch',
        '/search',
        '/v0.3/search',
        '/autocomplete',
      ]),
    );
    // The request body schema is the one that parses requests.
    const campaigns = doc.paths['/v2/campaigns'] as {
      post: { requestBody: { content: { 'application/json': { schema: { properties: Record<string, unknown> } } } } };
    };
    expect(Object.keys(campaigns.post.requestBody.content['application/json'].schema.properties)).toEqual(
      expect.arrayContaining(['visitor_id', 'anonymous_id', 'context', 'trigger_hit', 'visitor_consent']),
    );
  });

  it('documents exactly the routes of the tables, each under its prefix, and serves every one', async () => {
    const { handler } = await setup({ prefix: '/api' });
    const doc = (await (await handler(new Request('http://x/api/openapi.json'))).json()) as {
      paths: Record<string, Record<string, unknown>>;
    };
    const tables = [DECISION_ROUTES, TOKEN_ROUTES, REMOTE_CONTROL_ROUTES, CATALOG_ROUTES, SEARCH_ROUTES, SERVICE_ROUTES];
    const routes = tables.flatMap((t) => t.map((r) => `${r.method} /api${r.path.replace(/:(\w+)/g, '{$1}')}`));
    const documented = Object.entries(doc.paths).flatMap(([path, operations]) =>
      Object.keys(operations).map((m) => `${m.toUpperCase()} ${path}`),
    );
    expect(documented.sort()).toEqual([...new Set(routes)].sort());
    for (const [path, operations] of Object.entries(doc.paths)) {
      const names = [...path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]);
      for (const operation of Object.values(operations) as { parameters?: { name: string; in: string }[] }[]) {
        expect(
          (operation.parameters ?? []).filter((p) => p.in === 'path').map((p) => p.name),
          path,
        ).toEqual(names);
      }
      // Every documented operation is routed: OPTIONS lists its methods.
      const concrete = path.replace(/\{\w+\}/g, 'x');
      const allow = (await handler(new Request(`http://x${concrete}`, { method: 'OPTIONS' }))).headers.get('allow') ?? '';
      for (const m of Object.keys(operations)) expect(allow.split(', '), `${m} ${concrete}`).toContain(m.toUpperCase());
    }
  });

  it('documents only the interfaces served', async () => {
    const engine = new DecisionEngine({ storage: memoryStorage() });
    const handler = createHandler({ decision: engine });
    const doc = (await (await handler(new Request('http://x/openapi.json'))).json()) as { paths: Record<string, unknown> };
    expect(Object.keys(doc.paths).some((p) => p.startsWith('/indexes'))).toBe(false);
    expect(await (await handler(new Request('http://x/search?text=a'))).json()).toEqual({ message: 'no route for GET /search' });
  });

  it('HEAD answers like GET without a body; OPTIONS answers 204 with Allow', async () => {
    const { handler } = await setup();
    const head = await handler(new Request('http://x/health', { method: 'HEAD' }));
    expect(head.status).toBe(200);
    expect(await head.text()).toBe('');
    const options = await handler(new Request('http://x/indexes/catalog/a', { method: 'OPTIONS' }));
    expect(options.status).toBe(204);
    expect(options.headers.get('allow')).toBe('PUT, DELETE, OPTIONS');
    const v2 = await handler(new Request('http://x/v2/campaigns', { method: 'OPTIONS' }));
    expect(v2.headers.get('allow')).toBe('POST, OPTIONS');
    expect((await handler(new Request('http://x/nowhere', { method: 'OPTIONS' }))).status).toBe(404);
  });

  it('405 with Allow, 404 JSON, and a request id on every response', async () => {
    const { handler } = await setup();
    const wrong = await handler(new Request('http://x/v2/campaigns', { method: 'GET' }));
    expect(wrong.status).toBe(405);
    expect(wrong.headers.get('allow')).toBe('POST');
    const lost = await handler(new Request('http://x/nowhere'));
    expect(lost.status).toBe(404);
    expect(lost.headers.get('content-type')).toBe('application/json');
    expect(lost.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    const echoed = await handler(new Request('http://x/health', { headers: { 'x-request-id': 'abc-123' } }));
    expect(echoed.headers.get('x-request-id')).toBe('abc-123');
    const off = await (await setup({ requestIdHeader: false })).handler(new Request('http://x/health'));
    expect(off.headers.get('x-request-id')).toBeNull();
  });

  it('applies the configured body size limit', async () => {
    const { handler } = await setup({ maxBodyBytes: 64 });
    const res = await handler(
      new Request('http://x/v2/campaigns', { method: 'POST', body: JSON.stringify({ visitor_id: 'v'.repeat(100) }) }),
    );
    expect(res.status).toBe(413);
  });

  it('serves under a prefix', async () => {
    const { handler } = await setup({ prefix: '/api' });
    expect((await handler(new Request('http://x/api/health'))).status).toBe(200);
    expect((await handler(new Request('http://x/api/v2/campaigns', { method: 'POST', body: '{"visitor_id":"v"}' }))).status).toBe(200);
    const doc = (await (await handler(new Request('http://x/api/openapi.json'))).json()) as { paths: Record<string, unknown> };
    expect(Object.keys(doc.paths)).toContain('/api/v2/campaigns');
  });
});
