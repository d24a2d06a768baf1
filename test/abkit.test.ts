import { describe, expect, it } from 'vitest';
import {
  AccessManager,
  CatalogRegistry,
  createAbkit,
  DecisionEngine,
  ExperimentService,
  memoryStorage,
  TokenService,
  type Storage,
} from '../src/index';
import { T0 } from './helpers/accounts';
import { config } from './helpers/configs';

describe('createAbkit: every service over one storage', () => {
  it('defaults to memory and wires the services to each other', async () => {
    const abkit = createAbkit({ decision: { defaultEnvironment: 'prod' } });
    await abkit.engine.load(config([{ id: 'c1', split: [100, 0] }]), { environment: 'prod', account: 'acme' });
    // The remote control writes through the engine: the next decision sees it at once.
    await abkit.remote.putCampaign('acme', 'prod', 'c1', config([{ id: 'c1', split: [0, 100] }]).campaigns[0]);
    expect((await abkit.engine.decide({ visitorId: 'v1' })).campaigns.map((c) => c.variation.id)).toEqual(['c1-v1']);
    // Tokens are issued for the instance's accesses and land in its storage.
    const { clientId, clientSecret } = await abkit.accesses.createAccess({
      account: 'acme',
      name: 'bot',
      environments: ['prod'],
      actions: ['campaigns.read'],
    });
    const { accessToken } = await abkit.tokens.issue({ accountId: 'acme', clientId, clientSecret });
    expect(await abkit.tokens.introspect(accessToken)).toMatchObject({ active: true, clientId });
    const { catalog } = await abkit.catalogs.create({ identifier: 'shop' });
    expect(await abkit.storage.catalogs.getCatalog(catalog.identifier)).toBeDefined();
  });

  it('takes the storage it is given, and several instances over it see each other', async () => {
    const storage = memoryStorage();
    const a = createAbkit({ storage });
    const b = createAbkit({ storage, decision: { refreshIntervalMs: 0 } });
    expect(a.storage).toBe(storage);
    await a.engine.load(config([{ id: 'c1', split: [100, 0] }]), { environment: 'prod', account: 'acme' });
    expect((await b.engine.getEnvironment('prod'))?.accountId).toBe('acme');
    const { id } = await a.accesses.createAccess({ account: 'acme', name: 'bot', actions: ['campaigns.read'] });
    expect(await b.accesses.isActive(id)).toBe(true);
    await a.accesses.revokeAccess(id);
    expect(await b.accesses.isActive(id)).toBe(false);
  });

  it('applies one clock to every service, and a service option wins over it', async () => {
    const abkit = createAbkit({ clock: () => T0, tokens: { defaultLifetimeSeconds: 60 } });
    const { clientId, clientSecret, createdAt } = await abkit.accesses.createAccess({
      account: 'acme',
      name: 'bot',
      actions: ['campaigns.read'],
    });
    expect(createdAt).toBe(T0);
    const issued = await abkit.tokens.issue({ accountId: 'acme', clientId, clientSecret });
    expect(issued).toMatchObject({ expiresIn: 60, expiresAt: T0 + 60_000 });
    const own = createAbkit({ clock: () => T0, decision: { clock: () => T0 + 5 } });
    await own.engine.load({ campaigns: [] }, { environment: 'prod' });
    expect((await own.engine.getEnvironment('prod'))?.updatedAt).toBe(T0 + 5);
  });

  it('serves every interface through one handler', async () => {
    const abkit = createAbkit();
    const res = await abkit.handler({ prefix: '/api' })(new Request('http://localhost/api/health'));
    expect(await res.json()).toEqual({
      status: 'ok',
      interfaces: { decision: true, access: true, remote: true, catalog: true, search: true, admin: false },
    });
  });

  it('close() closes the storage', async () => {
    let closed = 0;
    const storage: Storage = { ...memoryStorage(), close: async () => void closed++ };
    await createAbkit({ storage }).close();
    expect(closed).toBe(1);
  });
});

describe('the services take their storage', () => {
  it('and name it when it is missing', () => {
    for (const make of [
      () => new DecisionEngine({} as never),
      () => new AccessManager({} as never),
      () => new TokenService({} as never),
      () => new CatalogRegistry({} as never),
    ]) {
      expect(make).toThrow(/storage must be a Storage/);
    }
  });

  it('the engine reads environments, and its experiment service records activations at its clock', async () => {
    const engine = new DecisionEngine({ storage: memoryStorage(), clock: () => T0 });
    const experiments = new ExperimentService({ engine });
    expect(await engine.getEnvironment('prod')).toBeUndefined();
    await engine.load(config([{ id: 'c1', split: [100, 0] }]), { environment: 'prod', account: 'acme' });
    expect(await engine.getEnvironment('prod')).toMatchObject({ id: 'prod', accountId: 'acme', version: 1 });
    await experiments.activate({ environmentId: 'prod', visitorId: 'v1', variationGroupId: 'c1-vg', variationId: 'c1-v0' });
    expect(await engine.storage.activations.list({ environmentId: 'prod' })).toEqual([
      {
        environmentId: 'prod',
        visitorId: 'v1',
        anonymousId: null,
        campaignId: 'c1',
        variationGroupId: 'c1-vg',
        variationId: 'c1-v0',
        timestamp: T0,
      },
    ]);
    expect(await engine.storage.activations.list({ environmentId: 'staging' })).toEqual([]);
  });

  it('AccessManager finds an access by client id, revoked or not', async () => {
    const accesses = new AccessManager({ storage: memoryStorage() });
    const created = await accesses.createAccess({ account: 'acme', name: 'bot', actions: ['campaigns.read'] });
    expect(await accesses.findByClientId(created.clientId)).toMatchObject({ id: created.id, revokedAt: null });
    await accesses.revokeAccess(created.id);
    expect((await accesses.findByClientId(created.clientId))?.revokedAt).not.toBeNull();
    expect(await accesses.findByClientId('nobody')).toBeUndefined();
    expect(await accesses.isActive('acc_unknown')).toBe(false);
  });
});
