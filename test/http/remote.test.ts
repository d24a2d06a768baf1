import { describe, expect, it } from 'vitest';
import { AccessManager, DecisionEngine, memoryStorage, RemoteControl, TokenService } from '../../src/index';
import { createRemoteControlHandler, remoteControlRoutes } from '../../src/http/remote';
import { decisionRoutes } from '../../src/http/decision';
import { handlerOf } from '../../src/http/router';
import { campaign, config } from '../helpers/configs';

const T0 = 1_700_000_000_000;
const BASE = 'http://api.abkit.test';
const PROD = '/v1/accounts/acme/environments/prod';

async function setup() {
  const storage = memoryStorage();
  let now = T0;
  const clock = () => now;
  const engine = new DecisionEngine({ storage, defaultEnvironment: 'prod', clock });
  await engine.load(
    config([
      { id: 'c1', split: [50, 50] },
      { id: 'c2', split: [100] },
    ]),
    { environment: 'prod', account: 'acme' },
  );
  await engine.load(config([{ id: 's1', split: [100] }]), { environment: 'staging', account: 'acme' });
  await engine.load(config([{ id: 'g1', split: [100] }]), { environment: 'gprod', account: 'globex' });
  const accesses = new AccessManager({ storage, clock });
  const tokens = new TokenService({ storage, accesses, clock });
  const remote = new RemoteControl({ engine });
  const errors: unknown[] = [];
  const onError = (e: unknown) => errors.push(e);
  const handler = handlerOf([remoteControlRoutes({ remote, tokens, onError }), decisionRoutes({ engine, onError })]);

  /** A token of a fresh acme access holding `actions` on `environments` (empty = all). */
  const tokenFor = async (actions: string[], environments: string[] = ['prod'], account = 'acme') => {
    const a = await accesses.createAccess({ account, name: `bot-${actions.join('+')}`, environments, actions });
    const issued = await tokens.issue({ accountId: account, clientId: a.clientId, clientSecret: a.clientSecret, expiresIn: 600 });
    return { token: issued.accessToken, access: a };
  };
  const call = (method: string, path: string, init: { token?: string; body?: unknown; headers?: Record<string, string> } = {}) => {
    const headers: Record<string, string> = { ...init.headers };
    if (init.token !== undefined) headers.authorization = `Bearer ${init.token}`;
    if (init.body !== undefined) headers['content-type'] = 'application/json';
    return handler(
      new Request(`${BASE}${path}`, {
        method,
        headers,
        body: init.body === undefined ? undefined : typeof init.body === 'string' ? init.body : JSON.stringify(init.body),
      }),
    );
  };
  const decide = async (visitorId: string) => {
    const res = await call('POST', '/v2/campaigns', { body: { visitor_id: visitorId, trigger_hit: false, visitor_consent: false } });
    expect(res.status).toBe(200);
    return (await res.json()) as { panic: boolean; campaigns: { id: string; variation: { id: string } }[] };
  };
  const all = await tokenFor(['campaigns.read', 'campaigns.write', 'panic.write', 'activations.read']);
  return {
    storage,
    engine,
    accesses,
    tokens,
    remote,
    handler,
    call,
    decide,
    tokenFor,
    token: all.token,
    access: all.access,
    errors,
    advance: (ms: number) => (now += ms),
  };
}

/** An error body `{ error, message, details? }` with JSON content type. */
async function errorBody(res: Response, status: number, error?: string) {
  expect(res.status).toBe(status);
  expect(res.headers.get('content-type')).toBe('application/json');
  const body = (await res.json()) as { error: string; message: string; details?: { path: string; message: string }[] };
  expect(typeof body.message).toBe('string');
  if (error !== undefined) expect(body.error).toBe(error);
  return body;
}

