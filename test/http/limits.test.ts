/**
 * Limits on what one request can make the server do (ARCHITECTURE.md, Reliability): each breach is
 * a 400 naming the limit, never a 500, and never leaves state that breaks later requests.
 */
import { describe, expect, it } from 'vitest';
import { CONFIG_LIMITS } from '../../src/model/bucketing-config';
import { DECISION_LIMITS } from '../../src/decision/limits';
import { formatPath, PayloadTooLargeError, ValidationError } from '../../src/errors';
import { MAX_JSON_DEPTH, parseJsonBody } from '../../src/body';
import { ExperimentService } from '../../src/results/experiments';
import { campaign, config } from '../helpers/configs';
import { CATALOG_KEY, ENV, item, nestedArrays, nestedObjects, stack } from '../helpers/stack';

async function refused(res: Response, pattern: RegExp) {
  expect(res.status).toBe(400);
  expect(res.headers.get('content-type')).toBe('application/json');
  const body = (await res.json()) as { message?: string; error_description?: string };
  expect(body.message ?? body.error_description).toMatch(pattern);
}

describe('JSON nesting depth of request bodies', () => {
  const tooDeep = new RegExp(`limit of ${MAX_JSON_DEPTH} levels`);

  it(`every JSON route refuses a body nested deeper than ${MAX_JSON_DEPTH} levels with a 400 naming the limit`, async () => {
    const { call, token, errors } = await stack();
    const deep = nestedArrays(20_000);
    const cases: [string, string, Record<string, unknown>][] = [
      ['POST', '/v2/campaigns', {}],
      ['POST', '/v2/activate', {}],
      ['PUT', `${ENV}/configuration`, { token }],
      ['PUT', `${ENV}/campaigns/c1`, { token }],
      ['PUT', '/indexes/catalog/x', { token: CATALOG_KEY }],
      ['POST', '/indexes/catalog/batch', { token: CATALOG_KEY }],
      ['POST', '/acme/token', { headers: { 'content-type': 'application/json' } }],
    ];
    for (const [method, path, init] of cases) {
      for (const body of [deep, nestedObjects(MAX_JSON_DEPTH + 1), `{"visitor_id":"v","context":${nestedArrays(MAX_JSON_DEPTH)}}`]) {
        await refused(await call(method, path, { ...init, body }), tooDeep);
      }
    }
    expect(errors).toEqual([]);
  });

  it('depth is named before syntax: a body both too deep and invalid is refused for its depth; one level less, for its syntax', () => {
    const code = (text: string) => {
      try {
        parseJsonBody(text);
        return 'parsed';
      } catch (error) {
        return (error as ValidationError).code;
      }
    };
    expect(code(`${'['.repeat(MAX_JSON_DEPTH + 1)}x`)).toBe('too_deep');
    expect(code(`${'['.repeat(MAX_JSON_DEPTH)}x`)).toBe('invalid_json');
    expect(code(`${'['.repeat(MAX_JSON_DEPTH)}${']'.repeat(MAX_JSON_DEPTH)}`)).toBe('parsed');
    expect(code(`{"a":"${'['.repeat(MAX_JSON_DEPTH + 1)}"}`)).toBe('parsed');
  });

  it('a catalog item with a field nested 20,000 arrays deep, or a deep id, is a 400; the catalog keeps working', async () => {
    const { call, catalog, errors } = await stack();
    await refused(
      await call('PUT', '/indexes/catalog/x', {
        token: CATALOG_KEY,
        body: JSON.stringify(item('x')).replace('}', `,"deep":${nestedArrays(20_000)}}`),
      }),
      tooDeep,
    );
    await refused(await call('PUT', '/indexes/catalog/x', { token: CATALOG_KEY, body: `{"id":${nestedArrays(20_000, '"x"')}}` }), tooDeep);
    const batch = `[{"operation":${nestedArrays(20_000, '"create-replace"')},"product":${JSON.stringify(item('y'))}}]`;
    await refused(await call('POST', '/indexes/catalog/batch', { token: CATALOG_KEY, body: batch }), tooDeep);
    expect(await catalog.get('x')).toBeUndefined();
    expect((await call('PUT', '/indexes/catalog/x', { token: CATALOG_KEY, body: item('x') })).status).toBe(200);
    expect(errors).toEqual([]);
  });

  it('brackets inside strings do not count, and the limit itself is accepted', async () => {
    const { call, token } = await stack();
    const res = await call('POST', '/v2/campaigns', {
      body: { visitor_id: 'v', context: { note: `${'['.repeat(1000) + '{'.repeat(1000)}\\"[` } },
    });
    expect(res.status).toBe(200);
    // Exactly the limit: the body parses and the route judges it (here: a bad configuration, not a depth error).
    const atLimit = await call('PUT', `${ENV}/configuration`, { token, body: `{"campaigns":[],"x":${nestedArrays(MAX_JSON_DEPTH - 1)}}` });
    expect(((await atLimit.json()) as { message: string }).message).not.toMatch(tooDeep);
  });
});

