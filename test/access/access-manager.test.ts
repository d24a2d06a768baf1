import { createHash, createHmac } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  AccessManager,
  AuthenticationError,
  ConflictError,
  NotFoundError,
  TokenService,
  ValidationError,
  memoryStorage,
} from '../../src/index';
import { ACCESS_ACTIONS } from '../../src/access/actions';
import { CLIENT_ID_PREFIX, CLIENT_SECRET_PREFIX } from '../../src/access/access-manager';
import { seeded, T0 } from '../helpers/accounts';

async function setup(options: { pepper?: string } = {}) {
  const storage = await seeded();
  let now = T0;
  const clock = () => now;
  const accesses = new AccessManager({ storage, clock, ...options });
  return { storage, accesses, advance: (ms: number) => (now += ms), clock };
}

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => {
      throw new Error('expected a rejection');
    },
    (error: unknown) => error,
  );
}

const BASE64URL = /^[A-Za-z0-9_-]+$/;

describe('AccessManager options', () => {
  it('rejects bad options with a TypeError naming them', () => {
    expect(() => new AccessManager({ storage: memoryStorage(), pepper: 'short' })).toThrow(/AccessManager: pepper/);
    expect(() => new AccessManager({ storage: memoryStorage(), clock: 1 as unknown as () => number })).toThrow(/AccessManager: clock/);
    expect(() => new AccessManager({ storage: memoryStorage(), random: 'x' as unknown as () => Uint8Array })).toThrow(
      /AccessManager: random/,
    );
  });
});

