/**
 * Search latency on the 3,291 real Best Buy products, with and without facets, against bare
 * MiniSearch running the same text queries over the same documents in the same run.
 */
import MiniSearch from 'minisearch';
import { SearchService } from '../../src/index';
import { loadBestBuy, readBestBuyProducts } from '../helpers/bestbuy';
import type { Row } from './measure';

const QUERIES = ['samsung galaxy', 'iphone case', 'samsnug', 'otterbox defender', 'charger usb', 'screen protector glass', 'gala', 'unlocked'];

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

async function latency(name: string, run: (q: string) => unknown, rounds = 60): Promise<Row & { p50: number; p99: number }> {
  for (const q of QUERIES) await run(q);
  const times: number[] = [];
  for (let r = 0; r < rounds; r++) {
    for (const q of QUERIES) {
      const t = performance.now();
      await run(q);
      times.push(performance.now() - t);
    }
  }
  times.sort((a, b) => a - b);
  const p50 = percentile(times, 50);
  return { name, opsPerSec: 1000 / p50, p50, p99: percentile(times, 99) };
}

export async function benchSearch(): Promise<Row[]> {
  const data = readBestBuyProducts();
  const { catalog } = await loadBestBuy();
  const faceted = new SearchService({ catalog, facets: ['brand', 'categories_ids', 'price'] });
  const plain = new SearchService({ catalog, facets: [] });
  await faceted.search({ text: '' });
  await plain.search({ text: '' });
  const mini = new MiniSearch({ fields: ['name', 'brand'], idField: 'id' });
  mini.addAll(data.map((p, i) => ({ id: i, name: p.name, brand: p.brand })));
  const baseline = await latency('baseline: bare MiniSearch, same text, prefix + fuzzy 0.2', (q) =>
    mini.search(q, { prefix: true, fuzzy: 0.2, combineWith: 'AND' }).slice(0, 20),
  );
  const rows = [
    baseline,
    await latency('SearchService, text only (no facets), page of 20', (q) => plain.search({ text: q })),
    await latency('SearchService, text + 3 facets (brand, categories_ids, price)', (q) => faceted.search({ text: q })),
    await latency('SearchService, text + brand filter + price range + sort + facets', (q) =>
      faceted.search({ text: q, filters: { brand: ['Samsung', 'OtterBox', 'Apple'], price: [{ operator: '<', value: 300 }] }, sort: ['price:asc'] }),
    ),
  ];
  for (const r of rows) {
    r.ratio = baseline.p50 / r.p50;
    console.log(`${r.name.padEnd(78)} p50 ${r.p50.toFixed(3)} ms  p99 ${r.p99.toFixed(3)} ms  (p50 ${ (r.p50 / baseline.p50).toFixed(2)} × baseline)`);
  }
  return rows;
}
