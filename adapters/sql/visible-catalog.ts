/**
 * The visible catalog on SQL, moved in pages: a sync copies only the rows written since the last
 * one, and a reader fetches and parses only the rows it does not already hold, both a bounded
 * page per statement with a turn of the event loop in between. better-sqlite3 runs every
 * statement synchronously on the main thread: one statement over 100,000 rows held the event
 * loop for half a second.
 *
 * Every accepted row carries the `revision` (the catalog's `accepted_version`) of the write that
 * produced its body, a visible row the revision of the body it shows, and `catalog_deleted`
 * marks the ids deleted since the last sync. A (catalog, id, revision) names one body forever.
 *
 * A sync copies no body: a visible row whose body is {@link SHARED_BODY} shows the accepted
 * row's, which has the same revision. Before a write changes or deletes an accepted row, it
 * gives the visible row its own copy ({@link detach}), in the write's transaction. A sync of
 * 100,000 items thus writes a few megabytes, not the whole catalog again (whose commit and WAL
 * checkpoint alone held SQLite's caller for a quarter of a second).
 *
 * @module
 */
import { frozenCopy } from '../../src/freeze';
import { nextTurn, SLICE_OPERATIONS } from '../../src/slices';
import type { CatalogItem } from '../../src/storage/catalog';
import { placeholders, sliceChunks, turnOnSqlite, valuesList, type Row, type SqlDriver } from './driver';

/**
 * Rows read, copied or deleted by one statement of a sync or a read. A page of 1,000 copied rows
 * cost SQLite 15–38 ms of CPU (LOADED) within a 100,000-item sync; a quarter of that leaves room.
 */
export const VISIBLE_PAGE_ROWS = SLICE_OPERATIONS;

/** The body of a visible row that shows its accepted row's body (a stored body is a JSON object, never empty). */
const SHARED_BODY = '';

/** Joins a visible row `v` to the accepted row `i` whose body it may share (same id and revision). */
const SHARING = 'LEFT JOIN catalog_items i ON i.identifier = v.identifier AND i.id = v.id AND i.revision = v.revision';

/** A visible row's body, its own or its accepted row's (null when neither: the rows moved on meanwhile). */
const BODY = `CASE WHEN v.body = '${SHARED_BODY}' THEN i.body ELSE v.body END`;

/**
 * Inside a write's transaction, before it changes or deletes the accepted rows of `ids` (every
 * row when undefined): visible rows still showing those rows' bodies get a copy of their own.
 */
export async function detach(tx: SqlDriver, identifier: string, ids?: readonly string[]): Promise<void> {
  const copy = `UPDATE catalog_visible SET body = (SELECT i.body FROM catalog_items i WHERE i.identifier = catalog_visible.identifier AND i.id = catalog_visible.id) WHERE identifier = ? AND body = '${SHARED_BODY}'`;
  if (ids === undefined) {
    await tx.exec(copy, [identifier]);
    return;
  }
  for (const part of sliceChunks(ids, 1, tx)) {
    await tx.exec(`${copy} AND id IN (${placeholders(part.length)})`, [identifier, ...part]);
    await turnOnSqlite(tx);
  }
}

/**
 * Inside a write's transaction: deletes the accepted rows of `ids`, marking them deleted for the
 * next sync (visible rows sharing their bodies get their own copies first).
 */
export async function deleteAccepted(tx: SqlDriver, identifier: string, ids: readonly string[], revision: number): Promise<number> {
  await detach(tx, identifier, ids);
  let deleted = 0;
  for (const part of sliceChunks(ids, 3, tx)) {
    deleted += await tx.exec(`DELETE FROM catalog_items WHERE identifier = ? AND id IN (${placeholders(part.length)})`, [
      identifier,
      ...part,
    ]);
    await tx.exec(
      `INSERT INTO catalog_deleted (identifier, id, revision) VALUES ${valuesList(part.length, 3)} ON CONFLICT (identifier, id) DO UPDATE SET revision = excluded.revision`,
      part.flatMap((id) => [identifier, id, revision]),
    );
    await turnOnSqlite(tx);
  }
  return deleted;
}

let cursors = 0;

