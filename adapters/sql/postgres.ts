/**
 * `abkit/postgres`: every storage port in PostgreSQL, through pg, so several abkit instances
 * can share one database.
 *
 * @module abkit/postgres
 */
import type { PoolConfig } from 'pg';
import { PostgresDriver, type PgPool } from './postgres-driver';
import { sqlStorage, type SqlStorage } from './storage';

export type { SqlStorage } from './storage';
export type { SqlDriver, Row } from './driver';
export type { PgPool, PgPoolClient } from './postgres-driver';
export { SCHEMA_VERSION } from './migrations';

/**
 * Options of {@link postgresStorage}.
 *
 * @example
 * ```ts
 * import { postgresStorage, type PostgresStorageOptions } from 'abkit/postgres';
 * const options: PostgresStorageOptions = { connectionString: 'postgres://app@db:5432/app', schema: 'abkit', maxConnections: 20 };
 * const storage = await postgresStorage(options);
 * ```
 */
export interface PostgresStorageOptions {
  /** Connection string. @example `'postgres://user@localhost:5432/app'` */
  connectionString?: string;
  /**
   * Your own pool, a pg `Pool` (then `close()` leaves it open); overrides `connectionString`.
   * Typed structurally, so abkit's published types do not need `@types/pg`.
   */
  pool?: PgPool;
  /**
   * Schema holding abkit's tables, created when absent. @defaultValue `'public'`
   * @example `'abkit'`
   */
  schema?: string;
  /** Apply pending migrations at open. @defaultValue `true` */
  migrate?: boolean;
  /** Largest number of pooled connections (when abkit makes the pool). @defaultValue `10` */
  maxConnections?: number;
  /**
   * Milliseconds to wait for a new connection before the request fails with a
   * `StorageUnavailableError` (503), when abkit makes the pool. @defaultValue `5000`
   */
  connectTimeoutMs?: number;
  /**
   * Prepare the statements abkit repeats (named statements, when abkit makes the pool), so
   * PostgreSQL parses and plans each once per connection rather than on every call: a decision's
   * writes take about a quarter less time. Only statements that name their columns are prepared,
   * so a migration adding a column never invalidates one. Turn it off behind a pooler that does
   * not support them (PgBouncer in transaction mode before 1.21). @defaultValue `true`
   * @example `{ connectionString, preparedStatements: false }`
   */
  preparedStatements?: boolean;
}

const IDENT = /^[A-Za-z_][A-Za-z0-9_]{0,62}$/;

/**
 * Opens PostgreSQL storage. Needs the optional peer dependency `pg`.
 *
 * @example
 * ```ts
 * import { postgresStorage } from 'abkit/postgres';
 * const storage = await postgresStorage({ connectionString: process.env.DATABASE_URL, schema: 'abkit' });
 * ```
 */
export async function postgresStorage(options: PostgresStorageOptions): Promise<SqlStorage> {
  const {
    connectionString,
    schema = 'public',
    migrate = true,
    maxConnections = 10,
    connectTimeoutMs = 5000,
    preparedStatements = true,
  } = options ?? {};
  if (typeof preparedStatements !== 'boolean')
    throw new TypeError(`postgresStorage: preparedStatements must be a boolean, got ${typeof preparedStatements}`);
  if (!IDENT.test(schema)) throw new TypeError(`postgresStorage: schema must be a plain identifier, got ${JSON.stringify(schema)}`);
  if (!options?.pool && !connectionString) throw new TypeError('postgresStorage: give connectionString or pool');
  let pg: typeof import('pg');
  try {
    const mod = await import('pg');
    pg = ((mod as { default?: unknown }).default ?? mod) as typeof import('pg');
  } catch (error) {
    throw new Error(`install pg to use abkit/postgres (npm install pg): ${(error as Error).message}`);
  }
  // BIGINT columns hold epoch milliseconds: read them as numbers, not strings.
  const types = {
    getTypeParser: (oid: number, format?: 'text' | 'binary') =>
      oid === 20 ? (v: string) => Number(v) : pg.types.getTypeParser(oid, format as 'text'),
  };
  if (options.pool && schema !== 'public') {
    throw new TypeError('postgresStorage: with your own pool, set its search_path yourself and leave schema unset');
  }
  if (!options.pool && schema !== 'public') {
    const setup = new pg.Client({ connectionString });
    await setup.connect();
    try {
      await setup.query(`CREATE SCHEMA IF NOT EXISTS "${schema}"`);
    } catch (error) {
      // Two processes creating the schema at once: the loser sees a unique violation.
      if ((error as { code?: string }).code !== '23505') throw error;
    } finally {
      await setup.end();
    }
  }
  // Every pooled connection starts in the schema, before any statement of ours.
  const config: PoolConfig = {
    connectionString,
    max: maxConnections,
    connectionTimeoutMillis: connectTimeoutMs,
    types: types as PoolConfig['types'],
    options: `-c search_path="${schema}"`,
  };
  const pool = options.pool ?? new pg.Pool(config);
  return sqlStorage(new PostgresDriver(pool, !options.pool, !options.pool && preparedStatements), { migrate });
}
