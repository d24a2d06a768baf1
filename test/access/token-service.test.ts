import { createHash } from 'node:crypto';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  AccessManager,
  AuthenticationError,
  PermissionError,
  TokenService,
  ValidationError,
  type CreatedAccess,
  type ErrorDetail,
  type Storage,
  type TokenServiceOptions,
  memoryStorage,
} from '../../src/index';
import { ACCESS_TOKEN_PREFIX } from '../../src/access/token-service';
import { seeded, T0 } from '../helpers/accounts';

/** One instance: an AccessManager and a TokenService over `storage`, on a shared fake clock. */
function instance(storage: Storage, clock: () => number, options: Omit<TokenServiceOptions, 'storage' | 'accesses' | 'clock'> = {}) {
  const accesses = new AccessManager({ storage, clock });
  const tokens = new TokenService({ storage, accesses, clock, ...options });
  return { accesses, tokens };
}

async function setup(options: Omit<TokenServiceOptions, 'storage' | 'accesses' | 'clock'> = {}) {
  const storage = await seeded();
  let now = T0;
  const clock = () => now;
  const { accesses, tokens } = instance(storage, clock, options);
  const access = await accesses.createAccess({
    account: 'acme',
    name: 'deploy-bot',
    environments: ['prod'],
    actions: ['campaigns.read', 'campaigns.write', 'panic.write'],
  });
  const issue = (over: { scope?: string; expiresIn?: number; access?: CreatedAccess; accountId?: string } = {}) => {
    const a = over.access ?? access;
    return tokens.issue({
      accountId: over.accountId ?? a.accountId,
      clientId: a.clientId,
      clientSecret: a.clientSecret,
      scope: over.scope,
      expiresIn: over.expiresIn,
    });
  };
  return {
    storage,
    accesses,
    tokens,
    access,
    issue,
    clock,
    advance: (ms: number) => (now += ms),
  };
}

async function rejection(promise: Promise<unknown>): Promise<Error & { code?: string; status?: number; details?: readonly ErrorDetail[] }> {
  return promise.then(
    () => {
      throw new Error('expected a rejection');
    },
    (error: Error) => error,
  );
}

const prod = { account: 'acme', action: 'campaigns.read', environment: 'prod' };

describe('TokenService options', () => {
  it('rejects bad options with a TypeError naming them', () => {
    expect(() => new TokenService({ storage: memoryStorage(), defaultLifetimeSeconds: 0 })).toThrow(/TokenService: defaultLifetimeSeconds/);
    expect(() => new TokenService({ storage: memoryStorage(), maxLifetimeSeconds: 1.5 })).toThrow(/maxLifetimeSeconds/);
    expect(() => new TokenService({ storage: memoryStorage(), cacheTtlMs: -1 })).toThrow(/cacheTtlMs/);
    expect(() => new TokenService({ storage: memoryStorage(), cacheSize: 0 })).toThrow(/cacheSize/);
    expect(() => new TokenService({ storage: memoryStorage(), defaultLifetimeSeconds: 7200, maxLifetimeSeconds: 3600 })).toThrow(
      /exceeds maxLifetimeSeconds/,
    );
  });
});

