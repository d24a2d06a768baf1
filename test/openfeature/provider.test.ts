/**
 * The real `@openfeature/server-sdk` client with abkit's provider: every reason, every type,
 * errors for missing flags, type mismatches and bad contexts, flag metadata, hooks seeing the
 * details, exposures and track().
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorCode, OpenFeature, type EvaluationDetails, type FlagValue, type Hook, type HookContext } from '@openfeature/server-sdk';
import { DecisionEngine, memoryStorage, type BucketingConfig } from '../../src/index';
import { AbkitProvider } from '../../src/openfeature/index';

const ALL = { targetingGroups: [{ targetings: [{ key: 'fs_all_users', operator: 'EQUALS', value: '' }] }] };
const CONFIG = {
  campaigns: [
    {
      id: 'c-split',
      type: 'ab',
      slug: 'split-test',
      name: 'Split test',
      variationGroups: [
        {
          id: 'vg-split',
          targeting: ALL,
          variations: [
            { id: 'a', reference: true, allocation: 50, modifications: { type: 'FLAG', value: { color: 'grey', discount: 0 } } },
            { id: 'b', allocation: 50, modifications: { type: 'FLAG', value: { color: 'green', discount: 10 } } },
          ],
        },
      ],
    },
    {
      id: 'c-vip',
      type: 'toggle',
      variationGroups: [
        {
          id: 'vg-vip',
          targeting: { targetingGroups: [{ targetings: [{ key: 'plan', operator: 'EQUALS', value: 'gold' }] }] },
          variations: [
            {
              id: 'vip-on',
              allocation: 100,
              modifications: {
                type: 'JSON',
                value: { vip: true, perks: { shipping: 'free', lounges: ['paris'] }, tiers: [1, 2], nothing: null },
              },
            },
          ],
        },
      ],
    },
  ],
} as unknown as BucketingConfig;

let engine: DecisionEngine;
const client = () => OpenFeature.getClient('abkit-tests');
const seen: { stage: string; details?: EvaluationDetails<FlagValue>; flagKey: string }[] = [];
const hook: Hook = {
  after: (context: HookContext, details: EvaluationDetails<FlagValue>) =>
    void seen.push({ stage: 'after', details, flagKey: context.flagKey }),
  error: (context: HookContext) => void seen.push({ stage: 'error', flagKey: context.flagKey }),
  finally: (context: HookContext, details: EvaluationDetails<FlagValue>) =>
    void seen.push({ stage: 'finally', details, flagKey: context.flagKey }),
};

/** A visitor the hash (not the forced variation) puts in `variation`. */
async function visitorIn(variation: string): Promise<string> {
  const unforced = new DecisionEngine({ storage: engine.storage, defaultEnvironment: 'prod' });
  for (let i = 0; i < 1000; i++) {
    const { campaigns } = await unforced.decide({ visitorId: `of-${i}`, environment: 'prod', triggerHit: false, visitorConsent: false });
    if (campaigns[0]?.variation.id === variation) return `of-${i}`;
  }
  throw new Error(`no visitor in ${variation}`);
}

beforeAll(async () => {
  engine = new DecisionEngine({
    storage: memoryStorage(),
    defaultEnvironment: 'prod',
    refreshIntervalMs: 0,
    forcedVariations: { 'c-split': 'b' },
  });
  await engine.load(CONFIG, { environment: 'prod' });
  await engine.load(CONFIG, { environment: 'qa' });
  await OpenFeature.setProviderAndWait(new AbkitProvider({ engine, environment: 'prod' }));
  OpenFeature.addHooks(hook);
});

afterAll(async () => {
  await OpenFeature.close();
});

