import { describe, expect, it } from 'vitest';
import { type AbkitError, DecisionEngine, memoryStorage, NotFoundError, ValidationError, ExperimentService } from '../../src/index';
import { variationBucket } from '../helpers/murmur3';
import { campaign, config } from '../helpers/configs';

async function engineWith(cfg: unknown, options: Partial<ConstructorParameters<typeof DecisionEngine>[0]> = {}) {
  const engine = new DecisionEngine({ storage: memoryStorage(), ...options });
  await engine.load(cfg);
  return engine;
}

/** A visitor id whose bucket in `groupId` satisfies `test`. */
function visitorWhere(groupId: string, test: (bucket: number) => boolean, from = 0): string {
  for (let i = from; ; i++) if (test(variationBucket(groupId, `visitor-${i}`))) return `visitor-${i}`;
}

describe('DecisionEngine options', () => {
  it('rejects bad options with precise messages', () => {
    expect(() => new DecisionEngine({ storage: memoryStorage(), refreshIntervalMs: -1 })).toThrow(
      'DecisionEngine: refreshIntervalMs must be a number >= 0, got -1',
    );
    expect(() => new DecisionEngine({ storage: memoryStorage(), maxEnvironments: 0 })).toThrow(/maxEnvironments/);
    expect(() => new DecisionEngine({ storage: memoryStorage(), defaultEnvironment: '' })).toThrow(/defaultEnvironment/);
    expect(() => new DecisionEngine({ storage: memoryStorage(), forcedVariations: { c: 1 as unknown as string } })).toThrow(
      /forcedVariations/,
    );
  });
});

describe('loading configurations', () => {
  it('rejects an invalid file with the JSON path of each problem', async () => {
    const engine = new DecisionEngine({ storage: memoryStorage() });
    const bad = config([{ id: 'c1', split: [60, 60] }]) as any;
    bad.campaigns[0].variationGroups[0].targeting.targetingGroups[0].targetings[0] = { key: 'x', operator: 'NOPE', value: 1 };
    delete bad.campaigns[0].type;
    const error = await engine.load(bad).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ValidationError);
    const paths = (error as ValidationError).details.map((d) => d.path);
    expect(paths).toContainEqual(['campaigns', 0, 'type']);
    expect(paths).toContainEqual(['campaigns', 0, 'variationGroups', 0, 'targeting', 'targetingGroups', 0, 'targetings', 0, 'operator']);
    expect(paths).toContainEqual(['campaigns', 0, 'variationGroups', 0, 'variations']);
    expect((error as ValidationError).message).toMatch(/allocations sum to 120/);
  });

  it('rejects duplicate campaign and variation group ids', async () => {
    const cfg = config([
      { id: 'c1', split: [100], groupId: 'g' },
      { id: 'c1', split: [100], groupId: 'g' },
    ]);
    await expect(new DecisionEngine({ storage: memoryStorage() }).load(cfg)).rejects.toThrow(
      /duplicate campaign id "c1".*duplicate variation group id "g"/,
    );
  });

  it('rejects bucket ranges with lo >= hi', async () => {
    await expect(
      new DecisionEngine({ storage: memoryStorage() }).load(config([{ id: 'c1', split: [100], bucketRanges: [[50, 50]] }])),
    ).rejects.toThrow(/campaigns\[0\]\.bucketRanges\[0\]\.r/);
  });

  it('answers NotFoundError for an unknown environment', async () => {
    await expect(new DecisionEngine({ storage: memoryStorage() }).decide({ visitorId: 'v' })).rejects.toBeInstanceOf(NotFoundError);
  });
});