describe('issue', () => {
  it('issues an opaque Bearer token with the abk_at_ prefix and >= 256 random bits', async () => {
    const { issue, access } = await setup();
    const issued = await issue({ scope: '*' });
    expect(issued).toEqual({
      accessToken: expect.stringMatching(/^abk_at_/),
      tokenType: 'Bearer',
      expiresIn: 3600,
      scope: access.actions.join(' '),
      expiresAt: T0 + 3600 * 1000,
    });
    expect(ACCESS_TOKEN_PREFIX).toBe('abk_at_');
    const body = issued.accessToken.slice(ACCESS_TOKEN_PREFIX.length);
    expect(body).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(body.length).toBeGreaterThanOrEqual(43);
    const again = await issue({ scope: '*' });
    expect(again.accessToken).not.toBe(issued.accessToken);
  });

  it('asks the random source for at least 32 bytes per token', async () => {
    const sizes: number[] = [];
    const { issue } = await setup({
      random: (size) => {
        sizes.push(size);
        return globalThis.crypto.getRandomValues(new Uint8Array(size));
      },
    });
    await issue();
    expect(sizes).toHaveLength(1);
    expect(sizes[0]).toBeGreaterThanOrEqual(32);
  });

  it('never returns the same token twice over many issues', async () => {
    const { issue } = await setup();
    const seen = new Set<string>();
    for (let i = 0; i < 200; i++) seen.add((await issue()).accessToken);
    expect(seen.size).toBe(200);
  });

  describe('lifetime', () => {
    it.each([
      ['absent', undefined, 3600],
      ['0', 0, 3600],
      ['1', 1, 1],
      ['600', 600, 600],
      ['exactly the maximum', 86_400, 86_400],
      ['one above the maximum', 86_401, 86_400],
      ['far above the maximum', 9_999_999_999, 86_400],
    ])('expiresIn %s (%s) gives %s', async (_name, expiresIn, expected) => {
      const { issue } = await setup();
      const issued = await issue({ expiresIn });
      expect(issued.expiresIn).toBe(expected);
      expect(issued.expiresAt).toBe(T0 + expected * 1000);
    });

    it('follows a configured default and maximum', async () => {
      const { issue } = await setup({ defaultLifetimeSeconds: 900, maxLifetimeSeconds: 7200 });
      expect((await issue()).expiresIn).toBe(900);
      expect((await issue({ expiresIn: 0 })).expiresIn).toBe(900);
      expect((await issue({ expiresIn: 7200 })).expiresIn).toBe(7200);
      expect((await issue({ expiresIn: 7201 })).expiresIn).toBe(7200);
    });

    it.each([
      ['negative', -1],
      ['fractional', 1.5],
      ['NaN', Number.NaN],
      ['infinite', Number.POSITIVE_INFINITY],
      ['a string', '60' as unknown as number],
    ])('a %s expiresIn is invalid_request', async (_name, expiresIn) => {
      const { issue, storage } = await setup();
      const error = await rejection(issue({ expiresIn }));
      expect(error).toBeInstanceOf(ValidationError);
      expect(error).toMatchObject({ code: 'invalid_request', status: 400 });
      expect(error.details?.map((d) => d.path)).toEqual([['expires_in']]);
      // Nothing was stored for a refused request.
      expect(await storage.tokens.deleteExpired(Number.MAX_SAFE_INTEGER)).toBe(0);
    });
  });

  describe('scope', () => {
    it("'*', an empty or absent scope carries every action of the access", async () => {
      const { issue, access } = await setup();
      for (const scope of ['*', undefined, '', '  *  ']) {
        expect((await issue({ scope })).scope).toBe(access.actions.join(' '));
      }
    });

    it('a space-separated subset carries exactly those actions', async () => {
      const { issue, tokens } = await setup();
      const issued = await issue({ scope: '  panic.write   campaigns.read panic.write ' });
      expect(issued.scope.split(' ').sort()).toEqual(['campaigns.read', 'panic.write']);
      await expect(tokens.authorize(issued.accessToken, prod)).resolves.toBeDefined();
      await expect(tokens.authorize(issued.accessToken, { ...prod, action: 'panic.write' })).resolves.toBeDefined();
      // The access holds campaigns.write, but this token was not given it.
      const error = await rejection(tokens.authorize(issued.accessToken, { ...prod, action: 'campaigns.write' }));
      expect(error).toBeInstanceOf(PermissionError);
      expect(error.code).toBe('insufficient_scope');
    });

    it.each([
      ['an action the access lacks', 'activations.read'],
      ['an unknown action', 'campaigns.delete'],
      ['a held action with one not held', 'campaigns.read activations.read'],
      ["'*' mixed with an action", '* campaigns.read'],
    ])('%s is invalid_scope', async (_name, scope) => {
      const { issue } = await setup();
      const error = await rejection(issue({ scope }));
      expect(error).toBeInstanceOf(ValidationError);
      expect(error).toMatchObject({ code: 'invalid_scope', status: 400 });
      expect(error.details?.map((d) => d.path)).toEqual([['scope']]);
    });
  });

  it.each([
    ['a wrong secret', (a: CreatedAccess) => ({ accountId: 'acme', clientId: a.clientId, clientSecret: `${a.clientSecret}x` })],
    ['an unknown client', (a: CreatedAccess) => ({ accountId: 'acme', clientId: 'abk_ci_nobody', clientSecret: a.clientSecret })],
    ['another account', (a: CreatedAccess) => ({ accountId: 'globex', clientId: a.clientId, clientSecret: a.clientSecret })],
  ])('refuses %s with invalid_client', async (_name, input) => {
    const { tokens, access } = await setup();
    const error = await rejection(tokens.issue(input(access)));
    expect(error).toBeInstanceOf(AuthenticationError);
    expect(error).toMatchObject({ code: 'invalid_client', status: 401 });
    expect(error.message).not.toContain(access.clientSecret);
  });

  it('refuses missing credentials with invalid_request', async () => {
    const { tokens, access } = await setup();
    const noId = await rejection(tokens.issue({ accountId: 'acme', clientId: '', clientSecret: access.clientSecret }));
    expect(noId).toMatchObject({ code: 'invalid_request', status: 400 });
    const noSecret = await rejection(
      tokens.issue({ accountId: 'acme', clientId: access.clientId, clientSecret: undefined as unknown as string }),
    );
    expect(noSecret).toMatchObject({ code: 'invalid_request', status: 400 });
  });
});

