/**
 * The visible catalog on SQL moves in bounded pages: a sync copies, and a read fetches and
 * parses, at most a page of rows between two turns of the event loop (counted, never timed);
 * a read reuses the items whose rows did not change; and a sync committed during a paged read
 * never yields a mix of versions, a lost item or a duplicate.
 */
import { afterAll, describe, expect, it, vi } from 'vitest';
import { postgresStorage } from '../../adapters/sql/postgres';
import { sqliteStorage } from '../../adapters/sql/sqlite';
import { SqlCatalogStore } from '../../adapters/sql/catalog-store';
import type { Row, SqlDriver } from '../../adapters/sql/driver';
import type { SqlStorage } from '../../adapters/sql/storage';
import { VISIBLE_PAGE_ROWS } from '../../adapters/sql/visible-catalog';
import { CatalogRegistry, SearchService } from '../../src/index';
import { SLICE_OPERATIONS } from '../../src/slices';
import type { CatalogItem } from '../../src/storage/catalog';
import { dropSchema, POSTGRES_URL, postgresAvailable, testSchema } from '../helpers/postgres';
import { itIf, need } from '../helpers/skip';

/** Rows read or changed since the store last gave the event loop a turn, and the most seen in one step. */
const step = vi.hoisted(() => ({ rows: 0, most: 0, changed: 0 }));
vi.mock('../../src/slices', async (importOriginal) => {
  const real = await importOriginal<typeof import('../../src/slices')>();
  return {
    ...real,
    nextTurn: () => {
      step.rows = 0;
      return real.nextTurn();
    },
  };
});

function counted(rows: number): void {
  step.rows += rows;
  step.most = Math.max(step.most, step.rows);
}

/** The driver, counting the rows each statement returns or changes; `onQuery` sees every query and its rows. */
function countingDriver(driver: SqlDriver, onQuery: (sql: string, rows: readonly Row[]) => Promise<void> = async () => {}): SqlDriver {
  const wrap = (d: SqlDriver): SqlDriver => ({
    dialect: d.dialect,
    maxParams: d.maxParams,
    async query<T extends Row>(sql: string, params?: readonly unknown[]) {
      const rows = await d.query<T>(sql, params);
      counted(rows.length);
      await onQuery(sql, rows);
      return rows;
    },
    async exec(sql, params) {
      const changed = await d.exec(sql, params);
      counted(changed);
      step.changed += changed;
      return changed;
    },
    transaction: (fn) => d.transaction((tx) => fn(wrap(tx))),
    isUniqueViolation: (e) => d.isUniqueViolation(e),
    close: () => d.close(),
  });
  return wrap(driver);
}

function item(i: number, name = `Item ${i}`): CatalogItem {
  return {
    id: `i${String(i).padStart(6, '0')}`,
    is_recommendable: true,
    name,
    absolute_link: null,
    img_link: null,
    price: i,
    categories_ids: null,
  };
}

const N = 3 * VISIBLE_PAGE_ROWS + 17;
const pgUp = await postgresAvailable();
const schema = testSchema('paging');
if (pgUp) afterAll(() => dropSchema(schema));

const stores: [string, () => Promise<SqlStorage>][] = [['sqlite', () => sqliteStorage({ filename: ':memory:' })]];
if (pgUp) stores.push(['postgres', () => postgresStorage({ connectionString: POSTGRES_URL, schema })]);
// Without PostgreSQL its suite is not built: say so where the run lists what it skipped.
else it.skip('visible catalog paging: postgres (skipped: PostgreSQL at 127.0.0.1:5432 is unreachable)');

