import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseServeConfig } from '../../server/config';
import { serve, type RunningServer } from '../../server/serve';

const CATALOG_KEY = 'catalog-key-for-the-serve-test-0001';
const CLIENT_SECRET = 'client-secret-for-the-serve-test-0000000000001';
const API_KEY = 'decision-api-key-0001';
const dir = mkdtempSync(join(tmpdir(), 'abkit-serve-'));
const bootstrapFile = join(dir, 'bootstrap.json');
writeFileSync(
  bootstrapFile,
  JSON.stringify({
    accounts: [
      {
        id: 'acme',
        environments: [
          {
            id: 'prod',
            default: true,
            bucketing: {
              campaigns: [
                {
                  id: 'all',
                  type: 'toggle',
                  variationGroups: [
                    {
                      id: 'g',
                      targeting: { targetingGroups: [{ targetings: [{ key: 'fs_all_users', operator: 'EQUALS', value: '' }] }] },
                      variations: [{ id: 'on', allocation: 100, modifications: { type: 'FLAG', value: { on: true } } }],
                    },
                  ],
                },
              ],
            },
          },
        ],
      },
    ],
    accesses: [
      {
        account: 'acme',
        name: 'bot',
        environments: ['prod'],
        actions: ['campaigns.read'],
        clientId: 'bot-client',
        clientSecret: CLIENT_SECRET,
      },
    ],
    catalogs: [
      {
        identifier: 'shop',
        catalogApiKey: CATALOG_KEY,
        searchApiKey: 'search-key-for-the-serve-test-01',
        items: [
          {
            id: 'p1',
            is_recommendable: true,
            name: 'Galaxy phone',
            absolute_link: null,
            img_link: null,
            price: 300,
            categories_ids: ['phones'],
            brand: 'Samsung',
          },
        ],
      },
    ],
  }),
);

let running: RunningServer;
let logs = '';
const banner: string[] = [];
const logLines = () =>
  logs
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => JSON.parse(l) as Record<string, unknown>);

beforeAll(async () => {
  const stream = new Writable({ write: (chunk, _e, done) => ((logs += chunk.toString()), done()) });
  const config = parseServeConfig([], {
    PORT: '0',
    ABKIT_STORAGE: 'memory',
    ABKIT_BOOTSTRAP: bootstrapFile,
    ABKIT_CORS_ORIGINS: 'https://shop.example',
    ABKIT_API_KEY: API_KEY,
    ABKIT_PEPPER: 'pepper-of-sixteen-chars',
  });
  running = await serve(config, {
    logger: pino({ timestamp: pino.stdTimeFunctions.isoTime }, stream),
    banner: (line) => banner.push(line),
  });
});
afterAll(() => running?.close());

const decide = (headers: Record<string, string> = {}) =>
  fetch(`${running.url}/v2/campaigns`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-api-key': API_KEY, ...headers },
    body: '{"visitor_id":"v1","trigger_hit":false}',
  });