describe('configuration values', () => {
  const deepValue = (levels: number) => JSON.parse(nestedObjects(levels)) as Record<string, unknown>;
  const withValue = (value: Record<string, unknown>) => {
    const c = campaign({ id: 'c1', split: [100] });
    c.variationGroups[0]!.variations[0]!.modifications.value = value;
    return c;
  };

  it(`a campaign whose modification value nests deeper than ${CONFIG_LIMITS.valueDepth} levels is a 400 naming the limit; the environment keeps serving`, async () => {
    const { call, token, errors } = await stack();
    const put = await call('PUT', `${ENV}/campaigns/c1`, { token, body: withValue(deepValue(CONFIG_LIMITS.valueDepth + 1)) });
    await refused(put, new RegExp(`modifications\\.value.*limit of ${CONFIG_LIMITS.valueDepth} levels`));
    // Nothing was stored: decisions, the campaign's DELETE and the panic switch still work.
    expect((await call('POST', '/v2/campaigns', { body: { visitor_id: 'v1' } })).status).toBe(200);
    expect((await call('DELETE', `${ENV}/campaigns/c1`, { token })).status).toBe(200);
    expect((await call('PUT', `${ENV}/panic`, { token, body: { panic: true } })).status).toBeLessThan(300);
    expect((await call('PUT', `${ENV}/campaigns/c1`, { token, body: withValue(deepValue(CONFIG_LIMITS.valueDepth)) })).status).toBe(200);
    expect(errors).toEqual([]);
  });

  it(`a modification value over ${CONFIG_LIMITS.valueBytes} bytes of JSON is a 400 naming the limit`, async () => {
    const { call, token } = await stack();
    const big = { text: 'x'.repeat(CONFIG_LIMITS.valueBytes) };
    await refused(
      await call('PUT', `${ENV}/campaigns/c1`, { token, body: withValue(big) }),
      new RegExp(`limit of ${CONFIG_LIMITS.valueBytes} bytes`),
    );
  });

  it('the library API refuses a value 3,000 levels deep, or kept members nested past the limit, without overflowing the stack', async () => {
    const { engine } = await stack();
    let deep: unknown = 1;
    for (let i = 0; i < 3000; i++) deep = { a: deep };
    await expect(engine.load({ campaigns: [withValue({ deep })] }, { environment: 'prod' })).rejects.toThrow(/limit of 32 levels/);
    await expect(engine.load({ campaigns: [{ ...withValue({}), note: deep }] }, { environment: 'prod' })).rejects.toThrow(
      /configuration limit of 48 levels/,
    );
    await expect(engine.load({ ...config([]), note: deep }, { environment: 'prod' })).rejects.toThrow(/configuration limit of 48 levels/);
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    await expect(engine.load({ campaigns: [withValue(cyclic)] }, { environment: 'prod' })).rejects.toThrow(/limit of 32 levels/);
    expect((await engine.decide({ visitorId: 'v1' })).campaigns.length).toBeGreaterThan(0);
  });
});

describe('malformed bodies', () => {
  it('PUT configuration with a body of null, nothing, or not an object is a 400', async () => {
    const { call, token, errors } = await stack();
    for (const body of ['null', '', '  ', '[]', '"x"', '{"campaigns":null}']) {
      const res = await call('PUT', `${ENV}/configuration`, { token, body });
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(((await res.json()) as { message: string }).message).toMatch(/bucketing configuration/);
    }
    expect(errors).toEqual([]);
  });
});

describe('environment API keys', () => {
  it('are at least 16 characters, with an error naming apiKey', async () => {
    const { engine } = await stack();
    await expect(engine.load(config([]), { environment: 'e', apiKey: 'short' })).rejects.toThrow(
      /apiKey must be a string of at least 16 characters/,
    );
    await expect(engine.load(config([]), { environment: 'e', apiKey: 'x'.repeat(16) })).resolves.toMatchObject({ id: 'e' });
  });
});

