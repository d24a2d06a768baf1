/**
 * Limits on what one request can make the server do (ARCHITECTURE.md, Reliability): each breach is
 * a 400 naming the limit, never a 500, and never leaves state that breaks later requests.
 */
import { describe, expect, it } from 'vitest';
import { CONFIG_LIMITS } from '../../src/decision/config';
import type { ValidationError } from '../../src/errors';
import { MAX_JSON_DEPTH, parseJsonBody } from '../../src/http/body';
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
    await refused(await call('PUT', '/indexes/catalog/x', { token: CATALOG_KEY, body: JSON.stringify(item('x')).replace('}', `,"deep":${nestedArrays(20_000)}}`) }), tooDeep);
    await refused(await call('PUT', '/indexes/catalog/x', { token: CATALOG_KEY, body: `{"id":${nestedArrays(20_000, '"x"')}}` }), tooDeep);
    const batch = `[{"operation":${nestedArrays(20_000, '"create-replace"')},"product":${JSON.stringify(item('y'))}}]`;
    await refused(await call('POST', '/indexes/catalog/batch', { token: CATALOG_KEY, body: batch }), tooDeep);
    expect(await catalog.get('x')).toBeUndefined();
    expect((await call('PUT', '/indexes/catalog/x', { token: CATALOG_KEY, body: item('x') })).status).toBe(200);
    expect(errors).toEqual([]);
  });

  it('brackets inside strings do not count, and the limit itself is accepted', async () => {
    const { call, token } = await stack();
    const res = await call('POST', '/v2/campaigns', { body: { visitor_id: 'v', context: { note: '['.repeat(1000) + '{'.repeat(1000) + '\\"[' } } });
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
    await refused(await call('PUT', `${ENV}/campaigns/c1`, { token, body: withValue(big) }), new RegExp(`limit of ${CONFIG_LIMITS.valueBytes} bytes`));
  });

  it('the library API refuses a value 3,000 levels deep, or kept members nested past the limit, without overflowing the stack', async () => {
    const { engine } = await stack();
    let deep: unknown = 1;
    for (let i = 0; i < 3000; i++) deep = { a: deep };
    await expect(engine.load({ campaigns: [withValue({ deep })] }, { environment: 'prod' })).rejects.toThrow(/limit of 32 levels/);
    await expect(engine.load({ campaigns: [{ ...withValue({}), note: deep }] }, { environment: 'prod' })).rejects.toThrow(/configuration limit of 48 levels/);
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
    await expect(engine.load(config([]), { environment: 'e', apiKey: 'short' })).rejects.toThrow(/apiKey must be a string of at least 16 characters/);
    await expect(engine.load(config([]), { environment: 'e', apiKey: 'x'.repeat(16) })).resolves.toMatchObject({ id: 'e' });
  });
});
