import { afterEach, describe, expect, it, vi } from 'vitest';
import { AccessManager, memoryStorage, TokenService, type TokenServiceOptions } from '../../src/index';
import { createTokenHandler } from '../../src/http/token';

const T0 = 1_700_000_000_000;
const BASE = 'http://auth.abkit.test';

async function setup(
  options: { prefix?: string; maxBodyBytes?: number; tokens?: Omit<TokenServiceOptions, 'storage' | 'accesses' | 'clock'> } = {},
) {
  const storage = memoryStorage();
  for (const [id, accountId] of [
    ['prod', 'acme'],
    ['staging', 'acme'],
    ['gprod', 'globex'],
  ] as const) {
    await storage.environments.put({ id, accountId, config: { campaigns: [] } });
  }
  let now = T0;
  const clock = () => now;
  const accesses = new AccessManager({ storage, clock });
  const tokens = new TokenService({ storage, accesses, clock, ...options.tokens });
  const access = await accesses.createAccess({
    account: 'acme',
    name: 'bot',
    environments: ['prod'],
    actions: ['campaigns.read', 'campaigns.write'],
  });
  const errors: unknown[] = [];
  const handler = createTokenHandler({
    tokens,
    prefix: options.prefix,
    maxBodyBytes: options.maxBodyBytes,
    onError: (e) => errors.push(e),
  });
  const prefix = options.prefix ?? '';
  const valid = { grant_type: 'client_credentials', scope: '*', client_id: access.clientId, client_secret: access.clientSecret };

  /** POST /{account}/token with a JSON body (or a raw string body and content type). */
  const post = (account: string, body: unknown, init: { query?: string; headers?: Record<string, string> } = {}) =>
    handler(
      new Request(`${BASE}${prefix}/${account}/token${init.query ?? ''}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...init.headers },
        body: typeof body === 'string' ? body : JSON.stringify(body),
      }),
    );
  const check = (token: string) => handler(new Request(`${BASE}${prefix}/token?access_token=${encodeURIComponent(token)}`));
  const issue = async (over: Record<string, unknown> = {}, query = '') => {
    const res = await post('acme', { ...valid, ...over }, { query });
    expect(res.status).toBe(200);
    return (await res.json()) as { access_token: string; token_type: string; expires_in: number; scope: string };
  };
  return { storage, accesses, tokens, access, handler, post, check, issue, valid, errors, advance: (ms: number) => (now += ms) };
}

/** An RFC 6749 §5.2 error body: exactly { error, error_description }, JSON, not cacheable. */
async function oauthError(res: Response, status: number, error: string): Promise<string> {
  expect(res.status).toBe(status);
  expect(res.headers.get('content-type')).toBe('application/json');
  expect(res.headers.get('cache-control')).toBe('no-store');
  const body = (await res.json()) as Record<string, unknown>;
  expect(Object.keys(body).sort()).toEqual(['error', 'error_description']);
  expect(body.error).toBe(error);
  expect(typeof body.error_description).toBe('string');
  return body.error_description as string;
}

function basic(id: string, secret: string): string {
  return `Basic ${btoa(`${encodeURIComponent(id)}:${encodeURIComponent(secret)}`)}`;
}

describe('POST /{account_id}/token', () => {
  it('issues a token for the JSON body of interfaces.md, Tokens (RFC 6749 §5.1 response, no-store)', async () => {
    const { post, valid } = await setup();
    const res = await post('acme', valid);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/json');
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(res.headers.get('pragma')).toBe('no-cache');
    const body = (await res.json()) as Record<string, unknown>;
    expect(body).toEqual({
      access_token: expect.stringMatching(/^abk_at_[A-Za-z0-9_-]{43,}$/),
      token_type: 'Bearer',
      expires_in: 3600,
      scope: 'campaigns.read campaigns.write',
    });
  });

  it('accepts a form-encoded body', async () => {
    const { post, valid } = await setup();
    const res = await post('acme', new URLSearchParams(valid).toString(), {
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(await res.json()).toMatchObject({ token_type: 'Bearer', expires_in: 3600, scope: 'campaigns.read campaigns.write' });
  });

  it('accepts a form-encoded body with a charset parameter', async () => {
    const { post, valid } = await setup();
    const res = await post('acme', new URLSearchParams(valid).toString(), {
      headers: { 'content-type': 'application/x-www-form-urlencoded; charset=utf-8' },
    });
    expect(res.status).toBe(200);
  });

  it('accepts client credentials in HTTP Basic (RFC 6749 §2.3.1)', async () => {
    const { post, access } = await setup();
    const res = await post('acme', 'grant_type=client_credentials&scope=campaigns.read', {
      headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: basic(access.clientId, access.clientSecret) },
    });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ scope: 'campaigns.read' });
  });

  it('refuses credentials given both in Basic and in the body', async () => {
    const { post, access, valid } = await setup();
    const res = await post('acme', valid, { headers: { authorization: basic(access.clientId, access.clientSecret) } });
    await oauthError(res, 400, 'invalid_request');
  });

  it('refuses a malformed Basic header with invalid_request', async () => {
    const { post } = await setup();
    for (const authorization of ['Basic !!!', `Basic ${btoa('no-colon')}`, 'Digest abc']) {
      await oauthError(await post('acme', { grant_type: 'client_credentials' }, { headers: { authorization } }), 400, 'invalid_request');
    }
  });

  it('a subset scope gives exactly those actions', async () => {
    const { issue } = await setup();
    expect((await issue({ scope: 'campaigns.write' })).scope).toBe('campaigns.write');
  });

  describe('expires_in', () => {
    it.each([
      ['?expires_in=120', 120],
      ['?expires_in=0', 3600],
      ['', 3600],
      ['?expires_in=86400', 86_400],
      ['?expires_in=86401', 86_400],
      ['?expires_in=9999999999', 86_400],
    ])('query %s gives expires_in %s, and the token lives that long', async (query, expected) => {
      const { issue, check, advance } = await setup();
      const { access_token, expires_in } = await issue({}, query);
      expect(expires_in).toBe(expected);
      const active = (await (await check(access_token)).json()) as { exp: number; iat: number };
      expect(active.exp - active.iat).toBe(expected);
      advance(expected * 1000);
      expect(await (await check(access_token)).json()).toEqual({ active: false });
    });

    it('clamps to a configured maximum and states the real value', async () => {
      const { issue } = await setup({ tokens: { maxLifetimeSeconds: 600, defaultLifetimeSeconds: 300 } });
      expect((await issue({}, '?expires_in=601')).expires_in).toBe(600);
      expect((await issue({})).expires_in).toBe(300);
    });

    it('accepts expires_in in the body, as a number or a string; the query wins', async () => {
      const { issue } = await setup();
      expect((await issue({ expires_in: 60 })).expires_in).toBe(60);
      expect((await issue({ expires_in: '90' })).expires_in).toBe(90);
      expect((await issue({ expires_in: 60 }, '?expires_in=30')).expires_in).toBe(30);
    });

    it.each(['?expires_in=-1', '?expires_in=1.5', '?expires_in=abc', '?expires_in=1e3', '?expires_in=%2060'])(
      'query %s is 400 invalid_request',
      async (query) => {
        const { post, valid } = await setup();
        const description = await oauthError(await post('acme', valid, { query }), 400, 'invalid_request');
        expect(description).toMatch(/expires_in/);
      },
    );

    it('clamps a lifetime of any number of digits, as documented (issue #23); still refuses what is not one, without echoing it whole', async () => {
      const { issue, post, valid } = await setup();
      for (const digits of ['99999999999', '12345678901234567890', '9'.repeat(400), `000${'7'.repeat(30)}`]) {
        expect((await issue({}, `?expires_in=${digits}`)).expires_in).toBe(86_400);
        expect((await issue({ expires_in: digits })).expires_in).toBe(86_400);
      }
      // Leading zeros do not make a small value large, nor zero anything but the default.
      expect((await issue({}, `?expires_in=${'0'.repeat(40)}120`)).expires_in).toBe(120);
      expect((await issue({}, `?expires_in=${'0'.repeat(40)}`)).expires_in).toBe(3600);
      // JSON numbers: any non-negative integer is clamped (1e30 is one), as the text form.
      for (const n of [1e30, 12345678901234567890, Number.MAX_VALUE]) expect((await issue({ expires_in: n })).expires_in).toBe(86_400);
      // A form-encoded body at the 64 KiB body limit: one scan, clamped.
      const form = new URLSearchParams({ ...valid, expires_in: '8'.repeat(60_000) }).toString();
      const res = await post('acme', form, { headers: { 'content-type': 'application/x-www-form-urlencoded' } });
      expect(res.status).toBe(200);
      expect(((await res.json()) as { expires_in: number }).expires_in).toBe(86_400);
      const bad = await oauthError(await post('acme', { ...valid, expires_in: `${'9'.repeat(50_000)}x` }), 400, 'invalid_request');
      expect(bad.length).toBeLessThan(200);
      expect(bad).toMatch(/expires_in .*\(50001 characters\)/);
    });

    it.each([-1, 1.5])('body expires_in %s is 400 invalid_request', async (expires_in) => {
      const { post, valid } = await setup();
      await oauthError(await post('acme', { ...valid, expires_in }), 400, 'invalid_request');
    });
  });

  describe('refusals', () => {
    it('a wrong secret is 401 invalid_client', async () => {
      const { post, valid, access } = await setup();
      const wrong = `${access.clientSecret}x`;
      const res = await post('acme', { ...valid, client_secret: wrong });
      const description = await oauthError(res, 401, 'invalid_client');
      expect(description).not.toContain(wrong);
      expect(description).not.toContain(access.clientSecret);
    });

    it('an unknown client is 401 invalid_client', async () => {
      const { post, valid } = await setup();
      await oauthError(await post('acme', { ...valid, client_id: 'abk_ci_nobody-at-all' }), 401, 'invalid_client');
    });

    it('the wrong account in the path is 401 invalid_client', async () => {
      const { post, valid } = await setup();
      await oauthError(await post('globex', valid), 401, 'invalid_client');
      await oauthError(await post('nobody', valid), 401, 'invalid_client');
    });

    it('a wrong secret in HTTP Basic is 401 invalid_client with WWW-Authenticate: Basic', async () => {
      const { post, access } = await setup();
      const res = await post('acme', 'grant_type=client_credentials', {
        headers: {
          'content-type': 'application/x-www-form-urlencoded',
          authorization: basic(access.clientId, 'wrong-wrong-wrong-wrong-wrong-wrong'),
        },
      });
      expect(res.headers.get('www-authenticate')).toMatch(/^Basic realm="abkit"/);
      await oauthError(res, 401, 'invalid_client');
    });

    it('a revoked access is 401 invalid_client', async () => {
      const { post, valid, accesses, access } = await setup();
      await accesses.revokeAccess(access.id);
      await oauthError(await post('acme', valid), 401, 'invalid_client');
    });

    it('a grant_type other than client_credentials is 400 unsupported_grant_type', async () => {
      const { post, valid } = await setup();
      for (const grant_type of ['password', 'authorization_code', 'CLIENT_CREDENTIALS']) {
        await oauthError(await post('acme', { ...valid, grant_type }), 400, 'unsupported_grant_type');
      }
    });

    it('a missing grant_type is 400 invalid_request', async () => {
      const { post, valid } = await setup();
      const { grant_type: _g, ...rest } = valid;
      const description = await oauthError(await post('acme', rest), 400, 'invalid_request');
      expect(description).toMatch(/grant_type/);
    });

    it('a scope not held is 400 invalid_scope', async () => {
      const { post, valid } = await setup();
      const description = await oauthError(await post('acme', { ...valid, scope: 'campaigns.read panic.write' }), 400, 'invalid_scope');
      expect(description).toMatch(/panic\.write/);
    });

    it('a missing client_id or client_secret is 400 invalid_request', async () => {
      const { post, valid } = await setup();
      await oauthError(await post('acme', { ...valid, client_id: undefined }), 400, 'invalid_request');
      await oauthError(await post('acme', { ...valid, client_secret: '' }), 400, 'invalid_request');
    });

    it.each([
      ['invalid JSON', '{"grant_type":'],
      ['a JSON array', '[]'],
      ['a non-string field', JSON.stringify({ grant_type: 'client_credentials', client_id: 42, client_secret: 'x' })],
      ['an empty body', ''],
    ])('%s is 400 invalid_request', async (_name, body) => {
      const { post } = await setup();
      await oauthError(await post('acme', body), 400, 'invalid_request');
    });

    it('a repeated form field is 400 invalid_request', async () => {
      const { post, valid } = await setup();
      const body = `${new URLSearchParams(valid).toString()}&scope=campaigns.read`;
      await oauthError(
        await post('acme', body, { headers: { 'content-type': 'application/x-www-form-urlencoded' } }),
        400,
        'invalid_request',
      );
    });

    it('a body over the limit is 413 invalid_request', async () => {
      const { post, valid } = await setup({ maxBodyBytes: 256 });
      await oauthError(await post('acme', { ...valid, padding: 'x'.repeat(1000) }), 413, 'invalid_request');
    });

    it('GET on /{account_id}/token is 405 with Allow: POST', async () => {
      const { handler } = await setup();
      const res = await handler(new Request(`${BASE}/acme/token`));
      expect(res.status).toBe(405);
      expect(res.headers.get('allow')).toBe('POST');
    });
  });

  it('works under a prefix', async () => {
    const { post, valid, check, handler } = await setup({ prefix: '/auth' });
    const res = await post('acme', valid);
    expect(res.status).toBe(200);
    const { access_token } = (await res.json()) as { access_token: string };
    expect(await (await check(access_token)).json()).toMatchObject({ active: true });
    expect((await handler(new Request(`${BASE}/acme/token`, { method: 'POST', body: '{}' }))).status).toBe(404);
  });
});

describe('GET /token?access_token=…', () => {
  it('answers the claims of an active token (RFC 7662), no-store', async () => {
    const { issue, check, access } = await setup();
    const { access_token } = await issue({ scope: 'campaigns.read' }, '?expires_in=600');
    const res = await check(access_token);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/json');
    expect(res.headers.get('cache-control')).toBe('no-store');
    const body = (await res.json()) as Record<string, unknown>;
    expect(body).toMatchObject({
      active: true,
      client_id: access.clientId,
      account_id: 'acme',
      scope: 'campaigns.read',
      environments: ['prod'],
      iat: T0 / 1000,
      exp: T0 / 1000 + 600,
    });
    // Nothing beyond RFC 7662 members and the environments.
    const allowed = ['active', 'client_id', 'account_id', 'scope', 'environments', 'exp', 'iat', 'token_type'];
    expect(Object.keys(body).filter((k) => !allowed.includes(k))).toEqual([]);
    expect(JSON.stringify(body)).not.toContain(access_token);
    expect(JSON.stringify(body)).not.toContain(access.clientSecret);
  });

  it.each([
    ['an unknown token', 'abk_at_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA'],
    ['garbage', 'not-a-token'],
  ])('answers { active: false } for %s', async (_name, token) => {
    const { check } = await setup();
    const res = await check(token);
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(await res.json()).toEqual({ active: false });
  });

  it('answers { active: false } once the token expired', async () => {
    const { issue, check, advance } = await setup();
    const { access_token } = await issue({}, '?expires_in=60');
    advance(59_999);
    expect(await (await check(access_token)).json()).toMatchObject({ active: true });
    advance(1);
    expect(await (await check(access_token)).json()).toEqual({ active: false });
  });

  it('answers { active: false } once the access is revoked', async () => {
    const { issue, check, accesses, access } = await setup();
    const { access_token } = await issue();
    expect(await (await check(access_token)).json()).toMatchObject({ active: true });
    await accesses.revokeAccess(access.id);
    expect(await (await check(access_token)).json()).toEqual({ active: false });
  });

  it('a missing, empty or repeated access_token is 400 invalid_request', async () => {
    const { handler } = await setup();
    for (const query of ['', '?access_token=', '?access_token=a&access_token=b']) {
      await oauthError(await handler(new Request(`${BASE}/token${query}`)), 400, 'invalid_request');
    }
  });

  it('POST /token is 405 with Allow: GET, HEAD', async () => {
    const { handler } = await setup();
    const res = await handler(new Request(`${BASE}/token`, { method: 'POST', body: '' }));
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toBe('GET, HEAD');
  });
});

describe('secrets and tokens never leak over HTTP', () => {
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it('no error body, header or console line contains the secret or the token', async () => {
    const spies = (['log', 'info', 'warn', 'error', 'debug'] as const).map((m) => vi.spyOn(console, m).mockImplementation(() => {}));
    const { post, check, valid, access, accesses, errors } = await setup();
    const { access_token } = (await (await post('acme', valid)).json()) as { access_token: string };
    const responses = [
      await post('acme', { ...valid, client_secret: `${access.clientSecret}x` }),
      await post('globex', valid),
      await post('acme', { ...valid, scope: 'panic.write' }),
      await post('acme', { ...valid, grant_type: 'password' }),
      await post('acme', valid, { query: '?expires_in=-1' }),
      await post('acme', valid, { headers: { authorization: basic(access.clientId, access.clientSecret) } }),
    ];
    await accesses.revokeAccess(access.id);
    responses.push(await post('acme', valid), await check(access_token));
    for (const res of responses) {
      const text = JSON.stringify([...res.headers.entries()]) + (await res.text());
      expect(text).not.toContain(access.clientSecret);
      expect(text).not.toContain(access.clientSecret.slice(7));
      expect(text).not.toContain(access_token);
    }
    expect(errors).toEqual([]);
    expect(spies.every((s) => s.mock.calls.length === 0)).toBe(true);
  });
});
