/**
 * Flagship decision-api parity of the decision interface: `POST /v2[/{envId}]/flags`,
 * `mode=normal|simple|full` and `extras[]=accountSettings` on `/campaigns`, `sendContextEvent`,
 * and `GET /v2/{envId}/bucketing.json` with ETag / Last-Modified / 304.
 */
import { describe, expect, it } from 'vitest';
import { DecisionEngine, memoryStorage, type BucketingConfig } from '../../src/index';
import { createDecisionHandler } from '../../src/http/decision';
import { NAMED } from '../helpers/named-config';

const API_KEY = 'bucketing-key-0123456789';

async function setup(clock = () => 1_700_000_000_000) {
  const engine = new DecisionEngine({ storage: memoryStorage(), defaultEnvironment: 'prod', clock, refreshIntervalMs: 0 });
  await engine.load(NAMED, { environment: 'prod' });
  await engine.load(NAMED, { environment: 'locked', apiKey: API_KEY });
  const handler = createDecisionHandler({
    engine,
    onError: (e) => {
      throw e;
    },
  });
  const post = (path: string, body: unknown, headers: Record<string, string> = {}) =>
    handler(
      new Request(`http://abkit.test${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...headers },
        body: JSON.stringify(body),
      }),
    );
  const get = (path: string, headers: Record<string, string> = {}, method = 'GET') =>
    handler(new Request(`http://abkit.test${path}`, { method, headers }));
  return { engine, handler, post, get };
}

/** A visitor id the hash puts in each variation of vg-color. */
async function visitorIn(engine: DecisionEngine, variation: string): Promise<string> {
  for (let i = 0; ; i++) {
    const { campaigns } = await engine.decide({ visitorId: `v${i}`, triggerHit: false, visitorConsent: false });
    if (campaigns[0]?.variation.id === variation) return `v${i}`;
  }
}

describe('POST /v2[/{envId}]/flags', () => {
  it('answers key → { value, metadata } with names, the first campaign winning a key', async () => {
    const { engine, post } = await setup();
    const green = await visitorIn(engine, 'green');
    const res = await post('/v2/flags', { visitor_id: green, context: { plan: 'gold' }, trigger_hit: false });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/json');
    const colorMeta = {
      campaignId: 'c-color',
      campaignName: 'Colour test',
      slug: 'color-test',
      type: 'ab',
      variationGroupId: 'vg-color',
      variationGroupName: 'Everyone',
      variationId: 'green',
      variationName: 'Green',
      reference: false,
    };
    const toggleMeta = {
      campaignId: 'c-toggle',
      campaignName: null,
      slug: null,
      type: 'toggle',
      variationGroupId: 'vg-toggle',
      variationGroupName: null,
      variationId: 'on',
      variationName: null,
      reference: false,
    };
    expect(await res.json()).toEqual({
      color: { value: 'green', metadata: colorMeta },
      cta: { value: 'Buy now', metadata: colorMeta },
      shipping: { value: { free: true }, metadata: toggleMeta },
    });
  });

  it('serves a named environment, checks its API key, and records activations unless trigger_hit is false', async () => {
    const { engine, post } = await setup();
    expect((await post('/v2/locked/flags', { visitor_id: 'v1' })).status).toBe(401);
    const res = await post('/v2/locked/flags', { visitor_id: 'v1' }, { 'x-api-key': API_KEY });
    expect(res.status).toBe(200);
    expect(Object.keys((await res.json()) as object)).toContain('color');
    expect(await engine.storage.activations.list({ environmentId: 'locked' })).toHaveLength(1);
    await post('/v2/locked/flags', { visitor_id: 'v2', trigger_hit: false }, { 'x-api-key': API_KEY });
    expect(await engine.storage.activations.list({ environmentId: 'locked' })).toHaveLength(1);
    expect(await (await post('/v2/nowhere/flags', { visitor_id: 'v1' })).json()).toEqual({
      message: 'environment "nowhere" does not exist',
    });
  });

  it('exposeAllKeys gives sibling keys as null; panic mode and untargeted visitors get no flags', async () => {
    const { engine, post } = await setup();
    const grey = await visitorIn(engine, 'grey');
    const all = (await (await post('/v2/flags?exposeAllKeys=true', { visitor_id: grey, trigger_hit: false })).json()) as Record<
      string,
      { value: unknown }
    >;
    expect(all.color!.value).toBe('grey');
    expect(all.cta!.value).toBeNull();
    const plain = (await (await post('/v2/flags', { visitor_id: grey, trigger_hit: false })).json()) as Record<string, unknown>;
    expect(Object.keys(plain)).toEqual(['color']);
    await engine.load({ ...NAMED, panic: true }, { environment: 'prod' });
    expect(await (await post('/v2/flags', { visitor_id: grey })).json()).toEqual({});
  });

  it('rejects a bad body with the field named', async () => {
    const { post } = await setup();
    const res = await post('/v2/flags', { visitor_id: 'v1', context: { nested: { a: 1 } } });
    expect(res.status).toBe(400);
    expect(((await res.json()) as { message: string }).message).toContain('context.nested');
  });
});

describe('/v2/campaigns?mode=…&extras[]=accountSettings', () => {
  it('normal (the default) is the campaigns list; simple is mergedModifications and campaignsVariation; full is both', async () => {
    const { engine, post } = await setup();
    const green = await visitorIn(engine, 'green');
    const body = { visitor_id: green, context: { plan: 'gold' }, trigger_hit: false };
    const normal = (await (await post('/v2/campaigns', body)).json()) as Record<string, unknown>;
    expect(Object.keys(normal)).toEqual(['visitor_id', 'campaigns', 'panic']);
    expect(await (await post('/v2/campaigns?mode=normal', body)).json()).toEqual(normal);

    const simple = await (await post('/v2/prod/campaigns?mode=simple', body)).json();
    // `color` is set by both campaigns: the later one's value stays, as in Flagship's decision API.
    expect(simple).toEqual({
      mergedModifications: { color: 'gold', cta: 'Buy now', shipping: { free: true } },
      campaignsVariation: [
        { campaignId: 'c-color', variationId: 'green' },
        { campaignId: 'c-toggle', variationId: 'on' },
      ],
      panic: false,
    });
    const full = await (await post('/v2/campaigns?mode=full', body)).json();
    expect(full).toEqual({ ...normal, ...(simple as object) });
  });

  it('extras[]=accountSettings adds { enabledXPC, enabled1V1T }, false when unset; other extras are ignored', async () => {
    const { engine, post } = await setup();
    const res = await post('/v2/prod/campaigns?exposeAllKeys=true&extras[]=accountSettings&extras[]=somethingElse', {
      visitor_id: 'v1',
      trigger_hit: false,
    });
    const body = (await res.json()) as Record<string, unknown>;
    expect(body.extras).toEqual({ accountSettings: { enabledXPC: true, enabled1V1T: false } });
    const simple = (await (await post('/v2/campaigns?mode=simple&extras=accountSettings', { visitor_id: 'v1' })).json()) as Record<
      string,
      unknown
    >;
    expect(simple.extras).toEqual({ accountSettings: { enabledXPC: true, enabled1V1T: false } });
    await engine.load({ campaigns: [] }, { environment: 'bare' });
    const bare = (await (await post('/v2/bare/campaigns?extras[]=accountSettings', { visitor_id: 'v1' })).json()) as Record<
      string,
      unknown
    >;
    expect(bare).toEqual({
      visitor_id: 'v1',
      campaigns: [],
      panic: false,
      extras: { accountSettings: { enabledXPC: false, enabled1V1T: false } },
    });
    expect('extras' in ((await (await post('/v2/campaigns', { visitor_id: 'v1' })).json()) as object)).toBe(false);
  });

  it('an unknown mode or a non-boolean sendContextEvent is a 400 naming it; sendContextEvent=true is accepted', async () => {
    const { post } = await setup();
    const bad = await post('/v2/campaigns?mode=verbose', { visitor_id: 'v1' });
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { message: string }).message).toMatch(/mode must be one of normal, simple, full/);
    const event = await post('/v2/campaigns?sendContextEvent=maybe', { visitor_id: 'v1' });
    expect(event.status).toBe(400);
    expect(((await event.json()) as { message: string }).message).toMatch(/sendContextEvent/);
    expect((await post('/v2/campaigns?sendContextEvent=true', { visitor_id: 'v1' })).status).toBe(200);
    expect((await post('/v2/flags?sendContextEvent=false', { visitor_id: 'v1' })).status).toBe(200);
  });
});

