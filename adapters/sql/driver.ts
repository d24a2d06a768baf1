/**
 * The one small driver interface every SQL store is written against, with a dialect per
 * database. Statements use `?` placeholders; the PostgreSQL driver numbers them.
 *
 * @module
 */
import { nextTurn, SLICE_OPERATIONS } from '../../src/slices';

/**
 * A row as the driver returns it: column name → value.
 *
 * @example
 * ```ts
 * const storage = await sqliteStorage({ filename: '.abkit/abkit.db' });
 * const rows: Row[] = await storage.driver.query('SELECT id, version FROM environments');
 * for (const row of rows) console.log(row.id, row.version);
 * ```
 */
export type Row = Record<string, unknown>;

/**
 * A connection (or a transaction on one).
 *
 * @example
 * ```ts
 * const storage = await sqliteStorage({ filename: '.abkit/abkit.db' });
 * const driver: SqlDriver = storage.driver;
 * const rows = await driver.query<{ n: number }>('SELECT count(*) AS n FROM activations WHERE environment_id = ?', ['prod']);
 * console.log(driver.dialect, rows[0]?.n);
 * ```
 */
export interface SqlDriver {
  /** `sqlite` or `postgres`: the few statements that differ look at it. */
  readonly dialect: 'sqlite' | 'postgres';
  /** Largest number of bound parameters one statement may carry. */
  readonly maxParams: number;
  /** Runs a statement that returns rows. */
  query<T extends Row = Row>(sql: string, params?: readonly unknown[]): Promise<T[]>;
  /** Runs a statement and returns the number of rows it changed. */
  exec(sql: string, params?: readonly unknown[]): Promise<number>;
  /**
   * Runs `fn` in a transaction: committed when it resolves, rolled back when it throws.
   * Nested calls run inside the outer transaction.
   */
  transaction<T>(fn: (tx: SqlDriver) => Promise<T>): Promise<T>;
  /** Whether an error is a unique-constraint violation. */
  isUniqueViolation(error: unknown): boolean;
  /** Closes the connection or pool. */
  close(): Promise<void>;
}

/** `(?, ?, ?), (?, ?, ?)`: placeholders for a multi-row VALUES list. */
export function valuesList(rows: number, columns: number): string {
  const one = `(${new Array(columns).fill('?').join(', ')})`;
  return new Array(rows).fill(one).join(', ');
}

/** Splits rows into chunks that fit the driver's parameter limit. */
export function chunks<T>(rows: readonly T[], columns: number, driver: SqlDriver): T[][] {
  const size = Math.max(1, Math.floor(driver.maxParams / columns));
  const out: T[][] = [];
  for (let i = 0; i < rows.length; i += size) out.push(rows.slice(i, i + size));
  return out;
}

/**
 * Chunks for a long write that gives the event loop turns between its statements: on SQLite,
 * whose statements run synchronously on the main thread, at most {@link SLICE_OPERATIONS} rows
 * (a 10,000-item batch in two statements held the event loop 220 ms); elsewhere as {@link chunks}.
 */
export function sliceChunks<T>(rows: readonly T[], columns: number, driver: SqlDriver): T[][] {
  if (driver.dialect !== 'sqlite') return chunks(rows, columns, driver);
  const size = Math.max(1, Math.min(SLICE_OPERATIONS, Math.floor(driver.maxParams / columns)));
  const out: T[][] = [];
  for (let i = 0; i < rows.length; i += size) out.push(rows.slice(i, i + size));
  return out;
}

/** Between two statements of a long write: a turn of the event loop on SQLite (elsewhere a statement waits on the network, not the main thread). */
export async function turnOnSqlite(driver: SqlDriver): Promise<void> {
  if (driver.dialect === 'sqlite') await nextTurn();
}

/** `?, ?, ?` for an IN list. */
export function placeholders(count: number): string {
  return new Array(count).fill('?').join(', ');
}

/**
 * A read of an append-only log table (activations, events) in recording order: the
 * conditions whose value is defined (`'visitor_id = ?'`, value), and an optional LIMIT.
 */
export function logQuery(
  table: string,
  conditions: readonly (readonly [string, unknown])[],
  limit: number | undefined,
): { sql: string; params: unknown[] } {
  const used = conditions.filter(([, value]) => value !== undefined);
  const params = used.map(([, value]) => value);
  let sql = `SELECT * FROM ${table} WHERE ${used.map(([condition]) => condition).join(' AND ')} ORDER BY timestamp, seq`;
  if (limit !== undefined) {
    sql += ' LIMIT ?';
    params.push(limit);
  }
  return { sql, params };
}
