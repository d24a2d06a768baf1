import type { Pool, PoolClient } from 'pg';
import type { Row, SqlDriver } from './driver';

/** `?` placeholders → `$1, $2, …` (abkit's statements never put `?` in literals). */
function numbered(sql: string): string {
  let n = 0;
  return sql.replace(/\?/g, () => `$${++n}`);
}

type Queryable = Pick<PoolClient, 'query'>;

function driverOn(target: Queryable, pool: PostgresDriver): SqlDriver {
  const tx: SqlDriver = {
    dialect: 'postgres',
    maxParams: pool.maxParams,
    query: async <T extends Row>(sql: string, params: readonly unknown[] = []) => (await target.query(numbered(sql), params as unknown[])).rows as T[],
    exec: async (sql, params = []) => (await target.query(numbered(sql), params as unknown[])).rowCount ?? 0,
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
  readonly #pool: Pool;
  readonly #ownsPool: boolean;

  constructor(pool: Pool, ownsPool: boolean) {
    this.#pool = pool;
    this.#ownsPool = ownsPool;
  }

  async query<T extends Row = Row>(sql: string, params: readonly unknown[] = []): Promise<T[]> {
    return (await this.#pool.query(numbered(sql), params as unknown[])).rows as T[];
  }

  async exec(sql: string, params: readonly unknown[] = []): Promise<number> {
    return (await this.#pool.query(numbered(sql), params as unknown[])).rowCount ?? 0;
  }

  async transaction<T>(fn: (tx: SqlDriver) => Promise<T>): Promise<T> {
    // A deadlock or serialization failure aborts the whole transaction, so running it again from
    // the start is safe; PostgreSQL asks clients to do exactly that.
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.#once(fn);
      } catch (error) {
        const code = (error as { code?: unknown })?.code;
        if ((code !== '40P01' && code !== '40001') || attempt >= 4) throw error;
      }
    }
  }

  async #once<T>(fn: (tx: SqlDriver) => Promise<T>): Promise<T> {
    const client = await this.#pool.connect();
    try {
      await client.query('BEGIN');
      const result = await fn(driverOn(client, this));
      await client.query('COMMIT');
      return result;
    } catch (error) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw error;
    } finally {
      client.release();
    }
  }

  isUniqueViolation(error: unknown): boolean {
    return (error as { code?: unknown })?.code === '23505';
  }

  async close(): Promise<void> {
    if (this.#ownsPool) await this.#pool.end();
  }
}
