import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  SearchService,
  ValidationError,
  type Catalog,
  type SearchQueryInput,
  type SearchResponse,
  type SearchServiceOptions,
} from '../../src/index';
import { formatPath } from '../../src/errors';
import type { Embedder, Facet } from '../../src/search/service';
import { catalogOf, ids, item, type Item } from '../helpers/search';

const all = (query: Omit<SearchQueryInput, 'hitsPerPage'>): SearchQueryInput => ({ hitsPerPage: 1000, ...query });

/** What search rejects, as a ValidationError. */
async function rejected(service: SearchService, query: SearchQueryInput): Promise<ValidationError> {
  const error = await service.search(query).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error, `expected ${JSON.stringify(query)} to be rejected`).toBeInstanceOf(ValidationError);
  return error as ValidationError;
}

// ---------------------------------------------------------------------------------------------
// A catalog with a custom field of every type of interfaces.md, Catalog items.

const TYPED: Item[] = [
  item('p1', 'Alpha Phone', {
    price: 100,
    categories_ids: ['phones'],
    color: 'red',
    weight: 150,
    waterproof: true,
    tags: ['5g', 'dual'],
    specs: { material: 'metal', finish: 'matte' },
    dims: { h: 14.5, w: 7 },
    flags: { nfc: true, esim: false },
  }),
  item('p2', 'Beta Phone', {
    price: 200,
    categories_ids: ['phones'],
    color: 'Blue',
    weight: 180,
    waterproof: false,
    tags: ['5g'],
    specs: { material: 'glass' },
    dims: { h: 15, w: 7.5 },
    flags: { nfc: false },
  }),
  item('p3', 'Gamma Case', {
    price: 20,
    categories_ids: ['cases'],
    color: 'red',
    tags: ['leather'],
    specs: { material: 'leather', finish: 'gloss' },
    dims: { h: 15.2 },
    flags: { esim: true },
  }),
  item('p4', 'Delta Charger', {
    price: null,
    categories_ids: ['chargers', 'accessories'],
    color: 'white',
    weight: 80,
    waterproof: false,
    tags: [],
    specs: {},
    flags: { nfc: true },
  }),
  item('p5', 'alpha case', {
    price: 15,
    categories_ids: ['cases', 'accessories'],
    color: 'blue',
    weight: 30,
    waterproof: true,
    tags: ['dual', 'leather'],
    specs: { material: 'silicone' },
    dims: { h: 14, w: 6.8 },
  }),
  item('p6', 'Epsilon Phone', { price: 350, is_recommendable: false }),
];

const PATHS = [
  'id',
  'is_recommendable',
  'name',
  'price',
  'categories_ids',
  'color',
  'weight',
  'waterproof',
  'tags',
  'specs.material',
  'specs.finish',
  'dims.h',
  'dims.w',
  'flags.nfc',
  'flags.esim',
] as const;
const NUMBER_PATHS = new Set(['price', 'weight', 'dims.h', 'dims.w']);

/** The value at `field` or `field.key`, undefined when absent or empty. */
function at(it: Item, path: string): unknown {
  const dot = path.indexOf('.');
  let value: unknown;
  if (dot < 0) value = Object.hasOwn(it, path) ? it[path] : undefined;
  else {
    const obj = it[path.slice(0, dot)] as Record<string, unknown> | null | undefined;
    value = obj && Object.hasOwn(obj, path.slice(dot + 1)) ? obj[path.slice(dot + 1)] : undefined;
  }
  if (value === null || value === '' || (Array.isArray(value) && value.length === 0)) return undefined;
  return value;
}

/** Every filter/facet value at a path. */
function valuesAt(it: Item, path: string): (string | number | boolean)[] {
  const v = at(it, path);
  if (v === undefined) return [];
  return Array.isArray(v) ? (v as string[]) : [v as string | number | boolean];
}

/** Brute-force facet of a path over some items (list: count desc, then value case-insensitively). */
function bruteFacet(items: readonly Item[], path: string): Facet | undefined {
  if (NUMBER_PATHS.has(path)) {
    const values = items.flatMap((i) => valuesAt(i, path) as number[]);
    return values.length === 0 ? undefined : { type: 'range', values: { min: Math.min(...values), max: Math.max(...values) } };
  }
  const counts = new Map<string | boolean, number>();
  for (const i of items)
    for (const v of new Set(valuesAt(i, path))) counts.set(v as string | boolean, (counts.get(v as string | boolean) ?? 0) + 1);
  const values = [...counts].sort(
    (a, b) => b[1] - a[1] || String(a[0]).toLowerCase().localeCompare(String(b[0]).toLowerCase()) || (String(a[0]) < String(b[0]) ? -1 : 1),
  );
  return { type: 'list', values };
}

/** Brute-force sort order of the items by one path: missing values last in both directions, ties by id. */
function bruteSort(items: readonly Item[], path: string, direction: 'asc' | 'desc'): string[] {
  const key = (i: Item): number | string | undefined => {
    const v = at(i, path);
    const first = Array.isArray(v) ? v[0] : v;
    if (first === undefined) return undefined;
    return typeof first === 'number' ? first : String(first).toLowerCase();
  };
  return [...items]
    .sort((a, b) => {
      const x = key(a);
      const y = key(b);
      if (x === undefined || y === undefined) return x === y ? (a.id < b.id ? -1 : 1) : x === undefined ? 1 : -1;
      const d = (typeof x === 'number' && typeof y === 'number' ? x - y : x < y ? -1 : x > y ? 1 : 0) * (direction === 'asc' ? 1 : -1);
      return d || (a.id < b.id ? -1 : 1);
    })
    .map((i) => i.id);
}