/**
 * The rows of `SELECT columns FROM table WHERE where` ordered by `order` and after `start` in
 * that order, a page of {@link VISIBLE_PAGE_ROWS} at a time. SQLite: keyset pages, each a range
 * of the index that orders them. PostgreSQL (inside a transaction): one cursor, so the rows are
 * found and ordered once whatever plan the statistics suggest; right after a bulk load they are
 * stale, and each keyset page was planned as a scan and sort of every remaining row.
 */
export async function* pages<T extends Row>(
  db: SqlDriver,
  columns: string,
  table: string,
  where: string,
  params: readonly unknown[],
  order: readonly string[],
  start: readonly unknown[],
): AsyncGenerator<T[]> {
  const after = `(${order.join(', ')}) > (${placeholders(order.length)})`;
  const select = `SELECT ${columns} FROM ${table} WHERE ${where} AND ${after} ORDER BY ${order.join(', ')}`;
  if (db.dialect === 'postgres') {
    const name = `abkit_pages_${++cursors}`;
    await db.exec(`DECLARE ${name} NO SCROLL CURSOR FOR ${select}`, [...params, ...start]);
    try {
      for (;;) {
        const rows = await db.query<T>(`FETCH ${VISIBLE_PAGE_ROWS} FROM ${name}`);
        if (rows.length > 0) yield rows;
        if (rows.length < VISIBLE_PAGE_ROWS) return;
      }
    } finally {
      // Ends with the transaction anyway; closed early when the reader stops.
      await db.exec(`CLOSE ${name}`).catch(() => undefined);
    }
  }
  for (let at = start; ; ) {
    const rows = await db.query<T>(`${select} LIMIT ?`, [...params, ...at, VISIBLE_PAGE_ROWS]);
    if (rows.length > 0) yield rows;
    if (rows.length < VISIBLE_PAGE_ROWS) return;
    const last = rows[rows.length - 1]!;
    // A row names its columns without the table alias.
    at = order.map((column) => last[column.slice(column.indexOf('.') + 1)]);
  }
}

/**
 * Inside the sync's transaction: applies to the visible rows the deletions and writes made
 * after revision `since`, a page at a time. Deletions go first, so an item deleted and then
 * written again is copied back.
 */
export async function publishChanges(tx: SqlDriver, identifier: string, since: number): Promise<void> {
  for await (const marks of pages<{ id: string }>(
    tx,
    'id',
    'catalog_deleted',
    'identifier = ? AND revision > ?',
    [identifier, since],
    ['id'],
    [''],
  )) {
    const ids = marks.map((m) => m.id);
    await tx.exec(`DELETE FROM catalog_visible WHERE identifier = ? AND id IN (${placeholders(ids.length)})`, [identifier, ...ids]);
    await tx.exec(`DELETE FROM catalog_deleted WHERE identifier = ? AND id IN (${placeholders(ids.length)})`, [identifier, ...ids]);
    await nextTurn();
  }
  // Marks at or before `since` were published already (normally none are left).
  await tx.exec('DELETE FROM catalog_deleted WHERE identifier = ?', [identifier]);
  // In (revision, id) order, which the catalog_items_revision index serves as one range (a
  // separate `revision > ?` would make each SQLite page scan from the start). Revisions are
  // integers and ids never empty: the rows after (since + 1, '') are those written after `since`.
  for await (const keys of pages<{ revision: unknown; id: string }>(
    tx,
    'revision, id',
    'catalog_items',
    'identifier = ?',
    [identifier],
    ['revision', 'id'],
    [since + 1, ''],
  )) {
    // The page as a range of the same index: an id list let SQLite's planner scan every key of the catalog per page.
    const first = keys[0]!;
    const last = keys[keys.length - 1]!;
    await tx.exec(
      `INSERT INTO catalog_visible (identifier, id, body, revision) SELECT identifier, id, '${SHARED_BODY}', revision FROM catalog_items ` +
        'WHERE identifier = ? AND (revision, id) >= (?, ?) AND (revision, id) <= (?, ?) ON CONFLICT (identifier, id) DO UPDATE SET body = excluded.body, revision = excluded.revision',
      [identifier, first.revision, first.id, last.revision, last.id],
    );
    await nextTurn();
  }
}

