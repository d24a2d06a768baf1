import type {
  DayRange,
  EpochDay,
  ItemCounts,
  QueryCounts,
  QueryItemCounts,
  SearchAnalyticsStore,
  SearchAnalyticsWrite,
  TrackedSearch,
} from '../../src/storage/search-analytics';
import { chunks, placeholders, type Row, type SqlDriver, valuesList } from './driver';

/** One rollup table: its key columns (after catalog and day) and its count columns with the field each holds. */
interface Rollup {
  readonly table: string;
  readonly keys: readonly string[];
  readonly counts: readonly (readonly [column: string, field: string])[];
}

const QUERY_DAYS: Rollup = {
  table: 'search_query_days',
  keys: ['query'],
  counts: [
    ['searches', 'searches'],
    ['tracked', 'tracked'],
    ['zero_results', 'zeroResults'],
    ['clicks', 'clicks'],
    ['click_positions', 'clickPositions'],
    ['conversions', 'conversions'],
    ['latency_ms', 'latencyMs'],
  ],
};
const ITEM_DAYS: Rollup = {
  table: 'search_item_days',
  keys: ['item_id'],
  counts: [
    ['clicks', 'clicks'],
    ['conversions', 'conversions'],
    ['views', 'views'],
    ['purchases', 'purchases'],
    ['pageviews', 'pageviews'],
  ],
};
const QUERY_ITEM_DAYS: Rollup = {
  table: 'search_query_item_days',
  keys: ['query', 'item_id'],
  counts: [
    ['clicks', 'clicks'],
    ['examined', 'examined'],
    ['conversions', 'conversions'],
  ],
};
const FILTER_DAYS: Rollup = { table: 'search_filter_days', keys: ['field'], counts: [['searches', 'searches']] };

/** Adds each row's counts to its key's, inserting the keys not there yet. */
async function upsert(tx: SqlDriver, rollup: Rollup, rows: readonly { catalog: string; day: number; keys: string[]; counts: object }[]) {
  const columns = ['catalog', 'day', ...rollup.keys, ...rollup.counts.map(([c]) => c)];
  const sums = rollup.counts.map(([c]) => `${c} = ${rollup.table}.${c} + excluded.${c}`).join(', ');
  for (const part of chunks(rows, columns.length, tx)) {
    await tx.exec(
      `INSERT INTO ${rollup.table} (${columns.join(', ')}) VALUES ${valuesList(part.length, columns.length)} ON CONFLICT (${['catalog', 'day', ...rollup.keys].join(', ')}) DO UPDATE SET ${sums}`,
      part.flatMap((r) => [r.catalog, r.day, ...r.keys, ...rollup.counts.map(([, f]) => (r.counts as Record<string, number>)[f] ?? 0)]),
    );
  }
}

/** `SUM(clicks) AS clicks, …`: the rollup's counts summed, named by their fields. */
function summed(rollup: Rollup): string {
  return rollup.counts.map(([c, f]) => `SUM(${c}) AS "${f}"`).join(', ');
}

/** A row's counts as numbers (PostgreSQL gives sums of BIGINT as strings). */
function counts<T>(rollup: Rollup, row: Row): T {
  const out: Record<string, number> = {};
  for (const [, f] of rollup.counts) out[f] = Number(row[f] ?? 0);
  return out as T;
}

function tracked(row: Row): TrackedSearch {
  return Object.freeze({
    queryId: row.query_id as string,
    catalog: row.catalog as string,
    query: row.query as string,
    hits: Object.freeze(JSON.parse(row.hits as string) as string[]),
    offset: Number(row.hit_offset),
    visitorId: (row.visitor_id as string | null) ?? null,
    time: Number(row.time),
  });
}

/**
 * Search analytics over SQL: three rollup tables keyed by (catalog, day, key) whose counts a
 * write adds to (`ON CONFLICT … DO UPDATE`, so processes sharing a database add up), and the
 * registry of tracked searches.
 */
export class SqlSearchAnalyticsStore implements SearchAnalyticsStore {
  constructor(private readonly db: SqlDriver) {}

