/**
 * Request fuzzing for the stress suite: requests for every route of the OpenAPI document, with
 * valid and hostile path parameters, queries, credentials and bodies, and the checks every
 * answer must pass (no 5xx, JSON error bodies, Object.prototype untouched).
 */
import fc from 'fast-check';
import { expect } from 'vitest';
import { nestedArrays, nestedObjects } from '../helpers/stack';

/** The interfaces, by the paths they serve. */
export const INTERFACES = ['decision', 'token', 'remote', 'catalog', 'search'] as const;
export type Interface = (typeof INTERFACES)[number];

export function interfaceOf(path: string): Interface | undefined {
  if (path.startsWith('/v2')) return 'decision';
  if (path === '/token' || path.endsWith('/token')) return 'token';
  if (path.startsWith('/v1/')) return 'remote';
  if (path.startsWith('/indexes')) return 'catalog';
  if (/search|autocomplete/.test(path)) return 'search';
  return undefined;
}

/** One route of the OpenAPI document. */
export interface RouteTemplate {
  path: string;
  methods: string[];
}

/** The routes of the document, by interface. */
export function routesByInterface(document: { paths: Record<string, Record<string, unknown>> }): Record<Interface, RouteTemplate[]> {
  const out = Object.fromEntries(INTERFACES.map((i) => [i, [] as RouteTemplate[]])) as Record<Interface, RouteTemplate[]>;
  for (const [path, ops] of Object.entries(document.paths)) {
    const i = interfaceOf(path);
    if (i) out[i].push({ path, methods: Object.keys(ops).map((m) => m.toUpperCase()) });
  }
  return out;
}

/** Credentials of the stack under test. */
export interface Credentials {
  token: string;
  catalogKey: string;
  searchKey: string;
  envKey: string;
  clientId: string;
  clientSecret: string;
}

/** A request as the fuzzer builds it. */
export interface FuzzRequest {
  method: string;
  path: string;
  query: string;
  headers: Record<string, string>;
  body: string | undefined;
}

const hostile = fc.constantFrom(
  '',
  ' ',
  '..',
  '%',
  '%00',
  '%ZZ',
  '__proto__',
  'constructor',
  'a/b',
  '\u0000',
  'é',
  '𝔘',
  'x'.repeat(600),
  '[]',
  '{}',
  'null',
  '-1',
  '1e400',
  'NaN',
);
const text = fc.oneof(fc.string({ maxLength: 40 }), fc.string({ unit: 'grapheme', maxLength: 20 }), hostile);

const PARAMS: Record<string, string[]> = {
  envId: ['prod', 'locked', 'nope'],
  env_id: ['prod', 'locked', 'staging'],
  account_id: ['acme', 'globex'],
  id: ['c1', 'c2', 'x'],
  campaign_id: ['c1', 'c2', 'new'],
  itemID: ['p1', 'p2', 'new-item', 'batch'],
  fieldID: ['brand', 'price', 'name', 'unknown'],
};

const QUERY_KEYS = [
  'text',
  'query',
  'filters[brand][]',
  'filters[price][0][operator]',
  'filters[price][0][value]',
  'filters[brand]',
  'sort[]',
  'sort',
  'page',
  'hitsPerPage',
  'hits_per_page',
  'index',
  'client_id',
  'access_token',
  'exposeAllKeys',
  'expires_in',
  'metric',
  'since',
  'until',
  'mode',
  'extras[]',
  'rankingScoreThreshold',
  'showRankingScoreDetails',
  '__proto__[polluted]',
  'constructor[prototype][polluted]',
];

const queryValue = fc.oneof(
  text,
  fc.constantFrom(
    '1',
    '0',
    '20',
    '1000',
    '1001',
    'true',
    'price:asc',
    'name:desc',
    '<',
    '>=',
    'Samsung',
    'brand1',
    'item',
    'a'.repeat(510),
    'a'.repeat(512),
    'conversion',
    'shop-catalog',
  ),
);