describe('GET/PUT configuration', () => {
  it('reads the configuration with its version as ETag', async () => {
    const { call, token } = await setup();
    const res = await call('GET', `${PROD}/configuration`, { token });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/json');
    expect(res.headers.get('etag')).toBe('"1"');
    const body = (await res.json()) as {
      account: string;
      environment: string;
      version: number;
      configuration: { campaigns: { id: string }[] };
    };
    expect(body).toMatchObject({ account: 'acme', environment: 'prod', version: 1 });
    expect(body.configuration.campaigns.map((c) => c.id)).toEqual(['c1', 'c2']);
  });

  it('replaces the configuration with a fresh If-Match; the decision interface serves it at once', async () => {
    const { call, token, decide } = await setup();
    const res = await call('PUT', `${PROD}/configuration`, {
      token,
      body: config([{ id: 'only', split: [100] }]),
      headers: { 'if-match': '"1"' },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('etag')).toBe('"2"');
    expect(await res.json()).toMatchObject({ version: 2 });
    expect((await decide('v1')).campaigns.map((c) => c.id)).toEqual(['only']);
  });

  it('a stale If-Match is 412 and changes nothing', async () => {
    const { call, token } = await setup();
    expect((await call('PUT', `${PROD}/configuration`, { token, body: config([]) })).status).toBe(200);
    const res = await call('PUT', `${PROD}/configuration`, {
      token,
      body: config([{ id: 'late', split: [100] }]),
      headers: { 'if-match': '"1"' },
    });
    await errorBody(res, 412, 'precondition_failed');
    const now = await call('GET', `${PROD}/configuration`, { token });
    expect(now.headers.get('etag')).toBe('"2"');
    expect(((await now.json()) as { configuration: { campaigns: unknown[] } }).configuration.campaigns).toEqual([]);
  });

  it('writes without If-Match never fail because another writer was faster; concurrent ones with the same If-Match: one 200, the rest 412 (issue #23)', async () => {
    const { call, token } = await setup();
    const ids = Array.from({ length: 30 }, (_, i) => `n${i}`);
    const puts = await Promise.all(
      ids.map((id) => call('PUT', `${PROD}/campaigns/${id}`, { token, body: campaign({ id, split: [100] }) })),
    );
    expect(puts.map((r) => r.status)).toEqual(ids.map(() => 200));
    const panics = await Promise.all(
      Array.from({ length: 20 }, (_, i) => call('PUT', `${PROD}/panic`, { token, body: { panic: i % 2 === 0 } })),
    );
    expect(panics.map((r) => r.status)).toEqual(panics.map(() => 200));
    const read = await call('GET', `${PROD}/configuration`, { token });
    expect(read.headers.get('etag')).toBe('"51"');
    const body = (await read.json()) as { configuration: { campaigns: { id: string }[] } };
    expect(body.configuration.campaigns.map((c) => c.id)).toEqual(['c1', 'c2', ...ids]);
    const racing = await Promise.all(
      [1, 2, 3].map(() => call('PUT', `${PROD}/configuration`, { token, body: config([]), headers: { 'if-match': '"51"' } })),
    );
    expect(racing.map((r) => r.status).sort()).toEqual([200, 412, 412]);
  });

  it('accepts a weak ETag in If-Match and refuses a malformed one with 400', async () => {
    const { call, token } = await setup();
    expect((await call('PUT', `${PROD}/configuration`, { token, body: config([]), headers: { 'if-match': 'W/"1"' } })).status).toBe(200);
    await errorBody(
      await call('PUT', `${PROD}/configuration`, { token, body: config([]), headers: { 'if-match': '2' } }),
      400,
      'invalid_request',
    );
  });

  it('an invalid configuration is 400 naming each problem by path', async () => {
    const { call, token } = await setup();
    const bad = config([{ id: 'c1', split: [60, 60] }]) as unknown as { campaigns: Record<string, unknown>[] };
    delete bad.campaigns[0]!.type;
    const body = await errorBody(await call('PUT', `${PROD}/configuration`, { token, body: bad }), 400);
    const paths = body.details!.map((d) => d.path);
    expect(paths).toContain('campaigns[0].type');
    expect(paths).toContain('campaigns[0].variationGroups[0].variations');
    await errorBody(await call('PUT', `${PROD}/configuration`, { token, body: '{"campaigns":' }), 400);
  });
});

describe('GET/PUT/DELETE campaigns/{id}', () => {
  it('reads one campaign; 404 for an unknown one', async () => {
    const { call, token } = await setup();
    const res = await call('GET', `${PROD}/campaigns/c2`, { token });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ id: 'c2', type: 'ab' });
    await errorBody(await call('GET', `${PROD}/campaigns/nope`, { token }), 404, 'not_found');
  });

  it('replaces one campaign and answers the new version', async () => {
    const { call, token, decide } = await setup();
    const res = await call('PUT', `${PROD}/campaigns/c1`, { token, body: campaign({ id: 'c1', split: [100, 0] }) });
    expect(res.status).toBe(200);
    expect(res.headers.get('etag')).toBe('"2"');
    expect(await res.json()).toMatchObject({ environment: 'prod', version: 2, campaign: { id: 'c1' } });
    for (const v of ['a', 'b', 'c', 'd']) expect((await decide(v)).campaigns.find((c) => c.id === 'c1')?.variation.id).toBe('c1-v0');
  });

  it('a body id that differs from the path is 400', async () => {
    const { call, token } = await setup();
    const body = await errorBody(await call('PUT', `${PROD}/campaigns/c1`, { token, body: campaign({ id: 'c2', split: [100] }) }), 400);
    expect(body.details).toEqual([{ path: 'id', message: expect.any(String) }]);
    expect(body.message).toMatch(/"c2".*"c1"/);
  });

  it('an invalid campaign is 400 naming each problem by path', async () => {
    const { call, token } = await setup();
    const bad = campaign({ id: 'c1', split: [70, 70] }) as unknown as Record<string, unknown>;
    delete bad.type;
    const body = await errorBody(await call('PUT', `${PROD}/campaigns/c1`, { token, body: bad }), 400);
    const paths = body.details!.map((d) => d.path);
    expect(paths).toContain('type');
    expect(paths).toContain('variationGroups[0].variations');
  });

  it('deletes one campaign; a second delete is 404', async () => {
    const { call, token, decide } = await setup();
    const res = await call('DELETE', `${PROD}/campaigns/c2`, { token });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ environment: 'prod', version: 2 });
    expect((await decide('v')).campaigns.map((c) => c.id)).not.toContain('c2');
    await errorBody(await call('DELETE', `${PROD}/campaigns/c2`, { token }), 404);
  });

  it('decodes a percent-encoded campaign id', async () => {
    const { call, token } = await setup();
    const res = await call('PUT', `${PROD}/campaigns/${encodeURIComponent('new one')}`, {
      token,
      body: campaign({ id: 'new one', split: [100] }),
    });
    expect(res.status).toBe(200);
    expect((await call('GET', `${PROD}/campaigns/new%20one`, { token })).status).toBe(200);
  });
});

