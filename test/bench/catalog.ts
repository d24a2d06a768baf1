/**
 * Catalog batch throughput: 10,000 create-replace operations in the memory adapter, against a
 * baseline measured in the same run: JSON.parse of the same batch body (work any server does).
 */
import { generateProducts } from '../../examples/demo/generate-products';
import { CatalogRegistry, memoryStorage } from '../../src/index';
import { createCatalogHandler } from '../../src/http/catalog';
import { measure, type Row } from './measure';

export async function benchCatalog(): Promise<Row[]> {
  const products = generateProducts(10_000, 7);
  const operations = products.map((product) => ({ operation: 'create-replace' as const, product }));
  const body = JSON.stringify(operations);
  const registry = new CatalogRegistry({ storage: memoryStorage() });
  const { catalog, catalogApiKey } = await registry.create({ identifier: 'bench' });
  const handler = createCatalogHandler({ registry });
  const rows: Row[] = [];
  const baseline = await measure('baseline: JSON.parse of the 10,000-operation body', () => JSON.parse(body), undefined, 3);
  rows.push(baseline);
  rows.push(await measure('catalog.batch, 10,000 create-replace (memory)', () => catalog.batch(operations), baseline, 3));
  // A sync publishes only after a change: change one item each time, so every sync publishes.
  let n = 0;
  rows.push(
    await measure(
      'catalog.put of one item + catalog.sync of 10,000 items (memory)',
      async () => {
        await catalog.put({ ...products[n++ % products.length]!, price: n });
        await catalog.sync();
      },
      baseline,
      3,
    ),
  );
  rows.push(
    await measure(
      'HTTP POST /indexes/catalog/batch, 10,000 operations',
      async () => {
        const res = await handler(
          new Request('http://bench/indexes/catalog/batch', {
            method: 'POST',
            headers: { authorization: `Bearer ${catalogApiKey}` },
            body,
          }),
        );
        if (res.status !== 200) throw new Error(await res.text());
      },
      baseline,
      3,
    ),
  );
  console.log(`(batch body: ${(body.length / 1e6).toFixed(1)} MB; ops/s below are whole batches per second; × 10,000 for operations)`);
  return rows;
}
