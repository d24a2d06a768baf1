import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DecisionEngine, memoryStorage } from '../../src/index';
import { campaignsRequestSchema, createDecisionHandler, plainCampaignsRequest } from '../../src/http/decision';
import { config } from '../helpers/configs';

async function setup(options: { apiKey?: string; maxBodyBytes?: number; prefix?: string } = {}) {
  const storage = memoryStorage();
  const engine = new DecisionEngine({ storage, defaultEnvironment: 'prod' });
  await engine.load(
    config([
      { id: 'c1', slug: 'checkout', split: [100] },
      { id: 'c2', split: [100], type: 'toggle', targeting: [[{ key: 'plan', operator: 'EQUALS', value: 'gold' }]] },
    ]),
    { environment: 'prod', account: 'acme' },
  );
  await engine.load(config([{ id: 'k1', split: [100] }]), {
    environment: 'locked',
    account: 'acme',
    apiKey: options.apiKey ?? 'open-sesame-0123456',
  });
  const handler = createDecisionHandler({ engine, maxBodyBytes: options.maxBodyBytes, prefix: options.prefix, onError: () => {} });
  const post = (path: string, body: unknown, headers: Record<string, string> = {}) =>
    handler(
      new Request(`http://abkit.test${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...headers },
        body: typeof body === 'string' ? body : JSON.stringify(body),
      }),
    );
  return { engine, storage, handler, post };
}

async function message(res: Response): Promise<string> {
  expect(res.headers.get('content-type')).toBe('application/json');
  const body = (await res.json()) as { message: unknown };
  expect(Object.keys(body)).toEqual(['message']);
  expect(typeof body.message).toBe('string');
  return body.message as string;
}

describe('POST /v2/campaigns', () => {
  it('answers the campaigns list response of interfaces.md, Campaigns list', async () => {
    const { post } = await setup();
    const res = await post('/v2/campaigns', { visitor_id: 'v1', context: { plan: 'gold' }, trigger_hit: false });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/json');
    const body = await res.json();
    expect(body).toEqual({
      visitor_id: 'v1',
      panic: false,
      campaigns: [
        expect.objectContaining({ id: 'c1', variationGroupId: 'c1-vg', slug: 'checkout', type: 'ab' }),
        expect.objectContaining({
          id: 'c2',
          variation: { id: 'c2-v0', reference: true, modifications: { type: 'FLAG', value: { c2: 0, 'c2-only-v0': true } } },
        }),
      ],
    });
  });

  it('writes the answer as the compact JSON of its value in every mode, with none, one or several campaigns', async () => {
    const { post, engine } = await setup();
    await engine.load(config([{ id: 'solo', split: [100] }]), { environment: 'one', account: 'acme' });
    await engine.load(config([]), { environment: 'none', account: 'acme' });
    for (const env of ['prod', 'one', 'none']) {
      for (const mode of ['normal', 'simple', 'full']) {
        const text = await (
          await post(`/v2/${env}/campaigns?mode=${mode}&extras[]=accountSettings`, { visitor_id: 'v"1', context: { plan: 'gold' } })
        ).text();
        const value = JSON.parse(text) as Record<string, unknown>;
        expect(text).toBe(JSON.stringify(value));
        const keys = [
          ...(mode === 'simple' ? [] : ['visitor_id', 'campaigns']),
          ...(mode === 'normal' ? [] : ['mergedModifications', 'campaignsVariation']),
          'panic',
          'extras',
        ];
        expect(Object.keys(value)).toEqual(keys);
        if (mode !== 'simple') expect((value.campaigns as unknown[]).length).toBe({ prod: 2, one: 1, none: 0 }[env]);
      }
    }
  });

  it('accepts the Flagship SDK aliases, null anonymousId, and exposeAllKeys', async () => {
    const { post } = await setup();
    const res = await post('/v2/prod/campaigns?exposeAllKeys=true&extras[]=accountSettings', {
      visitorId: 'v1',
      anonymousId: null,
      trigger_hit: false,
      context: {},
      visitor_consent: true,
    });
    expect(res.status).toBe(200);
    const body = (await res.json()) as { visitor_id: string; campaigns: { id: string }[] };
    expect(body.visitor_id).toBe('v1');
    expect(body.campaigns.map((c) => c.id)).toEqual(['c1']);
  });

  it('records activations unless trigger_hit is false', async () => {
    const { post, storage } = await setup();
    await post('/v2/campaigns', { visitor_id: 'v1', anonymous_id: 'a1' });
    await post('/v2/campaigns', { visitor_id: 'v2', trigger_hit: false });
    const rows = await storage.activations.list({ environmentId: 'prod' });
    expect(rows.map((r) => [r.visitorId, r.anonymousId, r.campaignId])).toEqual([['v1', 'a1', 'c1']]);
  });

  it('visitor_consent false stores no sticky assignment', async () => {
    const { post, storage } = await setup();
    await post('/v2/campaigns', { visitor_id: 'v1', visitor_consent: false });
    await post('/v2/campaigns', { visitor_id: 'v2' });
    expect(await storage.assignments.get('prod', 'v1')).toEqual({});
    expect(await storage.assignments.get('prod', 'v2')).toEqual({ 'c1-vg': 'c1-v0' });
  });

  it.each([
    ['invalid JSON', '{"visitor_id":', /not valid JSON/],
    ['no body', '', /visitor_id/],
    ['a JSON array', '[]', /body must be a JSON object/],
    ['missing visitor_id', { context: {} }, /visitor_id/],
    ['empty visitor_id', { visitor_id: '' }, /visitor_id is required and must be a non-empty string|visitor_id: is required/],
    ['numeric visitor_id', { visitor_id: 42 }, /visitor_id/],
    ['an object context value', { visitor_id: 'v', context: { a: { b: 1 } } }, /context\.a: must be a boolean, a number or a string/],
    ['an array context value', { visitor_id: 'v', context: { list: [1, 2] } }, /context\.list/],
    ['a null context value', { visitor_id: 'v', context: { n: null } }, /context\.n/],
    ['a context that is an array', { visitor_id: 'v', context: [1] }, /context/],
    ['a string trigger_hit', { visitor_id: 'v', trigger_hit: 'yes' }, /trigger_hit: must be a boolean/],
    ['a numeric visitor_consent', { visitor_id: 'v', visitor_consent: 1 }, /visitor_consent: must be a boolean/],
    ['conflicting visitor ids', { visitor_id: 'a', visitorId: 'b' }, /visitorId: differs from visitor_id/],
  ])('400 with { message } for %s', async (_name, body, pattern) => {
    const { post } = await setup();
    const res = await post('/v2/campaigns', body);
    expect(res.status).toBe(400);
    expect(await message(res)).toMatch(pattern);
  });

  it('400 for an unknown environment (interfaces.md, Decision errors), 405 with Allow for GET, 404 for unknown paths', async () => {
    const { post, handler } = await setup();
    const unknown = await post('/v2/nowhere/campaigns', { visitor_id: 'v' });
    expect(unknown.status).toBe(400);
    expect(await message(unknown)).toMatch(/environment "nowhere" does not exist/);
    const get = await handler(new Request('http://abkit.test/v2/campaigns'));
    expect(get.status).toBe(405);
    expect(get.headers.get('allow')).toBe('POST');
    const lost = await handler(new Request('http://abkit.test/v2/nothing/here/at/all', { method: 'POST' }));
    expect(lost.status).toBe(404);
    expect(await message(lost)).toMatch(/no route/);
  });

  it('413 for a body over the limit, with a streamed body and no content-length', async () => {
    const { handler } = await setup({ maxBodyBytes: 1024 });
    let pulled = 0;
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        pulled++;
        if (pulled > 1000) return controller.close();
        controller.enqueue(new TextEncoder().encode(' '.repeat(512)));
      },
    });
    const res = await handler(
      new Request('http://abkit.test/v2/campaigns', { method: 'POST', body: stream, duplex: 'half' } as RequestInit),
    );
    expect(res.status).toBe(413);
    expect(await message(res)).toMatch(/exceeds the limit of 1024 bytes/);
    expect(pulled).toBeLessThan(10);
  });

  it('an environment with an API key needs x-api-key', async () => {
    const { post } = await setup({ apiKey: 'open-sesame-0123456' });
    expect((await post('/v2/locked/campaigns', { visitor_id: 'v' })).status).toBe(401);
    expect((await post('/v2/locked/campaigns', { visitor_id: 'v' }, { 'x-api-key': 'wrong' })).status).toBe(401);
    const ok = await post('/v2/locked/campaigns', { visitor_id: 'v' }, { 'x-api-key': 'open-sesame-0123456' });
    expect(ok.status).toBe(200);
  });

  it('a 500 never leaks the internal message', async () => {
    const engine = new DecisionEngine({ storage: memoryStorage() });
    engine.decide = async () => {
      throw new Error('database password is hunter2');
    };
    engine.checkApiKey = async () => {};
    const errors: unknown[] = [];
    const handler = createDecisionHandler({ engine, onError: (e) => errors.push(e) });
    const res = await handler(new Request('http://x/v2/campaigns', { method: 'POST', body: '{"visitor_id":"v"}' }));
    expect(res.status).toBe(500);
    expect(await message(res)).toBe('internal error');
    expect(errors).toHaveLength(1);
  });

  it('serves under a prefix', async () => {
    const { post } = await setup({ prefix: '/decision/' });
    expect((await post('/decision/v2/campaigns', { visitor_id: 'v' })).status).toBe(200);
    expect((await post('/v2/campaigns', { visitor_id: 'v' })).status).toBe(404);
  });
});

describe('POST /v2/campaigns/{id}', () => {
  it('returns one campaign value by id or slug, in the default or a named environment', async () => {
    const { post } = await setup();
    for (const path of ['/v2/campaigns/c1', '/v2/campaigns/checkout', '/v2/prod/campaigns/c1']) {
      const res = await post(path, { visitor_id: 'v1' });
      expect(res.status).toBe(200);
      expect(await res.json()).toMatchObject({ id: 'c1', variationGroupId: 'c1-vg', variation: { id: 'c1-v0' } });
    }
  });

  it('204 when the visitor is not targeted', async () => {
    const { post } = await setup();
    const res = await post('/v2/campaigns/c2', { visitor_id: 'v1', context: { plan: 'silver' } });
    expect(res.status).toBe(204);
    expect(await res.text()).toBe('');
  });

  it('400 for an unknown campaign with the documented message', async () => {
    const { post } = await setup();
    const res = await post('/v2/campaigns/nope', { visitor_id: 'v1' });
    expect(res.status).toBe(400);
    expect(await message(res)).toBe("campaign nope is paused or doesn't exist");
  });

  it('decodes percent-encoded ids', async () => {
    const { engine, post } = await setup();
    await engine.load(config([{ id: 'a b/é', split: [100] }]), { environment: 'prod', account: 'acme' });
    const res = await post(`/v2/campaigns/${encodeURIComponent('a b/é')}`, { visitor_id: 'v' });
    expect(res.status).toBe(200);
    expect(((await res.json()) as { id: string }).id).toBe('a b/é');
  });
});

describe('POST /v2/activate', () => {
  const good = { vid: 'v1', cid: 'prod', caid: 'c1-vg', vaid: 'c1-v0' };

  it('records a single activation and a batch; 204', async () => {
    const { post, storage } = await setup();
    const one = await post('/v2/activate', { ...good, aid: 'anon' });
    expect(one.status).toBe(204);
    const many = await post('/v2/activate', {
      cid: 'prod',
      batch: [
        { vid: 'v2', caid: 'c1-vg', vaid: 'c1-v0' },
        { vid: 'v3', caid: 'c2-vg', vaid: 'c2-v0' },
      ],
    });
    expect(many.status).toBe(204);
    const rows = await storage.activations.list({ environmentId: 'prod' });
    expect(rows.map((r) => [r.visitorId, r.anonymousId, r.campaignId, r.variationGroupId, r.variationId])).toEqual([
      ['v1', 'anon', 'c1', 'c1-vg', 'c1-v0'],
      ['v2', null, 'c1', 'c1-vg', 'c1-v0'],
      ['v3', null, 'c2', 'c2-vg', 'c2-v0'],
    ]);
  });

  it.each([
    ['missing vid', { ...good, vid: undefined }, /vid/],
    ['missing vaid', { ...good, vaid: undefined }, /vaid/],
    ['missing cid', { ...good, cid: undefined }, /cid/],
    ['missing caid', { ...good, caid: undefined }, /caid/],
    ['numeric vid', { ...good, vid: 7 }, /vid/],
    ['empty vaid', { ...good, vaid: '' }, /vaid/],
    ['numeric aid', { ...good, aid: 7 }, /aid/],
    ['unknown cid', { ...good, cid: 'nope' }, /cid "nope" is not a known environment/],
    ['unknown caid', { ...good, caid: 'nope' }, /^caid "nope" is not a variation group of environment "prod"$/],
    ['vaid of another group', { ...good, vaid: 'c2-v0' }, /^vaid "c2-v0" is not a variation of variation group "c1-vg"$/],
    [
      'a batch item with an unknown vaid',
      {
        cid: 'prod',
        batch: [
          { vid: 'v', caid: 'c1-vg', vaid: 'c1-v0' },
          { vid: 'v', caid: 'c1-vg', vaid: 'x' },
        ],
      },
      /batch\[1\]\.vaid/,
    ],
    ['an empty batch', { cid: 'prod', batch: [] }, /batch/],
    ['no body', '', /body must be a JSON object/],
    ['invalid JSON', '{', /not valid JSON/],
  ])('400 naming the field for %s, and nothing recorded', async (_name, body, pattern) => {
    const { post, storage } = await setup();
    const res = await post('/v2/activate', body);
    expect(res.status).toBe(400);
    expect(await message(res)).toMatch(pattern);
    expect(await storage.activations.list({ environmentId: 'prod' })).toEqual([]);
  });

  it('an environment with an API key needs it for activations too', async () => {
    const { post } = await setup();
    const body = { vid: 'v', cid: 'locked', caid: 'k1-vg', vaid: 'k1-v0' };
    expect((await post('/v2/activate', body)).status).toBe(401);
    expect((await post('/v2/activate', body, { 'x-api-key': 'open-sesame-0123456' })).status).toBe(204);
  });
});

describe('the plain campaigns body skips the schema only where the schema would pass it unchanged', () => {
  it('agrees with campaignsRequestSchema on arbitrary bodies', () => {
    const id = fc.oneof(
      fc.constant(undefined),
      fc.constant(null),
      fc.constant(''),
      fc.string({ maxLength: 4 }),
      fc.integer(),
      fc.boolean(),
    );
    const flag = fc.oneof(fc.constant(undefined), fc.boolean(), fc.constant(null), fc.constant('true'), fc.integer());
    const value = fc.oneof(fc.string({ maxLength: 3 }), fc.double(), fc.boolean(), fc.constant(null), fc.constant([]), fc.constant({}));
    const context = fc.oneof(
      fc.constant(undefined),
      fc.constant(null),
      fc.constant([]),
      fc.constant('ctx'),
      fc.dictionary(fc.string({ maxLength: 3 }), value, { maxKeys: 3 }),
    );
    const body = fc.record(
      {
        visitor_id: id,
        visitorId: id,
        anonymous_id: id,
        anonymousId: id,
        context,
        trigger_hit: flag,
        visitor_consent: flag,
        extra: fc.anything(),
      },
      { requiredKeys: [] },
    );
    fc.assert(
      fc.property(fc.oneof(body, fc.anything()), (input) => {
        const plain = plainCampaignsRequest(input);
        const parsed = campaignsRequestSchema.safeParse(input);
        if (plain !== undefined) {
          expect(parsed.success).toBe(true);
          expect(plain).toEqual(parsed.data);
        }
      }),
      { numRuns: 2000 },
    );
  });

  it('takes the shape the SDKs send', () => {
    const sent = {
      visitor_id: 'v1',
      anonymous_id: null,
      context: { plan: 'gold', visits: 7, vip: true },
      trigger_hit: false,
      visitor_consent: true,
    };
    expect(plainCampaignsRequest(sent)).toBe(sent);
  });
});
