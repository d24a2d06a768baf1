/**
 * `abkit/sqlite`: every storage port in one SQLite file (or in memory), through better-sqlite3.
 *
 * @module abkit/sqlite
 */
import type BetterSqlite3 from 'better-sqlite3';
import { StorageUnavailableError } from '../../src/errors';
import { SqliteDriver } from './sqlite-driver';
import { sqlStorage, type SqlStorage } from './storage';

export type { SqlStorage } from './storage';
export type { SqlDriver, Row } from './driver';
export { SCHEMA_VERSION } from './migrations';

/**
 * Options of {@link sqliteStorage}.
 *
 * @example
 * ```ts
 * import { sqliteStorage, type SqliteStorageOptions } from 'abkit/sqlite';
 * const options: SqliteStorageOptions = { filename: '.abkit/abkit.db', busyTimeoutMs: 10_000 };
 * const storage = await sqliteStorage(options);
 * ```
 */
export interface SqliteStorageOptions {
  /**
   * Database file, created (with its folder) when absent; `:memory:` for a private in-memory
   * database.
   * @example `'.abkit/abkit.db'`
   */
  filename: string;
  /** Apply pending migrations at open. @defaultValue `true` */
  migrate?: boolean;
  /** Milliseconds to wait for another process's write lock before failing. @defaultValue `5000` */
  busyTimeoutMs?: number;
}

/**
 * Opens SQLite storage. Needs the optional peer dependency `better-sqlite3`.
 *
 * @example
 * ```ts
 * import { sqliteStorage } from 'abkit/sqlite';
 * const storage = await sqliteStorage({ filename: '.abkit/abkit.db' });
 * const engine = new DecisionEngine({ storage });
 * ```
 */
export async function sqliteStorage(options: SqliteStorageOptions): Promise<SqlStorage> {
  const { filename, migrate = true, busyTimeoutMs = 5000 } = options ?? ({} as SqliteStorageOptions);
  if (typeof filename !== 'string' || filename === '') throw new TypeError('sqliteStorage: filename must be a file path or ":memory:"');
  let Database: typeof import('better-sqlite3');
  try {
    Database = (await import('better-sqlite3')).default;
  } catch (error) {
    throw new Error(`install better-sqlite3 to use abkit/sqlite (npm install better-sqlite3): ${(error as Error).message}`);
  }
  let db: BetterSqlite3.Database | undefined;
  try {
    if (filename !== ':memory:') {
      const { mkdirSync } = await import('node:fs');
      const { dirname } = await import('node:path');
      mkdirSync(dirname(filename), { recursive: true });
    }
    db = new Database(filename, { timeout: busyTimeoutMs });
    // WAL: readers do not block the writer; synchronous NORMAL is durable across process crashes.
    if (filename !== ':memory:') db.pragma('journal_mode = WAL');
    db.pragma('synchronous = NORMAL');
    db.pragma('foreign_keys = ON');
    return await sqlStorage(new SqliteDriver(db), { migrate });
  } catch (error) {
    // Read-only media, a missing permission, a folder that is a file: say which file and why.
    db?.close();
    const cause = error instanceof StorageUnavailableError && error.cause instanceof Error ? error.cause : error;
    const code = (cause as { code?: unknown } | null)?.code;
    const message = cause instanceof Error ? cause.message : String(cause);
    const reason = typeof code === 'string' && !message.startsWith(code) ? `${code}: ${message}` : message;
    throw new Error(`cannot open the SQLite database ${JSON.stringify(filename)}: ${reason}`, { cause });
  }
}
