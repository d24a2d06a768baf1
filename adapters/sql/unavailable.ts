import { StorageUnavailableError } from '../../src/errors';

// SQLSTATE classes and codes meaning "the database cannot serve now", not "this statement is
// wrong": connection exceptions (08), operator intervention (57P01-57P03: terminated backends,
// shutdown, starting up) and insufficient resources (53: too many connections, out of memory).
const PG_UNAVAILABLE = /^(08|53|57P0[1-3])/;
const NODE_NETWORK = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH']);
// pg reports a lost socket with plain Errors carrying no code.
const PG_LOST = /Connection terminated|connection error|not queryable|timeout exceeded when trying to connect|Client was closed/i;

/** Whether a pg error means the database is unreachable rather than the statement wrong. */
export function isPostgresUnavailable(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code === 'string') return PG_UNAVAILABLE.test(code) || NODE_NETWORK.has(code);
  return error instanceof Error && PG_LOST.test(error.message);
}

// SQLite result codes (better-sqlite3 `code`, extended codes included) meaning the file cannot
// be used now: locked by another process past the busy timeout, I/O failure, disk full,
// read-only media, file gone.
const SQLITE_UNAVAILABLE = /^SQLITE_(BUSY|LOCKED|IOERR|FULL|READONLY|CANTOPEN|PROTOCOL)/;

/** Whether a better-sqlite3 error means the file cannot serve now rather than the statement wrong. */
export function isSqliteUnavailable(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && SQLITE_UNAVAILABLE.test(code);
}

/**
 * Runs `work`, turning an error `unavailable` recognises into a {@link StorageUnavailableError}
 * (503 with Retry-After at the HTTP edge) and letting every other error through unchanged.
 */
export async function guardStorage<T>(work: () => Promise<T>, unavailable: (error: unknown) => boolean, database: string): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof StorageUnavailableError || !unavailable(error)) throw error;
    // The driver's reason stays in `cause` (for logs): clients learn only that it is temporary.
    throw new StorageUnavailableError(`the ${database} store is unavailable; retry shortly`, { cause: error });
  }
}
