import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { sqliteStorage } from '../../adapters/sql/sqlite';
import { AccessManager, CatalogRegistry, DecisionEngine, RemoteControl, TokenService } from '../../src/index';
import { config } from '../helpers/configs';

it('everything written before a restart is still there after it (SQLite file)', async () => {
  const filename = join(mkdtempSync(join(tmpdir(), 'abkit-restart-')), 'abkit.db');
  const item = {
    id: 'sku-1',
    is_recommendable: true,
    name: 'Phone',
    absolute_link: null,
    img_link: null,
    price: 10,
    categories_ids: null,
    color: 'red',
  };

  // First life: write one of everything.
  let storage = await sqliteStorage({ filename });
  let engine = new DecisionEngine({ storage, defaultEnvironment: 'prod' });
  await engine.load(config([{ id: 'c1', split: [50, 50] }]), { environment: 'prod', account: 'acme' });
  await new RemoteControl({ engine }).putCampaign('acme', 'prod', 'c1', config([{ id: 'c1', split: [0, 100] }]).campaigns[0]);
  const first = await engine.decide({ visitorId: 'v1', anonymousId: 'a1' });
  const accesses = new AccessManager({ storage });
  const { clientId, clientSecret } = await accesses.createAccess({ account: 'acme', name: 'bot', actions: ['campaigns.read'] });
  const { accessToken } = await new TokenService({ storage, accesses }).issue({ accountId: 'acme', clientId, clientSecret });
  const { catalog } = await new CatalogRegistry({ storage }).create({
    identifier: 'shop',
    catalogApiKey: 'k'.repeat(40),
    searchApiKey: 's'.repeat(40),
  });
  await catalog.put(item);
  await catalog.sync();
  await catalog.put({ ...item, id: 'sku-2' }); // accepted, not yet visible
  await storage.close();

  // Second life.
  storage = await sqliteStorage({ filename });
  engine = new DecisionEngine({ storage, defaultEnvironment: 'prod' });
  expect((await storage.environments.get('prod'))?.config.campaigns[0]!.variationGroups[0]!.variations.map((v) => v.allocation)).toEqual([
    0, 100,
  ]);
  expect(await storage.assignments.get('prod', 'v1')).toEqual({ 'c1-vg': first.campaigns[0]!.variation.id });
  expect((await storage.activations.list({ environmentId: 'prod' })).map((a) => [a.visitorId, a.anonymousId, a.variationId])).toEqual([
    ['v1', 'a1', 'c1-v1'],
  ]);
  const tokens = new TokenService({ storage });
  expect(await tokens.introspect(accessToken)).toMatchObject({ active: true, accountId: 'acme', clientId });
  const registry = new CatalogRegistry({ storage });
  expect((await registry.authenticate('k'.repeat(40)))?.role).toBe('catalog');
  const shop = await registry.get('shop');
  expect((await shop.visible()).items).toEqual([item]);
  expect(await shop.count()).toBe(2);
  expect((await shop.schema()).fields.find((f) => f.name === 'color')?.type).toBe('string');
  await storage.close();
});