describe('GET/PUT panic', () => {
  it('switches panic mode: /v2/campaigns then answers panic true and no campaign', async () => {
    const { call, token, decide } = await setup();
    expect(await (await call('GET', `${PROD}/panic`, { token })).json()).toEqual({ panic: false, version: 1 });
    const on = await call('PUT', `${PROD}/panic`, { token, body: { panic: true } });
    expect(on.status).toBe(200);
    expect(await on.json()).toEqual({ panic: true, version: 2 });
    expect(await decide('v1')).toEqual({ visitor_id: 'v1', panic: true, campaigns: [] });
    expect(await (await call('GET', `${PROD}/panic`, { token })).json()).toEqual({ panic: true, version: 2 });
    await call('PUT', `${PROD}/panic`, { token, body: { panic: false } });
    expect((await decide('v1')).campaigns).toHaveLength(2);
  });

  it.each([[{ panic: 'yes' }], [{}], [[]], ['']])('a body %j is 400 naming panic', async (payload) => {
    const { call, token } = await setup();
    const body = await errorBody(await call('PUT', `${PROD}/panic`, { token, body: payload === '' ? ' ' : payload }), 400);
    expect(body.details).toEqual([{ path: 'panic', message: expect.any(String) }]);
  });

  it('needs panic.write: campaigns.write is not enough', async () => {
    const { call, tokenFor } = await setup();
    const { token } = await tokenFor(['campaigns.read', 'campaigns.write']);
    const res = await call('PUT', `${PROD}/panic`, { token, body: { panic: true } });
    await errorBody(res, 403, 'insufficient_scope');
    expect(res.headers.get('www-authenticate')).toMatch(/scope="panic\.write"/);
  });
});

