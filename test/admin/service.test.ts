import { describe, expect, it } from 'vitest';
import { AdminService } from '../../src/admin/service';
import { ADMIN_LIMITS, ENVIRONMENT_KEY_PREFIX } from '../../src/admin/input';
import { AUDIT_LIMITS } from '../../src/admin/audit-log';
import { AuthenticationError, ConflictError, createAbkit, NotFoundError, ValidationError, memoryStorage } from '../../src/index';
import { T0 } from '../helpers/accounts';
import { campaign } from '../helpers/configs';

function setup(options: { maxAccounts?: number; maxEnvironmentsPerAccount?: number } = {}) {
  let now = T0;
  const abkit = createAbkit({ storage: memoryStorage(), clock: () => now, admin: options });
  return { abkit, admin: abkit.admin, advance: (ms: number) => (now += ms) };
}

async function rejection(promise: Promise<unknown>): Promise<Error> {
  return promise.then(
    () => {
      throw new Error('expected a rejection');
    },
    (error: Error) => error,
  );
}

/** Every audit entry, newest first. */
async function auditOf(admin: AdminService) {
  return (await admin.audit({ limit: AUDIT_LIMITS.pageSize })).entries;
}

describe('AdminService options', () => {
  it('refuses bad options with a TypeError naming them', () => {
    const { abkit } = setup();
    const { storage, engine, accesses, tokens, catalogs } = abkit;
    expect(() => new AdminService({ storage, engine, accesses, tokens, catalogs, maxAccounts: 0 })).toThrow(/AdminService: maxAccounts/);
    const other = createAbkit();
    expect(() => new AdminService({ storage, engine, accesses, tokens: other.tokens, catalogs })).toThrow(/AdminService: tokens must be/);
  });
});

describe('accounts', () => {
  it('creates an account, lists it with the accounts that only hold environments, and refuses a second one', async () => {
    const { abkit, admin } = setup();
    await abkit.engine.load({ campaigns: [] }, { environment: 'legacy-prod', account: 'legacy' });
    expect(await admin.createAccount('ops', { id: 'acme' })).toEqual({
      id: 'acme',
      createdAt: T0,
      defaultEnvironment: null,
      environments: [],
    });
    const { accounts } = await admin.listAccounts();
    expect(accounts.map((a) => [a.id, a.createdAt, a.environments.map((e) => e.id)])).toEqual([
      ['acme', T0, []],
      ['legacy', null, ['legacy-prod']],
    ]);
    expect(await rejection(admin.createAccount('ops', { id: 'acme' }))).toBeInstanceOf(ConflictError);
    expect(await rejection(admin.createAccount('ops', { id: 'legacy' }))).toBeInstanceOf(ConflictError);
  });

  it('names the field of a bad id or an unknown member, and refuses beyond the ceiling', async () => {
    const { admin } = setup({ maxAccounts: 2 });
    const bad = await rejection(admin.createAccount('ops', { id: 'a/b' }));
    expect(bad).toBeInstanceOf(ValidationError);
    expect((bad as ValidationError).details[0]?.path).toEqual(['id']);
    const long = await rejection(admin.createAccount('ops', { id: 'a'.repeat(ADMIN_LIMITS.idLength + 1) }));
    expect((long as ValidationError).details[0]?.path).toEqual(['id']);
    const extra = await rejection(admin.createAccount('ops', { id: 'x', plan: 'gold' } as { id: string }));
    expect((extra as ValidationError).details[0]?.path).toEqual(['plan']);
    await admin.createAccount('ops', { id: 'a' });
    await admin.createAccount('ops', { id: 'b' });
    expect((await rejection(admin.createAccount('ops', { id: 'c' }))).message).toMatch(/2 accounts, the most allowed \(2\)/);
  });

  it('refuses a missing or bad actor before doing anything', async () => {
    const { admin } = setup();
    for (const actor of ['', ' ', 'x'.repeat(AUDIT_LIMITS.actorLength + 1), 'a\nb', 3 as unknown as string]) {
      const error = await rejection(admin.createAccount(actor, { id: 'acme' }));
      expect((error as ValidationError).details[0]?.path).toEqual(['actor']);
    }
    expect((await admin.listAccounts()).accounts).toEqual([]);
    expect(await auditOf(admin)).toEqual([]);
  });
});