describe('filters, facets and sort on every field type of the schema', () => {
  let catalog: Catalog;
  let service: SearchService;
  let faceted: SearchService;

  beforeAll(async () => {
    catalog = await catalogOf(TYPED);
    service = new SearchService({ catalog });
    faceted = new SearchService({ catalog, facets: PATHS.filter((p) => p !== 'id' && p !== 'name') });
  });

  it('the schema has one custom field of each type', async () => {
    const custom = Object.fromEntries((await catalog.schema()).fields.filter((f) => !f.standard).map((f) => [f.name, f.type]));
    expect(custom).toEqual({
      color: 'string',
      weight: 'number',
      waterproof: 'boolean',
      tags: 'string[]',
      specs: 'object<string>',
      dims: 'object<number>',
      flags: 'object<boolean>',
    });
  });

  const cases: [string, Record<string, unknown>, string[]][] = [
    ['string: exact values, any of them, case-sensitive', { color: ['red', 'Blue'] }, ['p1', 'p2', 'p3']],
    ['string: one value', { color: 'white' }, ['p4']],
    ['number: exact value as a list', { weight: ['150', '80'] }, ['p1', 'p4']],
    [
      'number: range conditions are ANDed',
      {
        weight: [
          { operator: '>=', value: 80 },
          { operator: '<', value: 180 },
        ],
      },
      ['p1', 'p4'],
    ],
    ['number: = operator', { weight: [{ operator: '=', value: '180' }] }, ['p2']],
    [
      'number: > and <=',
      {
        weight: [
          { operator: '>', value: 30 },
          { operator: '<=', value: 150 },
        ],
      },
      ['p1', 'p4'],
    ],
    ['boolean: true', { waterproof: ['true'] }, ['p1', 'p5']],
    ['boolean: false (missing values do not match)', { waterproof: ['false'] }, ['p2', 'p4']],
    ['boolean: given as a boolean', { waterproof: [true] }, ['p1', 'p5']],
    ['string[]: any element', { tags: ['leather'] }, ['p3', 'p5']],
    ['string[]: any of several values', { tags: ['5g', 'leather'] }, ['p1', 'p2', 'p3', 'p5']],
    ['object<string>: field.key', { 'specs.material': ['metal', 'glass'] }, ['p1', 'p2']],
    ['object<string>: another key', { 'specs.finish': ['gloss'] }, ['p3']],
    ['object<number>: range on field.key', { 'dims.h': [{ operator: '>', value: 14.5 }] }, ['p2', 'p3']],
    ['object<number>: exact value on field.key', { 'dims.h': ['14'] }, ['p5']],
    ['object<boolean>: field.key true', { 'flags.nfc': ['true'] }, ['p1', 'p4']],
    ['object<boolean>: field.key false', { 'flags.esim': ['false'] }, ['p1']],
    ['standard number: price range (null prices never match)', { price: [{ operator: '<=', value: 100 }] }, ['p1', 'p3', 'p5']],
    ['standard string[]: categories_ids', { categories_ids: ['accessories'] }, ['p4', 'p5']],
    ['standard boolean: is_recommendable', { is_recommendable: ['false'] }, ['p6']],
    ['standard string: id', { id: ['p2', 'p6', 'nope'] }, ['p2', 'p6']],
    ['several fields are ANDed', { color: ['red'], price: [{ operator: '>', value: 50 }] }, ['p1']],
    [
      'contradictory range conditions match nothing',
      {
        price: [
          { operator: '>', value: 100 },
          { operator: '<', value: 50 },
        ],
      },
      [],
    ],
    [
      'two different = conditions match nothing',
      {
        price: [
          { operator: '=', value: 100 },
          { operator: '=', value: 200 },
        ],
      },
      [],
    ],
    ['an unknown value matches nothing', { color: ['purple'] }, []],
  ];

  for (const [title, filters, expected] of cases) {
    it(`filters ${title}`, async () => {
      const r = await service.search(all({ text: '', filters }));
      expect(ids(r).sort()).toEqual(expected);
      expect(r.totalHits).toBe(expected.length);
    });
  }

  it('facets every path as the brute force computes them, over all matching items, not only the page', async () => {
    for (const filters of [{}, { color: ['red', 'blue'] }, { waterproof: ['true'] }, { 'dims.h': [{ operator: '>=', value: 15 }] }]) {
      const r = await faceted.search({ text: '', filters, hitsPerPage: 1 });
      const full = await faceted.search(all({ text: '', filters }));
      const hits = TYPED.filter((i) => ids(full).includes(i.id));
      expect(hits.length).toBe(r.totalHits);
      expect(r.hits.length).toBeLessThanOrEqual(1);
      for (const path of PATHS.filter((p) => p !== 'id' && p !== 'name')) {
        const expected = bruteFacet(hits, path);
        if (expected === undefined) expect(r.facets[path], `${JSON.stringify(filters)} ${path}`).toBeUndefined();
        else if (expected.type === 'range') expect(r.facets[path], `${JSON.stringify(filters)} ${path}`).toEqual(expected);
        else expect(r.facets[path]?.values ?? [], `${JSON.stringify(filters)} ${path}`).toEqual(expected.values);
      }
    }
  });

  it('gives boolean facet values as booleans and number ranges as { min, max }', async () => {
    const r = await faceted.search({ text: '' });
    expect(r.facets.waterproof).toEqual({
      type: 'list',
      values: [
        [false, 2],
        [true, 2],
      ],
    });
    expect(r.facets['flags.nfc']).toEqual({
      type: 'list',
      values: [
        [true, 2],
        [false, 1],
      ],
    });
    expect(r.facets['dims.w']).toEqual({ type: 'range', values: { min: 6.8, max: 7.5 } });
    expect(r.facets.price).toEqual({ type: 'range', values: { min: 15, max: 350 } });
  });

  it('by default facets the string, string[] and boolean custom fields, categories_ids and price (range)', async () => {
    const r = await service.search({ text: '' });
    expect(Object.keys(r.facets).sort()).toEqual(['categories_ids', 'color', 'price', 'tags', 'waterproof']);
    expect(r.facets.price?.type).toBe('range');
    // Equal counts: by value case-insensitively, then by code unit (Blue before blue).
    expect(r.facets.color).toEqual({
      type: 'list',
      values: [
        ['red', 2],
        ['Blue', 1],
        ['blue', 1],
        ['white', 1],
      ],
    });
  });

  it('sorts list facet values by count, then value, and keeps at most maxFacetValues', async () => {
    const r = await service.search({ text: '' });
    expect(r.facets.categories_ids).toEqual({
      type: 'list',
      values: [
        ['accessories', 2],
        ['cases', 2],
        ['phones', 2],
        ['chargers', 1],
      ],
    });
    const one = new SearchService({ catalog, maxFacetValues: 1 });
    const top = await one.search({ text: '' });
    expect(top.facets.categories_ids).toEqual({ type: 'list', values: [['accessories', 2]] });
    expect(top.facets.color).toEqual({ type: 'list', values: [['red', 2]] });
  });

  it('ignores configured facet paths the catalog does not have', async () => {
    const r = await new SearchService({ catalog, facets: ['nope', 'color', 'specs.nope'] }).search({ text: '' });
    expect(Object.keys(r.facets)).toEqual(['color']);
  });

  for (const path of PATHS) {
    for (const direction of ['asc', 'desc'] as const) {
      it(`sorts by ${path}:${direction} (missing values last, ties by id)`, async () => {
        const r = await service.search(all({ text: '', sort: [`${path}:${direction}`] }));
        expect(ids(r)).toEqual(bruteSort(TYPED, path, direction));
      });
    }
  }

  it('puts null values last in both directions, like absent ones', async () => {
    // p4 has price null, p6 categories_ids null.
    expect(ids(await service.search(all({ text: '', sort: ['price:asc'] }))).at(-1)).toBe('p4');
    expect(ids(await service.search(all({ text: '', sort: ['price:desc'] }))).at(-1)).toBe('p4');
    expect(ids(await service.search(all({ text: '', sort: ['categories_ids:desc'] }))).at(-1)).toBe('p6');
  });

  it('sorts by several criteria in turn', async () => {
    const r = await service.search(all({ text: '', sort: ['waterproof:desc', 'price:desc'] }));
    // waterproof true (p5 15, p1 100), then false (p2 200, p4 null), then missing (p6 350, p3 20).
    expect(ids(r)).toEqual(['p1', 'p5', 'p2', 'p4', 'p6', 'p3']);
  });

  it('sorts within the filtered hits and pages after sorting', async () => {
    const r = await service.search({
      text: '',
      filters: { categories_ids: ['cases', 'phones'] },
      sort: ['price:asc'],
      hitsPerPage: 2,
      page: 1,
    });
    expect(ids(r)).toEqual(['p1', 'p2']);
    expect(r).toMatchObject({ totalHits: 4, totalPages: 2, page: 1, hitsPerPage: 2 });
  });

  it('refuses a filter on an unknown field, naming it', async () => {
    const error = await rejected(service, { text: '', filters: { nope: ['x'] } });
    expect(error.message).toMatch(/filters\[nope\]: unknown field nope/);
    expect(error.details).toEqual([{ path: ['filters', 'nope'], message: expect.stringMatching(/unknown field/) }]);
  });

  it('refuses a filter on an object field without a key, and on an absent key', async () => {
    expect((await rejected(service, { text: '', filters: { specs: ['metal'] } })).message).toMatch(/filters\[specs\]: unknown field/);
    expect((await rejected(service, { text: '', filters: { 'specs.color': ['red'] } })).message).toMatch(
      /filters\[specs\.color\]: unknown field/,
    );
  });

  it('refuses a range filter on a field that is not a number, naming field and kind', async () => {
    for (const [field, kind] of [
      ['color', 'string'],
      ['tags', 'string\\[\\]'],
      ['waterproof', 'boolean'],
      ['specs.material', 'string'],
      ['flags.nfc', 'boolean'],
      ['name', 'string'],
    ] as const) {
      const error = await rejected(service, { text: '', filters: { [field]: [{ operator: '>', value: 1 }] } });
      expect(error.message, field).toMatch(
        new RegExp(`filters\\[${field.replace('.', '\\.')}\\]: a range filter needs a number field; .* is ${kind}`),
      );
    }
  });

  it('refuses list values that can never match a number or boolean field, naming the filter', async () => {
    // interfaces.md, Search: a filter "of the wrong kind" is a 400; these would otherwise silently match nothing.
    expect((await rejected(service, { text: '', filters: { weight: ['heavy'] } })).message).toMatch(/filters\[weight\]/);
    expect((await rejected(service, { text: '', filters: { waterproof: ['yes'] } })).message).toMatch(/filters\[waterproof\]/);
    expect((await rejected(service, { text: '', filters: { 'flags.nfc': ['1'] } })).message).toMatch(/filters\[flags\.nfc\]/);
  });

  it('refuses sort on an unknown field or a bare object field, naming sort', async () => {
    for (const sort of ['nope:asc', 'specs:asc', 'dims.depth:desc']) {
      const error = await rejected(service, { text: '', sort: [sort] });
      expect(error.message, sort).toMatch(/sort: unknown field/);
      expect(error.details[0]?.path).toEqual(['sort']);
    }
    expect((await rejected(service, { text: '', sort: ['price:up'] })).message).toMatch(/sort: .*<field>:asc or <field>:desc/);
  });

  it('lists every problem of a query at once', async () => {
    const error = await rejected(service, { text: '', filters: { nope: ['x'], color: [{ operator: '<', value: 2 }] }, sort: ['gone:asc'] });
    expect(error.details.map((d) => formatPath(d.path)).sort()).toEqual(['filters.color', 'filters.nope', 'sort']);
  });

  it('validates the query before anything else, naming the parameter', async () => {
    expect((await rejected(service, { page: 0 } as unknown as SearchQueryInput)).message).toMatch(/text/);
    expect((await rejected(service, { text: '', page: -1 })).message).toMatch(/page/);
    expect((await rejected(service, { text: '', hitsPerPage: 1001 })).message).toMatch(/hitsPerPage/);
    expect((await rejected(service, { text: '', rankingScoreThreshold: 2 })).message).toMatch(/rankingScoreThreshold/);
  });
});