describe('GET campaigns', () => {
  it('lists the campaigns (id, slug, name, type, status) with campaigns.read; panic shows in status', async () => {
    const { call, tokenFor, engine } = await setup();
    await engine.load(
      {
        campaigns: [
          { ...config([{ id: 'c1', slug: 'first', split: [50, 50] }]).campaigns[0]!, name: 'First test' },
          ...config([{ id: 'c2', type: 'toggle', split: [100] }]).campaigns,
        ],
      },
      { environment: 'prod', account: 'acme' },
    );
    const { token } = await tokenFor(['campaigns.read']);
    const res = await call('GET', `${PROD}/campaigns`, { token });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({
      campaigns: [
        { id: 'c1', slug: 'first', name: 'First test', type: 'ab', status: 'active' },
        { id: 'c2', slug: null, name: null, type: 'toggle', status: 'active' },
      ],
    });
    const writer = await tokenFor(['panic.write']);
    expect((await call('PUT', `${PROD}/panic`, { token: writer.token, body: { panic: true } })).status).toBe(200);
    const panicked = (await (await call('GET', `${PROD}/campaigns`, { token })).json()) as { campaigns: { status: string }[] };
    expect(panicked.campaigns.map((c) => c.status)).toEqual(['panic', 'panic']);
  });

  it('has the same auth rules as the other routes: token, action, environment, account', async () => {
    const { call, tokenFor } = await setup();
    await errorBody(await call('GET', `${PROD}/campaigns`), 401);
    await errorBody(
      await call('GET', `${PROD}/campaigns`, { token: (await tokenFor(['activations.read'])).token }),
      403,
      'insufficient_scope',
    );
    const narrow = (await tokenFor(['campaigns.read'], ['staging'])).token;
    expect((await call('GET', `${PROD}/campaigns`, { token: narrow })).status).toBe(403);
    expect((await call('GET', '/v1/accounts/acme/environments/staging/campaigns', { token: narrow })).status).toBe(200);
    const all = (await tokenFor(['campaigns.read'], [])).token;
    await errorBody(await call('GET', '/v1/accounts/acme/environments/gprod/campaigns', { token: all }), 404, 'not_found');
    const post = await call('POST', `${PROD}/campaigns`, { token: all, body: {} });
    expect(post.status).toBe(405);
    expect(post.headers.get('allow')).toBe('GET, HEAD');
  });
});

describe('GET activations', () => {
  it('lists activations with activations.read, filtered by visitor_id and limit', async () => {
    const { call, tokenFor } = await setup();
    await call('POST', '/v2/campaigns', { body: { visitor_id: 'alice' } });
    await call('POST', '/v2/campaigns', { body: { visitor_id: 'bob' } });
    const { token } = await tokenFor(['activations.read']);
    const res = await call('GET', `${PROD}/activations`, { token });
    expect(res.status).toBe(200);
    const body = (await res.json()) as { activations: { visitorId: string; campaignId: string }[] };
    expect(body.activations.map((a) => `${a.visitorId}:${a.campaignId}`)).toEqual(['alice:c1', 'alice:c2', 'bob:c1', 'bob:c2']);
    const alice = (await (await call('GET', `${PROD}/activations?visitor_id=alice&limit=1`, { token })).json()) as {
      activations: unknown[];
    };
    expect(alice.activations).toEqual([expect.objectContaining({ visitorId: 'alice', campaignId: 'c1' })]);
    await errorBody(await call('GET', `${PROD}/activations?limit=-1`, { token }), 400);
  });

  it('campaigns.read does not grant activations.read', async () => {
    const { call, tokenFor } = await setup();
    const { token } = await tokenFor(['campaigns.read']);
    await errorBody(await call('GET', `${PROD}/activations`, { token }), 403, 'insufficient_scope');
  });
});