describe('introspect', () => {
  it('states the claims of an active token', async () => {
    const { issue, tokens, access } = await setup();
    const issued = await issue({ scope: 'campaigns.read', expiresIn: 120 });
    expect(await tokens.introspect(issued.accessToken)).toEqual({
      active: true,
      accessId: access.id,
      accountId: 'acme',
      clientId: access.clientId,
      actions: ['campaigns.read'],
      environments: ['prod'],
      scope: 'campaigns.read',
      iat: T0 / 1000,
      exp: T0 / 1000 + 120,
    });
  });

  it.each([
    ['an unknown token', `${ACCESS_TOKEN_PREFIX}${'A'.repeat(43)}`],
    ['a token without the prefix', 'A'.repeat(50)],
    ['an empty string', ''],
    ['an oversized token', `${ACCESS_TOKEN_PREFIX}${'A'.repeat(10_000)}`],
    ['a non-string', 42 as unknown as string],
  ])('answers { active: false } for %s', async (_name, token) => {
    const { tokens } = await setup();
    expect(await tokens.introspect(token)).toEqual({ active: false });
  });
});

describe('expiry (fake clock)', () => {
  it('a token works until its expiry and fails from then on', async () => {
    const { issue, tokens, advance } = await setup();
    const { accessToken } = await issue({ expiresIn: 60 });
    await expect(tokens.authorize(accessToken, prod)).resolves.toBeDefined();
    advance(59_999);
    await expect(tokens.authorize(accessToken, prod)).resolves.toBeDefined();
    expect((await tokens.introspect(accessToken)).active).toBe(true);
    advance(1);
    expect(await tokens.introspect(accessToken)).toEqual({ active: false });
    const error = await rejection(tokens.authorize(accessToken, prod));
    expect(error).toBeInstanceOf(AuthenticationError);
    expect(error).toMatchObject({ code: 'invalid_token', status: 401 });
  });

  it('a default-lifetime token expires after an hour', async () => {
    const { issue, tokens, advance } = await setup();
    const { accessToken } = await issue();
    advance(3600 * 1000 - 1);
    expect((await tokens.introspect(accessToken)).active).toBe(true);
    advance(1);
    expect((await tokens.introspect(accessToken)).active).toBe(false);
  });

  it('purgeExpired deletes expired tokens from the store', async () => {
    const { issue, tokens, advance } = await setup();
    await issue({ expiresIn: 10 });
    await issue({ expiresIn: 10 });
    const long = await issue({ expiresIn: 1000 });
    advance(11_000);
    expect(await tokens.purgeExpired()).toBe(2);
    expect((await tokens.introspect(long.accessToken)).active).toBe(true);
  });
});

describe('authorize', () => {
  it('resolves with the claims when account, action and environment are held', async () => {
    const { issue, tokens, access } = await setup();
    const { accessToken } = await issue();
    await expect(tokens.authorize(accessToken, prod)).resolves.toEqual({
      accessId: access.id,
      accountId: 'acme',
      clientId: access.clientId,
      actions: ['campaigns.read', 'campaigns.write', 'panic.write'],
      environments: ['prod'],
      iat: T0 / 1000,
      exp: T0 / 1000 + 3600,
    });
  });

  it('never authorizes an action the access lacks', async () => {
    const { issue, tokens } = await setup();
    const { accessToken } = await issue();
    const error = await rejection(tokens.authorize(accessToken, { ...prod, action: 'activations.read' }));
    expect(error).toBeInstanceOf(PermissionError);
    expect(error).toMatchObject({ code: 'insufficient_scope', status: 403 });
    expect(error.message).toContain('activations.read');
    expect(error.message).not.toContain(accessToken);
  });

  it('never authorizes an environment the access lacks', async () => {
    const { issue, tokens } = await setup();
    const { accessToken } = await issue();
    for (const environment of ['staging', 'gprod', 'nowhere']) {
      const error = await rejection(tokens.authorize(accessToken, { ...prod, environment }));
      expect(error).toBeInstanceOf(PermissionError);
      expect(error).toMatchObject({ code: 'insufficient_scope', status: 403 });
    }
  });

  it('refuses a token presented for another account', async () => {
    const { issue, tokens } = await setup();
    const { accessToken } = await issue();
    const error = await rejection(tokens.authorize(accessToken, { ...prod, account: 'globex', environment: 'gprod' }));
    expect(error).toBeInstanceOf(PermissionError);
    expect(error.status).toBe(403);
  });

  it('refuses an unknown token with invalid_token', async () => {
    const { tokens } = await setup();
    const error = await rejection(tokens.authorize(`${ACCESS_TOKEN_PREFIX}${'x'.repeat(43)}`, prod));
    expect(error).toBeInstanceOf(AuthenticationError);
    expect(error.code).toBe('invalid_token');
  });

  it('empty access environments cover every environment of the account, including ones created later', async () => {
    const { accesses, tokens, storage } = await setup();
    const all = await accesses.createAccess({ account: 'acme', name: 'all', environments: [], actions: ['campaigns.read'] });
    const { accessToken } = await tokens.issue({ accountId: 'acme', clientId: all.clientId, clientSecret: all.clientSecret });
    expect(await tokens.introspect(accessToken)).toMatchObject({ environments: [] });
    await expect(tokens.authorize(accessToken, { ...prod, environment: 'staging' })).resolves.toBeDefined();
    await storage.environments.put({ id: 'later', accountId: 'acme', config: { campaigns: [] } });
    await expect(tokens.authorize(accessToken, { ...prod, environment: 'later' })).resolves.toBeDefined();
  });
});