// ---------------------------------------------------------------------------------------------

describe('follows the catalog visible version', () => {
  it('searches nothing before the first sync, then what each sync publishes, with no restart', async () => {
    const catalog = await catalogOf([item('a', 'Alpha phone'), item('b', 'Bravo phone')], { sync: false });
    const service = new SearchService({ catalog });
    expect(await service.search({ text: 'phone' })).toMatchObject({ hits: [], totalHits: 0, totalPages: 0 });
    await catalog.sync();
    expect(ids(await service.search({ text: 'phone' }))).toEqual(['a', 'b']);
  });

  it('does not see writes before sync, and sees them at the next search after sync', async () => {
    const catalog = await catalogOf([item('a', 'Alpha phone'), item('b', 'Bravo phone'), item('c', 'Gamma phone')]);
    const service = new SearchService({ catalog });
    expect(ids(await service.search({ text: 'phone' }))).toEqual(['a', 'b', 'c']);
    await catalog.put(item('d', 'Delta phone'));
    await catalog.put(item('a', 'Alpha tablet'));
    await catalog.delete('b');
    expect(ids(await service.search({ text: 'phone' }))).toEqual(['a', 'b', 'c']);
    expect((await service.search({ text: 'tablet' })).totalHits).toBe(0);
    expect(await service.autocomplete({ query: 'del' })).toEqual({ suggestions: [] });
    await catalog.sync();
    expect(ids(await service.search({ text: 'phone' }))).toEqual(['d', 'c']);
    expect(ids(await service.search({ text: 'tablet' }))).toEqual(['a']);
    expect(await service.autocomplete({ query: 'del' })).toEqual({ suggestions: [{ text: 'Delta phone' }] });
  });

  it('sees a new custom field (filters, facets) only after sync', async () => {
    const catalog = await catalogOf([item('a', 'Alpha', { color: 'red' })]);
    const service = new SearchService({ catalog });
    await service.search({ text: '' });
    await catalog.put(item('b', 'Beta', { size: 'XL' }));
    expect((await rejected(service, { text: '', filters: { size: ['XL'] } })).message).toMatch(/unknown field size/);
    await catalog.sync();
    const r = await service.search({ text: '', filters: { size: ['XL'] } });
    expect(ids(r)).toEqual(['b']);
    expect(r.facets.size).toEqual({ type: 'list', values: [['XL', 1]] });
  });

  it('answers a service created after unsynced writes exactly like one created before them', async () => {
    const catalog = await catalogOf([item('a', 'Alpha', { size: 42 }), item('b', 'Beta', { size: 7 })]);
    const query = { text: '', filters: { size: [{ operator: '>', value: 10 }] } };
    const before = await new SearchService({ catalog }).search(query);
    expect(ids(before)).toEqual(['a']);
    // Unsynced writes: the schema changes (size retyped to string, a new field) but the visible items do not.
    await catalog.deleteSchemaField('size');
    await catalog.put(item('c', 'Gamma', { size: 'XL', color: 'red' }));
    const fresh = new SearchService({ catalog });
    expect(await fresh.search(query)).toEqual(before);
    await expect(fresh.search({ text: '', filters: { color: ['red'] } })).rejects.toThrow(/unknown field color/);
  });

  it('keeps answering from the previous version while the new index is built', async () => {
    let gate: Promise<void> | undefined;
    let release = () => {};
    const embedder: Embedder = {
      async embed(texts) {
        if (gate) await gate;
        return texts.map(bagOfLetters);
      },
    };
    const catalog = await catalogOf([item('a', 'Alpha phone')]);
    const service = new SearchService({ catalog, embedder, searchableFields: ['name'] });
    expect(ids(await service.search({ text: 'phone' }))).toEqual(['a']);
    await catalog.put(item('b', 'Bravo phone'));
    await catalog.sync();
    gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    const first = service.search({ text: 'phone' }); // builds the index of version 2, held at the embedder
    await new Promise((resolve) => setTimeout(resolve, 10));
    const meanwhile = await Promise.race([
      service.search({ text: 'phone' }),
      new Promise((resolve) => setTimeout(() => resolve('blocked'), 1000)),
    ]);
    expect(meanwhile).not.toBe('blocked');
    expect(ids(meanwhile as SearchResponse)).toEqual(['a']);
    release();
    expect(ids(await first)).toEqual(['a', 'b']);
    expect(ids(await service.search({ text: 'phone' }))).toEqual(['a', 'b']);
  });

  describe('with refreshIntervalMs', () => {
    afterEach(() => {
      vi.restoreAllMocks();
    });

    it('serves its index for the interval, then follows the catalog', async () => {
      let now = 1_000_000;
      vi.spyOn(Date, 'now').mockImplementation(() => now);
      const catalog = await catalogOf([item('a', 'Alpha phone')]);
      const service = new SearchService({ catalog, refreshIntervalMs: 60_000 });
      expect(ids(await service.search({ text: 'phone' }))).toEqual(['a']);
      await catalog.put(item('b', 'Bravo phone'));
      await catalog.sync();
      now += 30_000;
      expect(ids(await service.search({ text: 'phone' }))).toEqual(['a']);
      now += 30_001;
      expect(ids(await service.search({ text: 'phone' }))).toEqual(['a', 'b']);
    });
  });
});

