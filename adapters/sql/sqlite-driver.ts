import type BetterSqlite3 from 'better-sqlite3';
import type { Row, SqlDriver } from './driver';
import { guardStorage, isSqliteUnavailable } from './unavailable';

/**
 * better-sqlite3 behind the async driver interface. The connection is single-threaded and
 * synchronous, so an async transaction must not interleave with other statements: every call
 * waits its turn in a queue, and a transaction holds the queue until it ends.
 */
export class SqliteDriver implements SqlDriver {
  readonly dialect = 'sqlite' as const;
  readonly maxParams = 32_000;
  readonly #db: BetterSqlite3.Database;
  #tail: Promise<unknown> = Promise.resolve();
  readonly #statements = new Map<string, BetterSqlite3.Statement>();

  constructor(db: BetterSqlite3.Database) {
    this.#db = db;
  }

  #prepare(sql: string): BetterSqlite3.Statement {
    let statement = this.#statements.get(sql);
    if (!statement) {
      statement = this.#db.prepare(sql);
      // Bulk statements vary in length; keep the cache to the repeated ones.
      if (this.#statements.size < 500) this.#statements.set(sql, statement);
    }
    return statement;
  }

  #run<T>(work: () => T | Promise<T>): Promise<T> {
    // Busy past the timeout, I/O errors, a full disk: 503 for this request, not a 500.
    const guarded = () => guardStorage(async () => work(), isSqliteUnavailable, 'SQLite');
    const next = this.#tail.then(guarded, guarded);
    this.#tail = next.catch(() => undefined);
    return next;
  }

  #direct(): SqlDriver {
    const query = async <T extends Row>(sql: string, params: readonly unknown[] = []) => this.#prepare(sql).all(...params.map(bind)) as T[];
    const exec = async (sql: string, params: readonly unknown[] = []) => this.#prepare(sql).run(...params.map(bind)).changes;
    const tx: SqlDriver = {
      dialect: 'sqlite',
      maxParams: this.maxParams,
      query,
      exec,
      transaction: (fn) => fn(tx),
      isUniqueViolation: (e) => this.isUniqueViolation(e),
      close: async () => {},
    };
    return tx;
  }

  query<T extends Row = Row>(sql: string, params: readonly unknown[] = []): Promise<T[]> {
    return this.#run(() => this.#prepare(sql).all(...params.map(bind)) as T[]);
  }

  exec(sql: string, params: readonly unknown[] = []): Promise<number> {
    return this.#run(() => this.#prepare(sql).run(...params.map(bind)).changes);
  }

  transaction<T>(fn: (tx: SqlDriver) => Promise<T>): Promise<T> {
    return this.#run(async () => {
      // IMMEDIATE takes the write lock at once, so two processes cannot both read then write.
      this.#db.exec('BEGIN IMMEDIATE');
      try {
        const result = await fn(this.#direct());
        this.#db.exec('COMMIT');
        return result;
      } catch (error) {
        if (this.#db.inTransaction) this.#db.exec('ROLLBACK');
        throw error;
      }
    });
  }

  isUniqueViolation(error: unknown): boolean {
    const code = (error as { code?: unknown })?.code;
    return code === 'SQLITE_CONSTRAINT_UNIQUE' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY';
  }

  async close(): Promise<void> {
    await this.#run(() => this.#db.close());
  }
}

// SQLite binds booleans poorly and undefined not at all.
function bind(value: unknown): unknown {
  if (value === undefined) return null;
  if (typeof value === 'boolean') return value ? 1 : 0;
  return value;
}