/** Visible items in id order, and the revision of the body each was parsed from, by position. */
export interface VisibleRead {
  readonly items: CatalogItem[];
  readonly revisions: number[];
}

/**
 * Reads the visible items in id order, in pages of {@link VISIBLE_PAGE_ROWS} ids and
 * revisions (on PostgreSQL, inside a transaction), giving the event loop a turn after each page and after each
 * {@link SLICE_OPERATIONS} bodies parsed. An item of `previous` whose revision (as recorded
 * beside it when it was parsed) is the row's is taken as is, neither fetched nor parsed.
 *
 * Outside a transaction the statements are separate: a sync committed in between is seen by the
 * pages after it. Returns undefined when a body fetched no longer has the revision listed; the caller compares
 * the visible version before and after to tell whether every page saw the same one.
 */
export async function readVisible(
  db: SqlDriver,
  identifier: string,
  previous: { items: readonly CatalogItem[]; revisions: readonly number[] },
): Promise<VisibleRead | undefined> {
  const { items: reuse, revisions: reused } = previous;
  // With nothing to reuse the pages carry the bodies; otherwise bodies are fetched for the rows that changed only.
  const withBodies = reused.length === 0;
  const items: CatalogItem[] = [];
  const revisions: number[] = [];
  let p = 0;
  for await (const keys of pages<{ id: string; revision: unknown; body?: string | null }>(
    db,
    withBodies ? `v.id, v.revision, ${BODY} AS body` : 'v.id, v.revision',
    withBodies ? `catalog_visible v ${SHARING}` : 'catalog_visible v',
    'v.identifier = ?',
    [identifier],
    [db.dialect === 'postgres' ? `v.id COLLATE "C"` : 'v.id'],
    [''],
  )) {
    const missing: { slot: number; id: string; revision: number; body?: string | null }[] = [];
    for (const { id, revision, body } of keys) {
      const r = Number(revision);
      while (p < reused.length && reuse[p]!.id < id) p++;
      const old = reuse[p];
      revisions.push(r);
      if (p < reused.length && old!.id === id && reused[p] === r) items.push(old!);
      else {
        missing.push({ slot: items.length, id, revision: r, body });
        items.push(old!); // replaced below
      }
    }
    for (let start = 0; start < missing.length; start += SLICE_OPERATIONS) {
      const part = missing.slice(start, start + SLICE_OPERATIONS);
      // One statement: the visible row and the accepted row it may share a body with, as of one moment.
      const fetched = withBodies
        ? undefined
        : await db.query<{ id: string; body: string | null; revision: unknown }>(
            `SELECT v.id, ${BODY} AS body, v.revision FROM catalog_visible v ${SHARING} WHERE v.identifier = ? AND v.id IN (${placeholders(part.length)})`,
            [identifier, ...part.map((m) => m.id)],
          );
      const bodies = fetched && new Map(fetched.map((r) => [r.id, r]));
      for (const wanted of part) {
        const row = bodies ? bodies.get(wanted.id) : wanted;
        if (!row || typeof row.body !== 'string' || Number(row.revision) !== wanted.revision) return undefined;
        items[wanted.slot] = frozenCopy(JSON.parse(row.body) as CatalogItem);
      }
      await nextTurn();
    }
    if (missing.length === 0) await nextTurn();
  }
  return inIdOrder({ items, revisions });
}

/**
 * The items sorted by id as JavaScript compares strings. The pages come in byte order (SQLite's
 * BINARY, PostgreSQL's `COLLATE "C"`; a database's own collation, such as en_US, orders
 * `a-b`, `aB`, `a_b` otherwise and made the reuse walk above miss every item out of place),
 * which differs from JavaScript's UTF-16 order only between characters above U+FFFF and those
 * from U+E000 to U+FFFF: then one sort here.
 */
function inIdOrder(read: VisibleRead): VisibleRead {
  const { items, revisions } = read;
  for (let i = 1; i < items.length; i++) {
    if (items[i - 1]!.id > items[i]!.id) {
      const order = items.map((_, k) => k).sort((a, b) => (items[a]!.id < items[b]!.id ? -1 : items[a]!.id > items[b]!.id ? 1 : 0));
      return { items: order.map((k) => items[k]!), revisions: order.map((k) => revisions[k]!) };
    }
  }
  return read;
}
