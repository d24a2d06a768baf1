/**
 * The real Flagship JS SDK (`@flagship.io/js-sdk` 5.2, DECISION-API mode) against abkit's
 * decision handler served by node:http on 127.0.0.1.
 *
 * The SDK builds `{decisionApiUrl}{envId}/campaigns?exposeAllKeys=true&extras[]=accountSettings`
 * and POSTs `{ visitorId, anonymousId, trigger_hit: false, context, visitor_consent }` with
 * `x-api-key`; it then turns every key of every returned variation into a flag (a null value
 * means "use the default"). Each visitor's flags are compared with what `engine.decide` assigns.
 *
 * Offline: the SDK starts no batching loop (`batchIntervals: 0`), sends no usage hits
 * (`disableDeveloperUsageTracking`), flags are read with `getValue(default, false)` so no
 * activation is sent to decision.flagship.io, and `https.request` (which node-fetch, the SDK's
 * HTTP client on Node, calls for https URLs) is spied on: nothing may go out over HTTPS while
 * deciding, and the start-up settings fetch (and any hit flush by `Flagship.close()`) fails at
 * once instead of reaching the network. The server closes the SDK's keep-alive sockets at the end.
 */
import http from 'node:http';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi, type MockInstance } from 'vitest';
import { DecisionMode, Flagship, FSFetchStatus, FSFlagStatus, type Visitor } from '@flagship.io/js-sdk';
import { DecisionEngine, memoryStorage } from '../../src/index';
import { createDecisionHandler } from '../../src/http/decision';
import type { CampaignDecision } from '../../src/decision/compile';
import { writeResponse } from '../../node/listener';
import { nodeRequest } from '../../node/request';
import { sdkAgainstAbkit } from '../helpers/flagship';

const ENV = 'env-sdk';
const API_KEY = 'sdk-secret-key-0123456789';

const config = {
  campaigns: [
    {
      id: 'cmp-checkout',
      type: 'ab',
      slug: 'checkout',
      variationGroups: [
        {
          id: 'vg-checkout',
          targeting: {
            targetingGroups: [
              { targetings: [{ key: 'plan', operator: 'EQUALS', value: 'gold' }] },
              { targetings: [{ key: 'plan', operator: 'EQUALS', value: 'platinum' }] },
            ],
          },
          variations: [
            {
              id: 'var-checkout-ref',
              reference: true,
              allocation: 50,
              modifications: { type: 'FLAG', value: { checkout_layout: 'classic' } },
            },
            {
              id: 'var-checkout-b',
              allocation: 50,
              modifications: { type: 'FLAG', value: { checkout_layout: 'one-page', checkout_banner: 'Free shipping' } },
            },
          ],
        },
      ],
    },
    {
      id: 'cmp-pricing',
      type: 'ab',
      variationGroups: [
        {
          id: 'vg-pricing-fr',
          targeting: { targetingGroups: [{ targetings: [{ key: 'country', operator: 'EQUALS', value: 'fr' }] }] },
          variations: [
            {
              id: 'var-pricing-fr-a',
              reference: true,
              allocation: 50,
              modifications: { type: 'FLAG', value: { price_discount: 10, price_label: 'remise' } },
            },
            { id: 'var-pricing-fr-b', allocation: 50, modifications: { type: 'FLAG', value: { price_discount: 20 } } },
          ],
        },
        {
          id: 'vg-pricing-world',
          targeting: { targetingGroups: [{ targetings: [{ key: 'country', operator: 'EXISTS' }] }] },
          variations: [
            { id: 'var-pricing-world-a', reference: true, allocation: 25, modifications: { type: 'FLAG', value: { price_discount: 5 } } },
            {
              id: 'var-pricing-world-b',
              allocation: 25,
              modifications: { type: 'FLAG', value: { price_discount: 15, price_label: 'sale' } },
            },
          ],
        },
      ],
    },
    {
      id: 'cmp-search',
      type: 'toggle',
      variationGroups: [
        {
          id: 'vg-search',
          targeting: {
            targetingGroups: [
              {
                targetings: [
                  { key: 'isVip', operator: 'EQUALS', value: true },
                  { key: 'age', operator: 'GREATER_THAN_OR_EQUALS', value: 18 },
                ],
              },
            ],
          },
          variations: [
            { id: 'var-search-off', reference: true, modifications: { type: 'FLAG', value: { search_v2: false } } },
            {
              id: 'var-search-on',
              allocation: 100,
              modifications: {
                type: 'FLAG',
                value: { search_v2: true, search_config: { limit: 25, engine: 'fts', boosts: ['title', 'brand'] } },
              },
            },
          ],
        },
      ],
    },
    {
      id: 'cmp-qa',
      type: 'ab',
      variationGroups: [
        {
          id: 'vg-qa',
          targeting: {
            targetingGroups: [{ targetings: [{ key: 'fs_users', operator: 'EQUALS', value: ['qa-tester-1', 'qa-tester-2'] }] }],
          },
          variations: [{ id: 'var-qa-on', allocation: 100, modifications: { type: 'FLAG', value: { qa_panel: true } } }],
        },
      ],
    },
  ],
};