describe('abkit serve', () => {
  it('serves /v2 with the configured API key, and answers health and readiness', async () => {
    const res = await decide();
    expect(res.status).toBe(200);
    expect(res.headers.get('content-length')).toBe(String((await res.clone().arrayBuffer()).byteLength));
    expect(((await res.json()) as { campaigns: { id: string }[] }).campaigns.map((c) => c.id)).toEqual(['all']);
    expect((await decide({ 'x-api-key': 'wrong-key-but-long-enough' })).status).toBe(401);
    expect(await (await fetch(`${running.url}/health/live`)).json()).toEqual({ status: 'ok' });
    expect(await (await fetch(`${running.url}/health/ready`)).json()).toEqual({ status: 'ok' });
    expect((await fetch(`${running.url}/health/ready`, { method: 'POST' })).status).toBe(405);
  });

  it('exposes the named Prometheus metrics, fed by the requests served', async () => {
    await decide();
    await fetch(`${running.url}/v2/activate`, {
      method: 'POST',
      headers: { 'x-api-key': API_KEY },
      body: JSON.stringify({ cid: 'prod', vid: 'v1', caid: 'g', vaid: 'on' }),
    });
    await fetch(`${running.url}/token?access_token=abk_at_unknown`);
    await fetch(`${running.url}/search?text=galaxy`);
    await fetch(`${running.url}/search?text=zzzqqq`);
    await fetch(`${running.url}/indexes/catalog/p2`, {
      method: 'PUT',
      headers: { authorization: `Bearer ${CATALOG_KEY}` },
      body: JSON.stringify({
        id: 'p2',
        is_recommendable: true,
        name: 'Pixel',
        absolute_link: null,
        img_link: null,
        price: 1,
        categories_ids: [],
      }),
    });
    const res = await fetch(`${running.url}/metrics`);
    expect(res.headers.get('content-type')).toMatch(/^text\/plain/);
    const text = await res.text();
    const value = (pattern: RegExp) => Number(pattern.exec(text)?.[1] ?? NaN);
    expect(value(/^abkit_decisions_total (\d+)$/m)).toBeGreaterThanOrEqual(2);
    expect(value(/^abkit_campaigns_matched_total (\d+)$/m)).toBeGreaterThanOrEqual(2);
    expect(value(/^abkit_activations_total (\d+)$/m)).toBe(1);
    expect(value(/^abkit_token_checks_total\{result="inactive"\} (\d+)$/m)).toBe(1);
    expect(value(/^abkit_catalog_operations_total\{operation="put"\} (\d+)$/m)).toBe(1);
    expect(value(/^abkit_search_zero_results_total\{route="\/search"\} (\d+)$/m)).toBe(1);
    expect(value(/^abkit_search_duration_seconds_count\{route="\/search"\} (\d+)$/m)).toBe(2);
    expect(
      value(/^abkit_http_request_duration_seconds_count\{method="POST",route="\/v2\/campaigns",status="200"\} (\d+)$/m),
    ).toBeGreaterThanOrEqual(2);
    expect(text).toMatch(/^abkit_catalog_syncs_total/m);
    expect(text).toMatch(/^abkit_process_cpu_seconds_total/m);
    expect(text).toMatch(/^abkit_nodejs_eventloop_lag_seconds/m);
  });

  it('counts /v2/flags decisions in abkit_decisions_total, with the campaigns that served a flag', async () => {
    const metric = async (name: string) =>
      Number(new RegExp(`^${name} (\\d+)$`, 'm').exec(await (await fetch(`${running.url}/metrics`)).text())?.[1] ?? NaN);
    const [decisions, matched] = [await metric('abkit_decisions_total'), await metric('abkit_campaigns_matched_total')];
    const res = await fetch(`${running.url}/v2/flags`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': API_KEY },
      body: '{"visitor_id":"v9","trigger_hit":false}',
    });
    expect(await res.json()).toMatchObject({ on: { value: true } });
    expect(await metric('abkit_decisions_total')).toBe(decisions + 1);
    expect(await metric('abkit_campaigns_matched_total')).toBe(matched + 1);
  });

  it('makes a catalog write searchable at once with POST /indexes/catalog/sync (catalog key only)', async () => {
    const item = {
      id: 'p3',
      is_recommendable: true,
      name: 'Quokkaquux',
      absolute_link: null,
      img_link: null,
      price: 5,
      categories_ids: [],
    };
    await fetch(`${running.url}/indexes/catalog/p3`, {
      method: 'PUT',
      headers: { authorization: `Bearer ${CATALOG_KEY}` },
      body: JSON.stringify(item),
    });
    const hits = async () => ((await (await fetch(`${running.url}/search?text=quokkaquux`)).json()) as { totalHits: number }).totalHits;
    expect(await hits()).toBe(0);
    expect((await fetch(`${running.url}/indexes/catalog/sync`, { method: 'POST' })).status).toBe(401);
    const synced = await fetch(`${running.url}/indexes/catalog/sync`, {
      method: 'POST',
      headers: { authorization: `Bearer ${CATALOG_KEY}` },
    });
    expect(synced.status).toBe(200);
    expect(await synced.json()).toMatchObject({ version: expect.any(Number), count: 3 });
    expect(await hits()).toBe(1);
    expect(await (await fetch(`${running.url}/metrics`)).text()).toMatch(/^abkit_catalog_syncs_total\{result="ok"\} [1-9]/m);
  });

  it('answers CORS for the configured origin on browser-facing routes only', async () => {
    const pre = await fetch(`${running.url}/v2/campaigns`, {
      method: 'OPTIONS',
      headers: {
        origin: 'https://shop.example',
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'content-type',
      },
    });
    expect(pre.status).toBe(204);
    expect(pre.headers.get('access-control-allow-origin')).toBe('https://shop.example');
    expect(pre.headers.get('access-control-allow-methods')).toContain('POST');
    const res = await decide({ origin: 'https://shop.example' });
    expect(res.headers.get('access-control-allow-origin')).toBe('https://shop.example');
    expect(res.headers.get('vary')).toBe('Origin');
    expect(
      (await fetch(`${running.url}/search?text=x`, { headers: { origin: 'https://evil.example' } })).headers.get(
        'access-control-allow-origin',
      ),
    ).toBeNull();
    const write = await fetch(`${running.url}/indexes/catalog/p9`, {
      method: 'DELETE',
      headers: { origin: 'https://shop.example', authorization: `Bearer ${CATALOG_KEY}` },
    });
    expect(write.headers.get('access-control-allow-origin')).toBeNull();
  });

  it('logs JSON lines with time, level, request id, method, route pattern, status and duration, and never a secret', async () => {
    const token = await fetch(`${running.url}/acme/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ grant_type: 'client_credentials', scope: '*', client_id: 'bot-client', client_secret: CLIENT_SECRET }),
    });
    const { access_token } = (await token.json()) as { access_token: string };
    const check = await fetch(`${running.url}/token?access_token=${access_token}`, { headers: { 'x-request-id': 'trace-7' } });
    expect(check.headers.get('x-request-id')).toBe('trace-7');
    await new Promise((r) => setTimeout(r, 50));
    const lines = logLines();
    expect(lines).toContainEqual(
      expect.objectContaining({
        level: 30,
        msg: 'request',
        reqId: 'trace-7',
        method: 'GET',
        route: '/token',
        status: 200,
        ms: expect.any(Number),
        time: expect.any(String),
      }),
    );
    expect(lines).toContainEqual(expect.objectContaining({ route: '/:account_id/token', status: 200 }));
    for (const line of lines.filter((l) => l.msg === 'request')) expect(line.reqId).toMatch(/^[\x21-\x7e]+$/);
    const everything = logs + banner.join('\n');
    for (const secret of [access_token, CLIENT_SECRET, CATALOG_KEY, API_KEY, 'pepper-of-sixteen-chars'])
      expect(everything).not.toContain(secret);
    expect(banner.join('\n')).toContain('/indexes/catalog/sync');
  });

  it('refuses a busy port with one line', async () => {
    const port = new URL(running.url).port;
    await expect(
      serve(parseServeConfig([], { PORT: port, ABKIT_STORAGE: 'memory' }), { logger: pino({ level: 'silent' }), banner: () => undefined }),
    ).rejects.toThrow(new RegExp(`^port ${port} on 127\\.0\\.0\\.1 is already in use \\(set PORT or --port\\)$`));
  });
});
