import { beforeAll, expect, it } from 'vitest';
import { CatalogRegistry, memoryStorage, type BatchOperation, type Catalog, type CatalogItem } from '../../src/index';
import { readBestBuyProducts, toItem as baseItem, type BestBuyProduct } from '../helpers/bestbuy';
import { describeWithBestBuy } from '../helpers/bestbuy-suite';

/** The shared mapping (test/helpers/bestbuy.ts), plus the category path as a string[] custom field. */
function toItem(product: BestBuyProduct, index: number): Record<string, unknown> {
  return { ...baseItem(product, index), categories: product.categories };
}

describeWithBestBuy('the 3,291 Best Buy cell phone products', () => {
  let products: BestBuyProduct[];
  let catalog: Catalog;
  let visible: readonly CatalogItem[];

  beforeAll(async () => {
    products = readBestBuyProducts();
    const registry = new CatalogRegistry({ storage: memoryStorage() });
    ({ catalog } = await registry.create({ identifier: 'bestbuy' }));
    const operations: BatchOperation[] = products.map((p, i) => ({ operation: 'create-replace', product: toItem(p, i) }));
    const body = JSON.stringify(operations);
    const result = await catalog.batch(operations, { sizeBytes: new TextEncoder().encode(body).length });
    expect(result).toEqual({ accepted: 3291, upserted: 3291, deleted: 0 });
    expect((await catalog.visible()).items).toHaveLength(0);
    expect(await catalog.sync()).toMatchObject({ version: 1, count: 3291 });
    visible = (await catalog.visible()).items;
  });

  it('reads the file from ../shared/data', () => {
    expect(products).toHaveLength(3291);
  });

  it('are all visible after one batch and one sync', async () => {
    expect(visible).toHaveLength(3291);
    expect(await catalog.count()).toBe(3291);
    expect(new Set(visible.map((i) => i.id)).size).toBe(3291);
  });

  it('type the custom fields by their values', async () => {
    const custom = Object.fromEntries((await catalog.schema()).fields.filter((f) => !f.standard).map((f) => [f.name, f.type]));
    expect(custom).toEqual({ brand: 'string', categories: 'string[]', description: 'string', popularity: 'number' });
  });

  it('keep every product as sent (spot checks)', async () => {
    const first = await catalog.get('bb-0');
    expect(first).toMatchObject({
      name: 'AT&T GoPhone - Samsung Galaxy Express 3 4G LTE with 8GB Memory Prepaid Cell Phone',
      brand: 'AT&T GoPhone',
      categories: ['Cell Phones', 'Prepaid Phones', 'All Prepaid Phones'],
      categories_ids: ['cell-phones', 'prepaid-phones', 'all-prepaid-phones'],
      price: 49.99,
      img_link: 'https://cdn-demo.algolia.com/bestbuy-0118/4984700_sb.jpg',
      popularity: 21449,
      is_recommendable: true,
    });
    const last = visible.find((i) => i.id === 'bb-3290');
    expect(last).toMatchObject({
      brand: 'zNitro',
      price: 29.99,
      popularity: 3,
      name: 'zNitro - Screen Protector for Samsung Galaxy S III - White',
    });
    for (const index of [1, 100, 1234, 2500]) {
      expect(await catalog.get(`bb-${index}`)).toEqual(toItem(products[index]!, index));
    }
  });

  it('keep the brand distribution of the source', () => {
    const count = (brand: string) => visible.filter((i) => i.brand === brand).length;
    expect(new Set(visible.map((i) => i.brand)).size).toBe(263);
    expect(count('Incipio')).toBe(305);
    expect(count('Apple')).toBe(165);
    expect(count('Samsung')).toBe(146);
  });

  it('link analytics events through their keys', async () => {
    const found = await catalog.linkEvent({ name: 'purchase', properties: { product_ids: ['bb-7', 'bb-3000'] } });
    expect(found.map((i) => i.id).sort()).toEqual(['bb-3000', 'bb-7']);
    expect((await catalog.linkEvent({ name: 'pageview', properties: { path: '/p/bb-42' } })).map((i) => i.id)).toEqual(['bb-42']);
  });

  it('then reject a product whose popularity is not a number, naming it', async () => {
    const bad = { ...toItem(products[0]!, 0), id: 'bb-bad', popularity: 'high' };
    await expect(catalog.put(bad)).rejects.toMatchObject({
      problems: [{ index: 0, id: 'bb-bad', field: 'popularity', expected: 'number', actual: 'string' }],
    });
  });
});