describe('routing', () => {
  it('404 for an unknown environment, and for an environment of another account', async () => {
    const { call, tokenFor } = await setup();
    const { token } = await tokenFor(['campaigns.read'], []);
    await errorBody(await call('GET', '/v1/accounts/acme/environments/nowhere/configuration', { token }), 404, 'not_found');
    const other = await errorBody(await call('GET', '/v1/accounts/acme/environments/gprod/configuration', { token }), 404, 'not_found');
    expect(other.message).not.toMatch(/g1/);
    // A token restricted to prod answers the same for both: nothing tells which environment exists elsewhere.
    const narrow = (await tokenFor(['campaigns.read'], ['prod'])).token;
    const unknown = await call('GET', '/v1/accounts/acme/environments/nowhere/configuration', { token: narrow });
    const foreign = await call('GET', '/v1/accounts/acme/environments/gprod/configuration', { token: narrow });
    expect([unknown.status, foreign.status]).toEqual([403, 403]);
  });

  it('405 with Allow for a method a route does not take', async () => {
    const { call, token } = await setup();
    const cases: [string, string, string][] = [
      ['POST', `${PROD}/configuration`, 'GET, HEAD, PUT'],
      ['DELETE', `${PROD}/configuration`, 'GET, HEAD, PUT'],
      ['PATCH', `${PROD}/campaigns/c1`, 'GET, HEAD, PUT, DELETE'],
      ['DELETE', `${PROD}/panic`, 'GET, HEAD, PUT'],
      ['PUT', `${PROD}/activations`, 'GET, HEAD'],
    ];
    for (const [method, path, allow] of cases) {
      const res = await call(method, path, { token, body: method === 'GET' ? undefined : {} });
      expect(res.status, `${method} ${path}`).toBe(405);
      expect(res.headers.get('allow')).toBe(allow);
    }
  });

  it('paths it does not own fall through to the 404 of the composed handler', async () => {
    const { call, token } = await setup();
    for (const path of [`${PROD}/nothing`, `${PROD}/campaign`, `${PROD}/campaigns/c1/extra`, '/v1/accounts/acme']) {
      expect((await call('GET', path, { token })).status).toBe(404);
    }
  });

  it('createRemoteControlHandler serves the same routes alone', async () => {
    const { remote, tokens, token } = await setup();
    const alone = createRemoteControlHandler({ remote, tokens, prefix: '/admin' });
    const res = await alone(new Request(`${BASE}/admin${PROD}/configuration`, { headers: { authorization: `Bearer ${token}` } }));
    expect(res.status).toBe(200);
    expect((await alone(new Request(`${BASE}/v2/campaigns`, { method: 'POST', body: '{}' }))).status).toBe(404);
  });
});