  /** Text ordered as JavaScript orders it (PostgreSQL's database collation may not). */
  #bytes(column: string): string {
    return this.db.dialect === 'postgres' ? `${column} COLLATE "C"` : column;
  }

  async write(write: SearchAnalyticsWrite): Promise<void> {
    await this.db.transaction(async (tx) => {
      await upsert(
        tx,
        QUERY_DAYS,
        write.queries.map((r) => ({ catalog: r.catalog, day: r.day, keys: [r.query], counts: r.counts })),
      );
      await upsert(
        tx,
        ITEM_DAYS,
        write.items.map((r) => ({ catalog: r.catalog, day: r.day, keys: [r.itemId], counts: r.counts })),
      );
      await upsert(
        tx,
        QUERY_ITEM_DAYS,
        write.queryItems.map((r) => ({ catalog: r.catalog, day: r.day, keys: [r.query, r.itemId], counts: r.counts })),
      );
      await upsert(
        tx,
        FILTER_DAYS,
        write.filters.map((r) => ({ catalog: r.catalog, day: r.day, keys: [r.field], counts: r })),
      );
      for (const part of chunks(write.searches, 7, tx)) {
        await tx.exec(
          `INSERT INTO search_queries (query_id, catalog, query, hits, hit_offset, visitor_id, time) VALUES ${valuesList(part.length, 7)} ON CONFLICT (query_id) DO NOTHING`,
          part.flatMap((s) => [s.queryId, s.catalog, s.query, JSON.stringify(s.hits), s.offset, s.visitorId, s.time]),
        );
      }
    });
  }

  async lookup(catalog: string, queryIds: readonly string[]): Promise<Map<string, TrackedSearch>> {
    const out = new Map<string, TrackedSearch>();
    // Two columns a row: room for the catalog's parameter besides the ids.
    for (const part of chunks(queryIds, 2, this.db)) {
      const rows = await this.db.query(`SELECT * FROM search_queries WHERE catalog = ? AND query_id IN (${placeholders(part.length)})`, [
        catalog,
        ...part,
      ]);
      for (const row of rows) out.set(row.query_id as string, tracked(row));
    }
    return out;
  }

  async days(range: DayRange): Promise<(QueryCounts & { readonly day: EpochDay })[]> {
    const rows = await this.db.query(
      `SELECT day, ${summed(QUERY_DAYS)} FROM search_query_days WHERE catalog = ? AND day BETWEEN ? AND ? GROUP BY day ORDER BY day`,
      [range.catalog, range.since, range.until],
    );
    return rows.map((row) => ({ ...counts<QueryCounts>(QUERY_DAYS, row), day: Number(row.day) }));
  }

  async queries(range: DayRange, order: 'searches' | 'zeroResults', limit: number): Promise<(QueryCounts & { readonly query: string })[]> {
    const column = order === 'searches' ? 'searches' : 'zero_results';
    const rows = await this.db.query(
      `SELECT query, ${summed(QUERY_DAYS)} FROM search_query_days WHERE catalog = ? AND day BETWEEN ? AND ? GROUP BY query
       ${order === 'zeroResults' ? 'HAVING SUM(zero_results) > 0' : ''} ORDER BY SUM(${column}) DESC, ${this.#bytes('query')} LIMIT ?`,
      [range.catalog, range.since, range.until, limit],
    );
    return rows.map((row) => ({ ...counts<QueryCounts>(QUERY_DAYS, row), query: row.query as string }));
  }

  async filters(range: DayRange, limit: number): Promise<{ readonly field: string; readonly searches: number }[]> {
    const rows = await this.db.query(
      `SELECT field, SUM(searches) AS searches FROM search_filter_days WHERE catalog = ? AND day BETWEEN ? AND ? GROUP BY field
       ORDER BY SUM(searches) DESC, ${this.#bytes('field')} LIMIT ?`,
      [range.catalog, range.since, range.until, limit],
    );
    return rows.map((row) => ({ field: row.field as string, searches: Number(row.searches) }));
  }

  async items(range: DayRange, limit: number): Promise<(ItemCounts & { readonly itemId: string })[]> {
    const rows = await this.db.query(
      `SELECT item_id, ${summed(ITEM_DAYS)} FROM search_item_days WHERE catalog = ? AND day BETWEEN ? AND ? GROUP BY item_id
       HAVING SUM(clicks) > 0 OR SUM(conversions) > 0 ORDER BY SUM(clicks) DESC, SUM(conversions) DESC, ${this.#bytes('item_id')} LIMIT ?`,
      [range.catalog, range.since, range.until, limit],
    );
    return rows.map((row) => ({ ...counts<ItemCounts>(ITEM_DAYS, row), itemId: row.item_id as string }));
  }

  async itemDays(range: DayRange, limit: number): Promise<(ItemCounts & { readonly day: EpochDay; readonly itemId: string })[]> {
    const rows = await this.db.query(
      `SELECT day, item_id, ${ITEM_DAYS.counts.map(([c, f]) => `${c} AS "${f}"`).join(', ')} FROM search_item_days
       WHERE catalog = ? AND day BETWEEN ? AND ? ORDER BY day DESC, ${this.#bytes('item_id')} LIMIT ?`,
      [range.catalog, range.since, range.until, limit],
    );
    return rows.map((row) => ({ ...counts<ItemCounts>(ITEM_DAYS, row), day: Number(row.day), itemId: row.item_id as string }));
  }

  async queryItems(range: DayRange, limit: number): Promise<(QueryItemCounts & { readonly query: string; readonly itemId: string })[]> {
    const rows = await this.db.query(
      `SELECT query, item_id, ${summed(QUERY_ITEM_DAYS)} FROM search_query_item_days WHERE catalog = ? AND day BETWEEN ? AND ?
       GROUP BY query, item_id ORDER BY SUM(examined) DESC, ${this.#bytes('query')}, ${this.#bytes('item_id')} LIMIT ?`,
      [range.catalog, range.since, range.until, limit],
    );
    return rows.map((row) => ({
      ...counts<QueryItemCounts>(QUERY_ITEM_DAYS, row),
      query: row.query as string,
      itemId: row.item_id as string,
    }));
  }

  async purge(options: { beforeDay: EpochDay; beforeTime: number; maxSearches: number }): Promise<void> {
    for (const table of [QUERY_DAYS.table, ITEM_DAYS.table, QUERY_ITEM_DAYS.table, FILTER_DAYS.table]) {
      await this.db.exec(`DELETE FROM ${table} WHERE day < ?`, [options.beforeDay]);
    }
    await this.db.exec('DELETE FROM search_queries WHERE time < ?', [options.beforeTime]);
    const over = await this.db.query('SELECT catalog, COUNT(*) AS n FROM search_queries GROUP BY catalog HAVING COUNT(*) > ?', [
      options.maxSearches,
    ]);
    for (const row of over) {
      await this.db.exec(
        'DELETE FROM search_queries WHERE query_id IN (SELECT query_id FROM search_queries WHERE catalog = ? ORDER BY time, query_id LIMIT ?)',
        [row.catalog, Number(row.n) - options.maxSearches],
      );
    }
  }
}