describe('createAccess', () => {
  it('returns the access with its client id and secret (the only time they are shown)', async () => {
    const { accesses } = await setup();
    const created = await accesses.createAccess({
      account: 'acme',
      name: ' deploy-bot ',
      environments: ['prod'],
      actions: ['campaigns.read', 'panic.write'],
    });
    expect(created).toEqual({
      id: expect.stringMatching(/^acc_/),
      accountId: 'acme',
      name: 'deploy-bot',
      environments: ['prod'],
      actions: ['campaigns.read', 'panic.write'],
      clientId: expect.stringMatching(new RegExp(`^${CLIENT_ID_PREFIX}[A-Za-z0-9_-]{16,}$`)),
      clientSecret: expect.stringMatching(new RegExp(`^${CLIENT_SECRET_PREFIX}`)),
      createdAt: T0,
    });
    // >= 256 random bits: 32 bytes are 43 base64url characters.
    const body = created.clientSecret.slice(CLIENT_SECRET_PREFIX.length);
    expect(body).toMatch(BASE64URL);
    expect(body.length).toBeGreaterThanOrEqual(43);
  });

  it('generates distinct ids, client ids and secrets', async () => {
    const { accesses } = await setup();
    const made = await Promise.all(
      Array.from({ length: 20 }, (_, i) => accesses.createAccess({ account: 'acme', name: `bot-${i}`, actions: ['campaigns.read'] })),
    );
    for (const key of ['id', 'clientId', 'clientSecret'] as const) expect(new Set(made.map((m) => m[key])).size).toBe(20);
  });

  it('draws the secret from the injected random source (32 bytes)', async () => {
    const storage = await seeded();
    const sizes: number[] = [];
    const random = (size: number) => {
      sizes.push(size);
      return new Uint8Array(size).fill(0xff);
    };
    const accesses = new AccessManager({ storage, random });
    const created = await accesses.createAccess({ account: 'acme', name: 'bot', actions: ['campaigns.read'] });
    expect(sizes).toContain(32);
    expect(created.clientSecret).toBe(`${CLIENT_SECRET_PREFIX}${'_'.repeat(42)}8`);
  });

  it('accepts a fixed client id and secret (bootstrap) and validates them without echoing the secret', async () => {
    const { accesses } = await setup();
    const created = await accesses.createAccess({
      account: 'acme',
      name: 'fixed',
      actions: ['campaigns.read'],
      clientId: 'fixed-client-id',
      clientSecret: 'S'.repeat(40),
    });
    expect(created.clientId).toBe('fixed-client-id');
    expect(created.clientSecret).toBe('S'.repeat(40));
    const short = 'tooShortSecret-123';
    const error = await rejection(
      accesses.createAccess({ account: 'acme', name: 'x', actions: ['campaigns.read'], clientId: 'has space', clientSecret: short }),
    );
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ValidationError).details.map((d) => d.path)).toEqual([['clientId'], ['clientSecret']]);
    expect((error as ValidationError).message).not.toContain(short);
  });

  it('stores only a SHA-256 of the secret (HMAC with the pepper when configured)', async () => {
    const plain = await setup();
    const a = await plain.accesses.createAccess({ account: 'acme', name: 'bot', actions: ['campaigns.read'] });
    const row = await plain.storage.accesses.get(a.id);
    expect(row?.secretHash).toBe(createHash('sha256').update(a.clientSecret).digest('hex'));
    expect(JSON.stringify(row)).not.toContain(a.clientSecret);

    const pepper = 'a-server-side-pepper-of-some-length';
    const peppered = await setup({ pepper });
    const b = await peppered.accesses.createAccess({ account: 'acme', name: 'bot', actions: ['campaigns.read'] });
    const rowB = await peppered.storage.accesses.get(b.id);
    expect(rowB?.secretHash).toBe(createHmac('sha256', pepper).update(b.clientSecret).digest('hex'));
    expect(rowB?.secretHash).not.toBe(createHash('sha256').update(b.clientSecret).digest('hex'));
  });

  it('rejects unknown actions by name, with the path of each', async () => {
    const { accesses, storage } = await setup();
    const error = await rejection(
      accesses.createAccess({ account: 'acme', name: 'bot', actions: ['campaigns.read', 'campaigns.delete', 'root'] }),
    );
    expect(error).toBeInstanceOf(ValidationError);
    const { details, message, status } = error as ValidationError;
    expect(status).toBe(400);
    expect(details).toEqual([
      { path: ['actions', 1], message: expect.stringContaining('"campaigns.delete"') },
      { path: ['actions', 2], message: expect.stringContaining('"root"') },
    ]);
    expect(message).toContain('campaigns.delete');
    for (const known of ACCESS_ACTIONS) expect(details[0]!.message).toContain(known);
    expect(await storage.accesses.list('acme')).toEqual([]);
  });

  it('rejects unknown environments, and environments of another account, by name', async () => {
    const { accesses, storage } = await setup();
    const error = await rejection(
      accesses.createAccess({ account: 'acme', name: 'bot', environments: ['nowhere', 'prod', 'gprod'], actions: ['campaigns.read'] }),
    );
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ValidationError).details).toEqual([
      { path: ['environments', 0], message: expect.stringContaining('"nowhere"') },
      { path: ['environments', 2], message: expect.stringContaining('"gprod"') },
    ]);
    expect((error as ValidationError).message).toMatch(/environments\[0\].*nowhere.*acme/);
    expect(await storage.accesses.list('acme')).toEqual([]);
    // The same environment is fine for its own account.
    await expect(
      accesses.createAccess({ account: 'globex', name: 'bot', environments: ['gprod'], actions: ['campaigns.read'] }),
    ).resolves.toMatchObject({
      environments: ['gprod'],
    });
  });

  it('reports every problem at once: account, name, actions', async () => {
    const { accesses } = await setup();
    const error = await rejection(accesses.createAccess({ account: '', name: '  ', actions: [] }));
    expect((error as ValidationError).details.map((d) => d.path)).toEqual([['account'], ['name'], ['actions']]);
    const long = await rejection(accesses.createAccess({ account: 'acme', name: 'n'.repeat(101), actions: ['campaigns.read'] }));
    expect((long as ValidationError).details.map((d) => d.path)).toEqual([['name']]);
    const notArray = await rejection(
      accesses.createAccess({
        account: 'acme',
        name: 'bot',
        environments: 'prod' as unknown as string[],
        actions: 'campaigns.read' as unknown as string[],
      }),
    );
    expect((notArray as ValidationError).details.map((d) => d.path[0]).sort()).toEqual(['actions', 'environments']);
  });

  it('removes duplicate environments and actions', async () => {
    const { accesses } = await setup();
    const created = await accesses.createAccess({
      account: 'acme',
      name: 'bot',
      environments: ['prod', 'prod'],
      actions: ['campaigns.read', 'campaigns.read', 'panic.write'],
    });
    expect(created.environments).toEqual(['prod']);
    expect(created.actions).toEqual(['campaigns.read', 'panic.write']);
  });

  it('property: any list holding an unknown action is rejected, naming exactly the unknown ones', async () => {
    const { accesses } = await setup();
    const action = fc.oneof(fc.constantFrom(...ACCESS_ACTIONS), fc.string({ maxLength: 12 }));
    await fc.assert(
      fc.asyncProperty(fc.array(action, { minLength: 1, maxLength: 6 }), async (actions) => {
        const unknown = actions.flatMap((a, i) => ((ACCESS_ACTIONS as readonly string[]).includes(a) ? [] : [['actions', i]]));
        const result = await accesses.createAccess({ account: 'acme', name: 'p', actions }).then(
          () => undefined,
          (e: unknown) => e,
        );
        if (unknown.length === 0) expect(result).toBeUndefined();
        else expect((result as ValidationError).details.map((d) => d.path)).toEqual(unknown);
      }),
      { numRuns: 100 },
    );
  });
});