describe('environments', () => {
  it('creates one with an empty configuration, a key shown once that decisions then need, and the default', async () => {
    const { abkit, admin } = setup();
    await admin.createAccount('ops', { id: 'acme' });
    const created = await admin.createEnvironment('ops', 'acme', { id: 'prod', default: true, apiKey: true });
    expect(created).toMatchObject({ id: 'prod', version: 1, apiKeyRequired: true, default: true });
    expect(created.apiKey?.startsWith(ENVIRONMENT_KEY_PREFIX)).toBe(true);
    expect((await abkit.engine.configuration('prod')).config.campaigns).toEqual([]);
    await expect(abkit.engine.checkApiKey('prod', null)).rejects.toBeInstanceOf(AuthenticationError);
    await expect(abkit.engine.checkApiKey('prod', created.apiKey!)).resolves.toBeUndefined();
    const [acme] = (await admin.listAccounts()).accounts;
    expect(acme).toMatchObject({ defaultEnvironment: 'prod', environments: [{ id: 'prod', apiKeyRequired: true, default: true }] });
    expect(JSON.stringify(acme)).not.toContain(created.apiKey!);
    // Without a key asked for, decisions need none.
    expect(await admin.createEnvironment('ops', 'acme', { id: 'staging' })).toMatchObject({ apiKeyRequired: false, default: false });
    await expect(abkit.engine.checkApiKey('staging', null)).resolves.toBeUndefined();
  });

  it('refuses an unknown account (404), a taken id (409, whatever the account), a bad flag and the ceiling', async () => {
    const { admin } = setup({ maxEnvironmentsPerAccount: 1 });
    expect(await rejection(admin.createEnvironment('ops', 'nobody', { id: 'prod' }))).toBeInstanceOf(NotFoundError);
    await admin.createAccount('ops', { id: 'acme' });
    await admin.createAccount('ops', { id: 'globex' });
    await admin.createEnvironment('ops', 'acme', { id: 'prod' });
    expect(await rejection(admin.createEnvironment('ops', 'globex', { id: 'prod' }))).toBeInstanceOf(ConflictError);
    const flag = await rejection(admin.createEnvironment('ops', 'globex', { id: 'g', default: 'yes' as unknown as boolean }));
    expect((flag as ValidationError).details[0]?.path).toEqual(['default']);
    expect((await rejection(admin.createEnvironment('ops', 'acme', { id: 'staging' }))).message).toMatch(
      /1 environments, the most allowed \(1\)/,
    );
  });

  it('rotates the key (the old one stops), removes it, and moves or clears the default', async () => {
    const { abkit, admin } = setup();
    await admin.createAccount('ops', { id: 'acme' });
    const { apiKey: first } = await admin.createEnvironment('ops', 'acme', { id: 'prod', apiKey: true });
    await admin.createEnvironment('ops', 'acme', { id: 'staging', default: true });
    const rotated = await admin.updateEnvironment('ops', 'acme', 'prod', { apiKey: 'rotate', default: true });
    expect(rotated).toMatchObject({ id: 'prod', default: true, apiKeyRequired: true });
    await expect(abkit.engine.checkApiKey('prod', first!)).rejects.toBeInstanceOf(AuthenticationError);
    await expect(abkit.engine.checkApiKey('prod', rotated.apiKey!)).resolves.toBeUndefined();
    expect((await admin.listAccounts()).accounts[0]?.defaultEnvironment).toBe('prod');
    const removed = await admin.updateEnvironment('ops', 'acme', 'prod', { apiKey: 'remove', default: false });
    expect(removed).toMatchObject({ apiKeyRequired: false, default: false });
    expect(removed.apiKey).toBeUndefined();
    await expect(abkit.engine.checkApiKey('prod', null)).resolves.toBeUndefined();
    expect((await admin.listAccounts()).accounts[0]?.defaultEnvironment).toBeNull();
    const bad = await rejection(admin.updateEnvironment('ops', 'acme', 'prod', { apiKey: 'renew' as 'rotate' }));
    expect((bad as ValidationError).details[0]?.path).toEqual(['apiKey']);
    expect(await rejection(admin.updateEnvironment('ops', 'acme', 'prod', {}))).toBeInstanceOf(ValidationError);
    expect(await rejection(admin.updateEnvironment('ops', 'other', 'prod', { default: true }))).toBeInstanceOf(NotFoundError);
  });
});

