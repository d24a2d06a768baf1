/**
 * PostgreSQL for tests: one schema per test run, dropped at the end. Under CI=true an
 * unreachable server fails the run; elsewhere the suites skip with a visible message.
 */
import pg from 'pg';

export const POSTGRES_URL = process.env.ABKIT_TEST_POSTGRES ?? 'postgres://postgres@127.0.0.1:5432/test';

/** Whether PostgreSQL answers; throws under CI=true when it does not. */
export async function postgresAvailable(): Promise<boolean> {
  const client = new pg.Client({ connectionString: POSTGRES_URL, connectionTimeoutMillis: 3000 });
  try {
    await client.connect();
    await client.query('SELECT 1');
    return true;
  } catch (error) {
    if (process.env.CI === 'true') throw new Error(`PostgreSQL at ${POSTGRES_URL} is unreachable and CI=true: ${(error as Error).message}`);
    console.warn(
      `\n*** SKIPPING PostgreSQL tests: ${POSTGRES_URL} is unreachable (${(error as Error).message}). Set ABKIT_TEST_POSTGRES. ***\n`,
    );
    return false;
  } finally {
    await client.end().catch(() => undefined);
  }
}

/** A fresh schema name for this run. */
export function testSchema(label: string): string {
  return `abkit_test_${label}_${process.pid}_${Math.random().toString(36).slice(2, 8)}`;
}

/** Drops a test schema and everything in it. */
export async function dropSchema(schema: string): Promise<void> {
  const client = new pg.Client({ connectionString: POSTGRES_URL });
  await client.connect();
  try {
    await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
  } finally {
    await client.end();
  }
}

/**
 * PostgreSQL storage whose pooled connections can all be terminated at once (as an operator or a
 * failover would), watching for errors nobody handled while it is open.
 */
export async function terminablePostgres(schema: string, maxConnections: number) {
  const { postgresStorage } = await import('../../adapters/sql/postgres');
  const app = `abkit-${schema}`.slice(0, 60);
  const url = new URL(POSTGRES_URL);
  url.searchParams.set('application_name', app);
  const storage = await postgresStorage({ connectionString: url.toString(), schema, maxConnections });
  const admin = new pg.Client({ connectionString: POSTGRES_URL });
  await admin.connect();
  const unhandled: unknown[] = [];
  const onUnhandled = (e: unknown) => unhandled.push(e);
  process.on('uncaughtException', onUnhandled);
  process.on('unhandledRejection', onUnhandled);
  return {
    storage,
    /** What reached no handler (an unhandled pool 'error' would land here, not end the test run). */
    unhandled,
    /** Terminates every backend of the storage's pool. */
    terminate: async () => {
      await admin.query('SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = $1', [app]);
    },
    close: async () => {
      process.off('uncaughtException', onUnhandled);
      process.off('unhandledRejection', onUnhandled);
      await admin.end();
      await storage.close();
    },
  };
}