const query = fc.oneof(
  {
    weight: 4,
    arbitrary: fc
      .array(fc.tuple(fc.constantFrom(...QUERY_KEYS), queryValue), { maxLength: 5 })
      .map((pairs) => pairs.map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`).join('&')),
  },
  { weight: 1, arbitrary: fc.string({ maxLength: 60 }) },
);

const POLLUTE = [
  '{"__proto__":{"polluted":1}}',
  '{"constructor":{"prototype":{"polluted":1}}}',
  '[{"operation":"create-replace","product":{"id":"z","__proto__":{"polluted":1}}}]',
];

function bodies(credentials: Credentials) {
  const json = (value: fc.Arbitrary<unknown>) => value.map((v) => JSON.stringify(v));
  const context = fc.dictionary(
    fc.oneof(fc.string({ maxLength: 12 }), fc.constantFrom('plan', 'appVersion', '__proto__', 'fs_users')),
    fc.oneof(fc.string({ maxLength: 20 }), fc.double(), fc.boolean(), fc.constant(null), fc.constantFrom('1.2.3', 'v2.0.0-rc.1')),
    { maxKeys: 4 },
  );
  const decision = fc.record(
    {
      visitor_id: fc.oneof(text, fc.integer()),
      anonymous_id: fc.option(text),
      context,
      trigger_hit: fc.boolean(),
      visitor_consent: fc.boolean(),
      cid: fc.constantFrom('prod', 'nope'),
      vid: text,
      caid: fc.constantFrom('c1-vg', 'x'),
      vaid: fc.constantFrom('c1-v0', 'x'),
    },
    { requiredKeys: [] },
  );
  const product = fc.record(
    {
      id: fc.oneof(text, fc.integer()),
      is_recommendable: fc.oneof(fc.boolean(), text),
      name: text,
      absolute_link: fc.constantFrom(null, 'https://x', 1),
      img_link: fc.constant(null),
      price: fc.oneof(fc.double(), text),
      categories_ids: fc.oneof(fc.constant(null), fc.array(text, { maxLength: 3 })),
      brand: fc.oneof(text, fc.integer()),
      nested: fc.jsonValue({ maxDepth: 3 }),
    },
    { requiredKeys: [] },
  );
  const batch = fc.array(fc.record({ operation: fc.constantFrom('create-replace', 'delete', 'upsert'), product }, { requiredKeys: [] }), {
    maxLength: 5,
  });
  const campaign = fc.record(
    { id: text, type: fc.constantFrom('ab', 'toggle', ''), variationGroups: fc.jsonValue({ maxDepth: 4 }) },
    { requiredKeys: [] },
  );
  const tokenRequest = fc.record(
    {
      grant_type: fc.constantFrom('client_credentials', 'password', ''),
      scope: fc.constantFrom('*', 'campaigns.read', 'x'),
      client_id: fc.constantFrom(credentials.clientId, 'nope'),
      client_secret: fc.constantFrom(credentials.clientSecret, 'wrong'),
      expires_in: fc.oneof(fc.integer(), text),
    },
    { requiredKeys: [] },
  );
  return fc.oneof(
    { weight: 2, arbitrary: fc.constant(undefined) },
    {
      weight: 6,
      arbitrary: json(
        fc.oneof(
          decision,
          product,
          batch,
          campaign,
          tokenRequest,
          fc.record({ panic: fc.oneof(fc.boolean(), text) }),
          fc.record({ campaigns: fc.jsonValue({ maxDepth: 4 }) }),
        ),
      ),
    },
    { weight: 2, arbitrary: json(fc.jsonValue({ maxDepth: 5 })) },
    {
      weight: 1,
      arbitrary: fc.constantFrom(
        'null',
        '',
        ' ',
        '[]',
        '{}',
        '"x"',
        '1e999',
        '{"a":1',
        nestedArrays(65),
        nestedObjects(200),
        nestedArrays(20_000),
        ...POLLUTE,
      ),
    },
    { weight: 1, arbitrary: fc.string({ maxLength: 80 }) },
    { weight: 1, arbitrary: tokenRequest.map((r) => new URLSearchParams(Object.entries(r).map(([k, v]) => [k, String(v)])).toString()) },
  );
}

function headers(credentials: Credentials) {
  const authorization = fc.constantFrom(
    undefined,
    `Bearer ${credentials.token}`,
    `Bearer ${credentials.catalogKey}`,
    `Bearer ${credentials.searchKey}`,
    'Bearer nope',
    'Bearer',
    'bearer  x y',
    `Basic ${btoa(`${credentials.clientId}:${credentials.clientSecret}`)}`,
    'Basic !!!',
    `Basic ${btoa('no-colon')}`,
    'Digest x',
  );
  return fc.record({
    authorization,
    'x-api-key': fc.constantFrom(undefined, credentials.envKey, 'short', ''),
    'content-type': fc.constantFrom(
      undefined,
      'application/json',
      'application/x-www-form-urlencoded',
      'text/plain',
      'application/json; charset=utf-8',
    ),
    'if-match': fc.constantFrom(undefined, '"1"', '"999"', 'garbage'),
  });
}

const METHODS = ['GET', 'POST', 'PUT', 'DELETE', 'PATCH', 'HEAD', 'OPTIONS'];

/** Requests for one interface's routes. */
export function requests(routes: readonly RouteTemplate[], credentials: Credentials): fc.Arbitrary<FuzzRequest> {
  const route = fc.constantFrom(...routes);
  return route.chain((r) => {
    const names = [...r.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]!);
    const params = fc.tuple(
      ...names.map((n) => fc.oneof({ weight: 3, arbitrary: fc.constantFrom(...(PARAMS[n] ?? ['x'])) }, { weight: 1, arbitrary: text })),
    );
    const method = fc.oneof({ weight: 8, arbitrary: fc.constantFrom(...r.methods) }, { weight: 1, arbitrary: fc.constantFrom(...METHODS) });
    return fc
      .record({ params, method, query, headers: headers(credentials), body: bodies(credentials) })
      .map(({ params: values, method: m, query: q, headers: h, body }) => {
        let i = 0;
        const path = r.path.replace(/\{\w+\}/g, () => encodeURIComponent(values[i++] as string));
        const clean = Object.fromEntries(Object.entries(h).filter(([, v]) => v !== undefined)) as Record<string, string>;
        return { method: m, path, query: q, headers: clean, body: m === 'GET' || m === 'HEAD' ? undefined : body };
      });
  });
}

const PROTOTYPE_KEYS = Object.getOwnPropertyNames(Object.prototype).sort();

/** The checks every answer passes. Returns the status. */
export async function checkAnswer(request: FuzzRequest, response: Response): Promise<number> {
  const what = `${request.method} ${request.path}?${request.query} ${request.body?.slice(0, 200)}`;
  expect(response.status, what).toBeLessThan(500);
  const type = response.headers.get('content-type') ?? '';
  const body = await response.text();
  if (response.status >= 400 && request.method !== 'HEAD') {
    expect(type, what).toMatch(/^application\/json/);
    const parsed = JSON.parse(body) as Record<string, unknown>;
    expect(typeof (parsed.message ?? parsed.error_description), what).toBe('string');
  } else if (type.startsWith('application/json') && body !== '') {
    JSON.parse(body);
  }
  return response.status;
}

/** Object.prototype has gained nothing. */
export function expectPrototypeUntouched(): void {
  expect(Object.getOwnPropertyNames(Object.prototype).sort()).toEqual(PROTOTYPE_KEYS);
  expect(({} as Record<string, unknown>).polluted).toBeUndefined();
}