describe('accesses', () => {
  async function withAccess() {
    const context = setup();
    await context.admin.createAccount('ops', { id: 'acme' });
    await context.admin.createEnvironment('ops', 'acme', { id: 'prod' });
    const created = await context.admin.createAccess('ops', 'acme', {
      name: 'deploy',
      environments: ['prod'],
      actions: ['campaigns.read'],
    });
    return { ...context, created };
  }

  it('creates with the secret shown once; the preview shows a hint, created, last used, revoked', async () => {
    const { abkit, admin, created, advance } = await withAccess();
    expect(created).toMatchObject({ name: 'deploy', environments: ['prod'], actions: ['campaigns.read'], createdAt: T0 });
    advance(1000);
    await abkit.tokens.issue({ accountId: 'acme', clientId: created.clientId, clientSecret: created.clientSecret });
    const { accesses } = await admin.listAccesses('acme');
    expect(accesses).toEqual([
      expect.objectContaining({
        id: created.id,
        name: 'deploy',
        clientIdHint: `…${created.clientId.slice(-4)}`,
        createdAt: T0,
        lastUsedAt: T0 + 1000,
        revokedAt: null,
      }),
    ]);
    const text = JSON.stringify(accesses);
    expect(text).not.toContain(created.clientSecret);
    expect(text).not.toContain(created.clientId);
    expect(await rejection(admin.listAccesses('nobody'))).toBeInstanceOf(NotFoundError);
  });

  it('names a bad field and an unknown environment', async () => {
    const { admin } = await withAccess();
    const error = await rejection(admin.createAccess('ops', 'acme', { name: 'x', environments: ['nope'], actions: ['campaigns.fly'] }));
    expect((error as ValidationError).details.map((d) => d.path)).toEqual([
      ['actions', 0],
      ['environments', 0],
    ]);
  });

  it('revoking stops its tokens at once', async () => {
    const { abkit, admin, created } = await withAccess();
    const { accessToken } = await abkit.tokens.issue({ accountId: 'acme', clientId: created.clientId, clientSecret: created.clientSecret });
    const need = { account: 'acme', action: 'campaigns.read', environment: 'prod' };
    await abkit.tokens.authorize(accessToken, need);
    expect((await admin.revokeAccess('ops', 'acme', created.id)).status).toBe('revoked');
    await expect(abkit.tokens.authorize(accessToken, need)).rejects.toBeInstanceOf(AuthenticationError);
    expect(await rejection(admin.revokeAccess('ops', 'globex', created.id))).toBeInstanceOf(NotFoundError);
  });

  it('rotating gives a new secret once and the old one gets no token', async () => {
    const { abkit, admin, created } = await withAccess();
    const rotated = await admin.rotateAccess('ops', 'acme', created.id);
    expect(rotated.clientIdHint).toBe(`…${created.clientId.slice(-4)}`);
    await expect(
      abkit.tokens.issue({ accountId: 'acme', clientId: created.clientId, clientSecret: created.clientSecret }),
    ).rejects.toBeInstanceOf(AuthenticationError);
    await abkit.tokens.issue({ accountId: 'acme', clientId: created.clientId, clientSecret: rotated.clientSecret });
    await admin.revokeAccess('ops', 'acme', created.id);
    expect(await rejection(admin.rotateAccess('ops', 'acme', created.id))).toBeInstanceOf(ConflictError);
  });
});