/** Every flag key of the configuration with a default of the same type, distinct from every configured value. */
const DEFAULTS: Record<string, unknown> = {
  checkout_layout: 'default-layout',
  checkout_banner: 'default-banner',
  price_discount: -1,
  price_label: 'default-label',
  search_v2: false,
  search_config: { limit: -1 },
  qa_panel: false,
};

interface TestVisitor {
  id: string;
  context: Record<string, string | number | boolean>;
  consent: boolean;
}

// Ids picked so that both checkout variations, both pricing groups, the pricing gap and every
// targeting outcome occur (the coverage test below checks that they do).
const VISITORS: TestVisitor[] = [
  ...Array.from(
    { length: 8 },
    (_, i): TestVisitor => ({ id: `gold-${i}`, context: { plan: 'gold', country: i % 2 ? 'fr' : 'de' }, consent: true }),
  ),
  ...Array.from({ length: 6 }, (_, i): TestVisitor => ({ id: `us-${i}`, context: { country: 'us', plan: 'free' }, consent: i % 2 === 0 })),
  { id: 'platinum-1', context: { plan: 'platinum' }, consent: true },
  { id: 'shouting-1', context: { plan: 'GOLD', country: 'FR' }, consent: true },
  { id: 'vip-adult', context: { isVip: true, age: 42 }, consent: true },
  { id: 'vip-minor', context: { isVip: true, age: 16 }, consent: true },
  { id: 'vip-as-string', context: { isVip: 'true', age: 42 }, consent: true },
  { id: 'qa-tester-1', context: {}, consent: false },
  { id: 'not-targeted', context: { plan: 'silver', age: 30 }, consent: true },
  { id: 'no-context', context: {}, consent: true },
];

interface Seen {
  method: string;
  path: string;
  query: URLSearchParams;
  apiKey: string | undefined;
  body: Record<string, unknown>;
  status: number;
  contentType: string | null;
}

const seen: Seen[] = [];
const errorLogs: string[] = [];
let server: http.Server;
let origin: string;
let engine: DecisionEngine;
let httpsRequest: MockInstance<typeof https.request>;

/** `METHOD host/path` of every HTTPS request the SDK attempted (all blocked). */
function httpsCalls(): string[] {
  return httpsRequest.mock.calls.map(([options]) => {
    const o = options as { method?: string | null; hostname?: string | null; path?: string | null };
    return `${o.method ?? 'GET'} ${o.hostname}${o.path}`;
  });
}

/**
 * Starts the SDK. In DECISION-API mode `Flagship.start` always GETs
 * https://cdn.flagship.io/{envId}/accountSettings.json (emotion-AI settings; no option turns it
 * off): the spy makes it fail at once, the SDK logs that error and carries on. Start-up errors
 * are dropped here so that the tests see only what happens while deciding.
 */
async function startSdk(apiKey: string): Promise<void> {
  await Flagship.start(ENV, apiKey, {
    decisionMode: DecisionMode.DECISION_API,
    ...sdkAgainstAbkit(origin, errorLogs),
  });
  expect(errorLogs.every((line) => line.includes('EAI config'))).toBe(true);
  errorLogs.length = 0;
}

