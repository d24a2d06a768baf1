import { beforeAll, expect, it } from 'vitest';
import { SearchService, type SearchQueryInput, type SearchResponse } from '../../src/index';
import { loadBestBuy, type BestBuyItem } from '../helpers/bestbuy';
import { describeWithBestBuy } from '../helpers/bestbuy-suite';

/** Lower-case words of a text, split like a tokenizer would. */
function words(text: string): string[] {
  return text
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean);
}

function countBy<T>(values: readonly T[]): Map<T, number> {
  const out = new Map<T, number>();
  for (const v of values) out.set(v, (out.get(v) ?? 0) + 1);
  return out;
}

describeWithBestBuy('search over the 3,291 real Best Buy products, loaded through the catalog and synced', () => {
  let items: readonly BestBuyItem[];
  let byId: Map<string, BestBuyItem>;
  let service: SearchService;
  let wide: SearchService;

  /** Every hit of a query, in order, through pages of 1,000. */
  async function everyHit(s: SearchService, query: Omit<SearchQueryInput, 'page' | 'hitsPerPage'>): Promise<SearchResponse['hits']> {
    const first = await s.search({ ...query, hitsPerPage: 1000 });
    const hits = [...first.hits];
    for (let page = 1; page < first.totalPages; page++) hits.push(...(await s.search({ ...query, hitsPerPage: 1000, page })).hits);
    return hits;
  }

  beforeAll(async () => {
    const bb = await loadBestBuy();
    items = bb.items;
    byId = new Map(items.map((i) => [i.id, i]));
    service = new SearchService({ catalog: bb.catalog });
    // Enough facet values for all 263 brands.
    wide = new SearchService({ catalog: bb.catalog, maxFacetValues: 1000, facets: ['brand', 'categories_ids', 'price', 'popularity'] });
    await service.search({ text: '' });
    await wide.search({ text: '' });
  });

  it('searches every product with the placeholder text', async () => {
    const r = await service.search({ text: '' });
    expect(r).toMatchObject({ totalHits: 3291, totalPages: Math.ceil(3291 / 20), hitsPerPage: 20, page: 0 });
    expect(Object.keys(r.facets).sort()).toEqual(['brand', 'categories_ids', 'description', 'price']);
  });

  it("a brand filter's totals equal the number of items of that brand", async () => {
    const counts = countBy(items.map((i) => i.brand));
    for (const brand of ['Samsung', 'Apple', 'Incipio', 'AT&T GoPhone', 'zNitro', 'OtterBox']) {
      const r = await service.search({ text: '', filters: { brand: [brand] } });
      expect(r.totalHits, brand).toBe(counts.get(brand));
      expect(r.totalPages, brand).toBe(Math.ceil(counts.get(brand)! / 20));
      expect(r.facets.brand, brand).toEqual({ type: 'list', values: [[brand, counts.get(brand)]] });
      expect(r.hits.every((h) => h.brand === brand)).toBe(true);
    }
    const several = await service.search({ text: '', filters: { brand: ['Samsung', 'Apple', 'Incipio'] } });
    expect(several.totalHits).toBe(146 + 165 + 305);
  });

  it('a brand filter combined with a text query counts the matching items of that brand', async () => {
    const r = await service.search({ text: '', filters: { brand: ['Samsung'] } });
    const galaxy = await everyHit(service, { text: 'galaxy', filters: { brand: ['Samsung'] } });
    expect(galaxy.length).toBeGreaterThan(0);
    expect(galaxy.length).toBeLessThanOrEqual(r.totalHits);
    expect(galaxy.every((h) => h.brand === 'Samsung')).toBe(true);
    const unfiltered = await everyHit(service, { text: 'galaxy' });
    expect(galaxy.map((h) => h.id)).toEqual(unfiltered.filter((h) => h.brand === 'Samsung').map((h) => h.id));
  });

  it('a price range >= 100 and < 200 returns only such prices, and its range facet lies inside', async () => {
    const filters = {
      price: [
        { operator: '>=', value: 100 },
        { operator: '<', value: 200 },
      ],
    };
    const inRange = items.filter((i) => i.price >= 100 && i.price < 200);
    const hits = await everyHit(service, { text: '', filters });
    expect(hits.length).toBe(inRange.length);
    expect(hits.every((h) => (h.price as number) >= 100 && (h.price as number) < 200)).toBe(true);
    expect(new Set(hits.map((h) => h.id))).toEqual(new Set(inRange.map((i) => i.id)));
    const r = await service.search({ text: '', filters });
    expect(r.totalHits).toBe(inRange.length);
    const facet = r.facets.price;
    expect(facet?.type).toBe('range');
    const { min, max } = facet!.values as { min: number; max: number };
    expect(min).toBeGreaterThanOrEqual(100);
    expect(max).toBeLessThan(200);
    expect(min).toBe(Math.min(...inRange.map((i) => i.price)));
    expect(max).toBe(Math.max(...inRange.map((i) => i.price)));
  });

  it('facet counts sum correctly: one brand per item, so brand counts sum to totalHits', async () => {
    for (const query of [
      { text: '' },
      { text: 'case' },
      { text: 'samsung galaxy' },
      { text: '', filters: { price: [{ operator: '<', value: 50 }] } },
      { text: 'charger', filters: { categories_ids: ['cell-phone-accessories'] } },
    ]) {
      const r = await wide.search(query);
      const brands = r.facets.brand?.values as [string, number][];
      expect(
        brands.reduce((sum, [, n]) => sum + n, 0),
        JSON.stringify(query),
      ).toBe(r.totalHits);
      // And each count is the brute-force count over every hit.
      const hits = await everyHit(wide, query);
      expect(new Map(brands), JSON.stringify(query)).toEqual(countBy(hits.map((h) => h.brand as string)));
    }
  });

  it('category facet counts are the number of hits in each category', async () => {
    const r = await wide.search({ text: 'iphone' });
    const hits = await everyHit(wide, { text: 'iphone' });
    const expected = countBy(hits.flatMap((h) => [...new Set(h.categories_ids as string[])]));
    expect(new Map(r.facets.categories_ids?.values as [string, number][])).toEqual(expected);
    const all = await wide.search({ text: '' });
    expect((all.facets.categories_ids?.values as [string, number][]).length).toBe(new Set(items.flatMap((i) => i.categories_ids)).size);
  });

  it('by default keeps the 100 most frequent brands, by count then name', async () => {
    const r = await service.search({ text: '' });
    const brands = r.facets.brand?.values as [string, number][];
    expect(brands).toHaveLength(100);
    const ranked = [...countBy(items.map((i) => i.brand))].sort(
      (a, b) => b[1] - a[1] || a[0].toLowerCase().localeCompare(b[0].toLowerCase()),
    );
    expect(brands.map(([, n]) => n)).toEqual(ranked.slice(0, 100).map(([, n]) => n));
    expect(brands.slice(0, 3)).toEqual([
      ['Incipio', 305],
      ['Insignia™', 185],
      ['OtterBox', 175],
    ]);
    // Equal counts by name: Samsung before Speck (146 each).
    expect(brands.findIndex(([b]) => b === 'Samsung')).toBe(brands.findIndex(([b]) => b === 'Speck') - 1);
  });

  it('paging through all pages returns every hit exactly once', async () => {
    for (const [query, hitsPerPage] of [
      [{ text: 'case' }, 37],
      [{ text: '', filters: { brand: ['Incipio', 'Apple'] } }, 100],
      [{ text: 'samsung', sort: ['price:asc'] }, 64],
    ] as const) {
      const first = await service.search({ ...query, hitsPerPage });
      expect(first.totalPages).toBe(Math.ceil(first.totalHits / hitsPerPage));
      const seen: string[] = [];
      for (let page = 0; page < first.totalPages; page++) {
        const r = await service.search({ ...query, hitsPerPage, page });
        expect(r.hits.length).toBe(Math.min(hitsPerPage, first.totalHits - page * hitsPerPage));
        seen.push(...r.hits.map((h) => h.id));
      }
      expect(seen.length).toBe(first.totalHits);
      expect(new Set(seen).size).toBe(first.totalHits);
      // The pages are slices of one order.
      expect(seen).toEqual((await everyHit(service, query)).map((h) => h.id));
    }
  });

  it('sort=price:asc is ordered (and price:desc), equal prices by relevance', async () => {
    for (const query of [{ text: '' }, { text: 'otterbox' }, { text: '', filters: { brand: ['Apple'] } }]) {
      const asc = await everyHit(service, { ...query, sort: ['price:asc'] });
      expect(asc.length).toBeGreaterThan(1);
      for (let i = 1; i < asc.length; i++) {
        const [a, b] = [asc[i - 1]!, asc[i]!];
        expect(a.price as number).toBeLessThanOrEqual(b.price as number);
        if (a.price === b.price) expect(a._rankingScore).toBeGreaterThanOrEqual(b._rankingScore);
      }
      const desc = await everyHit(service, { ...query, sort: ['price:desc'] });
      for (let i = 1; i < desc.length; i++) expect(desc[i - 1]!.price as number).toBeGreaterThanOrEqual(desc[i]!.price as number);
    }
    const cheapest = await service.search({ text: '', sort: ['price:asc'], hitsPerPage: 1 });
    expect(cheapest.hits[0]?.price).toBe(Math.min(...items.map((i) => i.price)));
  });

  it('a query with one typo ("samsnug") still finds the Samsung products', async () => {
    const hits = await everyHit(service, { text: 'samsnug' });
    const mentioning = items.filter((i) => words(`${i.name} ${i.description}`).includes('samsung'));
    expect(mentioning.length).toBeGreaterThan(600);
    const found = new Set(hits.map((h) => h.id));
    for (const i of mentioning) expect(found.has(i.id), i.id).toBe(true);
    // Every Samsung-brand product is among them.
    expect(hits.filter((h) => h.brand === 'Samsung').length).toBe(146);
    expect(words(hits[0]!.name as string)).toContain('samsung');
    for (const h of hits) {
      expect(h._rankingScore).toBeGreaterThan(0);
      expect(h._rankingScore).toBeLessThan(1);
    }
  });

  it('autocomplete of "gala" suggests Galaxy products', async () => {
    const { suggestions } = await service.autocomplete({ query: 'gala' });
    expect(suggestions.length).toBeGreaterThan(0);
    expect(suggestions.length).toBeLessThanOrEqual(10);
    const texts = suggestions.map((s) => s.text);
    expect(new Set(texts.map((t) => t.toLowerCase())).size).toBe(texts.length);
    const names = new Set(items.map((i) => i.name));
    for (const t of texts) expect(names.has(t), t).toBe(true);
    const galaxy = texts.filter((t) => /\bgalaxy\b/i.test(t));
    expect(galaxy.length).toBeGreaterThanOrEqual(texts.length / 2);
    // Every suggestion's item has a word starting with "gala" in its searched text.
    for (const t of texts) {
      const item = items.find((i) => i.name === t)!;
      expect(
        words(`${item.name} ${item.description}`).some((w) => w.startsWith('gala')),
        t,
      ).toBe(true);
    }
    expect(
      (await service.autocomplete({ query: 'gala', hitsPerPage: 50 })).suggestions.filter((s) => /galaxy/i.test(s.text)).length,
    ).toBeGreaterThan(25);
  });

  it('ranks products matching both terms first, with scores in [0, 1] that never increase down the list', async () => {
    const hits = await everyHit(service, { text: 'samsung galaxy' });
    expect(hits.length).toBeGreaterThan(0);
    let seenPartial = false;
    for (const h of hits) {
      expect(h._rankingScore).toBeGreaterThanOrEqual(0);
      expect(h._rankingScore).toBeLessThanOrEqual(1);
      const item = byId.get(h.id)!;
      const w = words(`${item.name} ${item.description} ${item.brand} ${item.categories_ids.join(' ')}`);
      const both = w.includes('samsung') && w.includes('galaxy');
      if (!both) seenPartial = true;
      else expect(seenPartial, `${h.id} matches both terms but comes after a partial match`).toBe(false);
      // No field of these products is exactly "samsung galaxy": nothing is a perfect match.
      expect(h._rankingScore).toBeLessThan(1);
    }
    expect(seenPartial).toBe(true);
    for (let i = 1; i < hits.length; i++) expect(hits[i - 1]!._rankingScore).toBeGreaterThanOrEqual(hits[i]!._rankingScore);
  });

  it('"galaxy case" at rankingScoreThreshold 0.9 keeps fewer hits than at 0, in totals and facets', async () => {
    const loose = await wide.search({ text: 'galaxy case', rankingScoreThreshold: 0 });
    const strict = await wide.search({ text: 'galaxy case', rankingScoreThreshold: 0.9 });
    expect(strict.totalHits).toBeGreaterThan(0);
    expect(strict.totalHits).toBeLessThan(loose.totalHits);
    expect(((strict.facets.brand?.values ?? []) as [string, number][]).reduce((sum, [, n]) => sum + n, 0)).toBe(strict.totalHits);
    // Scores differ (the old formula gave 422 hits 1.000), and no product is named just "galaxy case".
    const top = await everyHit(service, { text: 'galaxy case' });
    expect(new Set(top.slice(0, 50).map((h) => h._rankingScore)).size).toBeGreaterThan(1);
    expect(top.filter((h) => h._rankingScore === 1)).toEqual([]);
  });

  it('rankingScoreThreshold keeps exactly the hits scoring at least the threshold, in totals and facets too', async () => {
    const hits = await everyHit(wide, { text: 'otterbox def' });
    for (const threshold of [0.5, 0.85, 0.9, 1]) {
      const kept = hits.filter((h) => h._rankingScore >= threshold + 1e-6);
      const r = await wide.search({ text: 'otterbox def', rankingScoreThreshold: threshold, hitsPerPage: 1000 });
      for (const h of kept) expect(r.hits.some((x) => x.id === h.id)).toBe(true);
      for (const h of r.hits) expect(h._rankingScore).toBeGreaterThanOrEqual(threshold - 1e-6);
      expect(r.totalHits).toBe(r.hits.length);
      expect(((r.facets.brand?.values ?? []) as [string, number][]).reduce((sum, [, n]) => sum + n, 0)).toBe(r.totalHits);
    }
  });
});