describe('catalogs', () => {
  it('creates one with its keys shown once and its settings; rotates keys; syncs', async () => {
    const { abkit, admin } = setup();
    const created = await admin.createCatalog('ops', {
      identifier: 'shop',
      syncIntervalMs: 60_000,
      search: { customRanking: ['price:asc'] },
    });
    expect(created).toMatchObject({ identifier: 'shop', syncIntervalMs: 60_000, search: { customRanking: ['price:asc'] } });
    expect((await abkit.catalogs.authenticate(created.catalogApiKey))?.role).toBe('catalog');
    expect((await abkit.catalogs.authenticate(created.searchApiKey))?.role).toBe('search');
    expect(admin.searchSettings('shop')).toEqual({ customRanking: ['price:asc'] });
    expect(await admin.listCatalogs()).toEqual({
      catalogs: [{ identifier: 'shop', syncIntervalMs: 60_000, search: { customRanking: ['price:asc'] } }],
    });

    const keys = await admin.rotateCatalogKeys('ops', 'shop');
    expect(keys.searchApiKey).toBeUndefined();
    expect(await abkit.catalogs.authenticate(created.catalogApiKey)).toBeUndefined();
    expect((await abkit.catalogs.authenticate(keys.catalogApiKey))?.role).toBe('catalog');
    expect((await abkit.catalogs.authenticate(created.searchApiKey))?.role).toBe('search');
    const both = await admin.rotateCatalogKeys('ops', 'shop', { search: true });
    expect(await abkit.catalogs.authenticate(created.searchApiKey)).toBeUndefined();
    expect((await abkit.catalogs.authenticate(both.searchApiKey!))?.role).toBe('search');

    await (await abkit.catalogs.get('shop')).put({
      id: 'p1',
      is_recommendable: true,
      name: 'P',
      absolute_link: null,
      img_link: null,
      price: 1,
      categories_ids: null,
    });
    expect((await admin.syncCatalog('ops', 'shop')).count).toBe(1);
    expect(await rejection(admin.syncCatalog('ops', 'nope'))).toBeInstanceOf(NotFoundError);
    admin.stop();
  });

  it('changes settings, naming a bad one, and refuses an unknown catalog', async () => {
    const { admin } = setup();
    await admin.createCatalog('ops', { identifier: 'shop' });
    expect(await admin.catalogSettings('shop')).toEqual({ identifier: 'shop', syncIntervalMs: null, search: null });
    expect(await admin.updateCatalogSettings('ops', 'shop', { syncIntervalMs: 5000 })).toEqual({
      identifier: 'shop',
      syncIntervalMs: 5000,
      search: null,
    });
    const bad = await rejection(
      admin.updateCatalogSettings('ops', 'shop', { syncIntervalMs: 10, search: { matchingStrategy: 'any' } as never }),
    );
    expect((bad as ValidationError).details.map((d) => d.path)).toEqual([['syncIntervalMs'], ['search', 'matchingStrategy']]);
    const big = await rejection(
      admin.updateCatalogSettings('ops', 'shop', { search: { stopWords: ['x'.repeat(ADMIN_LIMITS.searchSettingsBytes)] } }),
    );
    expect((big as ValidationError).details[0]?.path).toEqual(['search']);
    expect(await rejection(admin.updateCatalogSettings('ops', 'nope', { syncIntervalMs: 5000 }))).toBeInstanceOf(NotFoundError);
    const badId = await rejection(admin.createCatalog('ops', { identifier: 'Not A Label' }));
    expect((badId as ValidationError).details[0]?.path).toEqual(['identifier']);
    expect(await admin.updateCatalogSettings('ops', 'shop', { syncIntervalMs: null })).toMatchObject({ syncIntervalMs: null });
    admin.stop();
  });

  it('a new instance over the same storage picks the stored settings up at start', async () => {
    const storage = memoryStorage();
    const first = createAbkit({ storage });
    await first.admin.createCatalog('ops', { identifier: 'shop', syncIntervalMs: 3_600_000, search: { facets: ['brand'] } });
    first.admin.stop();
    const second = createAbkit({ storage });
    expect(second.admin.searchSettings('shop')).toBeUndefined();
    expect(await second.admin.start()).toEqual(['shop']);
    expect(second.admin.searchSettings('shop')).toEqual({ facets: ['brand'] });
    second.admin.stop();
  });
});