beforeAll(async () => {
  // Nothing may leave over HTTPS; a call fails at once instead of waiting on an offline network.
  httpsRequest = vi.spyOn(https, 'request').mockImplementation(() => {
    throw new Error('offline test: outbound HTTPS is blocked');
  });

  engine = new DecisionEngine({ storage: memoryStorage() });
  await engine.load(config, { environment: ENV, apiKey: API_KEY });
  const handler = createDecisionHandler({ engine });

  server = http.createServer((req, res) => {
    void (async () => {
      const request = nodeRequest(req, origin);
      const copy = request.clone();
      const response = await handler(request);
      const url = new URL(request.url);
      const text = await copy.text();
      seen.push({
        method: request.method,
        path: url.pathname,
        query: url.searchParams,
        apiKey: req.headers['x-api-key'] as string | undefined,
        body: text ? (JSON.parse(text) as Record<string, unknown>) : {},
        status: response.status,
        contentType: response.headers.get('content-type'),
      });
      await writeResponse(res, response);
    })().catch((error: unknown) => {
      res.statusCode = 599;
      res.end(String(error));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  await startSdk(API_KEY);
});

afterAll(async () => {
  vi.restoreAllMocks();
  server.closeAllConnections();
  await new Promise<void>((resolve, reject) => server.close((e) => (e ? reject(e) : resolve())));
  await new Promise((resolve) => setTimeout(resolve, 20));
  // No socket or server is left open (the SDK's keep-alive sockets were closed with the server).
  expect(process.getActiveResourcesInfo().filter((r) => r.startsWith('TCP'))).toEqual([]);
});

const campaignRequests = () => seen.filter((s) => s.path === `/v2/${ENV}/campaigns`);

/** The campaign of `decisions` that carries `key` (with exposeAllKeys, sibling keys too). */
function carrierOf(decisions: readonly CampaignDecision[], key: string): CampaignDecision | undefined {
  return decisions.find((c) => Object.hasOwn(c.variation.modifications.value, key));
}

interface Outcome {
  visitor: TestVisitor;
  sdk: Visitor;
  expected: readonly CampaignDecision[];
}

describe('@flagship.io/js-sdk in DECISION-API mode against createDecisionHandler', () => {
  const outcomes: Outcome[] = [];

  beforeAll(async () => {
    for (const visitor of VISITORS) {
      const sdk = Flagship.newVisitor({ visitorId: visitor.id, context: visitor.context, hasConsented: visitor.consent });
      await sdk.fetchFlags();
      const { campaigns } = await engine.decide({
        visitorId: visitor.id,
        context: visitor.context,
        environment: ENV,
        triggerHit: false,
        visitorConsent: false,
        exposeAllKeys: true,
      });
      outcomes.push({ visitor, sdk, expected: campaigns });
    }
  });

  it('the SDK fetched every visitor from the local server, with no error', () => {
    expect(errorLogs).toEqual([]);
    // The only HTTPS attempt so far is the start-up settings fetch; deciding went to 127.0.0.1 only.
    expect(httpsCalls()).toEqual([`GET cdn.flagship.io/${ENV}/accountSettings.json`]);
    const requests = campaignRequests();
    expect(requests).toHaveLength(VISITORS.length);
    expect(seen).toHaveLength(VISITORS.length);
    requests.forEach((r, i) => {
      const visitor = VISITORS[i]!;
      expect(r.method).toBe('POST');
      expect(r.query.get('exposeAllKeys')).toBe('true');
      expect(r.apiKey).toBe(API_KEY);
      expect(r.status).toBe(200);
      expect(r.contentType).toMatch(/^application\/json/);
      expect(r.body).toMatchObject({ visitorId: visitor.id, trigger_hit: false, visitor_consent: visitor.consent });
      expect(r.body.context).toMatchObject({ ...visitor.context, fs_users: visitor.id });
    });
    for (const { sdk } of outcomes) expect(sdk.flagsStatus.status).toBe(FSFetchStatus.FETCHED);
  });

  it('every flag carries the value and metadata the engine assigned, or its default', () => {
    for (const { visitor, sdk, expected } of outcomes) {
      for (const [key, fallback] of Object.entries(DEFAULTS)) {
        const flag = sdk.getFlag(key);
        const carrier = carrierOf(expected, key);
        const label = `${visitor.id} / ${key}`;
        if (!carrier) {
          expect(flag.exists(), label).toBe(false);
          expect(flag.status, label).toBe(FSFlagStatus.NOT_FOUND);
          expect(flag.getValue(fallback, false), label).toEqual(fallback);
          continue;
        }
        const value = carrier.variation.modifications.value[key];
        expect(flag.exists(), label).toBe(true);
        expect(flag.status, label).toBe(FSFlagStatus.FETCHED);
        expect(flag.getValue(fallback, false), label).toEqual(value === null ? fallback : value);
        expect(flag.metadata, label).toMatchObject({
          campaignId: carrier.id,
          variationGroupId: carrier.variationGroupId,
          variationId: carrier.variation.id,
          isReference: carrier.variation.reference,
          campaignType: carrier.type,
          slug: carrier.slug,
        });
      }
    }
  });

  it('covers both variations, sibling keys, untracked visitors and every targeting outcome', () => {
    const variationOf = (id: string, campaign: string) =>
      outcomes.find((o) => o.visitor.id === id)!.expected.find((c) => c.id === campaign)?.variation.id;
    const checkout = outcomes.map((o) => o.expected.find((c) => c.id === 'cmp-checkout')?.variation.id);
    expect(checkout).toContain('var-checkout-ref');
    expect(checkout).toContain('var-checkout-b');
    const pricing = outcomes.map((o) => o.expected.find((c) => c.id === 'cmp-pricing')?.variation.id);
    expect(pricing.filter((v) => v?.startsWith('var-pricing-fr-'))).not.toHaveLength(0);
    expect(pricing.filter((v) => v?.startsWith('var-pricing-world-'))).not.toHaveLength(0);
    // A visitor with a country but bucketed in the 50% gap of vg-pricing-world gets no pricing at all.
    expect(outcomes.some((o) => o.visitor.context.country !== undefined && pricing[outcomes.indexOf(o)] === undefined)).toBe(true);
    expect(variationOf('platinum-1', 'cmp-checkout')).toBeDefined();
    expect(variationOf('shouting-1', 'cmp-checkout')).toBeDefined(); // case-insensitive EQUALS
    expect(variationOf('vip-adult', 'cmp-search')).toBe('var-search-on');
    expect(variationOf('vip-minor', 'cmp-search')).toBeUndefined();
    expect(variationOf('vip-as-string', 'cmp-search')).toBeUndefined(); // no type coercion
    expect(variationOf('qa-tester-1', 'cmp-qa')).toBe('var-qa-on');
  });

  it('a sibling variation key exists with the assigned variation metadata but yields its default', () => {
    const inReference = outcomes.find((o) => o.expected.some((c) => c.variation.id === 'var-checkout-ref'))!;
    const banner = inReference.sdk.getFlag('checkout_banner');
    expect(banner.exists()).toBe(true);
    expect(banner.metadata.variationId).toBe('var-checkout-ref');
    expect(banner.metadata.isReference).toBe(true);
    expect(banner.getValue('my default', false)).toBe('my default');
    expect(inReference.sdk.getFlag('checkout_layout').getValue('x', false)).toBe('classic');

    const inB = outcomes.find((o) => o.expected.some((c) => c.variation.id === 'var-checkout-b'))!;
    expect(inB.sdk.getFlag('checkout_banner').getValue('my default', false)).toBe('Free shipping');
    expect(inB.sdk.getFlag('checkout_layout').getValue('x', false)).toBe('one-page');
    expect(inB.sdk.getFlag('checkout_layout').metadata.isReference).toBe(false);
  });

  it('values of every JSON type reach the SDK intact', () => {
    const vip = outcomes.find((o) => o.visitor.id === 'vip-adult')!.sdk;
    expect(vip.getFlag('search_v2').getValue(false, false)).toBe(true);
    expect(vip.getFlag('search_config').getValue({}, false)).toEqual({ limit: 25, engine: 'fts', boosts: ['title', 'brand'] });
    expect(vip.getFlag('search_v2').metadata).toMatchObject({
      campaignId: 'cmp-search',
      campaignType: 'toggle',
      variationId: 'var-search-on',
    });
    const qa = outcomes.find((o) => o.visitor.id === 'qa-tester-1')!.sdk;
    expect(qa.getFlag('qa_panel').getValue(false, false)).toBe(true);
    const french = outcomes.find((o) => o.expected.some((c) => c.variationGroupId === 'vg-pricing-fr'))!;
    const fr = french.expected.find((c) => c.id === 'cmp-pricing')!;
    expect(french.sdk.getFlag('price_discount').getValue(0, false)).toBe(fr.variation.id === 'var-pricing-fr-a' ? 10 : 20);
  });

  it('visitors not targeted by any campaign get the default value of every flag', () => {
    for (const id of ['not-targeted', 'no-context']) {
      const outcome = outcomes.find((o) => o.visitor.id === id)!;
      expect(outcome.expected).toEqual([]);
      for (const [key, fallback] of Object.entries(DEFAULTS)) {
        const flag = outcome.sdk.getFlag(key);
        expect(flag.exists(), `${id} / ${key}`).toBe(false);
        expect(flag.getValue(fallback, false), `${id} / ${key}`).toEqual(fallback);
      }
      expect(outcome.sdk.flagsStatus.status).toBe(FSFetchStatus.FETCHED);
    }
  });

  it('honours trigger_hit: false and visitor_consent as the SDK sends them', async () => {
    expect(await engine.storage.activations.list({ environmentId: ENV })).toEqual([]);
    for (const { visitor, expected } of outcomes) {
      const stored = await engine.storage.assignments.get(ENV, visitor.id);
      const assigned = Object.fromEntries(expected.map((c) => [c.variationGroupId, c.variation.id]));
      expect(stored, visitor.id).toEqual(visitor.consent ? assigned : {});
    }
    expect(outcomes.some((o) => !o.visitor.consent && o.expected.length > 0)).toBe(true);
  });
});

describe('a wrong API key', () => {
  it('is refused with 401 and the SDK falls back to default values', async () => {
    const before = seen.length;
    await startSdk('not-the-key');
    const httpsBefore = httpsCalls().length;
    const sdk = Flagship.newVisitor({ visitorId: 'vip-adult', context: { isVip: true, age: 42 }, hasConsented: true });
    await sdk.fetchFlags();
    const requests = seen.slice(before);
    expect(requests).toHaveLength(1);
    expect(requests[0]).toMatchObject({ path: `/v2/${ENV}/campaigns`, apiKey: 'not-the-key', status: 401 });
    expect(sdk.flagsStatus.status).toBe(FSFetchStatus.FETCH_REQUIRED);
    expect(sdk.getFlag('search_v2').exists()).toBe(false);
    expect(sdk.getFlag('search_v2').getValue(false, false)).toBe(false);
    // The SDK logged abkit's error body.
    expect(errorLogs.join('\n')).toContain('invalid x-api-key');
    expect(httpsCalls()).toHaveLength(httpsBefore);
  });
});

describe('closing the SDK', () => {
  // In 5.2.0's node build Flagship.close() reads `Flagship._instance`, but the singleton lives in
  // `globalThis.__flagship_instance__`, so close() flushes nothing. Should a later SDK flush, the
  // flush may only target the events endpoint (blocked by the spy), never the decision API.
  it('Flagship.close() resolves and contacts neither the decision server nor any other host', async () => {
    const httpsBefore = httpsCalls().length;
    const seenBefore = seen.length;
    await Flagship.close();
    expect(
      httpsCalls()
        .slice(httpsBefore)
        .every((call) => call.startsWith('POST events.flagship.io')),
    ).toBe(true);
    expect(seen).toHaveLength(seenBefore);
    expect(seen.every((s) => s.path === `/v2/${ENV}/campaigns`)).toBe(true);
  });
});
