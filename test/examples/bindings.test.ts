import { serve } from '@hono/node-server';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import qs from 'qs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expressApp } from '../../examples/express';
import { fastifyApp } from '../../examples/fastify';
import { honoApp } from '../../examples/hono';
import { createNodeListener } from '../../node/index';
import { AccessManager, CatalogRegistry, createHandler, DecisionEngine, TokenService, type Handler, memoryStorage } from '../../src/index';
import { config } from '../helpers/configs';

interface Running {
  url: string;
  close: () => Promise<void>;
}

const listen = (server: Server): Promise<Running> =>
  new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      resolve({ url: `http://127.0.0.1:${port}`, close: () => new Promise((r) => server.close(() => r())) });
    });
  });

const BINDINGS: [string, (handler: Handler) => Promise<Running>][] = [
  ['node:http', (handler) => listen(createServer(createNodeListener(handler)))],
  ['Express 5', (handler) => listen(createServer(expressApp(handler)))],
  [
    'Hono (@hono/node-server)',
    (handler) =>
      new Promise((resolve) => {
        const server = serve({ fetch: honoApp(handler).fetch, port: 0, hostname: '127.0.0.1' }, (info) => {
          resolve({ url: `http://127.0.0.1:${info.port}`, close: () => new Promise((r) => server.close(() => r())) });
        });
      }),
  ],
  [
    'Fastify 5',
    async (handler) => {
      const app = await fastifyApp(handler);
      const url = await app.listen({ port: 0, host: '127.0.0.1' });
      return { url, close: () => app.close() };
    },
  ],
];

const product = (id: string, name: string, brand: string, price: number) => ({
  id,
  is_recommendable: true,
  name,
  absolute_link: null,
  img_link: null,
  price,
  categories_ids: ['phones'],
  brand,
});