describe('reasons', () => {
  it('SPLIT for a hash-chosen variation, with the variant and the campaign and variation in the metadata', async () => {
    const forced = new DecisionEngine({ storage: engine.storage, defaultEnvironment: 'prod' }); // no forced variations
    await OpenFeature.setProviderAndWait('plain', new AbkitProvider({ engine: forced }));
    const plain = OpenFeature.getClient('plain');
    const visitor = await visitorIn('a');
    const details = await plain.getStringDetails('color', 'none', { targetingKey: visitor });
    expect(details).toMatchObject({ value: 'grey', reason: 'SPLIT', variant: 'a', flagKey: 'color' });
    expect(details.errorCode).toBeUndefined();
    expect(details.flagMetadata).toEqual({
      campaignId: 'c-split',
      campaignName: 'Split test',
      slug: 'split-test',
      type: 'ab',
      variationGroupId: 'vg-split',
      variationId: 'a',
      reference: true,
    });
  });

  it('STATIC for a forced variation', async () => {
    const details = await client().getNumberDetails('discount', -1, { targetingKey: await visitorIn('a') });
    expect(details).toMatchObject({ value: 10, reason: 'STATIC', variant: 'b' });
  });

  it('TARGETING_MATCH for a variation group serving everyone it targets', async () => {
    const details = await client().getBooleanDetails('vip', false, { targetingKey: 'v1', plan: 'gold' });
    expect(details).toMatchObject({ value: true, reason: 'TARGETING_MATCH', variant: 'vip-on' });
    expect(details.flagMetadata).toMatchObject({ campaignId: 'c-vip', type: 'toggle', variationId: 'vip-on', reference: false });
    expect(details.flagMetadata).not.toHaveProperty('slug'); // null metadata is left out
  });

  it('DEFAULT for a known flag the visitor is not targeted by, or whose value is null', async () => {
    expect(await client().getBooleanDetails('vip', false, { targetingKey: 'v1', plan: 'free' })).toMatchObject({
      value: false,
      reason: 'DEFAULT',
    });
    expect(await client().getObjectDetails('nothing', { d: 1 }, { targetingKey: 'v1', plan: 'gold' })).toMatchObject({
      value: { d: 1 },
      reason: 'DEFAULT',
    });
  });

  it('DISABLED in panic mode', async () => {
    await engine.load({ ...CONFIG, panic: true }, { environment: 'prod' });
    try {
      expect(await client().getStringDetails('color', 'safe', { targetingKey: 'v1' })).toMatchObject({ value: 'safe', reason: 'DISABLED' });
    } finally {
      await engine.load(CONFIG, { environment: 'prod' });
    }
  });
});

describe('types and errors', () => {
  it('resolves booleans, strings, numbers and objects (objects and arrays)', async () => {
    const ctx = { targetingKey: 'v1', plan: 'gold' };
    expect(await client().getBooleanValue('vip', false, ctx)).toBe(true);
    expect(await client().getStringValue('color', 'none', ctx)).toBe('green');
    expect(await client().getNumberValue('discount', -1, ctx)).toBe(10);
    expect(await client().getObjectValue('perks', {}, ctx)).toEqual({ shipping: 'free', lounges: ['paris'] });
    expect(await client().getObjectValue('tiers', [], ctx)).toEqual([1, 2]);
  });

  it('TYPE_MISMATCH when the flag holds another type, with the default value', async () => {
    const ctx = { targetingKey: 'v1', plan: 'gold' };
    const cases = [
      await client().getNumberDetails('color', 7, ctx),
      await client().getBooleanDetails('discount', false, ctx),
      await client().getStringDetails('perks', 'x', ctx),
      await client().getObjectDetails('vip', {}, ctx),
    ];
    for (const details of cases) {
      expect(details.reason).toBe('ERROR');
      expect(details.errorCode).toBe(ErrorCode.TYPE_MISMATCH);
      expect(details.errorMessage).toMatch(/is a (string|number|object|boolean), not a/);
    }
    expect(cases.map((d) => d.value)).toEqual([7, false, 'x', {}]);
  });

  it('FLAG_NOT_FOUND for a key no campaign sets; TARGETING_KEY_MISSING and INVALID_CONTEXT for bad contexts', async () => {
    const missing = await client().getBooleanDetails('no-such-flag', true, { targetingKey: 'v1' });
    expect(missing).toMatchObject({ value: true, reason: 'ERROR', errorCode: ErrorCode.FLAG_NOT_FOUND });
    expect(missing.errorMessage).toContain('no-such-flag');
    expect(await client().getStringDetails('color', 'd', {})).toMatchObject({
      value: 'd',
      reason: 'ERROR',
      errorCode: ErrorCode.TARGETING_KEY_MISSING,
    });
    const bad = await client().getStringDetails('color', 'd', { targetingKey: 'v1', address: { city: 'Paris' } });
    expect(bad).toMatchObject({ value: 'd', reason: 'ERROR', errorCode: ErrorCode.INVALID_CONTEXT });
    expect(bad.errorMessage).toContain('address');
    // A date is accepted, as its ISO text.
    expect(await client().getStringDetails('color', 'd', { targetingKey: 'v1', since: new Date(0) })).toMatchObject({ reason: 'STATIC' });
  });

  it('GENERAL when the environment does not exist', async () => {
    await OpenFeature.setProviderAndWait('nowhere', new AbkitProvider({ engine, environment: 'nowhere' }));
    const details = await OpenFeature.getClient('nowhere').getStringDetails('color', 'd', { targetingKey: 'v1' });
    expect(details).toMatchObject({ value: 'd', reason: 'ERROR', errorCode: ErrorCode.GENERAL });
    expect(details.errorMessage).toContain('nowhere');
  });
});