describe('decide', () => {
  it('returns the campaign value of interfaces.md, Campaign value with type and slug', async () => {
    const engine = await engineWith(config([{ id: 'c1', slug: 'first', split: [100] }]));
    const result = await engine.decide({ visitorId: 'v1' });
    expect(result).toEqual({
      visitorId: 'v1',
      panic: false,
      campaigns: [
        {
          id: 'c1',
          variationGroupId: 'c1-vg',
          variation: { id: 'c1-v0', reference: true, modifications: { type: 'FLAG', value: { c1: 0, 'c1-only-v0': true } } },
          type: 'ab',
          slug: 'first',
        },
      ],
    });
  });

  it('exposeAllKeys adds sibling keys as null', async () => {
    const engine = await engineWith(config([{ id: 'c1', split: [0, 100] }]));
    const [value] = (await engine.decide({ visitorId: 'v1', exposeAllKeys: true })).campaigns;
    expect(value!.variation.modifications.value).toEqual({ c1: 1, 'c1-only-v0': null, 'c1-only-v1': true });
    const [plain] = (await engine.decide({ visitorId: 'v1' })).campaigns;
    expect(plain!.variation.modifications.value).toEqual({ c1: 1, 'c1-only-v1': true });
  });

  it("returned values are frozen so one caller cannot change another caller's result", async () => {
    const engine = await engineWith(config([{ id: 'c1', split: [100] }]));
    const [value] = (await engine.decide({ visitorId: 'v1' })).campaigns;
    expect(Object.isFrozen(value!.variation.modifications.value)).toBe(true);
  });

  it('rejects an empty visitor id and non-scalar context values, naming the field', async () => {
    const engine = await engineWith(config([{ id: 'c1', split: [100] }]));
    await expect(engine.decide({ visitorId: '' })).rejects.toThrow(/visitorId must be a non-empty string/);
    await expect(engine.decide({ visitorId: 'v', context: { a: { b: 1 } } as any })).rejects.toThrow(
      /context\.a must be a boolean, a number or a string/,
    );
    await expect(engine.decide({ visitorId: 'v', context: { a: null } as any })).rejects.toBeInstanceOf(ValidationError);
    await expect(engine.decide({ visitorId: 'v', context: { a: [1] } as any })).rejects.toBeInstanceOf(ValidationError);
  });

  it('panic mode returns no campaign, says panic, and records nothing', async () => {
    const storage = memoryStorage();
    const engine = await engineWith(config([{ id: 'c1', split: [100] }], { panic: true }), { storage });
    expect(await engine.decide({ visitorId: 'v1' })).toEqual({ visitorId: 'v1', campaigns: [], panic: true });
    expect(await engine.decideCampaign('c1', { visitorId: 'v1' })).toBeNull();
    expect(await storage.activations.list({ environmentId: 'default' })).toEqual([]);
  });

  it('targeting picks the first matching variation group', async () => {
    const cfg = config([{ id: 'c1', split: [100] }]) as any;
    const group = cfg.campaigns[0].variationGroups[0];
    cfg.campaigns[0].variationGroups = [
      {
        ...structuredClone(group),
        id: 'gold',
        targeting: { targetingGroups: [{ targetings: [{ key: 'plan', operator: 'EQUALS', value: 'gold' }] }] },
      },
      { ...structuredClone(group), id: 'rest' },
    ];
    const engine = await engineWith(cfg);
    expect((await engine.decide({ visitorId: 'v', context: { plan: 'GOLD' } })).campaigns[0]!.variationGroupId).toBe('gold');
    expect((await engine.decide({ visitorId: 'v', context: { plan: 'silver' } })).campaigns[0]!.variationGroupId).toBe('rest');
  });

  it('a visitor in the allocation gap is untracked and gets no campaign', async () => {
    const engine = await engineWith(config([{ id: 'c1', split: [10, 10] }]));
    const inGap = visitorWhere('c1-vg', (b) => b >= 20);
    const inside = visitorWhere('c1-vg', (b) => b >= 10 && b < 20);
    expect((await engine.decide({ visitorId: inGap })).campaigns).toEqual([]);
    expect((await engine.decide({ visitorId: inside })).campaigns[0]!.variation.id).toBe('c1-v1');
  });

  it('variations with allocation 0 or none never match', async () => {
    const engine = await engineWith(config([{ id: 'c1', split: [undefined, 0, 100] }]));
    for (let i = 0; i < 200; i++) {
      expect((await engine.decide({ visitorId: `v${i}`, triggerHit: false })).campaigns[0]!.variation.id).toBe('c1-v2');
    }
  });

  it('bucket ranges restrict a campaign to visitors whose murmur3(visitorId) % 100 is in [lo, hi)', async () => {
    const engine = await engineWith(
      config([
        {
          id: 'c1',
          split: [100],
          bucketRanges: [
            [0, 30],
            [60, 70],
          ],
        },
      ]),
    );
    const { campaignBucket } = await import('../helpers/murmur3');
    for (let i = 0; i < 300; i++) {
      const id = `v${i}`;
      const b = campaignBucket(id);
      const served = (await engine.decide({ visitorId: id, triggerHit: false })).campaigns.length === 1;
      expect(served).toBe(b < 30 || (b >= 60 && b < 70));
    }
  });
});