describe.each(BINDINGS)('%s binding over real HTTP', (name, start) => {
  let running: Running;
  let clientId: string;
  let clientSecret: string;
  let catalogApiKey: string;
  let catalogs: CatalogRegistry;

  beforeAll(async () => {
    const engine = new DecisionEngine({ storage: memoryStorage(), defaultEnvironment: 'prod' });
    await engine.load(config([{ id: 'c1', split: [100] }]), { environment: 'prod', account: 'acme' });
    const accesses = new AccessManager({ storage: engine.storage });
    ({ clientId, clientSecret } = await accesses.createAccess({ account: 'acme', name: 'ci', actions: ['campaigns.read'] }));
    catalogs = new CatalogRegistry({ storage: engine.storage });
    const created = await catalogs.create({ identifier: 'shop' });
    catalogApiKey = created.catalogApiKey;
    const handler = createHandler({
      decision: engine,
      access: new TokenService({ storage: engine.storage, accesses }),
      catalog: catalogs,
      search: catalogs,
    });
    running = await start(handler);
  });
  afterAll(() => running.close());

  it('a decision', async () => {
    const res = await fetch(`${running.url}/v2/campaigns`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"visitor_id":"v1","context":{"a":1}}',
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('x-request-id')).toBeTruthy();
    expect(((await res.json()) as { campaigns: { id: string }[] }).campaigns.map((c) => c.id)).toEqual(['c1']);
  });

  it('a token (form-encoded) and its check', async () => {
    const form = new URLSearchParams({ grant_type: 'client_credentials', scope: '*', client_id: clientId, client_secret: clientSecret });
    const res = await fetch(`${running.url}/acme/token?expires_in=60`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: form,
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('no-store');
    const token = (await res.json()) as { access_token: string; expires_in: number };
    expect(token.expires_in).toBe(60);
    const check = await fetch(`${running.url}/token?access_token=${encodeURIComponent(token.access_token)}`);
    expect(await check.json()).toMatchObject({ active: true, account_id: 'acme' });
  });

  it('a catalog batch, then search with bracket filters, then autocomplete', async () => {
    const batch = [
      { operation: 'create-replace', product: product('p1', 'Galaxy S24', 'Samsung', 799) },
      { operation: 'create-replace', product: product('p2', 'Galaxy A15', 'Samsung', 199) },
      { operation: 'create-replace', product: product('p3', 'Pixel 8', 'Google', 599) },
    ];
    const res = await fetch(`${running.url}/indexes/catalog/batch`, {
      method: 'POST',
      headers: { authorization: `Bearer ${catalogApiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify(batch),
    });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ accepted: 3, upserted: 3, deleted: 0 });
    // Writes become visible at the synchronization (the library runs it; as `POST /indexes/catalog/sync` does over HTTP).
    const before = await fetch(`${running.url}/search?text=galaxy`);
    expect(((await before.json()) as { totalHits: number }).totalHits).toBe(0);
    await (await catalogs.get('shop')).sync();
  });

  it('a 49 MB catalog batch (the interface takes up to 50 MB and 10,000 operations) reaches abkit and is accepted (issue #23)', async () => {
    const description = 'A sturdy widget for everyday use, with a long description that makes each operation about 4.9 KB. '.repeat(47);
    const batch = Array.from({ length: 10_000 }, (_, i) => ({
      operation: 'create-replace',
      product: { ...product(`big-${i}`, `Widget ${i}`, 'Acme', 10 + i), description },
    }));
    const body = JSON.stringify(batch);
    expect(body.length).toBeGreaterThan(48_000_000);
    expect(body.length).toBeLessThan(50 * 1024 * 1024);
    const res = await fetch(`${running.url}/indexes/catalog/batch`, {
      method: 'POST',
      headers: { authorization: `Bearer ${catalogApiKey}`, 'content-type': 'application/json' },
      body,
    });
    expect(
      res.headers.get('content-type'),
      await res
        .clone()
        .text()
        .then((t) => t.slice(0, 300)),
    ).toBe('application/json');
    expect(await res.json()).toEqual({ accepted: 10_000, upserted: 10_000, deleted: 0 });
    expect(res.status).toBe(200);
  }, 60_000);

  it("invalid JSON gets abkit's JSON error, not the framework's (issue #23)", async () => {
    for (const [path, headers] of [
      ['/v2/campaigns', {}],
      ['/indexes/catalog/batch', { authorization: `Bearer ${catalogApiKey}` }],
    ] as const) {
      const res = await fetch(`${running.url}${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...headers },
        body: '{"visitor_id": "v1",',
      });
      expect(res.status, path).toBe(400);
      expect(res.headers.get('content-type'), path).toBe('application/json');
      const text = await res.text();
      expect(text).not.toMatch(/<html|<pre|at .*\.js:\d+/i);
      expect(JSON.parse(text)).toMatchObject({ message: expect.any(String) });
    }
  });

  it("the host app's own JSON route keeps its parser (Express, Fastify)", async () => {
    const res = await fetch(`${running.url}/orders`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"order":7}',
    });
    if (name === 'Express 5' || name === 'Fastify 5') expect(await res.json()).toEqual({ received: { order: 7 } });
    else expect(res.status).toBe(404);
  });

  it('search sees the synchronized catalog, with bracket filters (raw and qs.stringify)', async () => {
    const raw = `${running.url}/search?text=galaxy&filters[brand][]=Samsung&filters[price][0][operator]=%3C&filters[price][0][value]=500`;
    const viaQs = `${running.url}/search?${qs.stringify({ text: 'galaxy', filters: { brand: ['Samsung'], price: [{ operator: '<', value: 500 }] } })}`;
    for (const url of [raw, viaQs]) {
      const res = await fetch(url);
      expect(res.status).toBe(200);
      const body = (await res.json()) as { totalHits: number; hits: { id: string }[]; facets: Record<string, unknown> };
      expect(body.totalHits).toBe(1);
      expect(body.hits.map((h) => h.id)).toEqual(['p2']);
      expect(body.facets.brand).toEqual({ type: 'list', values: [['Samsung', 1]] });
    }
    const auto = await fetch(`${running.url}/autocomplete?query=gala&hits_per_page=5`);
    expect(auto.status).toBe(200);
    // Equal on every rule (same length of name too): the lower price first (p2 at 199), before the id.
    expect(await auto.json()).toEqual({ suggestions: [{ text: 'Galaxy A15' }, { text: 'Galaxy S24' }] });
  });
});