/** Two instances (A and B) over one store and one fake clock, and a token A issued. */
async function twoInstances() {
  const storage = await seeded();
  let now = T0;
  const clock = () => now;
  const a = instance(storage, clock, { cacheTtlMs: 2000 });
  const b = instance(storage, clock, { cacheTtlMs: 2000 });
  const access = await a.accesses.createAccess({ account: 'acme', name: 'bot', environments: ['prod'], actions: ['campaigns.read'] });
  const { accessToken } = await a.tokens.issue({ accountId: 'acme', clientId: access.clientId, clientSecret: access.clientSecret });
  return { a, b, access, accessToken, tick: (ms: number) => void (now += ms) };
}

describe('revocation', () => {
  it("fails the access's tokens at once on this instance, cached or not", async () => {
    const { issue, tokens, accesses, access } = await setup({ cacheTtlMs: 60_000 });
    const cached = (await issue()).accessToken;
    const fresh = (await issue()).accessToken;
    await tokens.authorize(cached, prod); // now in the verified-token cache
    await accesses.revokeAccess(access.id);
    for (const token of [cached, fresh]) {
      expect(await tokens.introspect(token)).toEqual({ active: false });
      const error = await rejection(tokens.authorize(token, prod));
      expect(error).toMatchObject({ code: 'invalid_token', status: 401 });
    }
    const refused = await rejection(issue());
    expect(refused).toMatchObject({ code: 'invalid_client', status: 401 });
  });

  it('leaves tokens of other accesses working', async () => {
    const { issue, tokens, accesses, access } = await setup();
    const other = await accesses.createAccess({ account: 'acme', name: 'other', environments: ['prod'], actions: ['campaigns.read'] });
    const mine = (await issue()).accessToken;
    const theirs = (await issue({ access: other })).accessToken;
    await accesses.revokeAccess(access.id);
    expect((await tokens.introspect(mine)).active).toBe(false);
    expect((await tokens.introspect(theirs)).active).toBe(true);
  });

  it('fails on another instance sharing the store within its cache TTL', async () => {
    const { a, b, access, accessToken, tick } = await twoInstances();
    const other = (await a.tokens.issue({ accountId: 'acme', clientId: access.clientId, clientSecret: access.clientSecret })).accessToken;

    // B verifies (and caches) the first token; it never saw the other one.
    await expect(b.tokens.authorize(accessToken, prod)).resolves.toBeDefined();
    tick(500);
    await a.accesses.revokeAccess(access.id);

    // A refuses at once.
    await expect(a.tokens.authorize(accessToken, prod)).rejects.toMatchObject({ code: 'invalid_token' });
    // B reads the store for a token it has not cached: refused at once.
    expect(await b.tokens.introspect(other)).toEqual({ active: false });
    // B may still trust its cached verification until the TTL runs out...
    tick(1000);
    await expect(b.tokens.authorize(accessToken, prod)).resolves.toBeDefined();
    // ...and not one millisecond of fake time after.
    tick(501);
    await expect(b.tokens.authorize(accessToken, prod)).rejects.toMatchObject({ code: 'invalid_token', status: 401 });
    expect(await b.tokens.introspect(accessToken)).toEqual({ active: false });
  });

  it('the other instance refuses once the TTL has passed, even with no real time elapsed', async () => {
    // Same as above without any pause: the TTL must follow the injected clock only.
    const { a, b, access, accessToken, tick } = await twoInstances();
    for (let round = 0; round < 20; round++) {
      expect((await b.tokens.introspect(accessToken)).active).toBe(true);
    }
    await a.accesses.revokeAccess(access.id);
    tick(2001);
    expect(await b.tokens.introspect(accessToken)).toEqual({ active: false });
  });
});