describe('single campaign', () => {
  it('decides by id or slug; null when not targeted', async () => {
    const engine = await engineWith(
      config([
        { id: 'c1', slug: 'checkout', split: [100] },
        { id: 'c2', split: [100], targeting: [[{ key: 'beta', operator: 'EQUALS', value: true }]] },
      ]),
    );
    expect((await engine.decideCampaign('checkout', { visitorId: 'v' }))?.id).toBe('c1');
    expect((await engine.decideCampaign('c1', { visitorId: 'v' }))?.id).toBe('c1');
    expect(await engine.decideCampaign('c2', { visitorId: 'v' })).toBeNull();
    expect((await engine.decideCampaign('c2', { visitorId: 'v', context: { beta: true } }))?.id).toBe('c2');
  });

  it('an unknown campaign is a 400 with the documented message', async () => {
    const engine = await engineWith(config([{ id: 'c1', split: [100] }]));
    const error = (await engine.decideCampaign('zzz', { visitorId: 'v' }).catch((e) => e)) as AbkitError;
    expect(error.status).toBe(400);
    expect(error.message).toBe("campaign zzz is paused or doesn't exist");
  });

  it('records an activation for the requested campaign only', async () => {
    const storage = memoryStorage();
    const engine = await engineWith(
      config([
        { id: 'c1', split: [100] },
        { id: 'c2', split: [100], type: 'toggle' },
      ]),
      { storage },
    );
    await engine.decideCampaign('c2', { visitorId: 'v' });
    expect((await storage.activations.list({ environmentId: 'default' })).map((a) => a.campaignId)).toEqual(['c2']);
  });
});

describe('activations on decide', () => {
  it('trigger_hit defaults to true and records one activation per returned campaign', async () => {
    const storage = memoryStorage();
    let now = 5000;
    const engine = await engineWith(
      config([
        { id: 'c1', split: [100] },
        { id: 'c2', split: [100], type: 'toggle' },
      ]),
      { storage, clock: () => now },
    );
    await engine.decide({ visitorId: 'v1', anonymousId: 'anon' });
    now = 6000;
    await engine.decide({ visitorId: 'v2', triggerHit: false });
    const rows = await storage.activations.list({ environmentId: 'default' });
    expect(rows).toEqual([
      {
        environmentId: 'default',
        visitorId: 'v1',
        anonymousId: 'anon',
        campaignId: 'c1',
        variationGroupId: 'c1-vg',
        variationId: 'c1-v0',
        timestamp: 5000,
      },
      {
        environmentId: 'default',
        visitorId: 'v1',
        anonymousId: 'anon',
        campaignId: 'c2',
        variationGroupId: 'c2-vg',
        variationId: 'c2-v0',
        timestamp: 5000,
      },
    ]);
  });

  it('activate validates environment, variation group and variation, naming the field, and applies all or none', async () => {
    const storage = memoryStorage();
    const engine = await engineWith(config([{ id: 'c1', split: [50, 50] }]), { storage });
    const experiments = new ExperimentService({ engine });
    const good = { environmentId: 'default', visitorId: 'v', variationGroupId: 'c1-vg', variationId: 'c1-v1' };
    await expect(experiments.activate({ ...good, environmentId: 'nope' })).rejects.toThrow(
      /environmentId "nope" is not a known environment/,
    );
    await expect(experiments.activate({ ...good, variationGroupId: 'x' })).rejects.toThrow(/variationGroupId "x" is not a variation group/);
    await expect(experiments.activate({ ...good, variationId: 'x' })).rejects.toThrow(
      /variationId "x" is not a variation of variation group "c1-vg"/,
    );
    await expect(experiments.activate({ ...good, visitorId: '' })).rejects.toThrow(/visitorId must be a non-empty string/);
    await expect(experiments.activate([good, { ...good, variationId: 'x' }])).rejects.toThrow(/\[1\]\.variationId/);
    expect(await storage.activations.list({ environmentId: 'default' })).toEqual([]);
    await experiments.activate([good, { ...good, visitorId: 'w' }]);
    expect((await storage.activations.list({ environmentId: 'default' })).map((a) => [a.visitorId, a.campaignId])).toEqual([
      ['v', 'c1'],
      ['w', 'c1'],
    ]);
  });
});

