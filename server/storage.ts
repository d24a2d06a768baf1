/**
 * `ABKIT_STORAGE` → a Storage: `memory`, `sqlite:<file>`, or a `postgres://…` URL (an optional
 * `schema` query parameter names the schema; `prepared=off` turns prepared statements off, for a
 * pooler that does not support them).
 *
 * @module
 */
import { createRequire } from 'node:module';
import { memoryStorage } from '../adapters/memory/memory';
import type { Storage } from '../src/storage/storage';

/** The storage of the demo server and of `abkit serve` when better-sqlite3 is installed. */
export const DEFAULT_STORAGE = 'sqlite:.abkit/abkit.db';

/**
 * The storage `abkit serve` uses when none is configured: {@link DEFAULT_STORAGE} when
 * better-sqlite3 can be loaded, else `memory` (better-sqlite3 is an optional peer dependency).
 */
export function defaultStorageSpec(): string {
  try {
    createRequire(import.meta.url).resolve('better-sqlite3');
    return DEFAULT_STORAGE;
  } catch {
    return 'memory';
  }
}

/**
 * Opens the storage a spec names.
 *
 * @example
 * ```ts
 * const storage = await openStorage('sqlite:abkit.db');
 * ```
 */
export async function openStorage(spec: string = DEFAULT_STORAGE): Promise<Storage> {
  if (spec === 'memory') return memoryStorage();
  if (spec.startsWith('sqlite:')) {
    const { sqliteStorage } = await import('../adapters/sql/sqlite');
    return sqliteStorage({ filename: spec.slice('sqlite:'.length) || ':memory:' });
  }
  if (/^postgres(ql)?:\/\//.test(spec)) {
    const { postgresStorage } = await import('../adapters/sql/postgres');
    const url = new URL(spec);
    const schema = url.searchParams.get('schema') ?? undefined;
    const prepared = url.searchParams.get('prepared') ?? 'on';
    if (prepared !== 'on' && prepared !== 'off')
      throw new TypeError(`ABKIT_STORAGE: prepared must be on or off, got ${JSON.stringify(prepared)}`);
    url.searchParams.delete('schema');
    url.searchParams.delete('prepared');
    return postgresStorage({ connectionString: url.toString(), schema, preparedStatements: prepared === 'on' });
  }
  throw new TypeError(`ABKIT_STORAGE must be memory, sqlite:<file> or a postgres:// URL, got ${JSON.stringify(redactStorage(spec))}`);
}

/**
 * A storage spec fit for a log line: a URL's password is masked.
 *
 * @example
 * ```ts
 * redactStorage('postgres://app:s3cret@db/abkit'); // 'postgres://app:***@db/abkit'
 * ```
 */
export function redactStorage(spec: string): string {
  return spec.replace(/\/\/([^:@/]*):[^@/]*@/, '//$1:***@');
}
