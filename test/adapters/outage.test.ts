/**
 * A storage outage answers 503 with Retry-After in each interface's error format, and the next
 * request after the store returns succeeds, with no restart (ARCHITECTURE.md, Reliability).
 */
import Database from 'better-sqlite3';
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { sqliteStorage } from '../../adapters/sql/sqlite';
import { memoryStorage, StorageUnavailableError, type Storage } from '../../src/index';
import { dropSchema, postgresAvailable, terminablePostgres, testSchema } from '../helpers/postgres';
import { CATALOG_KEY, ENV, item, stack } from '../helpers/stack';
import { describeIf, itIf, need } from '../helpers/skip';

/** Memory storage whose every store method fails with StorageUnavailableError while `down`. */
function flaky(): { storage: Storage; setDown: (down: boolean) => void } {
  const inner = memoryStorage();
  let down = false;
  const wrap = <T extends object>(store: T): T =>
    new Proxy(store, {
      get(target, name, receiver) {
        const value = Reflect.get(target, name, receiver) as unknown;
        if (typeof value !== 'function') return value;
        return (...args: unknown[]) => {
          if (down) return Promise.reject(new StorageUnavailableError('the test store is unavailable; retry shortly'));
          return (value as (...a: unknown[]) => unknown).apply(target, args);
        };
      },
    });
  const storage = { ...inner } as Storage;
  for (const key of ['environments', 'assignments', 'activations', 'accesses', 'tokens', 'catalogs'] as const) {
    (storage as unknown as Record<string, unknown>)[key] = wrap(inner[key]);
  }
  return { storage, setDown: (d) => (down = d) };
}

describe('storage outage at the HTTP edge', () => {
  it('every interface answers 503 in its own error format with Retry-After, then recovers', async () => {
    const { storage, setDown } = flaky();
    const s = await stack(storage, { refreshIntervalMs: 0 });
    const requests: [string, () => Promise<Response>, (body: Record<string, unknown>) => void][] = [
      [
        'decision',
        () => s.call('POST', '/v2/campaigns', { body: { visitor_id: 'v1', trigger_hit: true, visitor_consent: true } }),
        (b) => expect(b).toEqual({ message: expect.stringMatching(/unavailable/) }),
      ],
      ['token check', () => s.call('GET', `/token?access_token=${s.token}`), (b) => expect(b.error).toBe('temporarily_unavailable')],
      [
        'token issue',
        () =>
          s.call('POST', '/acme/token', {
            body: { grant_type: 'client_credentials', client_id: s.access.clientId, client_secret: s.access.clientSecret },
            headers: { 'content-type': 'application/json' },
          }),
        (b) => expect(b.error).toBe('temporarily_unavailable'),
      ],
      [
        'remote control',
        () => s.call('GET', `${ENV}/configuration`, { token: s.token }),
        (b) => expect(b).toMatchObject({ error: 'storage_unavailable', message: expect.stringMatching(/unavailable/) }),
      ],
      [
        'catalog',
        () => s.call('PUT', '/indexes/catalog/z', { token: CATALOG_KEY, body: item('z') }),
        (b) => expect(b).toMatchObject({ error: 'storage_unavailable' }),
      ],
    ];
    setDown(true);
    for (const [what, send, format] of requests) {
      const res = await send();
      expect(res.status, what).toBe(503);
      expect(res.headers.get('retry-after'), what).toMatch(/^\d+$/);
      expect(res.headers.get('content-type'), what).toBe('application/json');
      format((await res.json()) as Record<string, unknown>);
    }
    expect(s.errors.length).toBe(requests.length);
    expect(s.errors.every((e) => e instanceof StorageUnavailableError)).toBe(true);
    setDown(false);
    for (const [what, send] of requests) expect((await send()).status, what).toBeLessThan(300);
  });
});

describe('SQLite busy', () => {
  it('a write blocked past the busy timeout is a 503; the next one after the lock goes succeeds', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'abkit-busy-')), 'abkit.db');
    const storage = await sqliteStorage({ filename: file, busyTimeoutMs: 50 });
    const s = await stack(storage);
    const other = new Database(file);
    other.exec('BEGIN IMMEDIATE');
    const blocked = await s.call('PUT', `${ENV}/panic`, { token: s.token, body: { panic: true } });
    expect(blocked.status).toBe(503);
    expect(blocked.headers.get('retry-after')).toBe('1');
    expect(((await blocked.json()) as { message: string }).message).toMatch(/SQLite store is unavailable/);
    other.exec('ROLLBACK');
    other.close();
    expect((await s.call('PUT', `${ENV}/panic`, { token: s.token, body: { panic: true } })).status).toBeLessThan(300);
    await storage.close();
  });
});

const pgUp = await postgresAvailable();
describeIf(need(pgUp, 'PostgreSQL at 127.0.0.1:5432 is unreachable'), 'PostgreSQL connection loss', () => {
  const schema = testSchema('outage');
  afterAll(() => dropSchema(schema));

  it('terminating every backend of the pool under load gives 503s, not an exit, and the next requests succeed', async () => {
    const db = await terminablePostgres(schema, 4);
    const s = await stack(db.storage, { refreshIntervalMs: 0 });
    try {
      const statuses: number[] = [];
      let stop = false;
      const load = async () => {
        while (!stop) {
          const res = await s.call('POST', '/v2/campaigns', {
            body: { visitor_id: `v${statuses.length}`, trigger_hit: true, visitor_consent: true },
          });
          statuses.push(res.status);
          if (res.status === 503) expect(res.headers.get('retry-after')).toMatch(/^\d+$/);
        }
      };
      const workers = Array.from({ length: 4 }, load);
      for (let round = 0; round < 5; round++) {
        await new Promise((r) => setTimeout(r, 40));
        await db.terminate();
      }
      // Idle pooled connections die too: give their 'error' events time to fire.
      await new Promise((r) => setTimeout(r, 200));
      stop = true;
      await Promise.all(workers);
      expect(
        statuses.every((x) => x === 200 || x === 503),
        `statuses: ${[...new Set(statuses)]}`,
      ).toBe(true);
      expect(db.unhandled).toEqual([]);
      // Statements in flight when their backend died: the outage was seen, as a 503.
      expect(statuses).toContain(503);
      // Recovery: the very next requests succeed on new connections.
      for (let i = 0; i < 10; i++)
        expect(
          (await s.call('POST', '/v2/campaigns', { body: { visitor_id: `after${i}`, trigger_hit: true, visitor_consent: true } })).status,
        ).toBe(200);
      expect((await s.call('PUT', `${ENV}/panic`, { token: s.token, body: { panic: false } })).status).toBeLessThan(300);
    } finally {
      await db.close();
    }
  });
});

describe('SQLite start-up errors', () => {
  it('a database that cannot be created names the file and the cause', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'abkit-open-'));
    writeFileSync(join(dir, 'file'), 'x');
    const where = join(dir, 'file', 'abkit.db');
    await expect(sqliteStorage({ filename: where })).rejects.toThrow(`cannot open the SQLite database ${JSON.stringify(where)}: E`);
  });

  itIf(need(existsSync('/sys/kernel'), '/sys/kernel is absent'), 'read-only media (sysfs) names the file and the cause', async () => {
    await expect(sqliteStorage({ filename: '/sys/abkit.db' })).rejects.toThrow(
      'cannot open the SQLite database "/sys/abkit.db": SQLITE_CANTOPEN: unable to open database file',
    );
  });
});