describe('hooks, exposures and track()', () => {
  it('hooks see the resolution details, errors included', async () => {
    seen.length = 0;
    await client().getBooleanValue('vip', false, { targetingKey: 'v1', plan: 'gold' });
    await client().getBooleanValue('no-such-flag', false, { targetingKey: 'v1' });
    const after = seen.find((s) => s.stage === 'after' && s.flagKey === 'vip')!;
    expect(after.details).toMatchObject({
      value: true,
      reason: 'TARGETING_MATCH',
      variant: 'vip-on',
      flagMetadata: { campaignId: 'c-vip' },
    });
    expect(seen.some((s) => s.stage === 'error' && s.flagKey === 'no-such-flag')).toBe(true);
    const fin = seen.find((s) => s.stage === 'finally' && s.flagKey === 'no-such-flag')!;
    expect(fin.details).toMatchObject({ reason: 'ERROR', errorCode: ErrorCode.FLAG_NOT_FOUND });
  });

  it('an evaluation records one exposure, for the campaign serving the flag only; none for DEFAULT or errors', async () => {
    const before = (await engine.storage.activations.list({ environmentId: 'prod', visitorId: 'exposed-1' })).length;
    expect(before).toBe(0);
    await client().getBooleanValue('vip', false, { targetingKey: 'exposed-1', plan: 'gold' });
    await client().getNumberValue('color', 0, { targetingKey: 'exposed-1', plan: 'gold' }); // type mismatch
    await client().getBooleanValue('vip', false, { targetingKey: 'exposed-2', plan: 'free' }); // default
    const recorded = await engine.storage.activations.list({ environmentId: 'prod' });
    expect(recorded.filter((a) => a.visitorId.startsWith('exposed-')).map((a) => [a.visitorId, a.campaignId, a.variationId])).toEqual([
      ['exposed-1', 'c-vip', 'vip-on'],
    ]);
  });

  it('track() records a conversion event with its value for the context visitor', async () => {
    client().track('purchase', { targetingKey: 'buyer-1' }, { value: 42.5 });
    client().track('signup', { targetingKey: 'buyer-2' });
    const events = async () =>
      (await engine.storage.events.list({ environmentId: 'prod' })).filter((e) => e.visitorId.startsWith('buyer-'));
    await expect.poll(async () => (await events()).length).toBe(2);
    expect((await events()).map((e) => [e.visitorId, e.event, e.value])).toEqual([
      ['buyer-1', 'purchase', 42.5],
      ['buyer-2', 'signup', null],
    ]);
  });
});