describe('sticky assignments', () => {
  it('a stored assignment wins over a changed allocation while its variation exists', async () => {
    const storage = memoryStorage();
    const engine = await engineWith(config([{ id: 'c1', split: [100, 0] }]), { storage });
    expect((await engine.decide({ visitorId: 'v1' })).campaigns[0]!.variation.id).toBe('c1-v0');
    expect(await storage.assignments.get('default', 'v1')).toEqual({ 'c1-vg': 'c1-v0' });
    await engine.load(config([{ id: 'c1', split: [0, 100] }]));
    expect((await engine.decide({ visitorId: 'v1' })).campaigns[0]!.variation.id).toBe('c1-v0');
    expect((await engine.decide({ visitorId: 'v2' })).campaigns[0]!.variation.id).toBe('c1-v1');
    // The variation disappears: the visitor is bucketed again.
    const cfg = config([{ id: 'c1', split: [100] }]) as any;
    cfg.campaigns[0].variationGroups[0].variations[0].id = 'replacement';
    await engine.load(cfg);
    expect((await engine.decide({ visitorId: 'v1' })).campaigns[0]!.variation.id).toBe('replacement');
  });

  it('a sticky assignment still needs the targeting to match', async () => {
    const engine = await engineWith(config([{ id: 'c1', split: [100], targeting: [[{ key: 'ok', operator: 'EQUALS', value: true }]] }]));
    expect((await engine.decide({ visitorId: 'v1', context: { ok: true } })).campaigns).toHaveLength(1);
    expect((await engine.decide({ visitorId: 'v1', context: { ok: false } })).campaigns).toHaveLength(0);
  });

  it("reads a visitor's stored record by its groups only: never enumerates it (a record of many groups is a dictionary to V8)", async () => {
    const storage = memoryStorage();
    const campaigns = Array.from({ length: 40 }, (_, i) => ({ id: `c${i}`, split: [50, 50] }));
    const engine = await engineWith(config(campaigns), { storage });
    const first = (await engine.decide({ visitorId: 'v1', triggerHit: false })).campaigns.map((c) => c.variation.id);
    // The same record, behind a proxy that counts enumerations, and with every variation flipped.
    const record = { ...(await storage.assignments.get('default', 'v1')) };
    for (const key of Object.keys(record))
      record[key] = record[key]!.endsWith('-v0') ? record[key]!.replace(/-v0$/, '-v1') : record[key]!.replace(/-v1$/, '-v0');
    let enumerations = 0;
    const counted = new Proxy(Object.freeze(record), {
      ownKeys(target) {
        enumerations++;
        return Reflect.ownKeys(target);
      },
    });
    storage.assignments.getNow = () => counted;
    const again = (await engine.decide({ visitorId: 'v1', triggerHit: false, visitorConsent: false })).campaigns.map((c) => c.variation.id);
    expect(again).toEqual(first.map((id) => (id.endsWith('-v0') ? id.replace(/-v0$/, '-v1') : id.replace(/-v1$/, '-v0'))));
    expect(enumerations).toBe(0);
  });

  it('visitor_consent false stores nothing about the visitor but still records activations', async () => {
    const storage = memoryStorage();
    const engine = await engineWith(config([{ id: 'c1', split: [100] }]), { storage });
    await engine.decide({ visitorId: 'v1', visitorConsent: false });
    expect(await storage.assignments.get('default', 'v1')).toEqual({});
    expect(await storage.activations.list({ environmentId: 'default' })).toHaveLength(1);
  });
});

