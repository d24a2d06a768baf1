/**
 * `ABKIT_STORAGE` → a Storage: `memory`, `sqlite:<file>` (default `sqlite:.abkit/abkit.db`), or a
 * `postgres://…` URL (an optional `schema` query parameter names the schema).
 */
import { memoryStorage, type Storage } from '../src/index';

export const DEFAULT_STORAGE = 'sqlite:.abkit/abkit.db';

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
    url.searchParams.delete('schema');
    return postgresStorage({ connectionString: url.toString(), schema });
  }
  throw new Error(`ABKIT_STORAGE must be memory, sqlite:<file> or a postgres:// URL, got ${JSON.stringify(spec)}`);
}
