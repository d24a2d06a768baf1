/**
 * Facets and sorts over fields few items have (interfaces.md, Search): counted from the postings
 * when those are shorter than the matches, without per-item arrays for a rare path, and left out
 * when no matching item has a value. Then the object keys an index leaves out beyond its limit,
 * and a field of its own named like an object key (stored before writes refused it).
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { CatalogRegistry, memoryStorage, SearchService, ValidationError, type SearchResponse } from '../../src/index';
import { RARE_PATH_SHARE } from '../../src/search/path-index';
import { MAX_OBJECT_KEY_PATHS, SearchIndex } from '../../src/search/search-index';
import { Analyzer } from '../../src/search/analysis';
import type { CatalogItem } from '../../src/storage/catalog';

import { catalogOf, item, type Item } from '../helpers/search';

const pad = (i: number) => String(i).padStart(4, '0');

// 300 items; brand and stock on all, the others on a few (under 1 in 16: no per-item arrays).
const ITEMS: Item[] = Array.from({ length: 300 }, (_, i) =>
  item(`p${pad(i)}`, {
    name: i % 3 === 0 ? `Galaxy phone ${i}` : `Case ${i}`,
    brand: ['Acme', 'Zeta', 'beta'][i % 3],
    stock: i % 17,
    ...(i % 60 === 7 ? { engraving: i % 120 === 7 ? 'Gold' : 'silver' } : {}),
    ...(i % 50 === 3 ? { bundle: ['charger', i % 100 === 3 ? 'case' : 'cable'] } : {}),
    ...(i % 70 === 5 ? { refurbished: i % 140 === 5 } : {}),
    ...(i % 45 === 0 ? { weight: 100 + (i % 7) * 10 } : {}),
    ...(i % 40 === 1 ? { ports: { usb: i % 4 }, labels: { port: 'usb-c' } } : {}),
  }),
);
const PATHS = ['brand', 'stock', 'engraving', 'bundle', 'refurbished', 'weight', 'ports.usb', 'labels.port'];
const NUMBERS = new Set(['stock', 'weight', 'ports.usb']);

function valuesAt(i: Item, path: string): unknown[] {
  const [field, key] = path.split('.') as [string, string | undefined];
  const v = key === undefined ? i[field] : (i[field] as Record<string, unknown> | undefined)?.[key];
  return v === undefined || v === null ? [] : Array.isArray(v) ? v : [v];
}

function brute(items: readonly Item[], path: string) {
  if (NUMBERS.has(path)) {
    const values = items.flatMap((i) => valuesAt(i, path) as number[]);
    return values.length === 0 ? undefined : { type: 'range', values: { min: Math.min(...values), max: Math.max(...values) } };
  }
  const counts = new Map<unknown, number>();
  for (const i of items) for (const v of new Set(valuesAt(i, path))) counts.set(v, (counts.get(v) ?? 0) + 1);
  if (counts.size === 0) return undefined;
  const values = [...counts].sort(
    (a, b) =>
      b[1] - a[1] ||
      (String(a[0]).toLowerCase() < String(b[0]).toLowerCase() ? -1 : String(a[0]).toLowerCase() > String(b[0]).toLowerCase() ? 1 : 0) ||
      (String(a[0]) < String(b[0]) ? -1 : 1),
  );
  return { type: 'list', values };
}

describe('facets and sorts over rare fields', () => {
  let service: SearchService;
  let defaults: SearchService;
  beforeAll(async () => {
    const catalog = await catalogOf(ITEMS);
    service = new SearchService({ catalog, facets: PATHS, maxFacetValues: 1000 });
    defaults = new SearchService({ catalog });
  });

  it('keeps no per-item arrays for a path under 1 in 16 items, and some for the others', async () => {
    const index = await SearchIndex.build(1, ITEMS as unknown as CatalogItem[], {}, new Analyzer());
    for (const path of PATHS) {
      const holders = ITEMS.filter((i) => valuesAt(i, path).length > 0).length;
      const rare = !['brand', 'stock'].includes(path);
      expect(holders * RARE_PATH_SHARE < ITEMS.length, path).toBe(rare);
      const p = index.paths.get(path)!;
      expect(p.offsets ?? p.first, path).toEqual(rare ? undefined : expect.anything());
    }
  });

  it('facets every path as the brute force does, whatever the matches (all, a few, none)', async () => {
    const queries = [
      { text: '' },
      { text: 'galaxy' },
      { text: '', filters: { brand: ['beta'] } },
      { text: '', filters: { engraving: ['silver'] } },
      { text: 'case', filters: { stock: [{ operator: '<' as const, value: 3 }] } },
      { text: 'nothing-matches-this' },
    ];
    for (const query of queries) {
      const r = await service.search({ ...query, hitsPerPage: 1000 });
      const hits = new Set(r.hits.map((h) => h.id));
      const matching = ITEMS.filter((i) => hits.has(i.id));
      expect(matching.length).toBe(r.totalHits);
      for (const path of PATHS) expect(r.facets[path], `${JSON.stringify(query)} ${path}`).toEqual(brute(matching, path));
      // Only the facets having values: nothing else.
      expect(Object.keys(r.facets).sort()).toEqual(PATHS.filter((p) => brute(matching, p) !== undefined).sort());
    }
  });

  it('keeps the first maxFacetValues values of the full order, counts and ties by value alike', async () => {
    // A value per item on some, shared on others: many ties on the count, cases differing.
    const items = Array.from({ length: 240 }, (_, i) =>
      item(`q${pad(i)}`, { name: `Case ${i % 7}`, note: i % 3 === 0 ? `Note ${i % 11}` : i % 2 === 0 ? `note ${i}` : `NOTE ${239 - i}` }),
    );
    const catalog = await catalogOf(items);
    const all = new SearchService({ catalog, facets: ['note'], maxFacetValues: 1000 });
    for (const text of ['', 'case', 'case 3']) {
      const full = (await all.search({ text })).facets.note;
      for (const k of [1, 2, 7, 50]) {
        const capped = await new SearchService({ catalog, facets: ['note'], maxFacetValues: k }).search({ text });
        expect(capped.facets.note, `${text} ${k}`).toEqual(full?.type === 'list' ? { ...full, values: full.values.slice(0, k) } : full);
      }
    }
  });

  it('by default answers no facet for a field no matching item has', async () => {
    const r = await defaults.search({ text: '', filters: { brand: ['Zeta'] } });
    const matching = ITEMS.filter((i) => i.brand === 'Zeta');
    expect(Object.keys(r.facets).sort()).toEqual(
      ['brand', 'price', ...['bundle', 'engraving', 'refurbished'].filter((p) => brute(matching, p))].sort(),
    );
    const none = await defaults.search({ text: 'nothing-matches-this' });
    expect(none.facets).toEqual({});
  });

  it('sorts by a rare number path as by a common one: missing values last', async () => {
    for (const direction of ['asc', 'desc'] as const) {
      const r: SearchResponse = await service.search({ text: '', sort: [`weight:${direction}`], hitsPerPage: 1000 });
      const withWeight = ITEMS.filter((i) => typeof i.weight === 'number').sort(
        (a, b) => ((a.weight as number) - (b.weight as number)) * (direction === 'asc' ? 1 : -1) || (a.id < b.id ? -1 : 1),
      );
      expect(r.hits.slice(0, withWeight.length).map((h) => h.id)).toEqual(withWeight.map((i) => i.id));
      expect(r.hits.slice(withWeight.length).every((h) => h.weight === undefined)).toBe(true);
    }
  });
});

describe(`object keys: at most ${MAX_OBJECT_KEY_PATHS} indexed, those the most items hold`, () => {
  it('filters on the kept keys, and names the limit for a key left out', async () => {
    const n = MAX_OBJECT_KEY_PATHS + 100;
    const catalog = await catalogOf(
      Array.from({ length: n }, (_, i) => item(`p${pad(i)}`, { attrs: { shared: 'yes', [`k${pad(i)}`]: 'x' } })),
    );
    const service = new SearchService({ catalog });
    expect((await service.search({ text: '', filters: { 'attrs.shared': ['yes'] } })).totalHits).toBe(n);
    expect((await service.search({ text: '', filters: { 'attrs.k0000': ['x'] } })).totalHits).toBe(1);
    const error = await service.search({ text: '', filters: { [`attrs.k${pad(n - 1)}`]: ['x'] } }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ValidationError).message).toBe(
      `filters[attrs.k${pad(n - 1)}]: unknown field attrs.k${pad(n - 1)} (the catalog's object fields hold ${n + 1} keys; search indexes the ${MAX_OBJECT_KEY_PATHS} the most items hold)`,
    );
  });
});

describe('a field of its own named like an object key (stored before writes refused it)', () => {
  it('keeps the path field.key: filters and facets read the field of its own, whatever the order', async () => {
    const storage = memoryStorage();
    const { catalog } = await new CatalogRegistry({ storage }).create({ identifier: 'shop' });
    // Straight to the store, as an older version accepted them.
    await storage.catalogs.applyBatch(
      'shop',
      [
        { name: 'dims', type: 'object<number>' },
        { name: 'dims.w', type: 'string' },
      ],
      [
        { op: 'put', item: item('a', { dims: { w: 7 } }) },
        { op: 'put', item: item('b', { 'dims.w': 'wide' }) },
      ],
      0,
    );
    await catalog.sync();
    const service = new SearchService({ catalog, facets: ['dims.w'] });
    const r = await service.search({ text: '', filters: { 'dims.w': ['wide'] } });
    expect(r.hits.map((h) => h.id)).toEqual(['b']);
    expect(r.facets['dims.w']).toEqual({ type: 'list', values: [['wide', 1]] });
  });
});
