import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { sqliteStorage } from '../../adapters/sql/sqlite';
import { DecisionEngine } from '../../src/index';
import { SLICE_OPERATIONS } from '../../src/slices';
import { runScript } from '../helpers/child-script';
import { countTurns } from '../helpers/turns';
import { runConformance } from './conformance';

const dir = mkdtempSync(join(tmpdir(), 'abkit-sqlite-'));
let n = 0;
afterAll(() => rmSync(dir, { recursive: true, force: true }));

runConformance('sqlite :memory:', () => sqliteStorage({ filename: ':memory:' }));
runConformance('sqlite file', () => sqliteStorage({ filename: join(dir, `conformance-${n++}.db`) }));

describe('visible items of a large catalog', () => {
  it('are parsed in slices, giving the event loop a turn every SLICE_OPERATIONS rows, and come in id order', async () => {
    const storage = await sqliteStorage({ filename: ':memory:' });
    try {
      await storage.catalogs.createCatalog({
        identifier: 'big',
        catalogKeyHash: 'c'.padEnd(64, '0'),
        searchKeyHash: 's'.padEnd(64, '0'),
        createdAt: 1000,
      });
      const N = 4 * SLICE_OPERATIONS + 10;
      const items = Array.from({ length: N }, (_, i) => ({
        id: `i${((N - i) * 7919) % 100_003}`,
        is_recommendable: true,
        name: `Item ${i}`,
        absolute_link: null,
        img_link: null,
        price: i,
        categories_ids: null,
      }));
      await storage.catalogs.applyBatch(
        'big',
        [],
        items.map((item) => ({ op: 'put' as const, item })),
        1,
      );
      await storage.catalogs.publish('big', 2000);
      const turns = countTurns();
      const visible = await storage.catalogs.visibleItems('big');
      expect(turns.stop()).toBeGreaterThanOrEqual(Math.floor(N / SLICE_OPERATIONS));
      expect(visible.items.map((i) => i.id)).toEqual(items.map((i) => i.id).sort());
    } finally {
      await storage.close();
    }
  });
});

describe('SQLite transactions (group commit)', () => {
  async function driverOverMemory() {
    const Database = (await import('better-sqlite3')).default;
    const { SqliteDriver } = await import('../../adapters/sql/sqlite-driver');
    const db = new Database(':memory:');
    db.exec('CREATE TABLE t (k TEXT PRIMARY KEY, v INTEGER)');
    const statements: string[] = [];
    const exec = db.exec.bind(db);
    db.exec = (sql: string) => (statements.push(sql), exec(sql));
    return { driver: new SqliteDriver(db), statements, db };
  }
  const put = (k: string, v: number) => async (tx: import('../../adapters/sql/driver').SqlDriver) => (
    await tx.exec('INSERT INTO t (k, v) VALUES (?, ?)', [k, v]), v
  );

  it('share one commit when asked for in one turn; each answers with its own value after it', async () => {
    const { driver, statements, db } = await driverOverMemory();
    const values = await Promise.all([driver.transaction(put('a', 1)), driver.transaction(put('b', 2)), driver.transaction(put('c', 3))]);
    expect(values).toEqual([1, 2, 3]);
    expect(statements.filter((s) => s === 'COMMIT')).toHaveLength(1);
    await driver.transaction(put('d', 4));
    expect(statements.filter((s) => s === 'COMMIT')).toHaveLength(2);
    expect(db.prepare('SELECT k FROM t ORDER BY k').all()).toEqual(['a', 'b', 'c', 'd'].map((k) => ({ k })));
  });

  it('roll back and reject only the one that fails; the others are committed', async () => {
    const { driver, db } = await driverOverMemory();
    const [first, second, third, fourth] = await Promise.allSettled([
      driver.transaction(put('a', 1)),
      driver.transaction(async (tx) => {
        await tx.exec('INSERT INTO t (k, v) VALUES (?, ?)', ['x', 9]);
        throw new Error('refused');
      }),
      driver.transaction(put('a', 5)),
      driver.transaction(put('b', 2)),
    ]);
    expect(first).toEqual({ status: 'fulfilled', value: 1 });
    expect(second).toMatchObject({ status: 'rejected', reason: { message: 'refused' } });
    expect(third.status).toBe('rejected');
    expect(driver.isUniqueViolation((third as PromiseRejectedResult).reason)).toBe(true);
    expect(fourth).toEqual({ status: 'fulfilled', value: 2 });
    expect(db.prepare('SELECT k, v FROM t ORDER BY k').all()).toEqual([
      { k: 'a', v: 1 },
      { k: 'b', v: 2 },
    ]);
  });

  it('keep the order in which statements were asked for: a read after a write sees it, a write after a read does not join the group before it', async () => {
    const { driver, statements } = await driverOverMemory();
    const write = driver.transaction(put('a', 1));
    const read = driver.query<{ n: number }>('SELECT count(*) AS n FROM t');
    const later = driver.transaction(put('b', 2));
    const readAfter = driver.query<{ n: number }>('SELECT count(*) AS n FROM t');
    await Promise.all([write, later]);
    expect((await read)[0]!.n).toBe(1);
    expect((await readAfter)[0]!.n).toBe(2);
    expect(statements.filter((s) => s === 'COMMIT')).toHaveLength(2);
  });
});

describe('remote-control writes from two processes on one file (issue #23)', () => {
  it('all succeed and lose no change: each process writes one at a time, and retries after the other wrote', async () => {
    const file = join(dir, `two-writers-${n++}.db`);
    const storage = await sqliteStorage({ filename: file });
    await new DecisionEngine({ storage }).load({ campaigns: [] }, { environment: 'prod', account: 'acme' });
    const children = ['a', 'b'].map((prefix) => runScript('test/adapters/remote-writer-child.ts', [file, prefix, '15']));
    try {
      await Promise.all(children.map((c) => c.waitFor(/^READY$/)));
      for (const c of children) c.send('GO');
      const done = await Promise.all(children.map((c) => c.waitFor(/^DONE (\d+) (\d+) (.*)$/)));
      expect(done.map((m) => [m[1], m[2], m[3]])).toEqual([
        ['15', '0', '-'],
        ['15', '0', '-'],
      ]);
      const stored = await storage.environments.get('prod');
      expect(stored?.config.campaigns).toHaveLength(30);
      expect(stored?.version).toBe(31);
    } finally {
      await Promise.all(children.map((c) => c.exited));
      await storage.close();
    }
  });
});