describe('GET /v2/{envId}/bucketing.json', () => {
  it('serves the stored configuration with ETag, Last-Modified and no-cache', async () => {
    const { get } = await setup();
    const res = await get('/v2/prod/bucketing.json');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/json');
    expect(res.headers.get('etag')).toMatch(/^"[0-9a-f]{32}"$/);
    expect(res.headers.get('last-modified')).toBe(new Date(1_700_000_000_000).toUTCString());
    expect(res.headers.get('cache-control')).toBe('no-cache');
    expect(await res.json()).toEqual(NAMED);
  });

  it('answers 304 to a matching If-None-Match (weak, listed or *) or an If-Modified-Since not older than the file', async () => {
    const { get } = await setup();
    const etag = (await get('/v2/prod/bucketing.json')).headers.get('etag')!;
    for (const value of [etag, `W/${etag}`, `"other", ${etag}`, '*']) {
      const res = await get('/v2/prod/bucketing.json', { 'if-none-match': value });
      expect(res.status, value).toBe(304);
      expect(res.headers.get('etag')).toBe(etag);
      expect(await res.text()).toBe('');
    }
    expect((await get('/v2/prod/bucketing.json', { 'if-none-match': '"other"' })).status).toBe(200);
    const modified = new Date(1_700_000_000_000).toUTCString();
    expect((await get('/v2/prod/bucketing.json', { 'if-modified-since': modified })).status).toBe(304);
    expect((await get('/v2/prod/bucketing.json', { 'if-modified-since': new Date(1_600_000_000_000).toUTCString() })).status).toBe(200);
    // If-None-Match wins over If-Modified-Since.
    expect((await get('/v2/prod/bucketing.json', { 'if-none-match': '"other"', 'if-modified-since': modified })).status).toBe(200);
  });

  it('a configuration change gives a new ETag and a 200 to the old one', async () => {
    let now = 1_700_000_000_000;
    const { engine, get } = await setup(() => now);
    const before = (await get('/v2/prod/bucketing.json')).headers.get('etag')!;
    now += 5_000;
    await engine.load({ ...NAMED, panic: true }, { environment: 'prod' });
    const res = await get('/v2/prod/bucketing.json', { 'if-none-match': before });
    expect(res.status).toBe(200);
    expect(res.headers.get('etag')).not.toBe(before);
    expect(res.headers.get('last-modified')).toBe(new Date(now).toUTCString());
    expect(((await res.json()) as BucketingConfig).panic).toBe(true);
  });

  it('requires the environment API key; an unknown environment is a 404; HEAD has no body; POST is a 405', async () => {
    const { get } = await setup();
    expect((await get('/v2/locked/bucketing.json')).status).toBe(401);
    expect((await get('/v2/locked/bucketing.json', { 'x-api-key': 'wrong-key-0123456789' })).status).toBe(401);
    expect((await get('/v2/locked/bucketing.json', { 'x-api-key': API_KEY })).status).toBe(200);
    const missing = await get('/v2/nowhere/bucketing.json');
    expect(missing.status).toBe(404);
    expect(await missing.json()).toEqual({ message: 'environment "nowhere" does not exist' });
    const head = await get('/v2/prod/bucketing.json', {}, 'HEAD');
    expect(head.status).toBe(200);
    expect(head.headers.get('etag')).toMatch(/^"/);
    expect(await head.text()).toBe('');
    const post = await get('/v2/prod/bucketing.json', {}, 'POST');
    expect(post.status).toBe(405);
    expect(post.headers.get('allow')).toBe('GET, HEAD');
  });
});
