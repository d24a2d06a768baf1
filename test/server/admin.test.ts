import { mkdtempSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import pino from 'pino';
import { afterAll, describe, expect, it } from 'vitest';
import { newAdminKey } from '../../src/access/admin-keys';
import { ConfigError, parseAdminKeys, parseServeConfig } from '../../server/config';
import { serve, type RunningServer } from '../../server/serve';

const OPS = newAdminKey();
const CI = newAdminKey();

describe('ABKIT_ADMIN_KEY', () => {
  it('reads name=key entries and bare keys, comma-separated', () => {
    expect(parseAdminKeys(undefined)).toEqual([]);
    expect(parseAdminKeys(`ops=${OPS}, ci-bot=${CI}`)).toEqual([
      { name: 'ops', key: OPS },
      { name: 'ci-bot', key: CI },
    ]);
    expect(parseAdminKeys(`${OPS},${CI}`)).toEqual([
      { name: 'admin', key: OPS },
      { name: 'admin-2', key: CI },
    ]);
    expect(parseServeConfig([], { ABKIT_ADMIN_KEY: `ops=${OPS}` }).adminKeys).toEqual([{ name: 'ops', key: OPS }]);
    expect(parseServeConfig(['--admin-key', OPS], {}).adminKeys).toEqual([{ name: 'admin', key: OPS }]);
  });

  it('refuses a short key, an empty entry or a name given twice, naming the variable and never the key', () => {
    const short = 'ops=short-key-of-31-characters-x';
    for (const [raw, message] of [
      [short, /ABKIT_ADMIN_KEY: key 1 of 1 \(ops\) must be at least 32/],
      [`${OPS},`, /ABKIT_ADMIN_KEY: key 2 of 2 is empty/],
      [`a=${OPS},a=${CI}`, /the name "a" is given twice/],
      [Array.from({ length: 33 }, () => OPS).join(','), /at most 32/],
    ] as const) {
      let error: unknown;
      try {
        parseServeConfig([], { ABKIT_ADMIN_KEY: raw });
      } catch (e) {
        error = e;
      }
      expect(error).toBeInstanceOf(ConfigError);
      expect((error as Error).message).toMatch(message);
      expect((error as Error).message).not.toContain('short-key');
      expect((error as Error).message).not.toContain(OPS);
    }
  });
});

async function start(env: Record<string, string>) {
  const banner: string[] = [];
  let logs = '';
  const stream = new Writable({ write: (chunk, _e, done) => ((logs += chunk.toString()), done()) });
  const running = await serve(parseServeConfig([], { PORT: '0', ...env }), { logger: pino(stream), banner: (line) => banner.push(line) });
  return { running, banner, logs: () => logs };
}

describe('abkit serve and the admin API', () => {
  const servers: RunningServer[] = [];
  afterAll(() => Promise.all(servers.map((s) => s.close())));

  it('with ABKIT_ADMIN_KEY: /admin/v1 answers the key, audits its name, and the remote-control API takes it', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'abkit-admin-'));
    const { running, banner, logs } = await start({ ABKIT_STORAGE: `sqlite:${join(dir, 'a.db')}`, ABKIT_ADMIN_KEY: `ops=${OPS},ci=${CI}` });
    servers.push(running);
    const call = (method: string, path: string, body?: unknown, key: string | null = OPS) =>
      fetch(`${running.url}${path}`, {
        method,
        headers: { ...(key ? { authorization: `Bearer ${key}` } : {}), 'content-type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
    expect((await call('GET', '/admin/v1/accounts', undefined, null)).status).toBe(401);
    expect((await call('GET', '/admin/v1/accounts', undefined, newAdminKey())).status).toBe(403);
    expect((await call('POST', '/admin/v1/accounts', { id: 'acme' })).status).toBe(201);
    expect((await call('POST', '/admin/v1/accounts/acme/environments', { id: 'prod', default: true }, CI)).status).toBe(201);
    const created = (await (await call('POST', '/admin/v1/accounts/acme/accesses', { name: 'bot', actions: ['panic.write'] })).json()) as {
      clientSecret: string;
    };
    const panic = await call('PUT', '/v1/accounts/acme/environments/prod/panic', { panic: true }, CI);
    expect(panic.status).toBe(200);
    const audit = (await (await call('GET', '/admin/v1/audit')).json()) as { entries: { actor: string; action: string }[] };
    expect(audit.entries.map((e) => `${e.actor} ${e.action}`)).toEqual([
      'ops access.create',
      'ci environment.create',
      'ops account.create',
    ]);
    expect(banner.join('\n')).toContain(`Admin API on ${running.url}/admin/v1 (admin keys: ops, ci)`);
    const openapi = (await (await fetch(`${running.url}/openapi.json`)).json()) as { paths: Record<string, unknown> };
    expect(Object.keys(openapi.paths)).toContain('/admin/v1/accounts/{account}/accesses');
    for (const secret of [OPS, CI, created.clientSecret]) {
      expect(banner.join('\n')).not.toContain(secret);
      expect(logs()).not.toContain(secret);
    }
  });

  it('without it the admin API is off (404) and the banner says how to turn it on', async () => {
    const { running, banner } = await start({ ABKIT_STORAGE: 'memory' });
    servers.push(running);
    const res = await fetch(`${running.url}/admin/v1/accounts`, { headers: { authorization: `Bearer ${OPS}` } });
    expect(res.status).toBe(404);
    const openapi = (await (await fetch(`${running.url}/openapi.json`)).json()) as { paths: Record<string, unknown> };
    expect(Object.keys(openapi.paths).filter((p) => p.startsWith('/admin/'))).toEqual([]);
    expect(banner.join('\n')).toMatch(/Admin API off: set ABKIT_ADMIN_KEY .* \(abkit admin-key prints a fresh one\)/);
    // And the remote-control API takes no admin key.
    const remote = await fetch(`${running.url}/v1/accounts/acme/environments/prod/configuration`, {
      headers: { authorization: `Bearer ${OPS}` },
    });
    expect(remote.status).toBe(401);
  });

  it('a catalog schedule and default environment set through the admin API hold after a restart', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'abkit-admin-'));
    const env = { ABKIT_STORAGE: `sqlite:${join(dir, 'b.db')}`, ABKIT_ADMIN_KEY: OPS };
    const first = await start(env);
    const call = (base: string, method: string, path: string, body?: unknown) =>
      fetch(`${base}${path}`, {
        method,
        headers: { authorization: `Bearer ${OPS}`, 'content-type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
    await call(first.running.url, 'POST', '/admin/v1/accounts', { id: 'acme' });
    await call(first.running.url, 'POST', '/admin/v1/accounts/acme/environments', { id: 'live', default: true });
    await call(first.running.url, 'POST', '/admin/v1/catalogs', { identifier: 'shop', search: { facets: ['brand'] } });
    await first.running.close();
    const second = await start(env);
    servers.push(second.running);
    // The default environment serves /v2/campaigns without an environment in the path.
    const decided = await fetch(`${second.running.url}/v2/campaigns`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"visitor_id":"v1","trigger_hit":false}',
    });
    expect(decided.status).toBe(200);
    expect(await (await call(second.running.url, 'GET', '/admin/v1/catalogs/shop/settings')).json()).toEqual({
      identifier: 'shop',
      syncIntervalMs: null,
      search: { facets: ['brand'] },
    });
  });

  it('the console limits login attempts per client address, read from the socket: one address locked out, another still answered', async () => {
    const { running } = await start({ ABKIT_STORAGE: 'memory', ABKIT_ADMIN_KEY: `ops=${OPS}` });
    servers.push(running);
    const { port } = new URL(running.url);
    // A wrong key from one address, as a form post over a socket bound to it (fetch cannot choose its address).
    const login = (localAddress: string) =>
      new Promise<number>((resolve, reject) => {
        const body = `key=${encodeURIComponent(newAdminKey())}`;
        const req = request(
          {
            host: '127.0.0.1',
            port: Number(port),
            localAddress,
            method: 'POST',
            path: '/console/login',
            headers: { 'content-type': 'application/x-www-form-urlencoded', 'content-length': Buffer.byteLength(body) },
          },
          (res) => {
            res.resume();
            resolve(res.statusCode ?? 0);
          },
        );
        req.on('error', reject);
        req.end(body);
      });
    const first: number[] = [];
    for (let i = 0; i < 10; i++) first.push(await login('127.0.0.2'));
    expect(first.every((status) => status === 401)).toBe(true);
    expect(await login('127.0.0.2')).toBe(429);
    expect(await login('127.0.0.3')).toBe(401);
  });
});
