import { describe, expect, it } from 'vitest';
import {
  ConflictError,
  DecisionEngine,
  memoryStorage,
  NotFoundError,
  RemoteControl,
  ValidationError,
  type ErrorDetail,
} from '../../src/index';
import { campaign, config } from '../helpers/configs';

async function setup() {
  const storage = memoryStorage();
  const engine = new DecisionEngine({ storage, defaultEnvironment: 'prod' });
  await engine.load(
    config([
      { id: 'c1', split: [50, 50] },
      { id: 'c2', split: [100] },
    ]),
    { environment: 'prod', account: 'acme' },
  );
  await engine.load(config([]), { environment: 'gprod', account: 'globex' });
  const remote = new RemoteControl({ engine });
  return { storage, engine, remote };
}

async function rejection(promise: Promise<unknown>): Promise<Error & { details?: readonly ErrorDetail[] }> {
  return promise.then(
    () => {
      throw new Error('expected a rejection');
    },
    (error: Error) => error,
  );
}

/** Visitor ids v0..v(n-1) decided in prod without storing anything. */
async function variations(engine: DecisionEngine, campaignId: string, n = 100): Promise<Set<string | undefined>> {
  const seen = new Set<string | undefined>();
  for (let i = 0; i < n; i++) {
    const result = await engine.decide({ visitorId: `visitor-${i}`, triggerHit: false, visitorConsent: false });
    seen.add(result.campaigns.find((c) => c.id === campaignId)?.variation.id);
  }
  return seen;
}

describe('RemoteControl options', () => {
  it('needs a DecisionEngine and a positive maxAttempts', () => {
    expect(() => new RemoteControl({} as never)).toThrow(/RemoteControl: engine/);
    expect(() => new RemoteControl({ engine: new DecisionEngine({ storage: memoryStorage() }), maxAttempts: 0 })).toThrow(/maxAttempts/);
  });
});

describe('configuration', () => {
  it('reads the stored configuration and version', async () => {
    const { remote } = await setup();
    const record = await remote.getConfiguration('acme', 'prod');
    expect(record).toMatchObject({ id: 'prod', accountId: 'acme', version: 1 });
    expect(record.config.campaigns.map((c) => c.id)).toEqual(['c1', 'c2']);
  });

  it('answers NotFoundError for an unknown environment or one of another account', async () => {
    const { remote } = await setup();
    await expect(remote.getConfiguration('acme', 'nowhere')).rejects.toBeInstanceOf(NotFoundError);
    await expect(remote.getConfiguration('acme', 'gprod')).rejects.toBeInstanceOf(NotFoundError);
    await expect(remote.setPanic('acme', 'gprod', true)).rejects.toBeInstanceOf(NotFoundError);
    await expect(remote.listActivations('acme', 'gprod')).rejects.toBeInstanceOf(NotFoundError);
  });

  it('replaces the configuration; the engine serves it on the next request', async () => {
    const { remote, engine } = await setup();
    expect(await variations(engine, 'c1')).toEqual(new Set(['c1-v0', 'c1-v1']));
    const record = await remote.replaceConfiguration('acme', 'prod', config([{ id: 'c1', split: [0, 100] }]));
    expect(record.version).toBe(2);
    expect(await variations(engine, 'c1')).toEqual(new Set(['c1-v1']));
    expect(await variations(engine, 'c2')).toEqual(new Set([undefined]));
  });

  it('reaches another engine sharing the store within its refresh interval', async () => {
    const { remote, storage } = await setup();
    let now = 1_000_000;
    const other = new DecisionEngine({ storage, defaultEnvironment: 'prod', refreshIntervalMs: 1000, clock: () => now });
    expect((await other.decide({ visitorId: 'v', triggerHit: false })).panic).toBe(false);
    await remote.setPanic('acme', 'prod', true);
    now += 1000;
    expect(await other.decide({ visitorId: 'v', triggerHit: false })).toMatchObject({ panic: true, campaigns: [] });
  });

  it('validates the whole configuration, naming each problem by path, and writes nothing', async () => {
    const { remote } = await setup();
    const bad = config([{ id: 'c1', split: [60, 60] }]) as unknown as { campaigns: Record<string, unknown>[] };
    delete bad.campaigns[0]!.type;
    const error = await rejection(remote.replaceConfiguration('acme', 'prod', bad));
    expect(error).toBeInstanceOf(ValidationError);
    const paths = error.details!.map((d) => d.path);
    expect(paths).toContainEqual(['campaigns', 0, 'type']);
    expect(paths).toContainEqual(['campaigns', 0, 'variationGroups', 0, 'variations']);
    expect((await remote.getConfiguration('acme', 'prod')).version).toBe(1);
  });

  it('refuses a stale expectedVersion with ConflictError', async () => {
    const { remote } = await setup();
    await remote.replaceConfiguration('acme', 'prod', config([]), { expectedVersion: 1 });
    await expect(remote.replaceConfiguration('acme', 'prod', config([]), { expectedVersion: 1 })).rejects.toBeInstanceOf(ConflictError);
    expect((await remote.getConfiguration('acme', 'prod')).version).toBe(2);
  });
});

