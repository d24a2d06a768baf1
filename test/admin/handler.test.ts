import { describe, expect, it } from 'vitest';
import { AdminKeys, newAdminKey } from '../../src/access/admin-keys';
import { createAdminHandler } from '../../src/http/admin';
import { createAbkit, createHandler } from '../../src/index';

const OPS_KEY = newAdminKey();
const CI_KEY = `ci-${'k'.repeat(40)}`;

function setup() {
  const keys = new AdminKeys([
    { name: 'ops', key: OPS_KEY },
    { name: 'ci-bot', key: CI_KEY },
  ]);
  const abkit = createAbkit({ tokens: { adminKeys: keys } });
  const admin = createAdminHandler({ abkit, keys });
  const api = abkit.handler();
  const call = async (method: string, path: string, body?: unknown, key: string | null = OPS_KEY) => {
    const headers: Record<string, string> = {};
    if (key !== null) headers.authorization = `Bearer ${key}`;
    if (body !== undefined) headers['content-type'] = 'application/json';
    const response = await admin(
      new Request(`http://localhost${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) }),
    );
    const text = await response.text();
    return { status: response.status, headers: response.headers, text, body: text === '' ? undefined : JSON.parse(text) };
  };
  return { abkit, admin, api, call };
}

async function token(api: (r: Request) => Promise<Response>, clientId: string, clientSecret: string) {
  const response = await api(
    new Request('http://localhost/acme/token', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ grant_type: 'client_credentials', client_id: clientId, client_secret: clientSecret }),
    }),
  );
  return { status: response.status, body: (await response.json()) as { access_token?: string } };
}

async function readConfiguration(api: (r: Request) => Promise<Response>, bearer: string) {
  return api(
    new Request('http://localhost/v1/accounts/acme/environments/prod/configuration', { headers: { authorization: `Bearer ${bearer}` } }),
  );
}

describe('admin API: authorization', () => {
  it('answers 401 without a credential, 403 for a wrong key, and audits nothing then', async () => {
    const { call } = setup();
    const none = await call('GET', '/admin/v1/accounts', undefined, null);
    expect(none.status).toBe(401);
    expect(none.headers.get('www-authenticate')).toMatch(/^Bearer/);
    expect(none.body).toMatchObject({ error: 'missing_token' });
    for (const [method, path] of [
      ['POST', '/admin/v1/accounts'],
      ['GET', '/admin/v1/audit'],
      ['DELETE', '/admin/v1/accounts/acme/accesses/acc_1'],
    ]) {
      expect((await call(method!, path!, undefined, `wrong-${'x'.repeat(40)}`)).status).toBe(403);
    }
    expect((await call('GET', '/admin/v1/audit')).body).toEqual({ entries: [], next: null });
  });

  it('accepts a host authorizer naming the actor, and refuses as it says', async () => {
    const abkit = createAbkit();
    const admin = createAdminHandler({ abkit, authorize: (request) => (request.headers.get('x-user') === 'alice' ? 'alice' : undefined) });
    const post = (headers: Record<string, string>) =>
      admin(new Request('http://localhost/admin/v1/accounts', { method: 'POST', headers, body: JSON.stringify({ id: 'acme' }) }));
    expect((await post({})).status).toBe(401);
    expect((await post({ 'x-user': 'mallory', authorization: 'Bearer whatever' })).status).toBe(403);
    expect((await post({ 'x-user': 'alice' })).status).toBe(201);
    expect((await abkit.admin.audit()).entries.map((e) => e.actor)).toEqual(['alice']);
  });

  it('refuses bad options with a TypeError', () => {
    const abkit = createAbkit();
    expect(() => createAdminHandler({ abkit })).toThrow(/give authorize .* or keys/);
    expect(() => createAdminHandler({ abkit, keys: [{ name: 'ops', key: 'short' }] })).toThrow(
      /keys\[0\]\.key \(ops\) must be at least 32/,
    );
    expect(() => createAdminHandler({ abkit: {} as never, keys: [] })).toThrow(/abkit must hold an AdminService/);
  });
});

describe('admin API: the account holder runs abkit without code', () => {
  it('creates an account, an environment, an access; a token works; revoke stops it; every change audited', async () => {
    const { call, api } = setup();
    expect((await call('POST', '/admin/v1/accounts', { id: 'acme' })).status).toBe(201);
    const env = await call('POST', '/admin/v1/accounts/acme/environments', { id: 'prod', default: true, apiKey: true });
    expect(env.status).toBe(201);
    expect(env.body).toMatchObject({ id: 'prod', default: true, apiKeyRequired: true, apiKey: expect.stringMatching(/^abk_ek_/) });
    const decide = (key?: string) =>
      api(
        new Request('http://localhost/v2/prod/campaigns', {
          method: 'POST',
          headers: { 'content-type': 'application/json', ...(key ? { 'x-api-key': key } : {}) },
          body: JSON.stringify({ visitor_id: 'v1', context: {} }),
        }),
      );
    expect((await decide()).status).toBe(401);
    expect((await decide(env.body.apiKey)).status).toBe(200);

    const created = await call('POST', '/admin/v1/accounts/acme/accesses', {
      name: 'deploy',
      environments: ['prod'],
      actions: ['campaigns.read'],
    });
    expect(created.status).toBe(201);
    expect(Object.keys(created.body).sort()).toEqual([
      'accountId',
      'actions',
      'clientId',
      'clientSecret',
      'createdAt',
      'environments',
      'id',
      'name',
    ]);
    const { clientId, clientSecret, id } = created.body;
    const issued = await token(api, clientId, clientSecret);
    expect(issued.status).toBe(200);
    expect((await readConfiguration(api, issued.body.access_token!)).status).toBe(200);

    const list = await call('GET', '/admin/v1/accounts/acme/accesses');
    expect(list.body.accesses).toEqual([
      expect.objectContaining({
        id,
        name: 'deploy',
        environments: ['prod'],
        actions: ['campaigns.read'],
        revokedAt: null,
        lastUsedAt: expect.any(Number),
      }),
    ]);
    expect(list.text).not.toContain(clientSecret);
    expect(list.text).not.toContain(clientId);

    const revoked = await call('DELETE', `/admin/v1/accounts/acme/accesses/${id}`);
    expect(revoked.status).toBe(200);
    expect(revoked.body).toMatchObject({ id, status: 'revoked' });
    expect((await readConfiguration(api, issued.body.access_token!)).status).toBe(401);
    expect((await token(api, clientId, clientSecret)).status).toBe(401);

    const audit = await call('GET', '/admin/v1/audit');
    expect(audit.body.entries.map((e: { action: string; actor: string; outcome: string }) => [e.actor, e.action, e.outcome])).toEqual([
      ['ops', 'access.revoke', 'ok'],
      ['ops', 'access.create', 'ok'],
      ['ops', 'environment.create', 'ok'],
      ['ops', 'account.create', 'ok'],
    ]);
    for (const secret of [clientSecret, clientId, env.body.apiKey, OPS_KEY]) expect(audit.text).not.toContain(secret);
  });

  it('rotating an access: the new secret gets a token, the old one no longer', async () => {
    const { call, api } = setup();
    await call('POST', '/admin/v1/accounts', { id: 'acme' });
    await call('POST', '/admin/v1/accounts/acme/environments', { id: 'prod' });
    const { body: created } = await call('POST', '/admin/v1/accounts/acme/accesses', {
      name: 'deploy',
      environments: [],
      actions: ['campaigns.read'],
    });
    const rotated = await call('POST', `/admin/v1/accounts/acme/accesses/${created.id}/rotate`);
    expect(rotated.status).toBe(200);
    expect(rotated.body).toEqual({
      id: created.id,
      clientIdHint: `…${created.clientId.slice(-4)}`,
      clientSecret: expect.stringMatching(/^abk_cs_/),
    });
    expect((await token(api, created.clientId, created.clientSecret)).status).toBe(401);
    expect((await token(api, created.clientId, rotated.body.clientSecret)).status).toBe(200);
    expect((await call('GET', '/admin/v1/audit?limit=1')).body.entries[0]).toMatchObject({
      actor: 'ops',
      action: 'access.rotate',
      outcome: 'ok',
    });
  });

  it('environments: rotate and remove the key; set the default', async () => {
    const { call } = setup();
    await call('POST', '/admin/v1/accounts', { id: 'acme' });
    await call('POST', '/admin/v1/accounts/acme/environments', { id: 'prod', apiKey: true });
    const rotated = await call('PUT', '/admin/v1/accounts/acme/environments/prod', { apiKey: 'rotate', default: true });
    expect(rotated.body).toMatchObject({ apiKeyRequired: true, default: true, apiKey: expect.stringMatching(/^abk_ek_/) });
    const removed = await call('PUT', '/admin/v1/accounts/acme/environments/prod', { apiKey: 'remove' });
    expect(removed.body).toMatchObject({ apiKeyRequired: false, default: true });
    expect(removed.body.apiKey).toBeUndefined();
    const accounts = await call('GET', '/admin/v1/accounts');
    expect(accounts.body.accounts).toEqual([expect.objectContaining({ id: 'acme', defaultEnvironment: 'prod' })]);
    expect(accounts.text).not.toContain(rotated.body.apiKey);
  });

  it('catalogs: create with keys once, settings, key rotation, sync', async () => {
    const { call, api } = setup();
    const created = await call('POST', '/admin/v1/catalogs', { identifier: 'shop', syncIntervalMs: 3_600_000 });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ identifier: 'shop', syncIntervalMs: 3_600_000, search: null });
    const put = (key: string) =>
      api(
        new Request('http://localhost/indexes/catalog/p1', {
          method: 'PUT',
          headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
          body: JSON.stringify({
            id: 'p1',
            is_recommendable: true,
            name: 'Phone',
            absolute_link: null,
            img_link: null,
            price: 1,
            categories_ids: null,
          }),
        }),
      );
    expect((await put(created.body.catalogApiKey)).status).toBe(200);
    const settings = await call('PUT', '/admin/v1/catalogs/shop/settings', { search: { customRanking: ['price:asc'] } });
    expect(settings.body).toEqual({ identifier: 'shop', syncIntervalMs: 3_600_000, search: { customRanking: ['price:asc'] } });
    expect((await call('GET', '/admin/v1/catalogs/shop/settings')).body).toEqual(settings.body);
    const keys = await call('POST', '/admin/v1/catalogs/shop/keys', {});
    expect((await put(created.body.catalogApiKey)).status).toBe(401);
    expect((await put(keys.body.catalogApiKey)).status).toBe(200);
    const synced = await call('POST', '/admin/v1/catalogs/shop/sync');
    expect(synced).toMatchObject({ status: 200, body: { count: 1 } });
    expect((await call('GET', '/admin/v1/catalogs')).body).toEqual({ catalogs: [settings.body] });
    const audit = await call('GET', '/admin/v1/audit');
    expect(audit.body.entries.map((e: { action: string }) => e.action)).toEqual([
      'catalog.sync',
      'catalog.keys',
      'catalog.settings',
      'catalog.create',
    ]);
    for (const secret of [created.body.catalogApiKey, created.body.searchApiKey, keys.body.catalogApiKey])
      expect(audit.text).not.toContain(secret);
  });

  it('errors name the field, in { error, message, details }, and failures are audited', async () => {
    const { call } = setup();
    const bad = await call('POST', '/admin/v1/accounts', { id: 'no spaces' });
    expect(bad.status).toBe(400);
    expect(bad.body).toEqual({
      error: 'validation_error',
      message: expect.stringContaining('id'),
      details: [{ field: 'id', reason: expect.any(String) }],
    });
    expect((await call('POST', '/admin/v1/accounts', [1])).status).toBe(400);
    expect((await call('POST', '/admin/v1/accounts/nobody/environments', { id: 'prod' })).status).toBe(404);
    await call('POST', '/admin/v1/accounts', { id: 'acme' });
    expect((await call('POST', '/admin/v1/accounts', { id: 'acme' }, CI_KEY)).status).toBe(409);
    const unknownAction = await call('POST', '/admin/v1/accounts/acme/accesses', { name: 'x', actions: ['campaigns.fly'] });
    expect(unknownAction.body.details).toEqual([{ field: 'actions[0]', reason: expect.stringContaining('unknown action') }]);
    expect((await call('GET', '/admin/v1/audit?limit=0')).body.details).toEqual([{ field: 'limit', reason: expect.any(String) }]);
    expect((await call('GET', '/admin/v1/audit?before=x')).status).toBe(400);
    expect((await call('PATCH', '/admin/v1/accounts')).status).toBe(405);
    const audit = await call('GET', '/admin/v1/audit');
    expect(audit.body.entries.map((e: { actor: string; outcome: string }) => `${e.actor}:${e.outcome}`)).toEqual([
      'ops:validation_error',
      'ci-bot:conflict',
      'ops:ok',
      'ops:not_found',
      'ops:validation_error',
      'ops:validation_error',
    ]);
  });

  it('pages the audit log with next', async () => {
    const { call } = setup();
    for (let i = 0; i < 3; i++) await call('POST', '/admin/v1/accounts', { id: `a${i}` });
    const first = await call('GET', '/admin/v1/audit?limit=2');
    expect(first.body.entries.map((e: { target: string }) => e.target)).toEqual(['accounts/a2', 'accounts/a1']);
    const second = await call('GET', `/admin/v1/audit?limit=2&before=${first.body.next}`);
    expect(second.body).toEqual({ entries: [expect.objectContaining({ target: 'accounts/a0' })], next: null });
  });
});

describe('the admin key on the remote-control API', () => {
  it('holds every action on every account; another key is refused', async () => {
    const { call, api } = setup();
    await call('POST', '/admin/v1/accounts', { id: 'acme' });
    await call('POST', '/admin/v1/accounts/acme/environments', { id: 'prod' });
    expect((await readConfiguration(api, OPS_KEY)).status).toBe(200);
    const panic = await api(
      new Request('http://localhost/v1/accounts/acme/environments/prod/panic', {
        method: 'PUT',
        headers: { authorization: `Bearer ${CI_KEY}`, 'content-type': 'application/json' },
        body: JSON.stringify({ panic: true }),
      }),
    );
    expect(panic.status).toBe(200);
    expect((await readConfiguration(api, `wrong-${'x'.repeat(40)}`)).status).toBe(401);
    // Not a token: the token check does not call it active.
    const introspect = await api(new Request(`http://localhost/token?access_token=${OPS_KEY}`));
    expect(await introspect.json()).toMatchObject({ active: false });
    // An unknown environment is still a 404, whatever the credential.
    const other = await api(
      new Request('http://localhost/v1/accounts/acme/environments/nope/configuration', { headers: { authorization: `Bearer ${OPS_KEY}` } }),
    );
    expect(other.status).toBe(404);
  });

  it('an instance without admin keys refuses them', async () => {
    const abkit = createAbkit();
    await abkit.engine.load({ campaigns: [] }, { environment: 'prod', account: 'acme' });
    const handler = createHandler({ decision: abkit.engine, access: abkit.tokens });
    expect((await readConfiguration(handler, OPS_KEY)).status).toBe(401);
  });
});

describe('the admin API in the OpenAPI document', () => {
  it('describes every route of the table, with the admin key as its security, only when asked', async () => {
    const { openApiDocument } = await import('../../src/http/openapi');
    const { ADMIN_ROUTES } = await import('../../src/http/admin');
    const scope = { decision: false, access: false, remote: false, catalog: false, search: false, prefix: '' };
    const paths = openApiDocument({ ...scope, admin: true }).paths as Record<
      string,
      Record<string, { security?: unknown; summary?: string }>
    >;
    for (const route of ADMIN_ROUTES) {
      const operation = paths[route.path.replace(/:(\w+)/g, '{$1}')]?.[route.method.toLowerCase()];
      expect(operation?.summary, `${route.method} ${route.path}`).toEqual(expect.any(String));
      expect(operation?.security).toEqual([{ adminKey: [] }]);
    }
    expect(Object.keys(openApiDocument(scope).paths as object).some((p) => p.startsWith('/admin/'))).toBe(false);
  });
});
