/**
 * Issue 23, defect 4: a catalog's schema and items are bounded at write time, and a search's
 * answer by what the matching items hold. Asserted by counting stored items, schema fields and
 * answer bytes, never time.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { MAX_SCHEMA_FIELDS } from '../../src/catalog/catalog';
import { MAX_ITEM_FIELDS, MAX_ITEM_SIZE } from '../../src/catalog/typing';
import { CATALOG_KEY, item, stack } from '../helpers/stack';

const figures: string[] = [];
afterAll(() => console.log(`\n${figures.join('\n')}\n`));

/** `n` fields `${prefix}${i}` whose values are `width` characters long. */
const wide = (n: number, prefix: string, width: number) =>
  Object.fromEntries(Array.from({ length: n }, (_, i) => [`${prefix}${i}`, `${prefix}${i}-`.padEnd(width, 'v')]));
const customFields = async (s: Awaited<ReturnType<typeof stack>>) => (await s.catalog.schema()).fields.filter((f) => !f.standard).length;

describe('catalog limits (issue 23, defect 4)', () => {
  it("the issue's 10 items × 3,000 fields batch is refused before anything is stored", async () => {
    const s = await stack();
    const before = { items: await s.catalog.count(), fields: await customFields(s) };
    const body = JSON.stringify(
      Array.from({ length: 10 }, (_, i) => ({ operation: 'create-replace', product: item(`w${i}`, wide(3000, 'f', 8)) })),
    );
    const res = await s.call('POST', '/indexes/catalog/batch', { token: CATALOG_KEY, body });
    expect(res.status).toBe(400);
    const answer = (await res.json()) as { details: { index: number; reason: string }[] };
    expect(answer.details.map((d) => d.index)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    expect(answer.details[0]!.reason).toContain(`the limit is ${MAX_ITEM_FIELDS}`);
    expect(await s.catalog.count()).toBe(before.items);
    expect(await customFields(s)).toBe(before.fields);
    figures.push(
      `STRESS catalog limits: the ${(body.length / 1024).toFixed(0)} KB batch of 10 items x 3,000 fields: 400, ${await s.catalog.count()} items and ${await customFields(s)} custom field(s) stored (as before)`,
    );
  });

  it('with a catalog at the limits, answers hold only the facets of the matching items', async () => {
    const s = await stack();
    // Items at the limits: 500 fields and about 100,000 characters each, and 1,000 custom fields in all.
    const STANDARD = Object.keys(item('x')).length;
    const per = MAX_ITEM_FIELDS - STANDARD;
    const width = Math.floor(MAX_ITEM_SIZE / MAX_ITEM_FIELDS) - 12;
    const products: Record<string, unknown>[] = [];
    for (let created = await customFields(s), k = 0; created < MAX_SCHEMA_FIELDS; k++) {
      const n = Math.min(per, MAX_SCHEMA_FIELDS - created);
      products.push(item(`wide${k}`, { ...wide(n, `g${k}_`, width), name: `Wide ${k}` }));
      created += n;
    }
    for (const product of products) expect(JSON.stringify(product).length).toBeLessThanOrEqual(MAX_ITEM_SIZE);
    const res = await s.call('POST', '/indexes/catalog/batch', {
      token: CATALOG_KEY,
      body: products.map((product) => ({ operation: 'create-replace', product })),
    });
    expect(res.status).toBe(200);
    expect(await customFields(s)).toBe(MAX_SCHEMA_FIELDS);
    // One field more is refused.
    const over = await s.call('PUT', '/indexes/catalog/extra', { token: CATALOG_KEY, body: item('extra', { one_more: 'x' }) });
    expect(over.status).toBe(400);
    await s.call('POST', '/indexes/catalog/sync', { token: CATALOG_KEY });

    // A search the wide items do not match: the facets of its own matches only.
    const narrow = await (await s.call('GET', '/search?text=item&hitsPerPage=20')).text();
    const parsed = JSON.parse(narrow) as { hits: unknown[]; facets: Record<string, unknown>; totalHits: number };
    expect(parsed.totalHits).toBe(50);
    expect(Object.keys(parsed.facets).sort()).toEqual(['brand', 'price']);
    const hitsBytes = JSON.stringify(parsed.hits).length;
    expect(narrow.length - hitsBytes).toBeLessThan(1024);
    // Before: 1,000 empty facets of ~40 characters each.
    const emptyFacets = JSON.stringify(
      Object.fromEntries(Array.from({ length: MAX_SCHEMA_FIELDS }, (_, i) => [`g0_${i}`, { type: 'list', values: [] }])),
    ).length;

    // Every item: hits of at most 100,000 characters each, and facets no longer than the matching items' values.
    const whole = await (await s.call('GET', '/search?text=&hitsPerPage=1000')).text();
    const all = JSON.parse(whole) as { hits: Record<string, unknown>[]; facets: Record<string, { values: unknown[] }> };
    expect(all.hits.length).toBe(50 + products.length);
    for (const hit of all.hits) expect(JSON.stringify(hit).length).toBeLessThanOrEqual(MAX_ITEM_SIZE + 40);
    const facetBytes = JSON.stringify(all.facets).length;
    const itemBytes = all.hits.reduce((sum, h) => sum + JSON.stringify(h).length, 0);
    const facetValues = Object.values(all.facets).reduce((sum, f) => sum + (Array.isArray(f.values) ? f.values.length : 1), 0);
    expect(facetBytes).toBeLessThanOrEqual(itemBytes + 40 * Object.keys(all.facets).length + 12 * facetValues);
    expect(whole.length).toBeLessThanOrEqual(all.hits.length * (MAX_ITEM_SIZE + 40) + facetBytes + 200);
    figures.push(
      `STRESS catalog limits: ${products.length} items at ${MAX_ITEM_FIELDS} fields / ~${MAX_ITEM_SIZE.toLocaleString('en-US')} characters, ${MAX_SCHEMA_FIELDS} custom fields: a search they do not match answers ${narrow.length} bytes (${narrow.length - hitsBytes} beside its 20 hits; 1,000 empty facets would add ${emptyFacets}); a placeholder search of every item ${whole.length} bytes, facets ${facetBytes} of them`,
    );
  });
});
