import { afterAll, describe, it } from 'vitest';
import { postgresStorage } from '../../adapters/sql/postgres';
import { dropSchema, POSTGRES_URL, postgresAvailable, testSchema } from '../helpers/postgres';
import { runConformance } from './conformance';

const available = await postgresAvailable();
const schema = testSchema('conformance');
const TABLES = ['environments', 'assignments', 'activations', 'events', 'accesses', 'tokens', 'catalogs', 'catalog_fields', 'catalog_items', 'catalog_visible', 'catalog_deleted'];

if (available) {
  afterAll(() => dropSchema(schema));
  runConformance('postgres', async () => {
    const storage = await postgresStorage({ connectionString: POSTGRES_URL, schema });
    // One schema per run; each test starts from empty tables.
    await storage.driver.exec(`TRUNCATE ${TABLES.join(', ')} RESTART IDENTITY`);
    return storage;
  });
} else {
  describe.skip('storage conformance: postgres (server unreachable)', () => {
    it('skipped', () => {});
  });
}
