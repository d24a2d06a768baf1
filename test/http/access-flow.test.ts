/**
 * The whole remote-control flow over HTTP, through one handler composed of the decision, token
 * and remote-control routes: create an access → token → check → turn a 50/50 campaign to 100%
 * for one variation → /v2/campaigns serves it → revoke → the token is refused.
 */
import { createHash } from 'node:crypto';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { AccessManager, DecisionEngine, memoryStorage, RemoteControl, TokenService, type Storage } from '../../src/index';
import { decisionRoutes } from '../../src/http/decision';
import { handlerOf } from '../../src/http/router';
import { remoteControlRoutes } from '../../src/http/remote';
import { tokenRoutes } from '../../src/http/token';
import type { Campaign } from '../../src/model/bucketing-config';
import { config } from '../helpers/configs';

const BASE = 'http://abkit.test';
const CAMPAIGN = '/v1/accounts/acme/environments/prod/campaigns/checkout';

/** One service instance over `storage`: engine, access manager, token service, one handler. */
function instance(storage: Storage, clock: () => number) {
  const engine = new DecisionEngine({ storage, defaultEnvironment: 'prod', clock, refreshIntervalMs: 1000 });
  const accesses = new AccessManager({ storage, clock });
  const tokens = new TokenService({ storage, accesses, clock, cacheTtlMs: 2000 });
  const remote = new RemoteControl({ engine });
  const errors: unknown[] = [];
  const onError = (e: unknown) => errors.push(e);
  const handler = handlerOf([
    decisionRoutes({ engine, onError }),
    tokenRoutes({ tokens, onError }),
    remoteControlRoutes({ remote, tokens, onError }),
  ]);
  const send = (method: string, path: string, init: { body?: unknown; headers?: Record<string, string> } = {}) =>
    handler(
      new Request(`${BASE}${path}`, {
        method,
        headers: { ...(init.body === undefined ? {} : { 'content-type': 'application/json' }), ...init.headers },
        body: init.body === undefined ? undefined : JSON.stringify(init.body),
      }),
    );
  /** The checkout variation of `n` visitors, as served by POST /v2/campaigns. */
  const served = async (n: number, from = 0): Promise<Map<string, number>> => {
    const counts = new Map<string, number>();
    for (let i = from; i < from + n; i++) {
      const res = await send('POST', '/v2/campaigns', { body: { visitor_id: `visitor-${i}`, trigger_hit: false, visitor_consent: false } });
      expect(res.status).toBe(200);
      const body = (await res.json()) as { panic: boolean; campaigns: { id: string; variation: { id: string } }[] };
      const id = body.campaigns.find((c) => c.id === 'checkout')?.variation.id ?? 'none';
      counts.set(id, (counts.get(id) ?? 0) + 1);
    }
    return counts;
  };
  return { engine, accesses, tokens, handler, send, served, errors };
}

async function setup() {
  const storage = memoryStorage();
  let now = 1_700_000_000_000;
  const clock = () => now;
  const a = instance(storage, clock);
  await a.engine.load(config([{ id: 'checkout', split: [50, 50] }]), { environment: 'prod', account: 'acme' });
  return { storage, a, clock, advance: (ms: number) => (now += ms) };
}

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

