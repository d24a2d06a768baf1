import fc from 'fast-check';
import { beforeAll, expect, it } from 'vitest';
import { SearchService } from '../../src/index';
import { RANGE_OPERATORS, type RangeOperator } from '../../src/search/query';
import { loadBestBuy, type BestBuyItem } from '../helpers/bestbuy';
import { describeWithBestBuy } from '../helpers/bestbuy-suite';

interface Condition {
  operator: RangeOperator;
  value: number;
}

interface RandomQuery {
  text: string;
  brand?: string[];
  price?: Condition[];
  categories?: string[];
  page: number;
  hitsPerPage: number;
}

function holds(price: number, { operator, value }: Condition): boolean {
  switch (operator) {
    case '>':
      return price > value;
    case '<':
      return price < value;
    case '>=':
      return price >= value;
    case '<=':
      return price <= value;
    case '=':
      return price === value;
  }
}

/** Brute force over the raw items: does an item satisfy every filter of the query? */
function satisfies(item: BestBuyItem, q: RandomQuery): boolean {
  if (q.brand && !q.brand.includes(item.brand)) return false;
  if (q.price && !q.price.every((c) => holds(item.price, c))) return false;
  if (q.categories && !item.categories_ids.some((c) => q.categories!.includes(c))) return false;
  return true;
}

const TEXTS = ['', '', '', 'case', 'samsung galaxy', 'iphon', 'charger usb'];