describe('refusals (RFC 6750)', () => {
  it('a missing Authorization header is 401 with a bare Bearer challenge', async () => {
    const { call } = await setup();
    const res = await call('GET', `${PROD}/configuration`);
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toBe('Bearer realm="abkit"');
    await errorBody(res, 401);
  });

  it.each([['Bearer'], ['Bearer '], ['Basic abc'], ['Bearer a b'], ['Token abk_at_x'], ['Bearer abk_at_"x"']])(
    'a malformed header %j is 400 invalid_request',
    async (authorization) => {
      const { call } = await setup();
      const res = await call('GET', `${PROD}/configuration`, { headers: { authorization } });
      await errorBody(res, 400, 'invalid_request');
      expect(res.headers.get('www-authenticate')).toMatch(/^Bearer realm="abkit", error="invalid_request"/);
    },
  );

  // RFC 7235 §2.1: the authentication scheme is case-insensitive; RFC 6750 §2.1: "Bearer" 1*SP b64token.
  it('accepts the Bearer scheme in any case, and more than one space before the token', async () => {
    const { call, token } = await setup();
    for (const authorization of [`bearer ${token}`, `BEARER ${token}`, `Bearer  ${token}`]) {
      const res = await call('GET', `${PROD}/configuration`, { headers: { authorization } });
      expect(res.status, authorization.slice(0, 8)).toBe(200);
    }
  });

  it('an unknown token is 401 invalid_token', async () => {
    const { call } = await setup();
    const res = await call('GET', `${PROD}/configuration`, { token: `abk_at_${'Z'.repeat(43)}` });
    await errorBody(res, 401, 'invalid_token');
    expect(res.headers.get('www-authenticate')).toMatch(/^Bearer realm="abkit", error="invalid_token"/);
  });

  it('an expired token is 401 invalid_token with WWW-Authenticate', async () => {
    const { call, token, advance } = await setup();
    expect((await call('GET', `${PROD}/configuration`, { token })).status).toBe(200);
    advance(600_000);
    const res = await call('GET', `${PROD}/configuration`, { token });
    await errorBody(res, 401, 'invalid_token');
    expect(res.headers.get('www-authenticate')).toMatch(/^Bearer realm="abkit", error="invalid_token"/);
  });

  it("a revoked access's token is 401 invalid_token", async () => {
    const { call, token, accesses, access } = await setup();
    expect((await call('GET', `${PROD}/configuration`, { token })).status).toBe(200);
    await accesses.revokeAccess(access.id);
    const res = await call('GET', `${PROD}/configuration`, { token });
    await errorBody(res, 401, 'invalid_token');
    expect(res.headers.get('www-authenticate')).toMatch(/error="invalid_token"/);
  });

  it('an action not held is 403 insufficient_scope naming the scope needed', async () => {
    const { call, tokenFor, decide } = await setup();
    const { token } = await tokenFor(['campaigns.read']);
    const res = await call('PUT', `${PROD}/campaigns/c1`, { token, body: campaign({ id: 'c1', split: [100, 0] }) });
    await errorBody(res, 403, 'insufficient_scope');
    const challenge = res.headers.get('www-authenticate') ?? '';
    expect(challenge).toMatch(/^Bearer realm="abkit"/);
    expect(challenge).toContain('error="insufficient_scope"');
    expect(challenge).toContain('scope="campaigns.write"');
    // Nothing changed.
    const seen = new Set<string | undefined>();
    for (let i = 0; i < 40; i++) seen.add((await decide(`v${i}`)).campaigns.find((c) => c.id === 'c1')?.variation.id);
    expect(seen).toEqual(new Set(['c1-v0', 'c1-v1']));
  });

  it('an action held by the access but left out of the token scope is 403', async () => {
    const { call, accesses, tokens } = await setup();
    const a = await accesses.createAccess({
      account: 'acme',
      name: 'narrow',
      environments: ['prod'],
      actions: ['campaigns.read', 'campaigns.write'],
    });
    const { accessToken } = await tokens.issue({
      accountId: 'acme',
      clientId: a.clientId,
      clientSecret: a.clientSecret,
      scope: 'campaigns.read',
    });
    await errorBody(await call('DELETE', `${PROD}/campaigns/c1`, { token: accessToken }), 403, 'insufficient_scope');
  });

  it('an environment not held is 403', async () => {
    const { call, token } = await setup();
    const res = await call('GET', '/v1/accounts/acme/environments/staging/configuration', { token });
    await errorBody(res, 403, 'insufficient_scope');
    expect(res.headers.get('www-authenticate')).toContain('error="insufficient_scope"');
  });

  it("a token used in a different account's URL is 403", async () => {
    const { call, tokenFor } = await setup();
    const { token } = await tokenFor(['campaigns.read', 'campaigns.write'], []);
    await errorBody(await call('GET', '/v1/accounts/globex/environments/gprod/configuration', { token }), 403, 'insufficient_scope');
    await errorBody(await call('PUT', '/v1/accounts/globex/environments/gprod/panic', { token, body: { panic: true } }), 403);
  });

  it('a token of all environments reaches environments of its account only', async () => {
    const { call, tokenFor } = await setup();
    const { token } = await tokenFor(['campaigns.read'], []);
    expect((await call('GET', `${PROD}/configuration`, { token })).status).toBe(200);
    expect((await call('GET', '/v1/accounts/acme/environments/staging/configuration', { token })).status).toBe(200);
    expect((await call('GET', '/v1/accounts/acme/environments/gprod/configuration', { token })).status).toBe(404);
  });

  it('refusals never echo the token, and report nothing as an internal error', async () => {
    const { call, token, tokenFor, errors } = await setup();
    const narrow = (await tokenFor(['campaigns.read'])).token;
    const responses = [
      await call('PUT', `${PROD}/panic`, { token: narrow, body: { panic: true } }),
      await call('GET', '/v1/accounts/acme/environments/staging/configuration', { token: narrow }),
      await call('GET', '/v1/accounts/globex/environments/gprod/configuration', { token }),
      await call('GET', `${PROD}/configuration`, { headers: { authorization: `Bearer ${token} extra` } }),
      await call('GET', `${PROD}/configuration`, { token: `${token}x` }),
    ];
    for (const res of responses) {
      expect(res.status).toBeGreaterThanOrEqual(400);
      const text = JSON.stringify([...res.headers.entries()]) + (await res.text());
      expect(text).not.toContain(token.slice(7));
      expect(text).not.toContain(narrow.slice(7));
    }
    expect(errors).toEqual([]);
  });
});