// ---------------------------------------------------------------------------------------------

const TEXTS: Item[] = [
  item('t1', 'Samsung Galaxy S7 Case', { brand: 'Samsung', description: 'Slim leather case' }),
  item('t2', 'Apple iPhone 7 Case', { brand: 'Apple', description: 'Protective silicone case for the iPhone' }),
  item('t3', 'Galaxy Buds', { brand: 'Samsung', description: 'Wireless earbuds' }),
  item('t4', 'Charger', { brand: 'Anker', description: 'Fast charger for Samsung Galaxy phones' }),
  item('t5', 'Keyboard', { brand: 'Logi', description: 'Bluetooth keyboard' }),
  item('t6', 'Smartphone Stand', { brand: 'Anker', description: 'Aluminium stand' }),
  item('t7', 'Phone Grip', { brand: 'PopSockets', description: 'Grip for any phone case' }),
  item('t8', 'abc', { brand: 'Test', description: 'prefix test' }),
];

describe('ranking score', () => {
  let service: SearchService;

  beforeAll(async () => {
    service = new SearchService({ catalog: await catalogOf(TEXTS) });
  });

  it('is in [0, 1] for every hit of every query', async () => {
    for (const text of ['galaxy', 'samsung galaxy case', 'gal', 'samsnug', 'case', 'phone case', 'smartfone', 'zzz', 'galaxy zzzz', '']) {
      const r = await service.search(all({ text }));
      for (const h of r.hits) {
        expect(h._rankingScore, `${text} ${h.id}`).toBeGreaterThanOrEqual(0);
        expect(h._rankingScore, `${text} ${h.id}`).toBeLessThanOrEqual(1);
      }
    }
  });

  it('is 1.0 only when the best field equals the query, and for the placeholder search', async () => {
    expect((await service.search(all({ text: 'Samsung Galaxy S7 case' }))).hits[0]).toMatchObject({ id: 't1', _rankingScore: 1 });
    expect((await service.search(all({ text: 'keyboard' }))).hits[0]).toMatchObject({ id: 't5', _rankingScore: 1 });
    for (const h of (await service.search(all({ text: '' }))).hits) expect(h._rankingScore).toBe(1);
    // Every term matched exactly, but not the whole name: less than 1.
    const partial = await service.search(all({ text: 'samsung galaxy case' }));
    expect(partial.hits[0]!.id).toBe('t1');
    expect(partial.hits[0]!._rankingScore).toBeLessThan(1);
    // In the description only: found, below 1.
    const described = (await service.search(all({ text: 'samsung galaxy phones' }))).hits;
    expect(described[0]!.id).toBe('t4');
    expect(described[0]!._rankingScore).toBeLessThan(1);
  });

  it('never increases down the hits (a higher rule outweighs every lower one)', async () => {
    for (const text of ['galaxy ca', 'samsnug galaxy', 'smartfone', 'galaxy zzzz', 'phone case', 'case', 'samsung galaxy case']) {
      const { hits } = await service.search(all({ text }));
      expect(hits.length, text).toBeGreaterThan(0);
      for (let i = 1; i < hits.length; i++) expect(hits[i - 1]!._rankingScore, text).toBeGreaterThanOrEqual(hits[i]!._rankingScore);
    }
  });

  it('is absolute: the same item scores the same whatever the other items', async () => {
    const alone = new SearchService({ catalog: await catalogOf([TEXTS[0]!]) });
    for (const text of ['galaxy', 'galaxy ca', 'samsnug', 'slim leath']) {
      const a = (await alone.search({ text })).hits[0]?._rankingScore;
      const b = (await service.search(all({ text }))).hits.find((h) => h.id === 't1')?._rankingScore;
      expect(a, text).toBeDefined();
      expect(a, text).toBe(b);
    }
  });

  it('ranks a match in a field by its order in searchableFields, or by its boost', async () => {
    const catalog = await catalogOf([item('p', 'Zed', { brand: 'Other' }), item('q', 'Other', { brand: 'Zed' })]);
    expect(ids(await new SearchService({ catalog }).search({ text: 'zed' }))).toEqual(['p', 'q']);
    expect(ids(await new SearchService({ catalog, searchableFields: ['brand', 'name'] }).search({ text: 'zed' }))).toEqual(['q', 'p']);
    expect(ids(await new SearchService({ catalog, boosts: { brand: 3 } }).search({ text: 'zed' }))).toEqual(['q', 'p']);
  });

  it('rankingScoreThreshold excludes lower hits from hits, totals and facets', async () => {
    // t1: galaxy + "c" prefix of case; t4: galaxy + "c" prefix of charger (a longer word, a lower score).
    const full = await service.search(all({ text: 'galaxy c' }));
    expect(new Set(full.hits.map((h) => h._rankingScore)).size).toBeGreaterThan(1);
    for (const threshold of [0, 0.3, 0.79, full.hits[0]!._rankingScore, 0.9, 1]) {
      const r = await service.search(all({ text: 'galaxy c', rankingScoreThreshold: threshold }));
      const kept = full.hits.filter((h) => h._rankingScore >= threshold);
      expect(ids(r), String(threshold)).toEqual(kept.map((h) => h.id));
      expect(r.totalHits).toBe(kept.length);
      const brands = new Map<string, number>();
      for (const h of kept) brands.set(h.brand as string, (brands.get(h.brand as string) ?? 0) + 1);
      const facetBrands = new Map(((r.facets.brand?.values ?? []) as [string, number][]).map(([v, n]) => [v, n]));
      expect(facetBrands, String(threshold)).toEqual(brands);
    }
  });

  it('rankingScoreThreshold equal to a returned _rankingScore keeps that hit', async () => {
    // "a" is a prefix of "abc": not exact, so less than 1.
    const r = await service.search({ text: 'a', filters: { id: ['t8'] } });
    const shown = JSON.parse(JSON.stringify(r.hits[0]!._rankingScore)) as number;
    expect(shown).toBeLessThan(1);
    expect(ids(await service.search({ text: 'a', filters: { id: ['t8'] }, rankingScoreThreshold: shown }))).toEqual(['t8']);
  });

  it('breaks ties by score, then id, deterministically', async () => {
    const twins = [
      item('x-2', 'Twin phone'),
      item('x-10', 'Twin phone'),
      item('x-1', 'Twin phone'),
      item('y-0', 'Twin phones'),
      item('a-9', 'Twin phone'),
    ];
    const s = new SearchService({ catalog: await catalogOf(twins) });
    const first = await s.search(all({ text: 'twin phone' }));
    // Names equal to the query (1.0) by id in code-unit order, then the stem match "phones".
    expect(ids(first)).toEqual(['a-9', 'x-1', 'x-10', 'x-2', 'y-0']);
    expect(first.hits.slice(0, 4).map((h) => h._rankingScore)).toEqual([1, 1, 1, 1]);
    expect(first.hits[4]!._rankingScore).toBeLessThan(1);
    for (let i = 0; i < 3; i++) expect(ids(await s.search(all({ text: 'twin phone' })))).toEqual(ids(first));
    // With a sort criterion, equal sort values are ordered by score, then id.
    expect(ids(await s.search(all({ text: 'twin phone', sort: ['price:asc'] })))).toEqual(ids(first));
  });
});