describe('panic, campaigns and schema fields', () => {
  async function withEnvironment() {
    const s = setup();
    await s.admin.createAccount('ops', { id: 'acme' });
    await s.admin.createEnvironment('ops', 'acme', { id: 'prod' });
    return s;
  }

  it('switches panic through the remote control, auditing it and a refusal', async () => {
    const { abkit, admin } = await withEnvironment();
    expect((await admin.setPanic('alice', 'acme', 'prod', true)).config.panic).toBe(true);
    expect((await abkit.engine.getEnvironment('prod'))!.config.panic).toBe(true);
    expect(await rejection(admin.setPanic('bob', 'other', 'prod', false))).toBeInstanceOf(NotFoundError);
    const bad = await rejection(admin.setPanic('bob', 'acme', 'prod', 'yes' as unknown as boolean));
    expect((bad as ValidationError).details[0]?.path).toEqual(['panic']);
    expect((await abkit.engine.getEnvironment('prod'))!.config.panic).toBe(true);
    const entries = (await auditOf(admin)).slice(0, 3);
    expect(entries.map((e) => [e.actor, e.action, e.target, e.outcome, e.detail])).toEqual([
      ['bob', 'environment.panic', 'accounts/acme/environments/prod', 'validation_error', null],
      ['bob', 'environment.panic', 'accounts/other/environments/prod', 'not_found', { panic: false }],
      ['alice', 'environment.panic', 'accounts/acme/environments/prod', 'ok', { panic: true }],
    ]);
  });

  it('puts a campaign through the remote control, auditing it and a refusal', async () => {
    const { abkit, admin } = await withEnvironment();
    await admin.putCampaign('alice', 'acme', 'prod', 'checkout', campaign({ id: 'checkout', split: [50, 50] }));
    const stored = (await abkit.engine.getEnvironment('prod'))!.config.campaigns;
    expect(stored.map((c) => [c.id, c.variationGroups[0]!.variations.map((v) => v.allocation)])).toEqual([['checkout', [50, 50]]]);
    const bad = await rejection(admin.putCampaign('bob', 'acme', 'prod', 'checkout', campaign({ id: 'checkout', split: [70, 50] })));
    expect(bad).toBeInstanceOf(ValidationError);
    expect(
      await rejection(admin.putCampaign('bob', 'acme', 'nope', 'checkout', campaign({ id: 'checkout', split: [100] }))),
    ).toBeInstanceOf(NotFoundError);
    expect((await abkit.engine.getEnvironment('prod'))!.config.campaigns[0]!.variationGroups[0]!.variations[0]!.allocation).toBe(50);
    const entries = (await auditOf(admin)).slice(0, 3);
    expect(entries.map((e) => [e.actor, e.action, e.target, e.outcome])).toEqual([
      ['bob', 'campaign.put', 'accounts/acme/environments/nope/campaigns/checkout', 'not_found'],
      ['bob', 'campaign.put', 'accounts/acme/environments/prod/campaigns/checkout', 'validation_error'],
      ['alice', 'campaign.put', 'accounts/acme/environments/prod/campaigns/checkout', 'ok'],
    ]);
  });

  it('writes to an environment one at a time with the remote control of the instance: no change is lost', async () => {
    const { abkit, admin } = await withEnvironment();
    await Promise.all([
      admin.putCampaign('alice', 'acme', 'prod', 'a', campaign({ id: 'a', split: [100] })),
      abkit.remote.putCampaign('acme', 'prod', 'b', campaign({ id: 'b', split: [100] })),
      admin.setPanic('alice', 'acme', 'prod', true),
      admin.putCampaign('bob', 'acme', 'prod', 'c', campaign({ id: 'c', split: [100] })),
    ]);
    const { config } = (await abkit.engine.getEnvironment('prod'))!;
    expect(config.campaigns.map((c) => c.id).sort()).toEqual(['a', 'b', 'c']);
    expect(config.panic).toBe(true);
  });

  it('deletes a schema field, auditing it and the refusals (unknown, standard, unknown catalog)', async () => {
    const { abkit, admin } = setup();
    await admin.createCatalog('ops', { identifier: 'shop' });
    const item = { id: 'p1', is_recommendable: true, name: 'P', absolute_link: null, img_link: null, price: 1, categories_ids: null };
    await (await abkit.catalogs.get('shop')).put({ ...item, brand: 'Fleet' });
    await admin.deleteSchemaField('alice', 'shop', 'brand');
    expect((await (await abkit.catalogs.get('shop')).schema()).fields.map((f) => f.name)).not.toContain('brand');
    expect(await rejection(admin.deleteSchemaField('bob', 'shop', 'brand'))).toBeInstanceOf(NotFoundError);
    expect(await rejection(admin.deleteSchemaField('bob', 'shop', 'price'))).toBeInstanceOf(ValidationError);
    expect(await rejection(admin.deleteSchemaField('bob', 'nope', 'brand'))).toBeInstanceOf(NotFoundError);
    const entries = (await auditOf(admin)).slice(0, 4);
    expect(entries.map((e) => [e.actor, e.action, e.target, e.outcome])).toEqual([
      ['bob', 'catalog.field.delete', 'catalogs/nope/fields/brand', 'not_found'],
      ['bob', 'catalog.field.delete', 'catalogs/shop/fields/price', 'standard_field'],
      ['bob', 'catalog.field.delete', 'catalogs/shop/fields/brand', 'not_found'],
      ['alice', 'catalog.field.delete', 'catalogs/shop/fields/brand', 'ok'],
    ]);
    admin.stop();
  });

  it('refuses a bad actor before changing anything', async () => {
    const { abkit, admin } = await withEnvironment();
    const before = (await auditOf(admin)).length;
    for (const call of [
      admin.setPanic('', 'acme', 'prod', true),
      admin.putCampaign('', 'acme', 'prod', 'a', campaign({ id: 'a', split: [100] })),
      admin.deleteSchemaField('', 'shop', 'brand'),
    ])
      expect(((await rejection(call)) as ValidationError).details[0]?.path).toEqual(['actor']);
    expect((await abkit.engine.getEnvironment('prod'))!.config).toMatchObject({ campaigns: [] });
    expect((await abkit.engine.getEnvironment('prod'))!.config.panic).not.toBe(true);
    expect(await auditOf(admin)).toHaveLength(before);
  });

  it('refuses a remote control built on another engine', () => {
    const { abkit } = setup();
    const { storage, engine, accesses, tokens, catalogs } = abkit;
    expect(() => new AdminService({ storage, engine, accesses, tokens, catalogs, remote: createAbkit().remote })).toThrow(
      /AdminService: remote must be a RemoteControl built on `engine`/,
    );
  });
});