describe.each(stores)('visible catalog paging: %s', (_name, open) => {
  async function withStore(
    run: (store: SqlCatalogStore, storage: SqlStorage, identifier: string) => Promise<void>,
    onQuery?: (sql: string, rows: readonly Row[]) => Promise<void>,
  ): Promise<void> {
    const storage = await open();
    const identifier = `page${Math.random().toString(36).slice(2, 8)}`;
    try {
      await storage.catalogs.createCatalog({
        identifier,
        catalogKeyHash: identifier.padEnd(64, 'c'),
        searchKeyHash: identifier.padEnd(64, 's'),
        createdAt: 1,
      });
      await run(new SqlCatalogStore(countingDriver(storage.driver, onQuery)), storage, identifier);
    } finally {
      await storage.close();
    }
  }

  it('a sync of every item and a full read move at most a page of rows per step', async () => {
    await withStore(async (store, _storage, id) => {
      const items = Array.from({ length: N }, (_, i) => item(i));
      await store.applyBatch(
        id,
        [],
        items.map((it) => ({ op: 'put' as const, item: it })),
        1,
      );
      step.rows = step.most = 0;
      expect((await store.publish(id, 2)).count).toBe(N);
      // A step reads a page of keys and copies those rows (the catalog row, the count: one each).
      expect(step.most).toBeLessThanOrEqual(2 * VISIBLE_PAGE_ROWS + 2);
      step.rows = step.most = 0;
      const visible = await store.visibleItems(id);
      // A step reads a page of ids and revisions and a slice of the bodies they need.
      expect(step.most).toBeLessThanOrEqual(VISIBLE_PAGE_ROWS + SLICE_OPERATIONS + 2);
      expect(visible.items).toEqual(items);
    });
  });

  it('a one-item sync writes a few rows, and a read given the previous items fetches and parses that row only', async () => {
    let bodies = 0;
    await withStore(
      async (store, storage, id) => {
        const items = Array.from({ length: N }, (_, i) => item(i));
        await store.applyBatch(
          id,
          [],
          items.map((it) => ({ op: 'put' as const, item: it })),
          1,
        );
        await store.publish(id, 2);
        const before = await store.visibleItems(id);
        await store.applyBatch(
          id,
          [],
          [
            { op: 'put', item: item(5, 'renamed') },
            { op: 'delete', id: item(7).id },
          ],
          3,
        );
        step.changed = 0;
        await store.publish(id, 4);
        // One row copied, one deleted, its deletion mark cleared, the catalog row updated: not N.
        expect(step.changed).toBeLessThanOrEqual(4);
        bodies = 0;
        const after = await store.visibleItems(id, before.items);
        expect(bodies).toBe(1);
        expect(after.version).toBe(before.version + 1);
        expect(after.items.map((it) => it.id)).toEqual(items.filter((_, i) => i !== 7).map((it) => it.id));
        expect(after.items[5]).toMatchObject({ name: 'renamed' });
        // Every other item is the previous object, as the index build's fast path expects.
        expect(after.items.filter((it) => before.items.includes(it))).toHaveLength(N - 2);
        // Items this store did not parse are not trusted: another store instance reads every body.
        const other = await storage.catalogs.visibleItems(id, after.items);
        expect(other.items.filter((it, k) => it === after.items[k])).toHaveLength(0);
        expect(other.items).toEqual(after.items);
      },
      async (sql, rows) => {
        // The bodies of the rows that changed, fetched by id.
        if (sql.startsWith('SELECT v.id') && sql.includes(' IN (')) bodies += rows.length;
      },
    );
  });

  it('a sync copies no body, and writes after it (put, delete, field deletion, delete-all) stay invisible until the next', async () => {
    await withStore(async (store, storage, id) => {
      const items = Array.from({ length: 20 }, (_, i) => ({ ...item(i), color: 'red' }) as CatalogItem);
      await store.applyBatch(
        id,
        [{ name: 'color', type: 'string' }],
        items.map((it) => ({ op: 'put' as const, item: it })),
        1,
      );
      await store.publish(id, 2);
      const copied = await storage.driver.query<{ n: number }>(
        "SELECT COUNT(*) AS n FROM catalog_visible WHERE identifier = ? AND body <> ''",
        [id],
      );
      expect(Number(copied[0]!.n)).toBe(0);
      const v1 = await store.visibleItems(id);
      expect(v1.items).toEqual(items);
      await store.applyBatch(
        id,
        [],
        [
          { op: 'put', item: { ...items[3]!, name: 'changed' } },
          { op: 'delete', id: items[4]!.id },
        ],
        3,
      );
      await store.deleteField(id, 'color');
      // Read by a fresh store: nothing reused, every body fetched.
      expect((await storage.catalogs.visibleItems(id)).items).toEqual(items);
      await store.publish(id, 4);
      const v2 = (await storage.catalogs.visibleItems(id)).items;
      expect(v2).toHaveLength(19);
      expect(v2.find((it) => it.id === items[3]!.id)).toEqual({ ...item(3), name: 'changed' });
      expect(v2.every((it) => !('color' in it))).toBe(true);
      await store.deleteAllItems(id);
      expect((await storage.catalogs.visibleItems(id)).items).toEqual(v2);
      await store.publish(id, 5);
      expect((await storage.catalogs.visibleItems(id)).items).toEqual([]);
    });
  });

  it('on SQLite a large batch, a field deletion and a delete-all write at most two slices of rows per step', async () => {
    await withStore(async (store, storage, id) => {
      if (storage.driver.dialect !== 'sqlite') return; // PostgreSQL's statements wait on the network
      const items = Array.from({ length: N }, (_, i) => ({ ...item(i), color: 'red' }) as CatalogItem);
      await store.applyBatch(
        id,
        [{ name: 'color', type: 'string' }],
        items.map((it) => ({ op: 'put' as const, item: it })),
        1,
      );
      await store.publish(id, 2);
      const bound = 2 * SLICE_OPERATIONS + 4; // a slice of visible rows detached, the same slice written
      step.rows = step.most = 0;
      await store.applyBatch(
        id,
        [],
        items.map((it) => ({ op: 'put' as const, item: { ...it, name: 'again' } })),
        3,
      );
      expect(step.most).toBeLessThanOrEqual(bound);
      step.rows = step.most = 0;
      await store.deleteField(id, 'color');
      expect(step.most).toBeLessThanOrEqual(bound + SLICE_OPERATIONS); // plus the page of bodies read
      step.rows = step.most = 0;
      expect(await store.deleteAllItems(id)).toBe(N);
      expect(step.most).toBeLessThanOrEqual(bound + SLICE_OPERATIONS); // plus the mark of each row deleted
      expect((await store.visibleItems(id)).items).toHaveLength(N);
    });
  });

  it('a sync committed during a paged read: the read returns one whole version, without loss or duplicates', async () => {
    let interfere: (() => Promise<void>) | undefined;
    await withStore(
      async (store, storage, id) => {
        const items = Array.from({ length: N }, (_, i) => item(i));
        await storage.catalogs.applyBatch(
          id,
          [],
          items.map((it) => ({ op: 'put' as const, item: it })),
          1,
        );
        await storage.catalogs.publish(id, 2);
        const v1 = await storage.catalogs.visibleItems(id);
        // After the reader's first page: delete an item it has read, add one ahead of it and one behind, rename one ahead, publish.
        interfere = async () => {
          interfere = undefined;
          await storage.catalogs.applyBatch(
            id,
            [],
            [
              { op: 'delete', id: item(3).id },
              { op: 'put', item: item(N + 5) },
              { op: 'put', item: { ...item(0), id: 'a-first' } },
              { op: 'put', item: item(N - 2, 'renamed') },
            ],
            3,
          );
          await storage.catalogs.publish(id, 4);
        };
        const read = await store.visibleItems(id);
        expect(interfere).toBeUndefined();
        const v2 = await storage.catalogs.visibleItems(id);
        // SQLite reads again and returns version 2; PostgreSQL's snapshot returns version 1. Never a mix.
        expect(read.version).toBe(storage.driver.dialect === 'sqlite' ? v2.version : v1.version);
        expect(read.items).toEqual(read.version === v1.version ? v1.items : v2.items);
        expect(new Set(read.items.map((it) => it.id)).size).toBe(read.items.length);
      },
      async (sql) => {
        // A page of the read: SQLite's keyset query, PostgreSQL's cursor fetch.
        if (((sql.startsWith('SELECT v.id') && sql.includes('(v.id) >')) || sql.startsWith('FETCH')) && interfere) await interfere();
      },
    );
  });

  it('search during a sync answers from the previous version until the new index is ready', async () => {
    const storage = await open();
    try {
      let duringRead: (() => Promise<void>) | undefined;
      const catalogs = new SqlCatalogStore(
        countingDriver(storage.driver, async (sql) => {
          if (sql.startsWith('SELECT v.id') && duringRead) await duringRead();
        }),
      );
      const { catalog } = await new CatalogRegistry({ storage: { ...storage, catalogs } }).create({
        identifier: `srch${Math.random().toString(36).slice(2, 8)}`,
      });
      await catalog.batch(
        Array.from({ length: 600 }, (_, i) => ({ operation: 'create-replace' as const, product: { ...item(i), name: `Phone case ${i}` } })),
      );
      await catalog.sync();
      const service = new SearchService({ catalog });
      expect((await service.search({ text: 'zqxmarker' })).totalHits).toBe(0);
      await catalog.put({ ...item(42), name: 'Phone case zqxmarker' });
      await catalog.sync();
      // While the new version's changed row is being read, another search is served.
      let meanwhile: number | undefined;
      duringRead = async () => {
        duringRead = undefined;
        meanwhile = (await service.search({ text: 'zqxmarker' })).totalHits;
      };
      const first = await service.search({ text: 'zqxmarker' }); // notices the new version: reads and builds
      expect(meanwhile).toBe(0);
      expect(first.hits.map((h) => h.id)).toEqual([item(42).id]);
    } finally {
      await storage.close();
    }
  });
});