describe('one campaign', () => {
  it('reads a campaign by id; NotFoundError for an unknown one', async () => {
    const { remote } = await setup();
    expect((await remote.getCampaign('acme', 'prod', 'c2')).id).toBe('c2');
    await expect(remote.getCampaign('acme', 'prod', 'nope')).rejects.toBeInstanceOf(NotFoundError);
  });

  it('replaces a campaign in place and appends a new one', async () => {
    const { remote, engine } = await setup();
    await remote.putCampaign('acme', 'prod', 'c1', campaign({ id: 'c1', split: [100, 0] }));
    const { id: _omitted, ...withoutId } = campaign({ id: 'c3', split: [100] });
    const record = await remote.putCampaign('acme', 'prod', 'c3', withoutId);
    expect(record.config.campaigns.map((c) => c.id)).toEqual(['c1', 'c2', 'c3']);
    expect(record.version).toBe(3);
    expect(await variations(engine, 'c1')).toEqual(new Set(['c1-v0']));
    expect(await variations(engine, 'c3')).toEqual(new Set(['c3-v0']));
  });

  it('refuses a body id that differs from the path', async () => {
    const { remote } = await setup();
    const error = await rejection(remote.putCampaign('acme', 'prod', 'c1', campaign({ id: 'c2', split: [100] })));
    expect(error).toBeInstanceOf(ValidationError);
    expect(error.details).toEqual([{ path: ['id'], message: expect.any(String) }]);
  });

  it('refuses an invalid campaign, naming each problem by path', async () => {
    const { remote } = await setup();
    const bad = campaign({ id: 'c1', split: [70, 70] }) as unknown as Record<string, unknown>;
    bad.type = 42;
    const error = await rejection(remote.putCampaign('acme', 'prod', 'c1', bad));
    expect(error).toBeInstanceOf(ValidationError);
    const paths = error.details!.map((d) => d.path);
    expect(paths).toContainEqual(['type']);
    expect(paths).toContainEqual(['variationGroups', 0, 'variations']);
    await expect(remote.putCampaign('acme', 'prod', 'c1', 'not an object')).rejects.toBeInstanceOf(ValidationError);
    expect((await remote.getConfiguration('acme', 'prod')).version).toBe(1);
  });

  it('refuses a campaign that breaks the configuration as a whole (duplicate variation group id)', async () => {
    const { remote } = await setup();
    const error = await rejection(remote.putCampaign('acme', 'prod', 'c3', campaign({ id: 'c3', split: [100], groupId: 'c1-vg' })));
    expect(error).toBeInstanceOf(ValidationError);
    expect(error.message).toMatch(/duplicate variation group id "c1-vg"/);
    expect((await remote.getConfiguration('acme', 'prod')).version).toBe(1);
  });

  it('deletes a campaign; NotFoundError for an unknown one', async () => {
    const { remote, engine } = await setup();
    const record = await remote.deleteCampaign('acme', 'prod', 'c2');
    expect(record.config.campaigns.map((c) => c.id)).toEqual(['c1']);
    expect(await variations(engine, 'c2', 5)).toEqual(new Set([undefined]));
    await expect(remote.deleteCampaign('acme', 'prod', 'c2')).rejects.toBeInstanceOf(NotFoundError);
  });

  it('concurrent updates of different campaigns all land (read-modify-write retried)', async () => {
    const { remote } = await setup();
    const ids = ['n1', 'n2', 'n3', 'n4'];
    await Promise.all(ids.map((id) => remote.putCampaign('acme', 'prod', id, campaign({ id, split: [100] }))));
    const record = await remote.getConfiguration('acme', 'prod');
    expect(record.config.campaigns.map((c) => c.id).sort()).toEqual(['c1', 'c2', ...ids]);
    expect(record.version).toBe(1 + ids.length);
  });
});

describe('panic and activations', () => {
  it('panic mode serves no campaign until switched off', async () => {
    const { remote, engine } = await setup();
    const on = await remote.setPanic('acme', 'prod', true);
    expect(on.config.panic).toBe(true);
    expect(await engine.decide({ visitorId: 'v', triggerHit: false })).toEqual({ visitorId: 'v', panic: true, campaigns: [] });
    await remote.setPanic('acme', 'prod', false);
    expect((await engine.decide({ visitorId: 'v', triggerHit: false })).campaigns).toHaveLength(2);
    await expect(remote.setPanic('acme', 'prod', 'yes' as unknown as boolean)).rejects.toBeInstanceOf(ValidationError);
  });

  it("lists the environment's activations, filtered", async () => {
    const { remote, engine } = await setup();
    await engine.decide({ visitorId: 'a' });
    await engine.decide({ visitorId: 'b' });
    const all = await remote.listActivations('acme', 'prod');
    expect(all).toHaveLength(4);
    const onlyA = await remote.listActivations('acme', 'prod', { visitorId: 'a' });
    expect(onlyA.map((r) => r.visitorId)).toEqual(['a', 'a']);
    expect(await remote.listActivations('acme', 'prod', { limit: 1 })).toHaveLength(1);
  });
});