describe('listAccesses', () => {
  it('previews accesses oldest first, without secret, hash or client id', async () => {
    const { accesses, advance } = await setup();
    const first = await accesses.createAccess({ account: 'acme', name: 'first', environments: ['prod'], actions: ['campaigns.read'] });
    advance(1000);
    const second = await accesses.createAccess({ account: 'acme', name: 'second', actions: ['campaigns.write', 'panic.write'] });
    await accesses.createAccess({ account: 'globex', name: 'theirs', actions: ['campaigns.read'] });

    const list = await accesses.listAccesses('acme');
    expect(list).toEqual([
      {
        id: first.id,
        accountId: 'acme',
        name: 'first',
        environments: ['prod'],
        actions: ['campaigns.read'],
        clientIdHint: `…${first.clientId.slice(-4)}`,
        createdAt: T0,
        lastUsedAt: null,
        revokedAt: null,
        status: 'active',
      },
      expect.objectContaining({ id: second.id, name: 'second', environments: [], createdAt: T0 + 1000, status: 'active' }),
    ]);
    const text = JSON.stringify(list);
    for (const a of [first, second]) {
      expect(text).not.toContain(a.clientSecret);
      expect(text).not.toContain(a.clientId);
    }
    expect(text).not.toMatch(/secret|hash/i);
    expect(text).not.toMatch(/[0-9a-f]{64}/);
    expect(await accesses.listAccesses('nobody')).toEqual([]);
  });
});

describe('revokeAccess', () => {
  it('marks the access revoked (kept for audit) and tells listeners', async () => {
    const { accesses, advance } = await setup();
    const a = await accesses.createAccess({ account: 'acme', name: 'bot', actions: ['campaigns.read'] });
    const heard: string[] = [];
    const unsubscribe = accesses.onRevoke((id) => heard.push(id));
    advance(5000);
    await accesses.revokeAccess(a.id);
    expect(await accesses.listAccesses('acme')).toEqual([expect.objectContaining({ id: a.id, status: 'revoked', revokedAt: T0 + 5000 })]);
    expect(heard).toEqual([a.id]);
    // Twice is harmless and keeps the first time.
    advance(5000);
    await accesses.revokeAccess(a.id);
    expect((await accesses.listAccesses('acme'))[0]?.revokedAt).toBe(T0 + 5000);
    unsubscribe();
    await accesses.revokeAccess(a.id);
    expect(heard).toHaveLength(2);
  });

  it('throws NotFoundError for an unknown access', async () => {
    const { accesses } = await setup();
    await expect(accesses.revokeAccess('acc_nope')).rejects.toBeInstanceOf(NotFoundError);
  });
});

