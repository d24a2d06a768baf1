import { afterAll, describe, expect, it } from 'vitest';
import { postgresStorage } from '../../adapters/sql/postgres';
import { DecisionEngine, RemoteControl } from '../../src/index';
import { campaign } from '../helpers/configs';
import { dropSchema, POSTGRES_URL, postgresAvailable, testSchema } from '../helpers/postgres';
import { runConformance } from './conformance';

const available = await postgresAvailable();
const schema = testSchema('conformance');
const TABLES = [
  'environments',
  'assignments',
  'activations',
  'events',
  'accesses',
  'tokens',
  'catalogs',
  'catalog_fields',
  'catalog_items',
  'catalog_visible',
  'catalog_deleted',
  'accounts',
  'catalog_settings',
  'audit_log',
  'search_query_days',
  'search_item_days',
  'search_query_item_days',
  'search_queries',
  'search_filter_days',
];

if (available) {
  afterAll(() => dropSchema(schema));
  runConformance('postgres', async () => {
    const storage = await postgresStorage({ connectionString: POSTGRES_URL, schema });
    // One schema per run; each test starts from empty tables.
    await storage.driver.exec(`TRUNCATE ${TABLES.join(', ')} RESTART IDENTITY`);
    return storage;
  });

  describe('remote-control writes from two instances sharing one schema (issue #23)', () => {
    it('all succeed and lose no change: each instance writes one at a time, and retries after the other wrote', async () => {
      const twoSchema = testSchema('two_writers');
      const [a, b] = [
        await postgresStorage({ connectionString: POSTGRES_URL, schema: twoSchema }),
        await postgresStorage({ connectionString: POSTGRES_URL, schema: twoSchema }),
      ];
      try {
        await new DecisionEngine({ storage: a }).load({ campaigns: [] }, { environment: 'prod', account: 'acme' });
        const remotes = [a, b].map((storage) => new RemoteControl({ engine: new DecisionEngine({ storage }) }));
        const ids = Array.from({ length: 30 }, (_, i) => `c${i}`);
        const results = await Promise.allSettled(
          ids.map((id, i) => remotes[i % 2]!.putCampaign('acme', 'prod', id, campaign({ id, split: [100] }))),
        );
        expect(results.filter((r) => r.status === 'rejected')).toEqual([]);
        const stored = await b.environments.get('prod');
        expect(stored?.config.campaigns.map((c) => c.id).sort()).toEqual([...ids].sort());
        expect(stored?.version).toBe(31);
      } finally {
        await a.close();
        await b.close();
        await dropSchema(twoSchema);
      }
    });
  });
} else {
  describe.skip('storage conformance: postgres (server unreachable)', () => {
    it('skipped', () => {});
  });
}
