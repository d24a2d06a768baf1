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

/**
 * Names for the statements worth preparing: a text gets one the second time it is run, up to
 * {@link MAX_PREPARED} texts, never one reading `*` (a migration adding a column would change
 * its rows, and PostgreSQL refuses to run a prepared plan whose row type changed).
 */
class StatementNames {
  readonly #names = new Map<string, string>();
  readonly #seen = new Set<string>();

  nameOf(text: string): string | undefined {
    const name = this.#names.get(text);
    if (name !== undefined) return name;
    if (this.#names.size >= MAX_PREPARED || text.length > MAX_PREPARED_TEXT || text.includes('*')) return undefined;
    // Seen once: remembered without a name; a name is given on the second run.
    if (!this.#seen.delete(text)) {
      if (this.#seen.size >= MAX_PREPARED) this.#seen.clear();
      this.#seen.add(text);
      return undefined;
    }
    const named = `abkit_${this.#names.size}`;
    this.#names.set(text, named);
    return named;
  }
}

const MAX_PREPARED = 256;
const MAX_PREPARED_TEXT = 16_384;

/** Runs one statement on `target`, prepared when `names` gives it a name. */
function run(
  target: Queryable,
  names: StatementNames | undefined,
  sql: string,
  params: readonly unknown[],
): Promise<{ rows: unknown[]; rowCount: number | null }> {
  const text = numbered(sql);
  const name = names?.nameOf(text);
  // pg's query takes a config object too; PgPool declares only the text form, which user pools
  // (never prepared) are held to.
  if (name === undefined) return target.query(text, params as unknown[]);
  return (target.query as unknown as (config: { name: string; text: string; values: unknown[] }) => ReturnType<Queryable['query']>)({
    name,
    text,
    values: params as unknown[],
  });
}

function driverOn(target: Queryable, pool: PostgresDriver, names: StatementNames | undefined): SqlDriver {
  const tx: SqlDriver = {
    dialect: 'postgres',
    maxParams: pool.maxParams,
    query: <T extends Row>(sql: string, params: readonly unknown[] = []) =>
      guard(async () => (await run(target, names, sql, params)).rows as T[]),
    exec: (sql, params = []) => guard(async () => (await run(target, names, sql, params)).rowCount ?? 0),
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
  readonly #names: StatementNames | undefined;

  /** `prepare`: give repeated statements names, so each connection prepares them once. */
  constructor(pool: PgPool, ownsPool: boolean, prepare = false) {
    this.#pool = pool;
    this.#ownsPool = ownsPool;
    this.#names = prepare ? new StatementNames() : undefined;
    // An idle pooled connection that dies (server restart, pg_terminate_backend) is reported as
    // an 'error' event on the pool; unhandled, it would end the process. The pool has already
    // dropped that client and the next query opens a new one, so there is nothing else to do.
    pool.on('error', () => undefined);
  }

  query<T extends Row = Row>(sql: string, params: readonly unknown[] = []): Promise<T[]> {
    return guard(async () => (await run(this.#pool, this.#names, sql, params)).rows as T[]);
  }

  exec(sql: string, params: readonly unknown[] = []): Promise<number> {
    return guard(async () => (await run(this.#pool, this.#names, sql, params)).rowCount ?? 0);
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
      const result = await fn(driverOn(client, this, this.#names));
      await client.query('COMMIT');
      return result;
    } catch (error) {
      if (lost === undefined && !(error instanceof StorageUnavailableError) && !isPostgresUnavailable(error))
        await client.query('ROLLBACK').catch(() => undefined);
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