// ---------------------------------------------------------------------------------------------

describe('typo tolerance and prefix search', () => {
  let service: SearchService;
  const WORDS = ['case', 'phone', 'keyboard', 'smartphone', 'samsung', 'galaxy', 'tablet'];

  beforeAll(async () => {
    service = new SearchService({ catalog: await catalogOf(WORDS.map((w, i) => item(`w${i}`, w))) });
  });

  const found = async (text: string) => (await service.search(all({ text }))).hits.map((h) => h.name);

  it('allows no typo in terms of up to 4 characters, not even a swap, when the term reaches a word', async () => {
    expect(await found('case')).toEqual(['case']);
    expect(await found('cas')).toEqual(['case']); // prefix of the last term
    const decoys = new SearchService({ catalog: await catalogOf([item('a', 'case'), item('b', 'cosec'), item('c', 'csaer')]) });
    const among = async (text: string) => (await decoys.search(all({ text }))).hits.map((h) => h.name);
    expect(await among('cose')).toEqual(['cosec']);
    expect(await among('csae')).toEqual(['csaer']);
  });

  it('allows a term that reaches no word one typo more: one at 4 characters, two from 5 to 8', async () => {
    expect(await found('cose')).toEqual(['case']);
    expect(await found('csae')).toEqual(['case']);
    expect(await found('phmme')).toEqual(['phone']);
    expect(await found('kebyaord')).toEqual(['keyboard']);
    expect(await found('smrtfone')).toEqual([]); // 8 characters, 3 typos
  });

  it('allows one typo from 5 to 8 characters; a swap of adjacent letters is one', async () => {
    expect(await found('phome')).toEqual(['phone']);
    expect(await found('phnoe')).toEqual(['phone']);
    expect(await found('keybaord')).toEqual(['keyboard']);
    expect(await found('samsnug')).toEqual(['samsung']);
    expect(await found('tabelt')).toEqual(['tablet']);
    // Not two, when a word is one typo away.
    const decoys = new SearchService({ catalog: await catalogOf([item('a', 'phone'), item('b', 'phmmes')]) });
    expect((await decoys.search(all({ text: 'phmme' }))).hits.map((h) => h.name)).toEqual(['phmmes']);
  });

  it('allows two typos from 9 characters on, a swap counting as one', async () => {
    expect(await found('smartfone')).toEqual(['smartphone']);
    expect(await found('smratphonex')).toEqual(['smartphone']); // a swap and an insertion
    expect(await found('smratphonexx')).toEqual([]); // three typos
    expect(await found('smrtfone')).toEqual([]); // 8 characters, 3 typos
  });

  it('counts two swaps in a term of 9 characters or more as two typos', async () => {
    expect(await found('smratphoen')).toEqual(['smartphone']);
    expect(await found('smratphoen stand')).toEqual(['smartphone']);
  });

  it('applies typos to terms that are not last too', async () => {
    const s = new SearchService({ catalog: await catalogOf([item('a', 'Samsung Galaxy'), item('b', 'Samsung Nebula')]) });
    // Every term is optional: the item matching both comes first.
    expect(ids(await s.search({ text: 'samsnug galxay' }))).toEqual(['a', 'b']);
    expect(ids(await s.search({ text: 'samsnug' }))).toEqual(['a', 'b']);
  });

  it('matches the last term as a prefix, swaps included', async () => {
    expect(await found('gal')).toEqual(['galaxy']);
    expect(await found('smar')).toEqual(['smartphone']);
    expect(await found('smasu')).toEqual(['samsung']);
  });

  it('allows a substitution in the prefix of the last term, as Meilisearch does', async () => {
    // A substitution or a swap inside the typed prefix counts as one typo.
    expect(await found('sansu')).toEqual(['samsung']);
    expect(await found('smartpj')).toEqual(['smartphone']);
  });
});