describeWithBestBuy('property: totals and pages against a brute-force count over the raw Best Buy data', () => {
  let items: readonly BestBuyItem[];
  let service: SearchService;
  /** Ids matching each text with no filter (the text part of the brute force). */
  const textMatches = new Map<string, Set<string>>();
  let query: fc.Arbitrary<RandomQuery>;

  beforeAll(async () => {
    const bb = await loadBestBuy();
    items = bb.items;
    service = new SearchService({ catalog: bb.catalog, facets: ['brand', 'price'], maxFacetValues: 1000 });
    for (const text of new Set(TEXTS)) {
      const r = await service.search({ text, hitsPerPage: 1000 });
      const ids = new Set(r.hits.map((h) => h.id));
      for (let page = 1; page < r.totalPages; page++)
        for (const h of (await service.search({ text, hitsPerPage: 1000, page })).hits) ids.add(h.id);
      expect(ids.size).toBe(r.totalHits);
      textMatches.set(text, ids);
    }
    const brandCounts = new Map<string, number>();
    for (const i of items) brandCounts.set(i.brand, (brandCounts.get(i.brand) ?? 0) + 1);
    const brands = [...brandCounts].sort((a, b) => b[1] - a[1]).map(([b]) => b);
    // Frequent brands, some rare ones, and one that does not exist.
    const brandPool = [...brands.slice(0, 25), ...brands.slice(-5), 'No Such Brand'];
    const categoryCounts = new Map<string, number>();
    for (const i of items) for (const c of new Set(i.categories_ids)) categoryCounts.set(c, (categoryCounts.get(c) ?? 0) + 1);
    const categories = [...categoryCounts].sort((a, b) => b[1] - a[1]).map(([c]) => c);
    const categoryPool = [...categories.slice(0, 30), ...categories.slice(-5), 'no-such-category'];
    const prices = [...new Set(items.map((i) => i.price))];
    const value = fc.oneof(
      fc.constantFrom(...prices),
      fc.integer({ min: 0, max: 900 }),
      fc.double({ min: -10, max: 1000, noNaN: true, noDefaultInfinity: true }),
    );
    const condition = fc.record({ operator: fc.constantFrom(...RANGE_OPERATORS), value });
    // Mostly useful ranges (a lower and an upper bound), sometimes one bound, an exact price, or anything.
    const priceFilter: fc.Arbitrary<Condition[]> = fc.oneof(
      {
        weight: 4,
        arbitrary: fc
          .tuple(fc.constantFrom<RangeOperator>('>', '>='), fc.constantFrom<RangeOperator>('<', '<='), value, value)
          .map(([lo, hi, a, b]) => [
            { operator: lo, value: Math.min(a, b) },
            { operator: hi, value: Math.max(a, b) },
          ]),
      },
      { weight: 2, arbitrary: fc.record({ operator: fc.constantFrom<RangeOperator>('>', '<', '>=', '<='), value }).map((c) => [c]) },
      { weight: 1, arbitrary: fc.constantFrom(...prices).map((v) => [{ operator: '=' as RangeOperator, value: v }]) },
      { weight: 1, arbitrary: fc.array(condition, { minLength: 1, maxLength: 3 }) },
    );
    query = fc.record(
      {
        text: fc.constantFrom(...TEXTS),
        brand: fc.subarray(brandPool, { minLength: 1, maxLength: 6 }),
        price: priceFilter,
        categories: fc.subarray(categoryPool, { minLength: 1, maxLength: 4 }),
        page: fc.oneof(
          { weight: 3, arbitrary: fc.integer({ min: 0, max: 2 }) },
          { weight: 1, arbitrary: fc.integer({ min: 0, max: 200 }) },
        ),
        hitsPerPage: fc.oneof(fc.integer({ min: 1, max: 30 }), fc.integer({ min: 1, max: 1000 })),
      },
      { requiredKeys: ['text', 'page', 'hitsPerPage'] },
    );
  });

  it('totalHits is the brute-force count, totalPages = ceil(totalHits / hitsPerPage), and the page holds min(hitsPerPage, remaining) hits', async () => {
    let runs = 0;
    let nonEmpty = 0;
    let nonEmptyPages = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.constant(null).chain(() => query),
        async (q) => {
          const filters: Record<string, unknown> = {};
          if (q.brand) filters.brand = q.brand;
          if (q.price) filters.price = q.price;
          if (q.categories) filters.categories_ids = q.categories;
          const r = await service.search({ text: q.text, filters, page: q.page, hitsPerPage: q.hitsPerPage });
          const base = textMatches.get(q.text)!;
          const expected = items.filter((i) => base.has(i.id) && satisfies(i, q));
          expect(r.totalHits).toBe(expected.length);
          runs++;
          if (r.totalHits > 0) nonEmpty++;
          if (r.hits.length > 0) nonEmptyPages++;
          expect(r.totalPages).toBe(Math.ceil(r.totalHits / q.hitsPerPage));
          expect(r.hits.length).toBe(Math.max(0, Math.min(q.hitsPerPage, r.totalHits - q.page * q.hitsPerPage)));
          expect(r).toMatchObject({ page: q.page, hitsPerPage: q.hitsPerPage });
          const ok = new Set(expected.map((i) => i.id));
          for (const h of r.hits) expect(ok.has(h.id)).toBe(true);
          // Facets are over the whole result: brand counts sum to totalHits, the price range is the brute one.
          const brandSum = ((r.facets.brand?.values ?? []) as [string, number][]).reduce((s, [, n]) => s + n, 0);
          expect(brandSum).toBe(r.totalHits);
          if (expected.length === 0) expect(r.facets.price).toBeUndefined();
          else
            expect(r.facets.price).toEqual({
              type: 'range',
              values: { min: Math.min(...expected.map((i) => i.price)), max: Math.max(...expected.map((i) => i.price)) },
            });
        },
      ),
      { numRuns: 150 },
    );
    // The generator is not degenerate: many queries match something, some pages hold hits.
    expect(nonEmpty / runs).toBeGreaterThan(0.1);
    expect(nonEmptyPages).toBeGreaterThan(3);
  });

  it('filters commute with paging: the pages of a filtered query partition its hits', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constant(null).chain(() => query),
        fc.integer({ min: 7, max: 400 }),
        async (q, hitsPerPage) => {
          const filters: Record<string, unknown> = {};
          if (q.brand) filters.brand = q.brand;
          if (q.price) filters.price = q.price;
          const first = await service.search({ text: q.text, filters, hitsPerPage });
          const seen = new Set<string>();
          for (let page = 0; page < first.totalPages; page++) {
            for (const h of (await service.search({ text: q.text, filters, hitsPerPage, page })).hits) {
              expect(seen.has(h.id)).toBe(false);
              seen.add(h.id);
            }
          }
          expect(seen.size).toBe(first.totalHits);
        },
      ),
      { numRuns: 40 },
    );
  });
});
