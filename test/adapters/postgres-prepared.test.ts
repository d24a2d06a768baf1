import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { postgresStorage } from '../../adapters/sql/postgres';
import { PostgresDriver, type PgPool } from '../../adapters/sql/postgres-driver';
import { dropSchema, POSTGRES_URL, postgresAvailable, testSchema } from '../helpers/postgres';

/** A pool that records how each statement was sent: as text, or as a named (prepared) statement. */
function recordingPool(): { pool: PgPool; sent: (string | { name: string; text: string })[] } {
  const sent: (string | { name: string; text: string })[] = [];
  const query = async (config: string | { name: string; text: string }) => (
    sent.push(typeof config === 'string' ? config : { name: config.name, text: config.text }), { rows: [], rowCount: 0 }
  );
  const pool = {
    query,
    connect: async () => ({ query, on: () => undefined, removeListener: () => undefined, release: () => undefined }),
    on: () => undefined,
    end: async () => undefined,
  } as unknown as PgPool;
  return { pool, sent };
}

describe('PostgreSQL prepared statements', () => {
  it('name a statement from its second run on, keep its name, and never name one that reads *', async () => {
    const { pool, sent } = recordingPool();
    const driver = new PostgresDriver(pool, true, true);
    const read = 'SELECT variation_group_id, variation_id FROM assignments WHERE environment_id = ? AND visitor_id = ?';
    for (let i = 0; i < 3; i++) await driver.query(read, ['prod', `v${i}`]);
    for (let i = 0; i < 2; i++) await driver.query('SELECT * FROM environments WHERE id = ?', ['prod']);
    await driver.transaction(async (tx) => tx.exec(read, ['prod', 'v9']));
    const text = read.replace('= ?', '= $1').replace('= ?', '= $2');
    expect(sent).toEqual([
      text,
      { name: 'abkit_0', text },
      { name: 'abkit_0', text },
      'SELECT * FROM environments WHERE id = $1',
      'SELECT * FROM environments WHERE id = $1',
      'BEGIN',
      { name: 'abkit_0', text },
      'COMMIT',
    ]);
  });

  it('are off with preparedStatements: false, and refused when not a boolean', async () => {
    const { pool, sent } = recordingPool();
    const driver = new PostgresDriver(pool, true, false);
    for (let i = 0; i < 3; i++) await driver.query('SELECT 1 WHERE ? = ?', [1, 1]);
    expect(sent.every((s) => typeof s === 'string')).toBe(true);
    await expect(
      postgresStorage({ connectionString: 'postgres://nowhere', preparedStatements: 'yes' as unknown as boolean }),
    ).rejects.toThrow(/preparedStatements must be a boolean, got string/);
  });
});

const available = await postgresAvailable();
const schema = testSchema('prepared');

describe.skipIf(!available)(`PostgreSQL prepared statements on a server${available ? '' : ' (skipped: server unreachable)'}`, () => {
  afterAll(() => dropSchema(schema));

  it('are prepared on the connection, and still run after a migration adds a column', async () => {
    const storage = await postgresStorage({ connectionString: POSTGRES_URL, schema, maxConnections: 1 });
    try {
      await storage.assignments.save('prod', 'v1', { g1: 'a' });
      await storage.assignments.save('prod', 'v1', { g2: 'b' });
      expect(await storage.assignments.get('prod', 'v1')).toEqual({ g1: 'a', g2: 'b' });
      expect(await storage.assignments.get('prod', 'v1')).toEqual({ g1: 'a', g2: 'b' });
      const prepared = await storage.driver.query<{ statement: string }>('SELECT statement FROM pg_prepared_statements');
      expect(prepared.map((p) => p.statement).some((s) => s.startsWith('SELECT variation_group_id, variation_id FROM assignments'))).toBe(
        true,
      );
      const other = new pg.Client({ connectionString: POSTGRES_URL });
      await other.connect();
      await other.query(`ALTER TABLE "${schema}".assignments ADD COLUMN note TEXT`);
      await other.end();
      expect(await storage.assignments.get('prod', 'v1')).toEqual({ g1: 'a', g2: 'b' });
    } finally {
      await storage.close();
    }
  });
});