// ---------------------------------------------------------------------------------------------

/** A deterministic embedder: counts of the letters a–z. */
function bagOfLetters(text: string): number[] {
  const v = new Array<number>(26).fill(0);
  for (const ch of text.toLowerCase()) {
    const code = ch.charCodeAt(0) - 97;
    if (code >= 0 && code < 26) v[code]! += 1;
  }
  return v;
}

function cosine(a: readonly number[], b: readonly number[]): number {
  let dot = 0;
  let na = 0;
  let nb = 0;
  a.forEach((x, i) => {
    dot += x * b[i]!;
    na += x * x;
    nb += b[i]! * b[i]!;
  });
  return na === 0 || nb === 0 ? 0 : dot / Math.sqrt(na * nb);
}

const HYBRID: Item[] = [
  item('a-bbb', 'apple bbb'),
  item('b-pie', 'apple pie'),
  item('c-pale', 'pale leap pal'),
  item('d-zebra', 'zebra'),
  item('e-xyz', 'xyz qwv'),
];

describe('semanticRatio', () => {
  let calls: (readonly string[])[];
  let embedder: Embedder;
  let catalog: Catalog;
  let hybrid: SearchService;
  let plain: SearchService;

  beforeAll(async () => {
    calls = [];
    embedder = {
      async embed(texts) {
        calls.push([...texts]);
        return texts.map(bagOfLetters);
      },
    };
    catalog = await catalogOf(HYBRID);
    const options: Omit<SearchServiceOptions, 'catalog'> = { searchableFields: ['name'] };
    hybrid = new SearchService({ catalog, embedder, ...options });
    plain = new SearchService({ catalog, ...options });
  });

  /** Expected hits of the documented blend: (1 − r) · keyword + r · max(0, cosine); non-keyword hits join at cosine ≥ 1 − r. */
  async function expected(text: string, r: number): Promise<{ id: string; score: number }[]> {
    const keyword = new Map((await plain.search(all({ text }))).hits.map((h) => [h.id, h._rankingScore]));
    const q = bagOfLetters(text);
    return HYBRID.flatMap((i) => {
      const semantic = Math.max(0, cosine(q, bagOfLetters(i.name as string)));
      const kw = keyword.get(i.id);
      if (kw === undefined && semantic < 1 - r) return [];
      return [{ id: i.id, score: (1 - r) * (kw ?? 0) + r * semantic }];
    }).sort((x, y) => y.score - x.score || (x.id < y.id ? -1 : 1));
  }

  it('embeds the items when a version is indexed and only the query text at search time', async () => {
    await hybrid.search({ text: 'apple', semanticRatio: 0.5 });
    const itemCalls = calls.filter((c) => c.length > 1 || c[0] !== 'apple');
    expect(itemCalls.flat().sort()).toEqual(HYBRID.map((i) => i.name).sort());
    const before = calls.length;
    await hybrid.search({ text: 'apple', semanticRatio: 0.5 });
    await hybrid.search({ text: 'zebra', semanticRatio: 0.2 });
    expect(calls.slice(before)).toEqual([['apple'], ['zebra']]);
  });

  for (const ratio of [0.05, 0.5, 0.7, 1]) {
    it(`blends keyword and vector similarity as documented at ratio ${ratio}`, async () => {
      const r = await hybrid.search(all({ text: 'apple', semanticRatio: ratio }));
      const want = await expected('apple', ratio);
      expect(ids(r)).toEqual(want.map((w) => w.id));
      r.hits.forEach((h, i) => expect(h._rankingScore, h.id).toBeCloseTo(want[i]!.score, 5));
      expect(r.totalHits).toBe(want.length);
    });
  }

  it('changes the ranking: semantic similarity reorders keyword ties and brings in items without keyword match', async () => {
    const keyword = await hybrid.search(all({ text: 'apple' }));
    expect(ids(keyword)).toEqual(['a-bbb', 'b-pie']);
    const blended = await hybrid.search(all({ text: 'apple', semanticRatio: 0.5 }));
    expect(ids(blended)).toEqual(['b-pie', 'a-bbb', 'c-pale']);
    const semantic = await hybrid.search(all({ text: 'apple', semanticRatio: 1 }));
    expect(semantic.totalHits).toBe(HYBRID.length);
    expect(semantic.hits[0]?.id).toBe('c-pale');
  });

  it('at ratio 0 gives the keyword result', async () => {
    expect(await hybrid.search(all({ text: 'apple', semanticRatio: 0 }))).toEqual(await hybrid.search(all({ text: 'apple' })));
  });

  it('applies the threshold to the blended score', async () => {
    const r = await hybrid.search(all({ text: 'apple', semanticRatio: 0.5, rankingScoreThreshold: 0.6 }));
    const want = (await expected('apple', 0.5)).filter((w) => w.score >= 0.6);
    expect(ids(r)).toEqual(want.map((w) => w.id));
  });

  it('without an embedder, is validated and has no effect', async () => {
    for (const semanticRatio of [0, 0.3, 0.5, 1]) {
      for (const text of ['apple', 'zebra', '']) {
        expect(await plain.search(all({ text, semanticRatio })), `${text} ${semanticRatio}`).toEqual(await plain.search(all({ text })));
      }
    }
    for (const semanticRatio of [-0.1, 1.5, 'half']) {
      expect((await rejected(plain, { text: 'apple', semanticRatio })).message).toMatch(/semanticRatio must be a number from 0 to 1/);
      expect((await rejected(hybrid, { text: 'apple', semanticRatio })).message).toMatch(/semanticRatio/);
    }
  });
});