/** Ids that an en_US collation orders otherwise than JavaScript: A, a_b, a-b, aB (JavaScript: A, a-b, aB, a_b). */
const COLLATED_IDS = ['a-b', 'aB', 'a_b', 'A', 'b', 'a'];

/** A collation of the server that orders {@link COLLATED_IDS} otherwise than JavaScript, or undefined. */
async function otherCollation(): Promise<string | undefined> {
  const pg = (await import('pg')).default;
  const client = new pg.Client({ connectionString: POSTGRES_URL });
  await client.connect();
  try {
    const { rows } = await client.query<{ collname: string }>(
      "SELECT collname FROM pg_collation WHERE collname IN ('en_US.utf8', 'en_US.UTF-8', 'en_US', 'en-US-x-icu', 'en-x-icu', 'und-x-icu') ORDER BY collname",
    );
    const js = [...COLLATED_IDS].sort();
    for (const { collname } of rows) {
      const ordered = await client.query<{ id: string }>(`SELECT id FROM unnest($1::text[]) AS t(id) ORDER BY id COLLATE "${collname}"`, [
        COLLATED_IDS,
      ]);
      if (ordered.rows.some((r, k) => r.id !== js[k])) return collname;
    }
    return undefined;
  } finally {
    await client.end();
  }
}

