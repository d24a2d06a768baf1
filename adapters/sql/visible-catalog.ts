/**
 * The visible catalog on SQL, moved in pages: a sync copies only the rows written since the last
 * one, and a reader fetches and parses only the rows it does not already hold, both a bounded
 * page per statement with a turn of the event loop in between. better-sqlite3 runs every
 * statement synchronously on the main thread: one statement over 100,000 rows held the event
 * loop for half a second.
 *
 * Every accepted row carries the `revision` (the catalog's `accepted_version`) of the write that
 * produced its body, a visible row the revision of the body it copied, and `catalog_deleted`
 * marks the ids deleted since the last sync. A (catalog, id, revision) names one body forever.
 *
 * @module
 */
import { frozenCopy } from '../../src/freeze';
import { nextTurn, SLICE_OPERATIONS } from '../../src/slices';
import type { CatalogItem } from '../../src/storage/catalog';
import { placeholders, type SqlDriver } from './driver';

/** Ids (or id and revision pairs) read, and rows copied or deleted, by one statement of a sync or a read. */
export const VISIBLE_PAGE_ROWS = 1000;

/**
 * Inside the sync's transaction: applies to the visible rows the deletions and writes made
 * after revision `since`, a page at a time. Deletions go first, so an item deleted and then
 * written again is copied back.
 */
export async function publishChanges(tx: SqlDriver, identifier: string, since: number): Promise<void> {
  for (let after = ''; ; ) {
    const marks = await tx.query<{ id: string }>('SELECT id FROM catalog_deleted WHERE identifier = ? AND id > ? AND revision > ? ORDER BY id LIMIT ?', [identifier, after, since, VISIBLE_PAGE_ROWS]);
    if (marks.length === 0) break;
    const ids = marks.map((m) => m.id);
    await tx.exec(`DELETE FROM catalog_visible WHERE identifier = ? AND id IN (${placeholders(ids.length)})`, [identifier, ...ids]);
    await tx.exec(`DELETE FROM catalog_deleted WHERE identifier = ? AND id IN (${placeholders(ids.length)})`, [identifier, ...ids]);
    after = ids[ids.length - 1]!;
    await nextTurn();
  }
  // Marks at or before `since` were published already (normally none are left).
  await tx.exec('DELETE FROM catalog_deleted WHERE identifier = ?', [identifier]);
  // Keyset pages in (revision, id) order, which the catalog_items_revision index serves as a
  // range (a separate `revision > ?` would make each page scan from the start). Revisions are
  // integers and ids never empty, so rows after (since + 1, '') are those written after `since`.
  let from: readonly [unknown, string] = [since + 1, ''];
  for (;;) {
    const keys = await tx.query<{ revision: unknown; id: string }>(
      'SELECT revision, id FROM catalog_items WHERE identifier = ? AND (revision, id) > (?, ?) ORDER BY revision, id LIMIT ?',
      [identifier, from[0], from[1], VISIBLE_PAGE_ROWS],
    );
    if (keys.length === 0) break;
    const last = keys[keys.length - 1]!;
    await tx.exec(
      'INSERT INTO catalog_visible (identifier, id, body, revision) SELECT identifier, id, body, revision FROM catalog_items ' +
        'WHERE identifier = ? AND (revision, id) > (?, ?) AND (revision, id) <= (?, ?) ' +
        'ON CONFLICT (identifier, id) DO UPDATE SET body = excluded.body, revision = excluded.revision',
      [identifier, from[0], from[1], last.revision, last.id],
    );
    from = [last.revision, last.id];
    await nextTurn();
  }
}

/**
 * Reads the visible items in id order, in keyset pages of {@link VISIBLE_PAGE_ROWS} ids and
 * revisions, giving the event loop a turn after each page and after each
 * {@link SLICE_OPERATIONS} bodies parsed. An item of `reuse` whose revision (as recorded in
 * `revisions` when it was parsed) is the row's is taken as is, neither fetched nor parsed.
 *
 * The statements are separate: a sync committed in between is seen by the pages after it.
 * Returns undefined when a body fetched no longer has the revision listed; the caller compares
 * the visible version before and after to tell whether every page saw the same one.
 */
export async function readVisible(db: SqlDriver, identifier: string, reuse: readonly CatalogItem[], revisions: WeakMap<CatalogItem, number>): Promise<CatalogItem[] | undefined> {
  const items: CatalogItem[] = [];
  let p = 0;
  for (let after = ''; ; ) {
    const keys = await db.query<{ id: string; revision: unknown }>('SELECT id, revision FROM catalog_visible WHERE identifier = ? AND id > ? ORDER BY id LIMIT ?', [identifier, after, VISIBLE_PAGE_ROWS]);
    const missing: { slot: number; id: string; revision: number }[] = [];
    for (const { id, revision } of keys) {
      const r = Number(revision);
      while (p < reuse.length && reuse[p]!.id < id) p++;
      const old = reuse[p];
      if (old !== undefined && old.id === id && revisions.get(old) === r) items.push(old);
      else {
        missing.push({ slot: items.length, id, revision: r });
        items.push(old!); // replaced below
      }
    }
    for (let start = 0; start < missing.length; start += SLICE_OPERATIONS) {
      const part = missing.slice(start, start + SLICE_OPERATIONS);
      const rows = await db.query<{ id: string; body: string; revision: unknown }>(`SELECT id, body, revision FROM catalog_visible WHERE identifier = ? AND id IN (${placeholders(part.length)})`, [
        identifier,
        ...part.map((m) => m.id),
      ]);
      const bodies = new Map(rows.map((r) => [r.id, r]));
      for (const { slot, id, revision } of part) {
        const row = bodies.get(id);
        if (!row || Number(row.revision) !== revision) return undefined;
        const item = frozenCopy(JSON.parse(row.body) as CatalogItem);
        revisions.set(item, revision);
        items[slot] = item;
      }
      await nextTurn();
    }
    if (keys.length < VISIBLE_PAGE_ROWS) break;
    after = keys[keys.length - 1]!.id;
    if (missing.length === 0) await nextTurn();
  }
  return inIdOrder(items);
}

/** The items sorted by id as JavaScript compares strings (a database collation may order them otherwise). */
function inIdOrder(items: CatalogItem[]): CatalogItem[] {
  for (let i = 1; i < items.length; i++) {
    if (items[i - 1]!.id > items[i]!.id) return items.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  }
  return items;
}
