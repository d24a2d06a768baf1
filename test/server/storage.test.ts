import { describe, expect, it } from 'vitest';
import { openStorage } from '../../server/storage';
import { dropSchema, POSTGRES_URL, postgresAvailable, testSchema } from '../helpers/postgres';

const available = await postgresAvailable();

describe('ABKIT_STORAGE', () => {
  it('refuses a prepared parameter other than on or off, naming it', async () => {
    await expect(openStorage('postgres://nobody@127.0.0.1:1/x?prepared=maybe')).rejects.toThrow(
      'ABKIT_STORAGE: prepared must be on or off, got "maybe"',
    );
  });

  it.skipIf(!available)(
    `opens PostgreSQL with prepared statements off (?prepared=off)${available ? '' : ' (skipped: server unreachable)'}`,
    async () => {
      const schema = testSchema('preparedoff');
      const storage = await openStorage(`${POSTGRES_URL}?schema=${schema}&prepared=off`);
      try {
        await storage.assignments.save('prod', 'v1', { g1: 'a' });
        for (let i = 0; i < 3; i++) expect(await storage.assignments.get('prod', 'v1')).toEqual({ g1: 'a' });
        expect(
          await (storage as unknown as { driver: { query: (sql: string) => Promise<unknown[]> } }).driver.query(
            'SELECT name FROM pg_prepared_statements',
          ),
        ).toEqual([]);
      } finally {
        await storage.close();
        await dropSchema(schema);
      }
    },
  );
});
