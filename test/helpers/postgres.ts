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
    console.warn(`\n*** SKIPPING PostgreSQL tests: ${POSTGRES_URL} is unreachable (${(error as Error).message}). Set ABKIT_TEST_POSTGRES. ***\n`);
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