describe('ids and context of the decision interface (issue 23, defect 1)', () => {
  const MB = 'x'.repeat(1_048_000);
  const atLimit = 'i'.repeat(DECISION_LIMITS.idLength);
  const over = `${atLimit}x`;
  const stored = async (s: Awaited<ReturnType<typeof stack>>) => ({
    activations: (await s.engine.storage.activations.list({ environmentId: 'prod' })).length,
    assignments: (await s.storage.assignments.get('prod', 'v-ok')) as unknown,
  });

  it('a 1 MB visitor or anonymous id is a 400 naming the field and the limit, before anything is stored', async () => {
    const s = await stack();
    const before = await stored(s);
    const limit = new RegExp(`is \\d+ characters long; the limit is ${DECISION_LIMITS.idLength}`);
    for (const [path, body, field] of [
      ['/v2/campaigns', { visitor_id: MB }, 'visitor_id'],
      ['/v2/campaigns', { visitorId: MB }, 'visitorId'],
      ['/v2/campaigns', { visitor_id: 'v', anonymous_id: MB }, 'anonymous_id'],
      ['/v2/prod/campaigns/c1', { visitor_id: 'v', anonymousId: MB }, 'anonymousId'],
      ['/v2/flags', { visitor_id: MB }, 'visitor_id'],
      ['/v2/activate', { cid: 'prod', vid: MB, caid: 'c1-vg', vaid: 'c1-v0' }, 'vid'],
      ['/v2/activate', { cid: 'prod', vid: 'v', aid: MB, caid: 'c1-vg', vaid: 'c1-v0' }, 'aid'],
      ['/v2/activate', { cid: 'prod', batch: [{ vid: 'v', caid: MB, vaid: 'c1-v0' }] }, 'batch[0].caid'],
      ['/v2/events', { cid: 'prod', visitor_id: MB, event: 'purchase' }, 'visitor_id'],
    ] as const) {
      const res = await s.call('POST', path, { body });
      const text = await res.text();
      expect(res.status, `${path} ${field}`).toBe(400);
      expect(text.length, 'the error does not echo the id').toBeLessThan(1000);
      expect((JSON.parse(text) as { message: string }).message).toMatch(new RegExp(`${field.replace(/[[\].]/g, '\\$&')}: ${limit.source}`));
    }
    expect(await stored(s)).toEqual(before);
    expect(before.activations).toBe(0);
    expect(s.errors).toEqual([]);
  });

  it('ids at the limit are served and stored; one character more is refused', async () => {
    const s = await stack();
    const ok = await s.call('POST', '/v2/campaigns', { body: { visitor_id: atLimit, anonymous_id: atLimit } });
    expect(ok.status).toBe(200);
    expect(((await ok.json()) as { visitor_id: string }).visitor_id).toBe(atLimit);
    expect((await s.engine.storage.activations.list({ environmentId: 'prod', visitorId: atLimit })).length).toBe(2);
    expect((await s.call('POST', '/v2/campaigns', { body: { visitor_id: over } })).status).toBe(400);
    expect(
      (await s.call('POST', '/v2/activate', { body: { cid: 'prod', vid: atLimit, aid: atLimit, caid: 'c1-vg', vaid: 'c1-v0' } })).status,
    ).toBe(204);
  });

  it('a context over its limits (keys, key length, value length) is a 400 naming the limit; at the limits it is served', async () => {
    const { call, errors } = await stack();
    const keys = (n: number) => Object.fromEntries(Array.from({ length: n }, (_, i) => [`k${i}`, i]));
    const cases: [Record<string, unknown>, RegExp][] = [
      [keys(DECISION_LIMITS.contextKeys + 1), new RegExp(`context: holds more than the limit of ${DECISION_LIMITS.contextKeys} keys`)],
      [
        { ['k'.repeat(100_000)]: 1 },
        new RegExp(`context\\.k{64}: key is 100000 characters long; the limit is ${DECISION_LIMITS.contextKeyLength}`),
      ],
      [
        { url: 'u'.repeat(DECISION_LIMITS.contextValueLength + 1) },
        new RegExp(
          `context\\.url: is ${DECISION_LIMITS.contextValueLength + 1} characters long; the limit is ${DECISION_LIMITS.contextValueLength}`,
        ),
      ],
    ];
    for (const [context, pattern] of cases) {
      const res = await call('POST', '/v2/campaigns', { body: { visitor_id: 'v', context } });
      const text = await res.text();
      expect(res.status).toBe(400);
      expect(text.length).toBeLessThan(1000);
      expect((JSON.parse(text) as { message: string }).message).toMatch(pattern);
    }
    const full = {
      ...keys(DECISION_LIMITS.contextKeys - 1),
      ['k'.repeat(DECISION_LIMITS.contextKeyLength)]: 'u'.repeat(DECISION_LIMITS.contextValueLength),
    };
    expect((await call('POST', '/v2/campaigns', { body: { visitor_id: 'v', context: full } })).status).toBe(200);
    expect(errors).toEqual([]);
  });

  it(`an activation batch of more than ${DECISION_LIMITS.activationsPerCall} is a 400 naming batch and the limit, as events`, async () => {
    const { call, engine } = await stack();
    const item = { vid: 'v', caid: 'c1-vg', vaid: 'c1-v0' };
    const res = await call('POST', '/v2/activate', { body: { cid: 'prod', batch: Array.from({ length: 19_000 }, () => item) } });
    expect(res.status).toBe(400);
    expect(((await res.json()) as { message: string }).message).toMatch(
      new RegExp(`batch: must hold at most ${DECISION_LIMITS.activationsPerCall} activations`),
    );
    expect((await engine.storage.activations.list({ environmentId: 'prod' })).length).toBe(0);
    const full = await call('POST', '/v2/activate', {
      body: { cid: 'prod', batch: Array.from({ length: DECISION_LIMITS.activationsPerCall }, () => item) },
    });
    expect(full.status).toBe(204);
  });

  it('the library refuses the same at its own entry points (decide, decideFlags, explain, activate, track, load), naming the field', async () => {
    const { engine, storage } = await stack();
    const experiments = new ExperimentService({ engine });
    const name = (field: string) => new RegExp(`${field}.*the limit is ${DECISION_LIMITS.idLength}`);
    await expect(engine.decide({ visitorId: MB })).rejects.toThrow(name('visitorId'));
    await expect(engine.decideFlags({ visitorId: 'v', anonymousId: MB })).rejects.toThrow(name('anonymousId'));
    await expect(engine.explain({ visitorId: MB })).rejects.toThrow(name('visitorId'));
    await expect(engine.decideCampaign('c1', { visitorId: MB })).rejects.toThrow(name('visitorId'));
    await expect(engine.decide({ visitorId: 'v', context: { ['k'.repeat(300)]: 1 } })).rejects.toThrow(ValidationError);
    await expect(engine.decide({ visitorId: 'v', context: { u: 'u'.repeat(DECISION_LIMITS.contextValueLength + 1) } })).rejects.toThrow(
      /context\.u is 8193 characters long; the limit is 8192/,
    );
    await expect(
      experiments.activate({ environmentId: 'prod', visitorId: MB, variationGroupId: 'c1-vg', variationId: 'c1-v0' }),
    ).rejects.toThrow(name('visitorId'));
    const many = Array.from({ length: DECISION_LIMITS.activationsPerCall + 1 }, () => ({
      environmentId: 'prod',
      visitorId: 'v',
      variationGroupId: 'c1-vg',
      variationId: 'c1-v0',
    }));
    await expect(experiments.activate(many)).rejects.toThrow(/at most 1000 per call/);
    await expect(experiments.track({ visitorId: MB, event: 'purchase' })).rejects.toThrow(name('visitorId'));
    await expect(engine.load(config([]), { environment: MB })).rejects.toThrow(name('environment'));
    expect(await engine.storage.activations.list({ environmentId: 'prod' })).toEqual([]);
    expect(await storage.events.list({ environmentId: 'prod' })).toEqual([]);
  });

  it('the largest activations answer (ids at the limit, each character escaped) stays far under the longest string V8 makes', async () => {
    // Every stored field is bounded: ids by DECISION_LIMITS / CONFIG_LIMITS, the environment id by load.
    const { engine, call, token, accesses, tokens } = await stack();
    const experiments = new ExperimentService({ engine });
    const worst = (c: string) => c.repeat(DECISION_LIMITS.idLength); // U+0001 is written \u0001: six characters each
    const env = 'e'.repeat(DECISION_LIMITS.idLength);
    const c = campaign({ id: worst('\u0001'), split: [100], groupId: worst('\u0002') });
    c.variationGroups[0]!.variations[0]!.id = worst('\u0003');
    await engine.load({ campaigns: [c] }, { environment: env, account: 'acme' });
    const access = await accesses.createAccess({ account: 'acme', name: 'reader', environments: [env], actions: ['activations.read'] });
    const reader = (
      await tokens.issue({ accountId: 'acme', clientId: access.clientId, clientSecret: access.clientSecret, expiresIn: 3600 })
    ).accessToken;
    expect(token).not.toBe(reader);
    const n = DECISION_LIMITS.activationsPerCall;
    await experiments.activate(
      Array.from({ length: n }, (_, i) => ({
        environmentId: env,
        visitorId: worst('\u0004').slice(4) + String(i).padStart(4, '0'),
        anonymousId: worst('\u0005'),
        variationGroupId: worst('\u0002'),
        variationId: worst('\u0003'),
      })),
    );
    const res = await call('GET', `/v1/accounts/acme/environments/${env}/activations?limit=${n}`, { token: reader });
    expect(res.status).toBe(200);
    const length = (await res.text()).length;
    // The route answers at most 10,000 activations, each serialized alone: the answer grows linearly.
    const largest = (length * 10_000) / n;
    const V8_MAX_STRING = 2 ** 29 - 24;
    expect(largest).toBeLessThan(V8_MAX_STRING / 4);
  });
});

