/**
 * Issue #23, stores and edges: concurrent remote-control writes without `If-Match` (memory,
 * SQLite, and PostgreSQL with one instance, then two sharing the schema) all succeed and lose no
 * change, while a stale `If-Match` is still 412; `expires_in` of any length is clamped in one
 * scan of its text.
 *
 * Under CI=true an unreachable PostgreSQL fails this file (postgresAvailable throws); elsewhere
 * its PostgreSQL part skips with a visible message.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { postgresStorage } from '../../adapters/sql/postgres';
import { sqliteStorage } from '../../adapters/sql/sqlite';
import { AccessManager, createHandler, DecisionEngine, memoryStorage, TokenService, type Storage } from '../../src/index';
import { campaign } from '../helpers/configs';
import { dropSchema, POSTGRES_URL, postgresAvailable, testSchema } from '../helpers/postgres';
import { ENV, stack } from '../helpers/stack';

const figures: string[] = [];
afterAll(() => console.log(`\n${figures.join('\n')}\n`));

/** Status → count. */
function tally(statuses: number[]): Record<number, number> {
  const out: Record<number, number> = {};
  for (const s of statuses) out[s] = (out[s] ?? 0) + 1;
  return out;
}

describe('remote-control writes without If-Match in one process', () => {
  const dir = mkdtempSync(join(tmpdir(), 'abkit-stores-edges-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it.each([
    ['memory', () => Promise.resolve(memoryStorage())],
    ['SQLite file', () => sqliteStorage({ filename: join(dir, 'writes.db') })],
  ] as [string, () => Promise<Storage>][])(
    '%s: 50 concurrent campaign PUTs and 50 panic PUTs, every one 200, every campaign kept',
    async (name, open) => {
      const s = await stack(await open());
      try {
        const before = (await s.storage.environments.get('prod'))!;
        const ids = Array.from({ length: 50 }, (_, i) => `n-${i}`);
        const put = (path: string, body: unknown) =>
          s.call('PUT', `${ENV}/${path}`, { token: s.token, body, headers: { 'content-type': 'application/json' } });
        const [puts, panics] = await Promise.all([
          Promise.all(ids.map((id) => put(`campaigns/${id}`, campaign({ id, split: [100] })))),
          Promise.all(Array.from({ length: 50 }, (_, i) => put('panic', { panic: i % 2 === 0 }))),
        ]);
        figures.push(
          `${name}, one process: 50 campaign PUTs ${JSON.stringify(tally(puts.map((r) => r.status)))}, 50 panic PUTs ${JSON.stringify(tally(panics.map((r) => r.status)))}`,
        );
        for (const r of [...puts, ...panics]) expect(r.status).toBe(200);
        const after = (await s.storage.environments.get('prod'))!;
        expect(ids.filter((id) => !after.config.campaigns.some((c) => c.id === id))).toEqual([]);
        expect(after.version).toBe(before.version + 100);
        expect(s.errors).toEqual([]);
      } finally {
        await s.storage.close();
      }
    },
  );
});

describe('expires_in of any length', () => {
  it('a 60,000-digit lifetime in the body and in the query is clamped to the maximum; a 60,000-character non-number is a short 400', async () => {
    const s = await stack();
    const access = await s.accesses.createAccess({ account: 'acme', name: 'edges', actions: ['campaigns.read'] });
    const form = (expiresIn: string) =>
      new URLSearchParams({
        grant_type: 'client_credentials',
        scope: '*',
        client_id: access.clientId,
        client_secret: access.clientSecret,
        expires_in: expiresIn,
      }).toString();
    const post = (body: string, query = '') =>
      s.handler(
        new Request(`http://abkit.test/acme/token${query}`, {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          body,
        }),
      );
    const digits = '9'.repeat(60_000);
    for (const res of [await post(form(digits)), await post(form(''), `?expires_in=${digits}`)]) {
      expect(res.status).toBe(200);
      expect(((await res.json()) as { expires_in: number }).expires_in).toBe(86_400);
    }
    const bad = await post(form(`${digits}x`));
    const text = await bad.text();
    figures.push(
      `expires_in: 60,000 digits clamped to 86400; a 60,001-character non-number answered ${bad.status} in ${text.length} bytes`,
    );
    expect(bad.status).toBe(400);
    expect(text.length).toBeLessThan(300);
  });
});

const pgUp = await postgresAvailable();
describe.skipIf(!pgUp)('remote-control writes without If-Match on PostgreSQL', () => {
  const schema = testSchema('stores_edges');
  afterAll(() => dropSchema(schema));

  it('30 concurrent campaign PUTs and 20 panic PUTs through one instance, then 30 through two instances: every one 200, every campaign kept; a stale If-Match 412', async () => {
    const a = await stack(await postgresStorage({ connectionString: POSTGRES_URL, schema }), { refreshIntervalMs: 0 });
    // A second instance over the same schema: its own pool, engine, token service and handler.
    const storageB = await postgresStorage({ connectionString: POSTGRES_URL, schema });
    const b = createHandler({
      decision: new DecisionEngine({ storage: storageB, defaultEnvironment: 'prod' }),
      access: new TokenService({ storage: storageB, accesses: new AccessManager({ storage: storageB }) }),
    });
    const put = (handler: typeof b, path: string, body: unknown, headers: Record<string, string> = {}) =>
      handler(
        new Request(`http://abkit.test${ENV}/${path}`, {
          method: 'PUT',
          headers: { authorization: `Bearer ${a.token}`, 'content-type': 'application/json', ...headers },
          body: JSON.stringify(body),
        }),
      );
    try {
      const before = (await a.storage.environments.get('prod'))!;
      const one = Array.from({ length: 30 }, (_, i) => `one-${i}`);
      const onePuts = await Promise.all(one.map((id) => put(a.handler, `campaigns/${id}`, campaign({ id, split: [100] }))));
      const panics = await Promise.all(Array.from({ length: 20 }, (_, i) => put(a.handler, 'panic', { panic: i % 2 === 0 })));
      const two = Array.from({ length: 30 }, (_, i) => `two-${i}`);
      const twoPuts = await Promise.all(
        two.map((id, i) => put(i % 2 === 0 ? a.handler : b, `campaigns/${id}`, campaign({ id, split: [100] }))),
      );
      figures.push(
        `PostgreSQL, one instance: 30 campaign PUTs ${JSON.stringify(tally(onePuts.map((r) => r.status)))}, 20 panic PUTs ${JSON.stringify(tally(panics.map((r) => r.status)))}`,
      );
      figures.push(`PostgreSQL, two instances: 30 campaign PUTs ${JSON.stringify(tally(twoPuts.map((r) => r.status)))}`);
      for (const r of [...onePuts, ...panics, ...twoPuts]) expect(r.status, await r.clone().text()).toBe(200);
      const after = (await a.storage.environments.get('prod'))!;
      const kept = new Set(after.config.campaigns.map((c) => c.id));
      expect([...one, ...two].filter((id) => !kept.has(id))).toEqual([]);
      expect(after.version).toBe(before.version + 80);
      const stale = await put(b, 'configuration', { campaigns: [] }, { 'if-match': `"${after.version - 1}"` });
      expect(stale.status).toBe(412);
      expect((await a.storage.environments.get('prod'))!.version).toBe(after.version);
      expect(a.errors).toEqual([]);
    } finally {
      await storageB.close();
      await a.storage.close();
    }
  });
});
