import type { FieldType } from '../../src/model/field-types';
import { ConflictError, NotFoundError } from '../../src/errors';
import { frozenCopy } from '../../src/freeze';
import { nextTurn, SLICE_OPERATIONS } from '../../src/slices';
import type {
  CatalogItem,
  CatalogOperation,
  CatalogRecord,
  CatalogStore,
  FieldClaim,
  SchemaField,
  VisibleCatalog,
} from '../../src/storage/catalog';
import { chunks, placeholders, sliceChunks, turnOnSqlite, valuesList, type Row, type SqlDriver } from './driver';
import { deleteAccepted, detach, pages, publishChanges, readVisible, type VisibleRead } from './visible-catalog';

/** Reads of the visible items tried without a transaction before one is used (see {@link SqlCatalogStore.visibleItems}). */
const OPTIMISTIC_READS = 3;

function catalog(row: Row): CatalogRecord {
  return Object.freeze({
    identifier: row.identifier as string,
    catalogKeyHash: row.catalog_key_hash as string,
    searchKeyHash: row.search_key_hash as string,
    createdAt: Number(row.created_at),
  });
}

function unknownCatalog(identifier: string): NotFoundError {
  return new NotFoundError(`catalog "${identifier}" does not exist`, 'unknown_catalog');
}

/**
 * Catalogs over SQL. A batch is one transaction: field claims first (a unique key on
 * `(identifier, name)` decides concurrent creators), then the net effect of the operations in
 * multi-row statements.
 */
export class SqlCatalogStore implements CatalogStore {
  /**
   * Per catalog and per items list a read returned: the revision of the body each item came
   * from, by position. One entry per read, not per item: a weak map entry per item of a
   * 100,000-item catalog made every full garbage collection pause longer (ephemeron marking and
   * clearing happen in the pause) while two services' indexes were alive.
   */
  readonly #revisions = new Map<string, WeakMap<readonly CatalogItem[], readonly number[]>>();

  constructor(private readonly db: SqlDriver) {}