describe('verifyClient', () => {
  it('returns the active access for the right account, id and secret', async () => {
    const { accesses } = await setup();
    const a = await accesses.createAccess({ account: 'acme', name: 'bot', actions: ['campaigns.read'] });
    await expect(accesses.verifyClient('acme', a.clientId, a.clientSecret)).resolves.toMatchObject({ id: a.id, accountId: 'acme' });
  });

  it('refuses every bad credential with the same invalid_client error that never echoes the secret', async () => {
    const { accesses } = await setup();
    const a = await accesses.createAccess({ account: 'acme', name: 'bot', actions: ['campaigns.read'] });
    const revoked = await accesses.createAccess({ account: 'acme', name: 'old', actions: ['campaigns.read'] });
    await accesses.revokeAccess(revoked.id);
    const wrongSecret = `${a.clientSecret.slice(0, -1)}${a.clientSecret.endsWith('A') ? 'B' : 'A'}`;
    const cases: [string, string, string][] = [
      ['acme', a.clientId, wrongSecret],
      ['acme', 'abk_ci_unknown-client', a.clientSecret],
      ['globex', a.clientId, a.clientSecret],
      ['acme', revoked.clientId, revoked.clientSecret],
    ];
    const messages = new Set<string>();
    for (const [account, id, secret] of cases) {
      const error = await rejection(accesses.verifyClient(account, id, secret));
      expect(error).toBeInstanceOf(AuthenticationError);
      expect(error).toMatchObject({ code: 'invalid_client', status: 401 });
      const message = (error as Error).message;
      expect(message).not.toContain(secret);
      expect(message).not.toContain(id);
      messages.add(message);
    }
    expect(messages.size).toBe(1);
  });

  it('a manager with another pepper does not accept the secret', async () => {
    const storage = await seeded();
    const one = new AccessManager({ storage, pepper: 'pepper-number-one-xxxxxx' });
    const two = new AccessManager({ storage, pepper: 'pepper-number-two-xxxxxx' });
    const a = await one.createAccess({ account: 'acme', name: 'bot', actions: ['campaigns.read'] });
    await expect(one.verifyClient('acme', a.clientId, a.clientSecret)).resolves.toBeDefined();
    await expect(two.verifyClient('acme', a.clientId, a.clientSecret)).rejects.toBeInstanceOf(AuthenticationError);
  });
});

describe('rotateSecret', () => {
  it('returns a new secret once: the old one no longer verifies, the new one does', async () => {
    const { accesses } = await setup();
    const created = await accesses.createAccess({ account: 'acme', name: 'bot', actions: ['campaigns.read'] });
    const rotated = await accesses.rotateSecret(created.id);
    expect(rotated.id).toBe(created.id);
    expect(rotated.clientSecret.startsWith(CLIENT_SECRET_PREFIX)).toBe(true);
    expect(rotated.clientSecret).not.toBe(created.clientSecret);
    await expect(accesses.verifyClient('acme', created.clientId, created.clientSecret)).rejects.toBeInstanceOf(AuthenticationError);
    expect((await accesses.verifyClient('acme', created.clientId, rotated.clientSecret)).id).toBe(created.id);
    // Listing still shows no secret.
    expect(JSON.stringify(await accesses.listAccesses('acme'))).not.toContain(rotated.clientSecret);
  });

  it('refuses an unknown access (NotFoundError) and a revoked one (ConflictError)', async () => {
    const { accesses } = await setup();
    await expect(accesses.rotateSecret('acc_nope')).rejects.toBeInstanceOf(NotFoundError);
    const { id, clientId } = await accesses.createAccess({ account: 'acme', name: 'bot', actions: ['campaigns.read'] });
    await accesses.revokeAccess(id);
    await expect(accesses.rotateSecret(id)).rejects.toBeInstanceOf(ConflictError);
    expect((await accesses.findByClientId(clientId))?.revokedAt).not.toBeNull();
  });
});

describe('lastUsedAt and the ceiling per account', () => {
  it('the preview shows when a token was last issued for the access', async () => {
    const { storage, accesses, advance, clock } = await setup();
    const tokens = new TokenService({ storage, accesses, clock });
    const { clientId, clientSecret } = await accesses.createAccess({ account: 'acme', name: 'bot', actions: ['campaigns.read'] });
    expect((await accesses.listAccesses('acme'))[0]?.lastUsedAt).toBeNull();
    advance(5000);
    await tokens.issue({ accountId: 'acme', clientId, clientSecret });
    expect((await accesses.listAccesses('acme'))[0]?.lastUsedAt).toBe(T0 + 5000);
  });

  it('refuses an access beyond maxAccessesPerAccount, revoked ones counted', async () => {
    const storage = await seeded();
    const accesses = new AccessManager({ storage, maxAccessesPerAccount: 2 });
    const first = await accesses.createAccess({ account: 'acme', name: 'a', actions: ['campaigns.read'] });
    await accesses.createAccess({ account: 'acme', name: 'b', actions: ['campaigns.read'] });
    await accesses.revokeAccess(first.id);
    await expect(accesses.createAccess({ account: 'acme', name: 'c', actions: ['campaigns.read'] })).rejects.toThrow(
      /already has 2 accesses/,
    );
    expect(() => new AccessManager({ storage, maxAccessesPerAccount: 0 })).toThrow(/maxAccessesPerAccount must be a positive integer/);
  });
});