describe('experience continuity (enabledXPC)', () => {
  const split = { id: 'c1', split: [50, 50] };
  const anon = visitorWhere('c1-vg', (b) => b < 50);
  const user = visitorWhere('c1-vg', (b) => b >= 50);

  it("reuses the anonymous id's assignment for the authenticated visitor", async () => {
    const storage = memoryStorage();
    const engine = await engineWith(config([split], { accountSettings: { enabledXPC: true } }), { storage });
    expect((await engine.decide({ visitorId: anon })).campaigns[0]!.variation.id).toBe('c1-v0');
    const logged = await engine.decide({ visitorId: user, anonymousId: anon });
    expect(logged.campaigns[0]!.variation.id).toBe('c1-v0');
    // The inherited assignment becomes the visitor's own.
    expect(await storage.assignments.get('default', user)).toEqual({ 'c1-vg': 'c1-v0' });
    expect((await engine.decide({ visitorId: user })).campaigns[0]!.variation.id).toBe('c1-v0');
  });

  it('without enabledXPC the authenticated visitor is bucketed on its own id', async () => {
    const engine = await engineWith(config([split]));
    await engine.decide({ visitorId: anon });
    expect((await engine.decide({ visitorId: user, anonymousId: anon })).campaigns[0]!.variation.id).toBe('c1-v1');
  });
});

describe('one visitor, one test (enabled1V1T)', () => {
  const cfg = (on: boolean) =>
    config(
      [
        { id: 'a1', split: [100] },
        { id: 't1', type: 'toggle', split: [100] },
        { id: 'a2', split: [100] },
      ],
      {
        accountSettings: { enabled1V1T: on },
      },
    );

  it('keeps only the first ab campaign; other types are unaffected', async () => {
    const engine = await engineWith(cfg(true));
    expect((await engine.decide({ visitorId: 'v' })).campaigns.map((c) => c.id)).toEqual(['a1', 't1']);
    expect(await engine.decideCampaign('a2', { visitorId: 'v' })).toBeNull();
    const off = await engineWith(cfg(false));
    expect((await off.decide({ visitorId: 'v' })).campaigns.map((c) => c.id)).toEqual(['a1', 't1', 'a2']);
  });

  it('a visitor already in a later ab campaign stays in it', async () => {
    const storage = memoryStorage();
    await storage.assignments.save('default', 'v', { 'a2-vg': 'a2-v0' });
    const engine = await engineWith(cfg(true), { storage });
    expect((await engine.decide({ visitorId: 'v' })).campaigns.map((c) => c.id)).toEqual(['t1', 'a2']);
  });

  it('the next ab campaign takes a visitor untracked in the first', async () => {
    const c = config(
      [
        { id: 'a1', split: [50] },
        { id: 'a2', split: [100] },
      ],
      { accountSettings: { enabled1V1T: true } },
    );
    const engine = await engineWith(c);
    const untracked = visitorWhere('a1-vg', (b) => b >= 50);
    expect((await engine.decide({ visitorId: untracked })).campaigns.map((x) => x.id)).toEqual(['a2']);
  });
});

describe('forced variations', () => {
  it('per engine and per call, over targeting and allocation, and explained', async () => {
    const cfg = config([
      { id: 'c1', split: [100, 0], targeting: [[{ key: 'never', operator: 'EXISTS' }]] },
      { id: 'c2', split: [100, 0] },
    ]);
    const engine = await engineWith(cfg, { forcedVariations: { c2: 'c2-v1' } });
    const result = await engine.decide({ visitorId: 'v', forcedVariations: { c1: 'c1-v1' } });
    expect(result.campaigns.map((c) => c.variation.id)).toEqual(['c1-v1', 'c2-v1']);
    const why = await engine.explain({ visitorId: 'v' });
    expect(why.campaigns[1]).toMatchObject({ outcome: 'assigned', source: 'forced', variationId: 'c2-v1' });
    expect(why.campaigns[1]!.reason).toMatch(/forced/);
  });

  it('rejects a forced variation that does not exist', async () => {
    const engine = await engineWith(config([{ id: 'c1', split: [100] }]));
    await expect(engine.decide({ visitorId: 'v', forcedVariations: { c1: 'nope' } })).rejects.toThrow(
      /forcedVariations\.c1 variation "nope" is not in campaign "c1"/,
    );
    await expect(engine.decide({ visitorId: 'v', forcedVariations: { zz: 'x' } })).rejects.toThrow(/campaign "zz" does not exist/);
  });

  it('engine-wide entries apply where they resolve and are ignored in other environments', async () => {
    const engine = new DecisionEngine({ storage: memoryStorage(), forcedVariations: { c1: 'c1-v1' } });
    await engine.load(config([{ id: 'c1', split: [100, 0] }]), { environment: 'prod' });
    await engine.load(config([{ id: 'other', split: [100] }]), { environment: 'staging' });
    expect((await engine.decide({ visitorId: 'v', environment: 'prod' })).campaigns[0]!.variation.id).toBe('c1-v1');
    expect((await engine.decide({ visitorId: 'v', environment: 'staging' })).campaigns.map((c) => c.id)).toEqual(['other']);
  });

  it('are not stored as sticky assignments', async () => {
    const storage = memoryStorage();
    const engine = await engineWith(config([{ id: 'c1', split: [100, 0] }]), { storage });
    await engine.decide({ visitorId: 'v', forcedVariations: { c1: 'c1-v1' } });
    expect(await storage.assignments.get('default', 'v')).toEqual({});
  });
});