describe('remote control over HTTP, end to end', () => {
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it('access → token → check → 100% to one variation → /v2/campaigns serves it → revoke → refused', async () => {
    const consoleSpies = (['log', 'info', 'warn', 'error', 'debug', 'trace'] as const).map((m) =>
      vi.spyOn(console, m).mockImplementation(() => {}),
    );
    const { storage, a } = await setup();
    const { send, served } = a;

    // Before: a 50/50 split.
    const before = await served(400);
    expect([...before.keys()].sort()).toEqual(['checkout-v0', 'checkout-v1']);
    for (const count of before.values()) expect(count).toBeGreaterThan(140);

    // 1. Create an access (library): the secret is shown once.
    const access = await a.accesses.createAccess({
      account: 'acme',
      name: 'release-bot',
      environments: ['prod'],
      actions: ['campaigns.read', 'campaigns.write'],
    });

    // 2. Exchange it for a token (HTTP, interfaces.md, Tokens body).
    const tokenRes = await send('POST', '/acme/token?expires_in=900', {
      body: { grant_type: 'client_credentials', scope: '*', client_id: access.clientId, client_secret: access.clientSecret },
    });
    expect(tokenRes.status).toBe(200);
    expect(tokenRes.headers.get('cache-control')).toBe('no-store');
    const issued = (await tokenRes.json()) as { access_token: string; token_type: string; expires_in: number; scope: string };
    expect(issued).toMatchObject({ token_type: 'Bearer', expires_in: 900, scope: 'campaigns.read campaigns.write' });
    const token = issued.access_token;

    // 3. Check it (HTTP).
    const checkRes = await send('GET', `/token?access_token=${encodeURIComponent(token)}`);
    expect(checkRes.status).toBe(200);
    expect(checkRes.headers.get('cache-control')).toBe('no-store');
    expect(await checkRes.json()).toMatchObject({
      active: true,
      client_id: access.clientId,
      account_id: 'acme',
      scope: 'campaigns.read campaigns.write',
      environments: ['prod'],
    });

    // 4. Read the campaign, put 100% on the second variation, write it back (remote control API).
    const current = await send('GET', CAMPAIGN, { headers: bearer(token) });
    expect(current.status).toBe(200);
    const checkout = (await current.json()) as Campaign;
    const group = checkout.variationGroups[0]!;
    const winner = group.variations[1]!.id;
    const updated = {
      ...checkout,
      variationGroups: [{ ...group, variations: group.variations.map((v) => ({ ...v, allocation: v.id === winner ? 100 : 0 })) }],
    };
    const put = await send('PUT', CAMPAIGN, { body: updated, headers: bearer(token) });
    expect(put.status).toBe(200);
    expect(await put.json()).toMatchObject({ environment: 'prod', version: 2, campaign: { id: 'checkout' } });

    // 5. The decision interface serves it on the next request, to every visitor, old and new.
    expect(await served(400)).toEqual(new Map([[winner, 400]]));
    expect(await served(100, 10_000)).toEqual(new Map([[winner, 100]]));
    const single = await send('POST', '/v2/campaigns/checkout', { body: { visitor_id: 'someone', trigger_hit: false } });
    expect(((await single.json()) as { variation: { id: string } }).variation.id).toBe(winner);

    // 6. Revoke (library): the token is refused and the check says inactive.
    await a.accesses.revokeAccess(access.id);
    const refused = await send('PUT', CAMPAIGN, { body: checkout, headers: bearer(token) });
    expect(refused.status).toBe(401);
    expect(refused.headers.get('www-authenticate')).toMatch(/^Bearer realm="abkit", error="invalid_token"/);
    expect((await send('GET', CAMPAIGN, { headers: bearer(token) })).status).toBe(401);
    const afterCheck = await send('GET', `/token?access_token=${encodeURIComponent(token)}`);
    expect(afterCheck.status).toBe(200);
    expect(await afterCheck.json()).toEqual({ active: false });
    const reissue = await send('POST', '/acme/token', {
      body: { grant_type: 'client_credentials', client_id: access.clientId, client_secret: access.clientSecret },
    });
    expect(reissue.status).toBe(401);
    expect(await reissue.json()).toMatchObject({ error: 'invalid_client' });
    // The refused write changed nothing.
    expect(await served(50)).toEqual(new Map([[winner, 50]]));

    // Neither the secret nor the token is in the store or on the console.
    const rows = [
      ...(await storage.accesses.list('acme')),
      await storage.accesses.getByClientId(access.clientId),
      await storage.tokens.get(createHash('sha256').update(token).digest('hex')),
    ];
    expect(rows.every((r) => r !== undefined)).toBe(true);
    const stored = JSON.stringify(rows);
    const logged = JSON.stringify(consoleSpies.flatMap((s) => s.mock.calls));
    for (const needle of [access.clientSecret, token, access.clientSecret.slice(7), token.slice(7)]) {
      expect(stored).not.toContain(needle);
      expect(logged).not.toContain(needle);
    }
    expect(a.errors).toEqual([]);
  });

  it('the three route tables coexist in one handler without stealing each other’s paths', async () => {
    const { a } = await setup();
    const { send } = a;
    expect((await send('POST', '/v2/campaigns', { body: { visitor_id: 'v' } })).status).toBe(200);
    expect((await send('POST', '/v2/prod/campaigns', { body: { visitor_id: 'v' } })).status).toBe(200);
    // `/{account_id}/token` with account "v2" is still the token route, not a decision route.
    const v2Token = await send('POST', '/v2/token', { body: { grant_type: 'client_credentials', client_id: 'x', client_secret: 'y' } });
    expect(v2Token.status).toBe(401);
    expect(await v2Token.json()).toMatchObject({ error: 'invalid_client' });
    expect((await send('GET', '/token?access_token=abk_at_x')).status).toBe(200);
    expect((await send('GET', '/v1/accounts/acme/environments/prod/configuration')).status).toBe(401);
    const lost = await send('GET', '/nothing/here/at/all');
    expect(lost.status).toBe(404);
  });

  it('another instance sharing the store accepts the token, writes, and both decision engines follow', async () => {
    const { storage, a, clock, advance } = await setup();
    const b = instance(storage, clock);
    expect(await a.served(100)).toEqual(expect.any(Map));
    const access = await a.accesses.createAccess({
      account: 'acme',
      name: 'bot',
      environments: [],
      actions: ['campaigns.read', 'panic.write'],
    });
    const res = await a.send('POST', '/acme/token', {
      body: { grant_type: 'client_credentials', scope: 'panic.write', client_id: access.clientId, client_secret: access.clientSecret },
    });
    const { access_token: token } = (await res.json()) as { access_token: string };

    // The token issued by A works on B; B switches panic mode.
    const panic = await b.send('PUT', '/v1/accounts/acme/environments/prod/panic', { body: { panic: true }, headers: bearer(token) });
    expect(panic.status).toBe(200);
    // B serves it at once; A within its refresh interval.
    const onB = await b.send('POST', '/v2/campaigns', { body: { visitor_id: 'v', trigger_hit: false } });
    expect(await onB.json()).toEqual({ visitor_id: 'v', panic: true, campaigns: [] });
    advance(1000);
    const onA = await a.send('POST', '/v2/campaigns', { body: { visitor_id: 'v', trigger_hit: false } });
    expect(await onA.json()).toEqual({ visitor_id: 'v', panic: true, campaigns: [] });

    // Revoked through A: a fresh check on B refuses it at once (B's cache of this token has expired).
    advance(2001);
    await a.accesses.revokeAccess(access.id);
    const afterRevoke = await b.send('PUT', '/v1/accounts/acme/environments/prod/panic', {
      body: { panic: false },
      headers: bearer(token),
    });
    expect(afterRevoke.status).toBe(401);
    expect(await (await b.send('GET', `/token?access_token=${token}`)).json()).toEqual({ active: false });
  });
});