const collation = pgUp ? await otherCollation() : undefined;
if (pgUp && !collation)
  console.warn(
    '\n*** SKIPPING the PostgreSQL collation test: the server has no en_US or ICU collation ordering ids otherwise than JavaScript ***\n',
  );
const collationSchema = testSchema('collation');
if (collation) afterAll(() => dropSchema(collationSchema));

describe('visible catalog paging: postgres, ids in a database collation other than JavaScript order', () => {
  itIf(
    need(
      collation !== undefined,
      pgUp
        ? 'the server has no en_US or ICU collation ordering ids otherwise than JavaScript'
        : 'PostgreSQL at 127.0.0.1:5432 is unreachable',
    ),
    'a read given the previous items reuses every unchanged one and returns JavaScript order',
    async () => {
      const storage = await postgresStorage({ connectionString: POSTGRES_URL, schema: collationSchema });
      let bodies = 0;
      try {
        // As in a database created with that collation: the id columns order by it.
        for (const table of ['catalog_items', 'catalog_visible', 'catalog_deleted']) {
          await storage.driver.exec(`ALTER TABLE ${table} ALTER COLUMN id TYPE TEXT COLLATE "${collation}"`);
        }
        const store = new SqlCatalogStore(
          countingDriver(storage.driver, async (sql, rows) => {
            if (sql.startsWith('SELECT v.id') && sql.includes(' IN (')) bodies += rows.length;
          }),
        );
        const id = 'collated';
        await store.createCatalog({ identifier: id, catalogKeyHash: id.padEnd(64, 'c'), searchKeyHash: id.padEnd(64, 's'), createdAt: 1 });
        const items = COLLATED_IDS.map((k, i) => ({ ...item(i), id: k }));
        await store.applyBatch(
          id,
          [],
          items.map((it) => ({ op: 'put' as const, item: it })),
          1,
        );
        await store.publish(id, 2);
        const before = await store.visibleItems(id);
        expect(before.items.map((it) => it.id)).toEqual([...COLLATED_IDS].sort());
        await store.applyBatch(id, [], [{ op: 'put', item: { ...item(9), id: 'b' } }], 3);
        await store.publish(id, 4);
        bodies = 0;
        const after = await store.visibleItems(id, before.items);
        expect(after.items.map((it) => it.id)).toEqual([...COLLATED_IDS].sort());
        // Only the changed item was fetched and parsed; every other one is the previous object.
        expect(bodies).toBe(1);
        expect(after.items.filter((it, k) => it === before.items[k]).map((it) => it.id)).toEqual(['A', 'a', 'a-b', 'aB', 'a_b']);
      } finally {
        await storage.close();
      }
    },
  );
});