describe('explain', () => {
  it('says which targeting failed and what the visitor had', async () => {
    const engine = await engineWith(
      config([{ id: 'c1', split: [100], targeting: [[{ key: 'country', operator: 'EQUALS', value: 'fr' }]] }]),
    );
    const why = await engine.explain({ visitorId: 'v', context: { country: 'de' } });
    expect(why.campaigns[0]).toMatchObject({
      outcome: 'not_targeted',
      failures: [{ variationGroupId: 'c1-vg', targetingGroup: 0, key: 'country', operator: 'EQUALS', expected: 'fr', actual: 'de' }],
    });
    expect(why.campaigns[0]!.reason).toBe('targeting failed: country EQUALS "fr" (visitor has "de")');
    const missing = await engine.explain({ visitorId: 'v' });
    expect(missing.campaigns[0]!.reason).toMatch(/visitor has no such key/);
  });

  it('gives the bucket and the allocation walked, and stores nothing', async () => {
    const storage = memoryStorage();
    const engine = await engineWith(config([{ id: 'c1', split: [10, 10] }]), { storage });
    const id = visitorWhere('c1-vg', (b) => b >= 20);
    const why = await engine.explain({ visitorId: id });
    expect(why.campaigns[0]).toMatchObject({
      outcome: 'untracked',
      bucket: variationBucket('c1-vg', id),
      allocation: [
        { variationId: 'c1-v0', allocation: 10, cumulative: 10 },
        { variationId: 'c1-v1', allocation: 10, cumulative: 20 },
      ],
    });
    const assigned = await engine.explain({ visitorId: visitorWhere('c1-vg', (b) => b < 10) });
    expect(assigned.campaigns[0]).toMatchObject({ outcome: 'assigned', source: 'hash', variationId: 'c1-v0' });
    expect(await storage.assignments.get('default', id)).toEqual({});
    expect(await storage.activations.list({ environmentId: 'default' })).toEqual([]);
  });

  it('explains sticky assignments, bucket ranges, panic and 1V1T', async () => {
    const storage = memoryStorage();
    await storage.assignments.save('default', 'v', { 'c1-vg': 'c1-v1' });
    const engine = await engineWith(
      config(
        [
          { id: 'c1', split: [100, 0] },
          { id: 'c2', split: [100] },
          { id: 'c3', split: [100], bucketRanges: [[0, 1]] },
        ],
        {
          accountSettings: { enabled1V1T: true },
        },
      ),
      { storage },
    );
    const { campaignBucket } = await import('../helpers/murmur3');
    const id = 'v';
    const why = await engine.explain({ visitorId: id });
    expect(why.campaigns.map((c) => c.outcome)).toEqual([
      'assigned',
      'one_visitor_one_test',
      campaignBucket(id) < 1 ? 'one_visitor_one_test' : 'outside_bucket_ranges',
    ]);
    expect(why.campaigns[0]).toMatchObject({ source: 'sticky', variationId: 'c1-v1' });
    await engine.load(config([{ id: 'c1', split: [100] }], { panic: true }));
    expect((await engine.explain({ visitorId: id })).campaigns[0]!.outcome).toBe('panic');
  });
});