describe('secrets and tokens never leak', () => {
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it('the store holds only hashes: no client secret and no token in any row', async () => {
    const { issue, accesses, storage, access } = await setup();
    const second = await accesses.createAccess({ account: 'acme', name: 'all', actions: ['campaigns.read'] });
    const issued = [await issue(), await issue({ scope: 'campaigns.read' }), await issue({ access: second })];
    const secrets = [access.clientSecret, second.clientSecret];
    const tokenStrings = issued.map((t) => t.accessToken);

    const rows: unknown[] = [...(await storage.accesses.list('acme'))];
    for (const a of [access, second]) {
      rows.push(await storage.accesses.get(a.id), await storage.accesses.getByClientId(a.clientId));
    }
    for (const token of tokenStrings) {
      const row = await storage.tokens.get(createHash('sha256').update(token).digest('hex'));
      expect(row).toBeDefined();
      rows.push(row);
    }
    const text = JSON.stringify(rows);
    for (const needle of [...secrets, ...tokenStrings]) {
      expect(text).not.toContain(needle);
      // Nor the random part alone, without its prefix.
      expect(text).not.toContain(needle.slice(7));
    }
    expect(rows.every((r) => r !== undefined)).toBe(true);
  });

  it('no error message of a refusal contains the presented secret or token', async () => {
    const { issue, tokens, accesses, access, advance } = await setup();
    const { accessToken } = await issue({ expiresIn: 10 });
    const messages: string[] = [];
    const collect = async (p: Promise<unknown>) => messages.push((await rejection(p)).message);
    await collect(tokens.issue({ accountId: 'acme', clientId: access.clientId, clientSecret: `${access.clientSecret}!` }));
    await collect(tokens.issue({ accountId: 'globex', clientId: access.clientId, clientSecret: access.clientSecret }));
    await collect(
      tokens.issue({ accountId: 'acme', clientId: access.clientId, clientSecret: access.clientSecret, scope: 'activations.read' }),
    );
    await collect(tokens.issue({ accountId: 'acme', clientId: access.clientId, clientSecret: access.clientSecret, expiresIn: -5 }));
    await collect(tokens.authorize(accessToken, { ...prod, action: 'activations.read' }));
    await collect(tokens.authorize(accessToken, { ...prod, environment: 'staging' }));
    await collect(tokens.authorize(accessToken, { ...prod, account: 'globex' }));
    advance(10_000);
    await collect(tokens.authorize(accessToken, prod));
    await accesses.revokeAccess(access.id);
    await collect(tokens.issue({ accountId: 'acme', clientId: access.clientId, clientSecret: access.clientSecret }));
    expect(messages).toHaveLength(9);
    for (const message of messages) {
      expect(message).not.toContain(access.clientSecret);
      expect(message).not.toContain(access.clientSecret.slice(7));
      expect(message).not.toContain(accessToken);
      expect(message).not.toContain(accessToken.slice(7));
    }
  });

  it('nothing is written to the console during a whole library flow', async () => {
    const spies = (['log', 'info', 'warn', 'error', 'debug', 'trace'] as const).map((m) =>
      vi.spyOn(console, m).mockImplementation(() => {}),
    );
    const { issue, tokens, accesses, access, advance } = await setup();
    const { accessToken } = await issue();
    await tokens.introspect(accessToken);
    await tokens.authorize(accessToken, prod);
    await tokens.authorize(accessToken, { ...prod, action: 'activations.read' }).catch(() => {});
    await tokens
      .issue({ accountId: 'acme', clientId: access.clientId, clientSecret: 'wrong-secret-wrong-secret-wrong-secret' })
      .catch(() => {});
    advance(10);
    await accesses.revokeAccess(access.id);
    await tokens.introspect(accessToken);
    const written = JSON.stringify(spies.flatMap((s) => s.mock.calls));
    expect(written).not.toContain(access.clientSecret);
    expect(written).not.toContain(accessToken);
    expect(spies.every((s) => s.mock.calls.length === 0)).toBe(true);
  });
});