describe('upgrading a SQLite database from schema 4', () => {
  it('publishes the changes accepted before the upgrade (writes and deletions), then only later ones', async () => {
    const Database = (await import('better-sqlite3')).default;
    const { SqliteDriver } = await import('../../adapters/sql/sqlite-driver');
    const { migrate } = await import('../../adapters/sql/migrations');
    const driver = new SqliteDriver(new Database(':memory:'));
    try {
      await migrate(driver, 4);
      // As schema 4 left it: version 1 published a, b, d; then a was changed, c added, d deleted.
      const body = (id: string, name: string) => JSON.stringify({ ...item(0), id, name });
      await driver.exec(
        "INSERT INTO catalogs (identifier, catalog_key_hash, search_key_hash, created_at, visible_version, synced_at, accepted_version, published_from) VALUES ('old', 'c', 's', 1, 1, 1, 3, 1)",
      );
      for (const [id, name] of [
        ['a', 'A2'],
        ['b', 'B'],
        ['c', 'C'],
      ])
        await driver.exec("INSERT INTO catalog_items (identifier, id, body) VALUES ('old', ?, ?)", [id, body(id!, name!)]);
      for (const [id, name] of [
        ['a', 'A1'],
        ['b', 'B'],
        ['d', 'D'],
      ])
        await driver.exec("INSERT INTO catalog_visible (identifier, id, body) VALUES ('old', ?, ?)", [id, body(id!, name!)]);
      expect(await migrate(driver, 5)).toEqual([5]);
      const store = new SqlCatalogStore(driver);
      expect((await store.visibleItems('old')).items.map((it) => `${it.id}:${String(it.name)}`)).toEqual(['a:A1', 'b:B', 'd:D']);
      await store.publish('old', 2);
      const v2 = await store.visibleItems('old');
      expect(v2.items.map((it) => `${it.id}:${String(it.name)}`)).toEqual(['a:A2', 'b:B', 'c:C']);
      await store.applyBatch('old', [], [{ op: 'put', item: { ...item(0), id: 'b', name: 'B2' } }], 3);
      await store.publish('old', 4);
      const v3 = await store.visibleItems('old', v2.items);
      expect(v3.items.map((it) => `${it.id}:${String(it.name)}`)).toEqual(['a:A2', 'b:B2', 'c:C']);
      expect(v3.items[0]).toBe(v2.items[0]);
    } finally {
      await driver.close();
    }
  });
});