describe('campaigns, variation groups, targeting lists and size of a configuration (issue 23, defects 2 and 3)', () => {
  const many = (n: number, groups = 1) =>
    Array.from({ length: n }, (_, i) => {
      const c = campaign({ id: `c${i}`, split: [100] });
      for (let g = 1; g < groups; g++) c.variationGroups.push({ ...structuredClone(c.variationGroups[0]!), id: `c${i}-vg${g}` });
      return c;
    });
  const problem = async (promise: Promise<unknown>) => {
    try {
      await promise;
    } catch (error) {
      return error as ValidationError;
    }
    throw new Error('not refused');
  };

  it(`a configuration of 2,600 campaigns is refused, naming campaigns and the limit of ${CONFIG_LIMITS.campaigns}; ${CONFIG_LIMITS.campaigns} load`, async () => {
    const { engine } = await stack();
    const error = await problem(engine.load({ campaigns: many(2600) }, { environment: 'big' }));
    expect(error).toBeInstanceOf(ValidationError);
    expect(error.message).toMatch(new RegExp(`campaigns: must hold at most ${CONFIG_LIMITS.campaigns} campaigns per environment`));
    expect(await engine.getEnvironment('big')).toBeUndefined();
    await expect(engine.load({ campaigns: many(CONFIG_LIMITS.campaigns) }, { environment: 'big' })).resolves.toMatchObject({ version: 1 });
  });

  it('the remote API refuses the campaign one past the limit, and still replaces an existing one', async () => {
    const { engine, call, token, errors } = await stack();
    await engine.load({ campaigns: many(CONFIG_LIMITS.campaigns) }, { environment: 'prod', account: 'acme' });
    const extra = campaign({ id: 'one-more', split: [100] });
    const res = await call('PUT', `${ENV}/campaigns/one-more`, { token, body: extra });
    expect(res.status).toBe(400);
    expect(((await res.json()) as { message: string }).message).toMatch(
      new RegExp(`at most ${CONFIG_LIMITS.campaigns} campaigns per environment`),
    );
    expect((await call('PUT', `${ENV}/campaigns/c7`, { token, body: campaign({ id: 'c7', split: [50, 50] }) })).status).toBe(200);
    expect((await engine.configuration('prod')).config.campaigns.length).toBe(CONFIG_LIMITS.campaigns);
    expect(errors).toEqual([]);
  });

  it(`more than ${CONFIG_LIMITS.variationGroups} variation groups per environment, or ${CONFIG_LIMITS.variationsPerGroup} variations per group, are refused`, async () => {
    const { engine } = await stack();
    const groups = await problem(engine.load({ campaigns: many(CONFIG_LIMITS.variationGroups / 4 + 1, 4) }, { environment: 'g' }));
    expect(groups.message).toMatch(
      new RegExp(
        `campaigns: hold ${CONFIG_LIMITS.variationGroups + 4} variation groups; the limit is ${CONFIG_LIMITS.variationGroups} per environment`,
      ),
    );
    const wide = campaign({ id: 'wide', split: Array.from({ length: CONFIG_LIMITS.variationsPerGroup + 1 }, () => 0.5) });
    const variations = await problem(engine.load({ campaigns: [wide] }, { environment: 'g' }));
    expect(variations.message).toMatch(
      new RegExp(
        `campaigns\\[0\\]\\.variationGroups\\[0\\]\\.variations: must hold at most ${CONFIG_LIMITS.variationsPerGroup} variations`,
      ),
    );
  });

  it(`configuration ids and targeting keys are at most ${CONFIG_LIMITS.idLength} characters`, async () => {
    const { engine } = await stack();
    const long = 'x'.repeat(CONFIG_LIMITS.idLength + 1);
    const c = campaign({ id: long, split: [100], groupId: long, targeting: [[{ key: long, operator: 'EXISTS' }]] });
    const error = await problem(engine.load({ campaigns: [c] }, { environment: 'ids' }));
    expect(error.details.map((d) => formatPath(d.path))).toEqual(
      expect.arrayContaining([
        'campaigns[0].id',
        'campaigns[0].variationGroups[0].id',
        'campaigns[0].variationGroups[0].targeting.targetingGroups[0].targetings[0].key',
      ]),
    );
  });

  it(`a targeting list of more than ${CONFIG_LIMITS.targetingValues} values, or targeting values over ${CONFIG_LIMITS.targetingBytes} characters in all, are refused with their path`, async () => {
    const { call, token } = await stack();
    const list = (n: number, width = 8) => Array.from({ length: n }, (_, i) => `v${String(i).padStart(width, '0')}`);
    const targeted = (id: string, value: string[]) =>
      campaign({ id, split: [100], targeting: [[{ key: 'sku', operator: 'CONTAINS', value }]] });
    const tooMany = await call('PUT', `${ENV}/campaigns/long`, { token, body: targeted('long', list(74_000)) });
    expect(tooMany.status).toBe(400);
    const body = (await tooMany.json()) as { message: string; details: { path: string; message: string }[] };
    expect(body.details).toContainEqual({
      path: 'variationGroups[0].targeting.targetingGroups[0].targetings[0].value',
      message: `must hold at most ${CONFIG_LIMITS.targetingValues} values`,
    });
    // Lists within the per-list limit (120,002 characters each), written one by one until the
    // configuration would hold more than the total.
    for (let i = 0; i < 8; i++)
      expect(
        (await call('PUT', `${ENV}/campaigns/t${i}`, { token, body: targeted(`t${i}`, list(CONFIG_LIMITS.targetingValues)) })).status,
      ).toBe(200);
    const total = await call('PUT', `${ENV}/campaigns/t8`, { token, body: targeted('t8', list(CONFIG_LIMITS.targetingValues)) });
    expect(total.status).toBe(400);
    expect(((await total.json()) as { message: string }).message).toMatch(
      new RegExp(
        `campaigns: hold 10800\\d\\d characters of targeting values; the limit is ${CONFIG_LIMITS.targetingBytes} per environment`,
      ),
    );
    const { engine } = await stack();
    await expect(
      engine.load({ campaigns: Array.from({ length: 9 }, (_, i) => targeted(`t${i}`, list(CONFIG_LIMITS.targetingValues))) }),
    ).rejects.toThrow(/characters of targeting values/);
  });

  it(`a configuration over ${CONFIG_LIMITS.configBytes} bytes of JSON is a 413 naming the limit, by the remote API and the library`, async () => {
    const { engine, call, token } = await stack();
    const campaigns = Array.from({ length: 70 }, (_, i) => {
      const c = campaign({ id: `big${i}`, split: [100] });
      c.variationGroups[0]!.variations[0]!.modifications.value = { text: 'é'.repeat(30_000) };
      return c;
    });
    await expect(engine.load({ campaigns }, { environment: 'huge' })).rejects.toBeInstanceOf(PayloadTooLargeError);
    // Each write is under the body limit, but the configuration they grow is refused past its own.
    await engine.load({ campaigns: campaigns.slice(0, 69) }, { environment: 'prod', account: 'acme' });
    const res = await call('PUT', `${ENV}/campaigns/big69`, { token, body: campaigns[69] });
    expect(res.status).toBe(413);
    expect(((await res.json()) as { message: string }).message).toMatch(
      new RegExp(`the limit is ${CONFIG_LIMITS.configBytes} bytes per environment`),
    );
    expect((await engine.configuration('prod')).config.campaigns.length).toBe(69);
  });
});