// ---------------------------------------------------------------------------------------------

describe('paging', () => {
  it('pages 0-indexed through every hit exactly once, totalPages = ceil(totalHits / hitsPerPage)', async () => {
    const items = Array.from({ length: 23 }, (_, i) => item(`i${String(i).padStart(2, '0')}`, `Phone ${i % 3 === 0 ? 'case' : 'grip'}`));
    const service = new SearchService({ catalog: await catalogOf(items) });
    for (const hitsPerPage of [1, 5, 7, 23, 50]) {
      const seen: string[] = [];
      const first = await service.search({ text: 'phone', hitsPerPage });
      expect(first.totalPages).toBe(Math.ceil(23 / hitsPerPage));
      for (let page = 0; page < first.totalPages; page++) {
        const r = await service.search({ text: 'phone', hitsPerPage, page });
        expect(r).toMatchObject({ page, hitsPerPage, totalHits: 23, totalPages: first.totalPages });
        expect(r.hits.length).toBe(Math.min(hitsPerPage, 23 - page * hitsPerPage));
        seen.push(...ids(r));
      }
      expect(seen.sort()).toEqual(items.map((i) => i.id));
      const past = await service.search({ text: 'phone', hitsPerPage, page: first.totalPages });
      expect(past).toMatchObject({ hits: [], totalHits: 23, page: first.totalPages });
    }
  });

  it('defaults to page 0 and 20 hits per page', async () => {
    const service = new SearchService({
      catalog: await catalogOf(Array.from({ length: 25 }, (_, i) => item(`i${String(i).padStart(2, '0')}`, 'Phone'))),
    });
    const r = await service.search({ text: '' });
    expect(r).toMatchObject({ page: 0, hitsPerPage: 20, totalHits: 25, totalPages: 2 });
    expect(r.hits).toHaveLength(20);
  });
});

// ---------------------------------------------------------------------------------------------

describe('autocomplete', () => {
  let service: SearchService;

  beforeAll(async () => {
    const items = [
      item('a1', 'Galaxy S7'),
      item('a2', 'galaxy s7'),
      item('a3', 'Galaxy Tab'),
      item('a4', 'Gala Apple case'),
      item('a5', null, { color: 'galaxy' }),
      item('a6', 'Pixel 8'),
      ...Array.from({ length: 120 }, (_, i) => item(`b${String(i).padStart(3, '0')}`, `Galactic ${i}`)),
    ];
    service = new SearchService({ catalog: await catalogOf(items) });
  });

  it('suggests names, best first, without case-insensitive duplicates or empty names', async () => {
    const { suggestions } = await service.autocomplete({ query: 'galaxy', hitsPerPage: 100 });
    // Tied on every rule but bm25, which prefers the shorter name (S7 is two words, s and 7).
    expect(suggestions.map((s) => s.text)).toEqual(['Galaxy Tab', 'Galaxy S7']);
  });

  it('matches the partial last term as a prefix, best match first', async () => {
    const { suggestions } = await service.autocomplete({ query: 'gala' });
    expect(suggestions[0]).toEqual({ text: 'Gala Apple case' });
    expect(suggestions).toHaveLength(10);
    expect(new Set(suggestions.map((s) => s.text.toLowerCase())).size).toBe(10);
  });

  it('gives at most hitsPerPage suggestions: 10 by default, up to 100', async () => {
    expect((await service.autocomplete({ query: 'galac' })).suggestions).toHaveLength(10);
    expect((await service.autocomplete({ query: 'galac', hitsPerPage: 3 })).suggestions).toHaveLength(3);
    expect((await service.autocomplete({ query: 'galac', hitsPerPage: 100 })).suggestions).toHaveLength(100);
    await expect(service.autocomplete({ query: 'galac', hitsPerPage: 101 })).rejects.toThrow(/hits_per_page/);
    await expect(service.autocomplete({ query: 'galac', hitsPerPage: 0 })).rejects.toThrow(/hits_per_page/);
  });

  it('tolerates typos', async () => {
    expect((await service.autocomplete({ query: 'pixle' })).suggestions).toEqual([{ text: 'Pixel 8' }]);
  });

  it('gives nothing for an empty query, and requires query', async () => {
    expect(await service.autocomplete({ query: '' })).toEqual({ suggestions: [] });
    expect(await service.autocomplete({ query: '  ' })).toEqual({ suggestions: [] });
    await expect(service.autocomplete({} as never)).rejects.toBeInstanceOf(ValidationError);
  });
});

