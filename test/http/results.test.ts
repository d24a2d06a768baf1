import { describe, expect, it } from 'vitest';
import { MAX_EVENTS_PER_CALL } from '../../src/results/track';
import type { ExperimentResults } from '../../src/results/results';
import { ENV, ENV_KEY, stack } from '../helpers/stack';

async function problem(res: Response, status: number) {
  expect(res.status).toBe(status);
  return (await res.json()) as { error?: string; message: string; details?: { path: string; message: string }[] };
}

async function resultsToken(s: Awaited<ReturnType<typeof stack>>, actions = ['results.read']) {
  const access = await s.accesses.createAccess({ account: 'acme', name: `results-${actions.join('+')}`, environments: ['prod'], actions });
  return (await s.tokens.issue({ accountId: 'acme', clientId: access.clientId, clientSecret: access.clientSecret, expiresIn: 600 }))
    .accessToken;
}

describe('POST /v2/events', () => {
  it('records one event (default environment, or cid) and a batch, answering 204', async () => {
    const s = await stack();
    expect((await s.call('POST', '/v2/events', { body: { visitor_id: 'v1', event: 'purchase', value: 19.9 } })).status).toBe(204);
    expect(
      (
        await s.call('POST', '/v2/events', {
          body: { cid: 'locked', visitor_id: 'v1', event: 'signup' },
          headers: { 'x-api-key': ENV_KEY },
        })
      ).status,
    ).toBe(204);
    const batch = {
      cid: 'prod',
      batch: [
        { visitor_id: 'v2', event: 'purchase', value: null },
        { visitor_id: 'v3', event: 'purchase', value: 5 },
      ],
    };
    expect((await s.call('POST', '/v2/events', { body: batch })).status).toBe(204);
    const prod = await s.storage.events.list({ environmentId: 'prod' });
    expect(prod.map((e) => [e.visitorId, e.event, e.value])).toEqual([
      ['v1', 'purchase', 19.9],
      ['v2', 'purchase', null],
      ['v3', 'purchase', 5],
    ]);
    expect((await s.storage.events.list({ environmentId: 'locked' })).map((e) => e.event)).toEqual(['signup']);
  });

  it.each([
    ['no visitor_id', { event: 'purchase' }, 'visitor_id'],
    ['an empty event', { visitor_id: 'v', event: '' }, 'event'],
    ['a 101-character event', { visitor_id: 'v', event: 'e'.repeat(101) }, 'event'],
    ['a string value', { visitor_id: 'v', event: 'e', value: '12' }, 'value'],
    ['an unknown cid', { cid: 'nowhere', visitor_id: 'v', event: 'e' }, 'cid'],
    [
      'a bad batch element',
      {
        batch: [
          { visitor_id: 'v', event: 'e' },
          { visitor_id: 'v', event: 7 },
        ],
      },
      'batch[1].event',
    ],
    ['an empty batch', { batch: [] }, 'batch'],
    [
      'a batch over the limit',
      { batch: Array.from({ length: MAX_EVENTS_PER_CALL + 1 }, () => ({ visitor_id: 'v', event: 'e' })) },
      'batch',
    ],
  ])('answers 400 naming the field for %s, recording nothing', async (_, body, path) => {
    const s = await stack();
    const error = await problem(await s.call('POST', '/v2/events', { body }), 400);
    expect(error.message).toContain(path);
    expect(await s.storage.events.list({ environmentId: 'prod' })).toEqual([]);
  });

  it('needs the x-api-key of an environment that has one, refuses a body over the limit, and only POST', async () => {
    const s = await stack();
    expect((await s.call('POST', '/v2/events', { body: { cid: 'locked', visitor_id: 'v', event: 'e' } })).status).toBe(401);
    const big = JSON.stringify({ visitor_id: 'v', event: 'e', pad: 'x'.repeat(1_048_576) });
    expect((await s.call('POST', '/v2/events', { body: big })).status).toBe(413);
    const get = await s.call('GET', '/v2/events');
    expect(get.status).toBe(405);
    expect(get.headers.get('allow')).toContain('POST');
    expect(s.errors).toEqual([]);
  });
});

describe('GET …/campaigns/{id}/results', () => {
  it('answers the per-variation results of traffic sent through the decision interface', async () => {
    const s = await stack();
    const seen = new Map<string, string>();
    for (let i = 0; i < 40; i++) {
      const res = await s.call('POST', '/v2/campaigns', { body: { visitor_id: `v${i}` } });
      const body = (await res.json()) as { campaigns: { id: string; variation: { id: string } }[] };
      seen.set(`v${i}`, body.campaigns.find((c) => c.id === 'c1')!.variation.id);
    }
    const buyers = ['v1', 'v2', 'v3', 'v5', 'v8', 'v13', 'v21', 'v34'];
    expect(
      (await s.call('POST', '/v2/events', { body: { batch: buyers.map((visitor_id) => ({ visitor_id, event: 'purchase', value: 10 })) } }))
        .status,
    ).toBe(204);
    const token = await resultsToken(s);
    const res = await s.call('GET', `${ENV}/campaigns/c1/results?metric=purchase`, { token });
    expect(res.status).toBe(200);
    const results = (await res.json()) as ExperimentResults;
    expect(results).toMatchObject({ environmentId: 'prod', campaignId: 'c1', metric: 'purchase', valueMetric: true });
    for (const v of results.groups[0]!.variations) {
      const mine = [...seen].filter(([, variation]) => variation === v.variationId).map(([id]) => id);
      expect(v.exposed).toBe(mine.length);
      expect(v.converted).toBe(mine.filter((id) => buyers.includes(id)).length);
      expect(v.valueSum).toBe(10 * v.converted);
    }
    expect(results.groups[0]!.variations[1]!.comparison!.conversionRate.chanceToBeat).toBeGreaterThanOrEqual(0);
    const windowed = (await (
      await s.call('GET', `${ENV}/campaigns/c1/results?metric=purchase&since=0&until=1`, { token })
    ).json()) as ExperimentResults;
    expect(windowed.groups[0]!.variations.map((v) => v.exposed)).toEqual([0, 0]);
  });

  it('answers 400 naming the parameter, 404 for an unknown campaign, 403 without results.read', async () => {
    const s = await stack();
    const token = await resultsToken(s);
    expect((await problem(await s.call('GET', `${ENV}/campaigns/c1/results`, { token }), 400)).details).toEqual([
      { path: 'metric', message: 'is required' },
    ]);
    expect(
      (await problem(await s.call('GET', `${ENV}/campaigns/c1/results?metric=m&since=yesterday`, { token }), 400)).details?.[0]?.path,
    ).toBe('since');
    expect(
      (await problem(await s.call('GET', `${ENV}/campaigns/c1/results?metric=m&since=5&until=5`, { token }), 400)).details?.[0]?.path,
    ).toBe('until');
    expect(
      (await problem(await s.call('GET', `${ENV}/campaigns/c1/results?metric=${'m'.repeat(101)}`, { token }), 400)).details?.[0]?.path,
    ).toBe('metric');
    expect((await problem(await s.call('GET', `${ENV}/campaigns/nope/results?metric=m`, { token }), 404)).error).toBe('not_found');
    const reader = await resultsToken(s, ['campaigns.read', 'activations.read']);
    const denied = await s.call('GET', `${ENV}/campaigns/c1/results?metric=m`, { token: reader });
    expect((await problem(denied, 403)).error).toBe('insufficient_scope');
    expect(denied.headers.get('www-authenticate')).toMatch(/scope="results\.read"/);
    expect(s.errors).toEqual([]);
  });
});