  /** A key must open one catalog only: neither hash may appear in another catalog, in either column. */
  async #keysFree(tx: SqlDriver, identifier: string, hashes: readonly string[]): Promise<void> {
    const [taken] = await tx.query(
      `SELECT identifier FROM catalogs WHERE identifier <> ? AND (catalog_key_hash IN (${placeholders(hashes.length)}) OR search_key_hash IN (${placeholders(hashes.length)}))`,
      [identifier, ...hashes, ...hashes],
    );
    if (taken) throw new ConflictError('key already in use');
  }

  async createCatalog(record: CatalogRecord): Promise<void> {
    try {
      await this.db.transaction(async (tx) => {
        await this.#keysFree(tx, record.identifier, [record.catalogKeyHash, record.searchKeyHash]);
        await tx.exec('INSERT INTO catalogs (identifier, catalog_key_hash, search_key_hash, created_at) VALUES (?, ?, ?, ?)', [
          record.identifier,
          record.catalogKeyHash,
          record.searchKeyHash,
          record.createdAt,
        ]);
      });
    } catch (error) {
      if (this.db.isUniqueViolation(error)) throw new ConflictError(`catalog "${record.identifier}" or one of its keys exists`);
      throw error;
    }
  }

  async setKeys(identifier: string, keys: { catalogKeyHash: string; searchKeyHash: string }): Promise<void> {
    try {
      await this.db.transaction(async (tx) => {
        await this.#keysFree(tx, identifier, [keys.catalogKeyHash, keys.searchKeyHash]);
        const changed = await tx.exec('UPDATE catalogs SET catalog_key_hash = ?, search_key_hash = ? WHERE identifier = ?', [
          keys.catalogKeyHash,
          keys.searchKeyHash,
          identifier,
        ]);
        if (changed === 0) throw unknownCatalog(identifier);
      });
    } catch (error) {
      if (this.db.isUniqueViolation(error)) throw new ConflictError('key already in use');
      throw error;
    }
  }

  async getCatalog(identifier: string): Promise<CatalogRecord | undefined> {
    const [row] = await this.db.query('SELECT * FROM catalogs WHERE identifier = ?', [identifier]);
    return row && catalog(row);
  }

  async findByKeyHash(hash: string): Promise<{ catalog: CatalogRecord; role: 'catalog' | 'search' } | undefined> {
    const [row] = await this.db.query('SELECT * FROM catalogs WHERE catalog_key_hash = ? OR search_key_hash = ?', [hash, hash]);
    if (!row) return undefined;
    return { catalog: catalog(row), role: row.catalog_key_hash === hash ? 'catalog' : 'search' };
  }

  async listCatalogs(): Promise<CatalogRecord[]> {
    return (await this.db.query('SELECT * FROM catalogs')).map(catalog).sort((a, b) => (a.identifier < b.identifier ? -1 : 1));
  }

  async schema(identifier: string): Promise<SchemaField[]> {
    await this.#require(this.db, identifier);
    const rows = await this.db.query('SELECT name, type, created_at FROM catalog_fields WHERE identifier = ?', [identifier]);
    return rows
      .map((r) => Object.freeze({ name: r.name as string, type: (r.type as FieldType | null) ?? null, createdAt: Number(r.created_at) }))
      .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  }

  async applyBatch(identifier: string, claims: readonly FieldClaim[], operations: readonly CatalogOperation[], now: number): Promise<void> {
    await this.db.transaction(async (tx) => {
      // Locks the catalog row first: writers of one catalog take their locks in one order.
      const revision = await this.#touch(tx, identifier);
      if (claims.length > 0) await this.#claim(tx, identifier, claims, now);
      // The net effect of the operations, in order: the last one on an id wins.
      const last = new Map<string, CatalogItem | null>();
      for (const op of operations) {
        if (op.op === 'put') {
          last.delete(op.item.id);
          last.set(op.item.id, op.item);
        } else {
          last.delete(op.id);
          last.set(op.id, null);
        }
      }
      const deletes = [...last].filter(([, item]) => item === null).map(([id]) => id);
      const puts = [...last.values()].filter((item): item is CatalogItem => item !== null);
      await deleteAccepted(tx, identifier, deletes, revision);
      await upsertItems(tx, identifier, puts, revision);
    });
  }

  async #claim(tx: SqlDriver, identifier: string, unordered: readonly FieldClaim[], now: number): Promise<void> {
    // Every writer locks fields in name order, so two batches claiming the same new fields in
    // different orders cannot deadlock.
    const claims = [...unordered].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    // Create absent fields; an existing row (perhaps just created by another writer) is kept.
    for (const part of chunks(claims, 4, tx)) {
      await tx.exec(
        `INSERT INTO catalog_fields (identifier, name, type, created_at) VALUES ${valuesList(part.length, 4)} ON CONFLICT (identifier, name) DO NOTHING`,
        part.flatMap((c) => [identifier, c.name, c.type, now]),
      );
    }
    const lock = tx.dialect === 'postgres' ? ' ORDER BY name FOR UPDATE' : '';
    const types = new Map<string, FieldType | null>();
    for (const part of chunks(claims, 1, tx)) {
      const rows = await tx.query(
        `SELECT name, type FROM catalog_fields WHERE identifier = ? AND name IN (${placeholders(part.length)})${lock}`,
        [identifier, ...part.map((c) => c.name)],
      );
      for (const r of rows) types.set(r.name as string, (r.type as FieldType | null) ?? null);
    }
    for (const claim of claims) {
      const existing = types.get(claim.name) ?? null;
      if (existing !== null && claim.type !== null && existing !== claim.type) {
        throw new ConflictError(`field ${claim.name} is of type ${existing}, not ${claim.type}`, 'field_type_conflict', [
          { path: [claim.name], message: `is of type ${existing}, not ${claim.type}` },
        ]);
      }
    }
    for (const claim of claims) {
      if (claim.type !== null && types.get(claim.name) === null) {
        await tx.exec('UPDATE catalog_fields SET type = ? WHERE identifier = ? AND name = ? AND type IS NULL', [
          claim.type,
          identifier,
          claim.name,
        ]);
      }
    }
  }

  async deleteAllItems(identifier: string): Promise<number> {
    return this.db.transaction(async (tx) => {
      const revision = await this.#touch(tx, identifier);
      if (tx.dialect === 'sqlite') {
        // A slice at a time (the rows deleted leave the index: the first slice is always next).
        let deleted = 0;
        for (;;) {
          const ids = (
            await tx.query<{ id: string }>('SELECT id FROM catalog_items WHERE identifier = ? LIMIT ?', [identifier, SLICE_OPERATIONS])
          ).map((r) => r.id);
          if (ids.length === 0) return deleted;
          deleted += await deleteAccepted(tx, identifier, ids, revision);
        }
      }
      // PostgreSQL: three statements, which wait on the network, not on the main thread.
      await detach(tx, identifier);
      await tx.exec(
        'INSERT INTO catalog_deleted (identifier, id, revision) SELECT identifier, id, ? FROM catalog_items WHERE identifier = ? ON CONFLICT (identifier, id) DO UPDATE SET revision = excluded.revision',
        [revision, identifier],
      );
      return tx.exec('DELETE FROM catalog_items WHERE identifier = ?', [identifier]);
    });
  }

  async deleteField(identifier: string, name: string): Promise<boolean> {
    return this.db.transaction(async (tx) => {
      await this.#require(tx, identifier);
      const [exists] = await tx.query('SELECT 1 AS ok FROM catalog_fields WHERE identifier = ? AND name = ?', [identifier, name]);
      if (!exists) return false;
      // The catalog row first, as every writer locks it first.
      const revision = await this.#touch(tx, identifier);
      if ((await tx.exec('DELETE FROM catalog_fields WHERE identifier = ? AND name = ?', [identifier, name])) === 0) return false;
      // JSON functions differ between databases and some reorder keys: rewrite in JS, a page at a
      // time (parsing 100,000 bodies in one go held the event loop for seconds).
      for await (const rows of pages<{ id: string; body: string }>(
        tx,
        'id, body',
        'catalog_items',
        'identifier = ?',
        [identifier],
        ['id'],
        [''],
      )) {
        const changed: CatalogItem[] = [];
        for (const { body } of rows) {
          const item = JSON.parse(body) as Record<string, unknown>;
          if (!Object.hasOwn(item, name)) continue;
          delete item[name];
          changed.push(item as CatalogItem);
        }
        await upsertItems(tx, identifier, changed, revision);
        await nextTurn();
      }
      return true;
    });
  }

  async getItem(identifier: string, id: string): Promise<CatalogItem | undefined> {
    await this.#require(this.db, identifier);
    const [row] = await this.db.query<{ body: string }>('SELECT body FROM catalog_items WHERE identifier = ? AND id = ?', [identifier, id]);
    return row && frozenCopy(JSON.parse(row.body) as CatalogItem);
  }

  async countItems(identifier: string): Promise<number> {
    await this.#require(this.db, identifier);
    const [row] = await this.db.query<{ n: number }>('SELECT COUNT(*) AS n FROM catalog_items WHERE identifier = ?', [identifier]);
    return Number(row?.n ?? 0);
  }

  async publish(identifier: string, now: number): Promise<{ version: number; syncedAt: number; count: number }> {
    return this.db.transaction(async (tx) => {
      // Locks the catalog row (PostgreSQL; SQLite's transaction holds the write lock): no write
      // lands between reading `accepted_version` and publishing up to it.
      const lock = tx.dialect === 'postgres' ? ' FOR UPDATE' : '';
      const [row] = await tx.query(
        `SELECT visible_version, synced_at, accepted_version, published_from FROM catalogs WHERE identifier = ?${lock}`,
        [identifier],
      );
      if (!row) throw unknownCatalog(identifier);
      const version = Number(row.visible_version);
      const accepted = Number(row.accepted_version);
      const count = async () =>
        Number((await tx.query<{ n: number }>('SELECT COUNT(*) AS n FROM catalog_visible WHERE identifier = ?', [identifier]))[0]?.n ?? 0);
      // Publish only what changed since the last publication: N instances running the same
      // schedule then publish once, and searches do not rebuild for nothing.
      if (version > 0 && Number(row.published_from) === accepted) return { version, syncedAt: Number(row.synced_at), count: await count() };
      await publishChanges(tx, identifier, Number(row.published_from));
      await tx.exec('UPDATE catalogs SET visible_version = ?, synced_at = ?, published_from = ? WHERE identifier = ?', [
        version + 1,
        now,
        accepted,
        identifier,
      ]);
      return { version: version + 1, syncedAt: now, count: await count() };
    });
  }

  async visibleVersion(identifier: string): Promise<{ version: number; syncedAt: number | null }> {
    const [row] = await this.db.query('SELECT visible_version, synced_at FROM catalogs WHERE identifier = ?', [identifier]);
    if (!row) throw unknownCatalog(identifier);
    return { version: Number(row.visible_version), syncedAt: row.synced_at === null ? null : Number(row.synced_at) };
  }

  /**
   * Read in pages. PostgreSQL: through a cursor in one REPEATABLE READ transaction (a snapshot;
   * it holds one pooled connection meanwhile). SQLite: keyset pages outside any transaction, so
   * that other statements (a decision's, a write's) run on the one connection between pages;
   * the visible version is read before and after, and a sync committed meanwhile (the version
   * moved) makes the read start again; after {@link OPTIMISTIC_READS} such tries the pages are
   * read in one transaction (which holds the connection until done). Either way the items
   * returned are exactly one version's: none lost, none twice, none from another version.
   */
  async visibleItems(identifier: string, reuse: readonly CatalogItem[] = []): Promise<VisibleCatalog> {
    let revisions = this.#revisions.get(identifier);
    if (!revisions) this.#revisions.set(identifier, (revisions = new WeakMap()));
    const known = revisions;
    // Items of a list this store did not return (or a copy of one) are not trusted: read again.
    const previous = { items: reuse, revisions: revisions.get(reuse) ?? [] };
    const result = (version: { version: number; syncedAt: number | null }, read: VisibleRead): VisibleCatalog => {
      const items = Object.freeze(read.items);
      known.set(items, read.revisions);
      return Object.freeze({ ...version, items });
    };
    // PostgreSQL reads through a cursor, in a transaction anyway: its snapshot is the consistency.
    for (let attempt = 0; attempt < OPTIMISTIC_READS && this.db.dialect === 'sqlite'; attempt++) {
      const before = await this.visibleVersion(identifier);
      const read = await readVisible(this.db, identifier, previous);
      const after = await this.visibleVersion(identifier);
      if (read && after.version === before.version) return result(before, read);
    }
    return this.db.transaction(async (tx) => {
      if (tx.dialect === 'postgres') await tx.exec('SET TRANSACTION ISOLATION LEVEL REPEATABLE READ');
      const visible = await this.#visibleVersion(tx, identifier);
      const read = await readVisible(tx, identifier, previous);
      if (!read) throw new Error(`the visible items of catalog "${identifier}" changed within one transaction`);
      return result(visible, read);
    });
  }

  async #visibleVersion(tx: SqlDriver, identifier: string): Promise<{ version: number; syncedAt: number | null }> {
    const [row] = await tx.query('SELECT visible_version, synced_at FROM catalogs WHERE identifier = ?', [identifier]);
    if (!row) throw unknownCatalog(identifier);
    return { version: Number(row.visible_version), syncedAt: row.synced_at === null ? null : Number(row.synced_at) };
  }

  /** Marks the accepted catalog changed (and locks its row until the transaction ends); returns the revision of this write. */
  async #touch(tx: SqlDriver, identifier: string): Promise<number> {
    if ((await tx.exec('UPDATE catalogs SET accepted_version = accepted_version + 1 WHERE identifier = ?', [identifier])) === 0)
      throw unknownCatalog(identifier);
    const [row] = await tx.query('SELECT accepted_version FROM catalogs WHERE identifier = ?', [identifier]);
    return Number(row!.accepted_version);
  }

  async #require(tx: SqlDriver, identifier: string): Promise<void> {
    const [row] = await tx.query('SELECT 1 AS ok FROM catalogs WHERE identifier = ?', [identifier]);
    if (!row) throw unknownCatalog(identifier);
  }
}

async function upsertItems(tx: SqlDriver, identifier: string, items: readonly CatalogItem[], revision: number): Promise<void> {
  // Multi-row statements: a 10,000-operation batch is a handful of round trips (PostgreSQL) or of slices (SQLite), not 10,000.
  for (const part of sliceChunks(items, 4, tx)) {
    // Visible rows sharing the bodies about to change get their own copies first.
    await detach(
      tx,
      identifier,
      part.map((item) => item.id),
    );
    await tx.exec(
      `INSERT INTO catalog_items (identifier, id, body, revision) VALUES ${valuesList(part.length, 4)} ON CONFLICT (identifier, id) DO UPDATE SET body = excluded.body, revision = excluded.revision`,
      part.flatMap((item) => [identifier, item.id, JSON.stringify(item), revision]),
    );
    await turnOnSqlite(tx);
  }
}