describe('the audit log', () => {
  it('has one entry per change, failures included, newest first, with the actor, target and outcome', async () => {
    const { admin, advance } = setup();
    await admin.createAccount('alice', { id: 'acme' });
    advance(10);
    await rejection(admin.createAccount('bob', { id: 'acme' }));
    advance(10);
    const { id } = await admin.createAccess('alice', 'acme', { name: 'deploy', actions: ['campaigns.read'] });
    await admin.listAccesses('acme'); // a read: not audited
    await admin.rotateAccess('alice', 'acme', id);
    await admin.revokeAccess('bob', 'acme', id);
    await rejection(admin.revokeAccess('bob', 'acme', 'acc_nope'));
    const entries = await auditOf(admin);
    expect(entries.map((e) => [e.actor, e.action, e.target, e.outcome])).toEqual([
      ['bob', 'access.revoke', 'accounts/acme/accesses/acc_nope', 'not_found'],
      ['bob', 'access.revoke', `accounts/acme/accesses/${id}`, 'ok'],
      ['alice', 'access.rotate', `accounts/acme/accesses/${id}`, 'ok'],
      ['alice', 'access.create', 'accounts/acme/accesses', 'ok'],
      ['bob', 'account.create', 'accounts/acme', 'conflict'],
      ['alice', 'account.create', 'accounts/acme', 'ok'],
    ]);
    expect(entries.map((e) => e.time).reverse()).toEqual([T0, T0 + 10, T0 + 20, T0 + 20, T0 + 20, T0 + 20]);
    expect(entries[3]?.detail).toMatchObject({ id, name: 'deploy', actions: ['campaigns.read'] });
  });

  it('pages with a cursor and checks its parameters', async () => {
    const { admin } = setup();
    for (let i = 0; i < 5; i++) await admin.createAccount('ops', { id: `a${i}` });
    const first = await admin.audit({ limit: 2 });
    expect(first.entries.map((e) => e.target)).toEqual(['accounts/a4', 'accounts/a3']);
    const second = await admin.audit({ limit: 2, before: first.next! });
    expect(second.entries.map((e) => e.target)).toEqual(['accounts/a2', 'accounts/a1']);
    const last = await admin.audit({ limit: 2, before: second.next! });
    expect(last).toEqual({ entries: [expect.objectContaining({ target: 'accounts/a0' })], next: null });
    for (const [options, path] of [
      [{ limit: 0 }, 'limit'],
      [{ limit: AUDIT_LIMITS.pageSize + 1 }, 'limit'],
      [{ before: -1 }, 'before'],
      [{ before: 1.5 }, 'before'],
    ] as const) {
      expect(((await rejection(admin.audit(options))) as ValidationError).details[0]?.path).toEqual([path]);
    }
  });

  it('holds no secret: neither the access secret, the client id, an environment key nor a catalog key', async () => {
    const { admin } = setup();
    await admin.createAccount('ops', { id: 'acme' });
    const secrets: string[] = [];
    const env = await admin.createEnvironment('ops', 'acme', { id: 'prod', apiKey: true });
    secrets.push(env.apiKey!);
    secrets.push((await admin.updateEnvironment('ops', 'acme', 'prod', { apiKey: 'rotate' })).apiKey!);
    const access = await admin.createAccess('ops', 'acme', { name: 'deploy', actions: ['campaigns.read'] });
    secrets.push(access.clientSecret, access.clientId);
    secrets.push((await admin.rotateAccess('ops', 'acme', access.id)).clientSecret);
    const catalog = await admin.createCatalog('ops', { identifier: 'shop' });
    secrets.push(catalog.catalogApiKey, catalog.searchApiKey);
    const keys = await admin.rotateCatalogKeys('ops', 'shop', { search: true });
    secrets.push(keys.catalogApiKey, keys.searchApiKey!);
    const everything = JSON.stringify([
      await auditOf(admin),
      await admin.listAccounts(),
      await admin.listAccesses('acme'),
      await admin.listCatalogs(),
    ]);
    for (const secret of secrets) expect(everything).not.toContain(secret);
    expect((await auditOf(admin)).length).toBe(7);
  });

  it('cuts a long target to its limit', async () => {
    const { admin } = setup();
    await rejection(admin.createEnvironment('ops', 'x'.repeat(1000), { id: 'prod' }));
    const [entry] = await auditOf(admin);
    expect(entry?.target.length).toBe(AUDIT_LIMITS.targetLength);
    expect(entry?.outcome).toBe('not_found');
  });
});