// ---------------------------------------------------------------------------------------------

describe('field names of Object.prototype', () => {
  let service: SearchService;
  const items = [
    item('a', 'Oak phone', { constructor: 'oak', toString: 'blue', valueOf: 3 }),
    item('b', 'Pine phone', { constructor: 'pine', valueOf: 5 }),
    item('c', 'Plain phone'),
  ];

  beforeAll(async () => {
    service = new SearchService({ catalog: await catalogOf(items) });
  });

  it('filter, facet and sort like any field', async () => {
    expect(ids(await service.search({ text: '', filters: { constructor: ['oak'] } }))).toEqual(['a']);
    expect(ids(await service.search({ text: '', filters: { toString: ['blue'] } }))).toEqual(['a']);
    expect(ids(await service.search({ text: '', filters: { valueOf: [{ operator: '>', value: 4 }] } }))).toEqual(['b']);
    const r = await service.search({ text: '', sort: ['valueOf:desc'] });
    expect(ids(r)).toEqual(['b', 'a', 'c']);
    expect(r.facets.constructor).toEqual({
      type: 'list',
      values: [
        ['oak', 1],
        ['pine', 1],
      ],
    });
    expect(r.facets.toString).toEqual({ type: 'list', values: [['blue', 1]] });
    expect(ids(await service.search({ text: '', sort: ['constructor:asc'] }))).toEqual(['a', 'b', 'c']);
  });

  it('are searchable text fields that leave the ranking score intact', async () => {
    const r = await service.search({ text: 'phone' });
    expect(ids(r)).toEqual(['a', 'b', 'c']);
    expect(new Set(r.hits.map((h) => h._rankingScore)).size).toBe(1);
    const oak = await service.search({ text: 'oak' });
    expect(ids(oak)).toEqual(['a']);
    expect(ids(await service.search({ text: 'oak', rankingScoreThreshold: oak.hits[0]!._rankingScore }))).toEqual(['a']);
  });

  it('index nothing for items that lack them (not the text of Object.prototype functions)', async () => {
    expect((await service.search({ text: 'native' })).totalHits).toBe(0);
    expect((await service.search({ text: 'function' })).totalHits).toBe(0);
  });
});

describe('SearchService options', () => {
  it('refuses bad options with a TypeError naming them', async () => {
    const catalog = await catalogOf([]);
    expect(() => new SearchService({} as SearchServiceOptions)).toThrow(/SearchService: catalog/);
    expect(() => new SearchService({ catalog, maxFacetValues: 0 })).toThrow(/maxFacetValues/);
    expect(() => new SearchService({ catalog, refreshIntervalMs: -1 })).toThrow(/refreshIntervalMs/);
    expect(() => new SearchService({ catalog, boosts: { name: 0 } })).toThrow(/boosts\.name/);
    expect(() => new SearchService({ catalog, embedder: {} as Embedder })).toThrow(/embedder/);
  });

  it('searches only the configured fields', async () => {
    const catalog = await catalogOf(TEXTS);
    const byName = new SearchService({ catalog, searchableFields: ['name'] });
    expect((await byName.search({ text: 'leather' })).totalHits).toBe(0);
    expect(ids(await new SearchService({ catalog }).search({ text: 'leather' }))).toEqual(['t1']);
  });
});

describe('the HTTP answer text', () => {
  it('is JSON.stringify of the answer, with details, on any page, with an item field named _rankingScore, after a sync', async () => {
    const items = [
      ...TYPED,
      item('s1', 'Alpha Score', { _rankingScore: 'own', color: 'red' }),
      item('s2', 'Alpha Details', { _rankingScoreDetails: 'mine' }),
      item('s3', 'Alpha "quoted" \u2028 name \ud800', { notes: ['a', 'b'] }),
    ];
    const catalog = await catalogOf(items);
    const service = new SearchService({ catalog });
    const queries: SearchQueryInput[] = [
      { text: 'alpha' },
      { text: 'alpha', showRankingScoreDetails: true },
      { text: 'phone', hitsPerPage: 1, page: 1 },
      { text: '' },
      { text: 'nothing-matches-this' },
      { text: 'alpha', filters: { color: ['red'] }, sort: ['price:desc'] },
    ];
    const check = async () => {
      for (const query of queries) {
        const result = JSON.stringify(await service.search(query));
        // Twice: the second answer reads the items' texts kept from the first.
        expect((await service.searchText(query)).text, JSON.stringify(query)).toBe(result);
        const parsed = JSON.parse(result) as SearchResponse;
        expect(await service.searchText(query)).toEqual({
          text: result,
          totalHits: parsed.totalHits,
          ids: parsed.hits.map((h) => h.id),
          page: parsed.page,
          hitsPerPage: parsed.hitsPerPage,
        });
      }
    };
    await check();
    await catalog.batch([{ operation: 'create-replace', product: item('s1', 'Alpha Score renamed', { color: 'red' }) }]);
    await catalog.sync();
    await check();
  });
});