describe('following the store', () => {
  it("reads neither the clock nor the store's versions while a memory store has had no write, and then sees the next one", async () => {
    const storage = memoryStorage();
    const now = 0;
    let clockReads = 0;
    const engine = new DecisionEngine({ storage, refreshIntervalMs: 0, clock: () => (clockReads++, now) });
    await engine.load(config([{ id: 'c1', split: [100] }]));
    await engine.decide({ visitorId: 'v0', triggerHit: false, visitorConsent: false });
    const versions = storage.environments.version;
    let versionReads = 0;
    storage.environments.version = (id) => (versionReads++, versions.call(storage.environments, id));
    clockReads = 0;
    for (let i = 1; i <= 100; i++) await engine.decide({ visitorId: `v${i}`, triggerHit: false, visitorConsent: false });
    expect({ clockReads, versionReads }).toEqual({ clockReads: 0, versionReads: 0 });
    // Another instance writes: the next decision checks (refreshIntervalMs 0) and sees it.
    await new DecisionEngine({ storage }).load(config([{ id: 'c1', split: [100] }], { panic: true }));
    expect((await engine.decide({ visitorId: 'v', triggerHit: false, visitorConsent: false })).panic).toBe(true);
    expect(versionReads).toBe(1);
  });

  it('a wrapped store whose changes() throws or answers a promise is checked by the clock, and its rejection is not left unhandled', async () => {
    for (const broken of [
      () => {
        throw new Error('down');
      },
      () => Promise.reject(new Error('down')),
      () => Promise.resolve(3),
    ]) {
      const storage = memoryStorage();
      await new DecisionEngine({ storage }).load(config([{ id: 'c1', split: [100] }]));
      let now = 0;
      const engine = new DecisionEngine({ storage, refreshIntervalMs: 1000, clock: () => now });
      (storage.environments as { changes?: () => unknown }).changes = broken;
      expect((await engine.decide({ visitorId: 'v', triggerHit: false })).campaigns).toHaveLength(1);
      await new DecisionEngine({ storage }).load(config([{ id: 'c1', split: [100] }], { panic: true }));
      now = 1000;
      expect((await engine.decide({ visitorId: 'v', triggerHit: false })).panic).toBe(true);
    }
  });

  it("an engine sees another instance's write after refreshIntervalMs", async () => {
    const storage = memoryStorage();
    let now = 0;
    const writer = new DecisionEngine({ storage });
    const reader = new DecisionEngine({ storage, refreshIntervalMs: 1000, clock: () => now });
    await writer.load(config([{ id: 'c1', split: [100] }]));
    expect((await reader.decide({ visitorId: 'v', triggerHit: false, visitorConsent: false })).campaigns).toHaveLength(1);
    await writer.load(config([{ id: 'c1', split: [100] }], { panic: true }));
    now = 999;
    expect((await reader.decide({ visitorId: 'v', triggerHit: false })).panic).toBe(false);
    now = 1000;
    expect((await reader.decide({ visitorId: 'v', triggerHit: false })).panic).toBe(true);
  });
});

it('campaign() helper builds what the tests think it builds', () => {
  expect(campaign({ id: 'x', split: [undefined, 5] }).variationGroups[0]!.variations.map((v) => v.allocation)).toEqual([undefined, 5]);
});

describe('re-entrant decisions', () => {
  it('a context getter that decides again does not disturb the decision reading it', async () => {
    const engine = new DecisionEngine({ storage: memoryStorage() });
    const plan = [[{ key: 'plan', operator: 'EQUALS', value: 'gold' }]];
    await engine.load(config(Array.from({ length: 4 }, (_, i) => ({ id: `c${i}`, split: [25, 25, 25, 25], targeting: plan }))));
    const request = { visitorId: 'visitor-a', context: { plan: 'gold' }, triggerHit: false, visitorConsent: false };
    const expected = (await engine.decide(request)).campaigns.map((c) => c.variation.id);
    const inner: Promise<unknown>[] = [];
    const context = {
      get plan() {
        // Runs while the outer evaluation reads its targeting: the inner one runs to its end first.
        inner.push(engine.decide({ visitorId: 'visitor-b', context: { plan: 'gold' }, triggerHit: false, visitorConsent: false }));
        return 'gold';
      },
    };
    const got = await engine.decide({ ...request, context });
    expect(got.campaigns.map((c) => c.variation.id)).toEqual(expected);
    expect(inner.length).toBeGreaterThan(0);
    await Promise.all(inner);
  });
});
