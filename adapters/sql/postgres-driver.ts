import { StorageUnavailableError } from '../../src/errors';
import type { Row, SqlDriver } from './driver';
import { guardStorage, isPostgresUnavailable } from './unavailable';

const guard = <T>(work: () => Promise<T>): Promise<T> => guardStorage(work, isPostgresUnavailable, 'PostgreSQL');

/** `?` placeholders → `$1, $2, …` (abkit's statements never put `?` in literals). */
function numbered(sql: string): string {
  let n = 0;
  return sql.replace(/\?/g, () => `$${++n}`);
}

/**
 * The part of a pg `PoolClient` abkit uses. Declared here rather than imported from `pg`, whose
 * types come from `@types/pg`, a package users of abkit/postgres need not have.
 *
 * @example
 * ```ts
 * import type { PgPoolClient } from 'abkit/postgres';
 * import pg from 'pg';
 * const client: PgPoolClient = await new pg.Pool().connect();
 * ```
 */
export interface PgPoolClient {
  /** Runs one statement with `$n` parameters. */
  query(text: string, values?: unknown[]): Promise<{ rows: unknown[]; rowCount: number | null }>;
  /** Listens for the connection's `'error'` event. */
  on(event: 'error', listener: (error: Error) => void): unknown;
  /** Stops listening for the connection's `'error'` event. */
  removeListener(event: 'error', listener: (error: Error) => void): unknown;
  /** Returns the client to its pool; with an error, destroys its connection instead. */
  release(error?: Error | boolean): void;
}

/**
 * The part of a pg `Pool` abkit uses; a `new pg.Pool(…)` satisfies it.
 *
 * @example
 * ```ts
 * import pg from 'pg';
 * import { postgresStorage, type PgPool } from 'abkit/postgres';
 * const pool: PgPool = new pg.Pool({ connectionString: process.env.DATABASE_URL });
 * const storage = await postgresStorage({ pool });
 * ```
 */
export interface PgPool {
  /** Runs one statement on any pooled connection. */
  query(text: string, values?: unknown[]): Promise<{ rows: unknown[]; rowCount: number | null }>;
  /** Checks a client out of the pool (for a transaction). */
  connect(): Promise<PgPoolClient>;
  /** Listens for errors of idle pooled connections. */
  on(event: 'error', listener: (error: Error) => void): unknown;
  /** Closes every pooled connection. */
  end(): Promise<void>;
}

type Queryable = Pick<PgPoolClient, 'query'>;

function driverOn(target: Queryable, pool: PostgresDriver): SqlDriver {
  const tx: SqlDriver = {
    dialect: 'postgres',
    maxParams: pool.maxParams,
    query: <T extends Row>(sql: string, params: readonly unknown[] = []) => guard(async () => (await target.query(numbered(sql), params as unknown[])).rows as T[]),
    exec: (sql, params = []) => guard(async () => (await target.query(numbered(sql), params as unknown[])).rowCount ?? 0),
    transaction: (fn) => fn(tx),
    isUniqueViolation: (e) => pool.isUniqueViolation(e),
    close: async () => {},
  };
  return tx;
}

/** A pg Pool behind the async driver interface; transactions run on one pooled client. */
export class PostgresDriver implements SqlDriver {
  readonly dialect = 'postgres' as const;
  readonly maxParams = 65_000;
  readonly #pool: PgPool;
  readonly #ownsPool: boolean;

  constructor(pool: PgPool, ownsPool: boolean) {
    this.#pool = pool;
    this.#ownsPool = ownsPool;
    // An idle pooled connection that dies (server restart, pg_terminate_backend) is reported as
    // an 'error' event on the pool; unhandled, it would end the process. The pool has already
    // dropped that client and the next query opens a new one, so there is nothing else to do.
    pool.on('error', () => undefined);
  }

  query<T extends Row = Row>(sql: string, params: readonly unknown[] = []): Promise<T[]> {
    return guard(async () => (await this.#pool.query(numbered(sql), params as unknown[])).rows as T[]);
  }

  exec(sql: string, params: readonly unknown[] = []): Promise<number> {
    return guard(async () => (await this.#pool.query(numbered(sql), params as unknown[])).rowCount ?? 0);
  }

  async transaction<T>(fn: (tx: SqlDriver) => Promise<T>): Promise<T> {
    // A deadlock or serialization failure aborts the whole transaction, so running it again from
    // the start is safe; PostgreSQL asks clients to do exactly that.
    for (let attempt = 1; ; attempt++) {
      try {
        return await guard(() => this.#once(fn));
      } catch (error) {
        const code = (error as { code?: unknown })?.code;
        if ((code !== '40P01' && code !== '40001') || attempt >= 4) throw error;
      }
    }
  }

  async #once<T>(fn: (tx: SqlDriver) => Promise<T>): Promise<T> {
    const client = await this.#pool.connect();
    // A checked-out client has no listener of the pool's: its connection dying between two
    // statements would be an unhandled 'error' event. The failing statement reports it instead.
    let lost: unknown;
    const onError = (error: unknown) => (lost = error);
    client.on('error', onError);
    try {
      await client.query('BEGIN');
      const result = await fn(driverOn(client, this));
      await client.query('COMMIT');
      return result;
    } catch (error) {
      if (lost === undefined && !(error instanceof StorageUnavailableError) && !isPostgresUnavailable(error)) await client.query('ROLLBACK').catch(() => undefined);
      else lost ??= error;
      throw error;
    } finally {
      client.removeListener('error', onError);
      // A broken connection goes back destroyed, so the pool never hands it out again.
      client.release(lost === undefined ? undefined : lost instanceof Error ? lost : new Error(String(lost)));
    }
  }

  isUniqueViolation(error: unknown): boolean {
    return (error as { code?: unknown })?.code === '23505';
  }

  async close(): Promise<void> {
    if (this.#ownsPool) await this.#pool.end();
  }
}
