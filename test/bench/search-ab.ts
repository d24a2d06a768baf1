/**
 * A/B search latency of this checkout against another one (`BASE`, the path of its src/index.ts,
 * e.g. a worktree of main): the same Best Buy products (repeated `COPIES` times under new ids), the
 * judged Best Buy queries and a few common and typo'd ones, each service with its defaults, the two
 * alternated query by query (which one runs first rotates), `ROUNDS` rounds; per query the median,
 * then their sum and median. Run beside the benchmark, not in it: it needs a second checkout.
 *
 * ```sh
 * BASE=../main/src/index.ts npx tsx test/bench/search-ab.ts
 * ```
 */
import { resolve } from 'node:path';
import * as here from '../../src/index';
import { loadBestBuy, toItem } from '../helpers/bestbuy';
import { readJudgedQueries } from './relevance-judgments';
import { median } from './relevance-metrics';

type Lib = typeof here;
const base = process.env.BASE;
if (!base) throw new Error("BASE must name the other checkout's src/index.ts");
const other = (await import(resolve(base))) as Lib;
const copies = Number(process.env.COPIES ?? 1);
const rounds = Number(process.env.ROUNDS ?? 15);
const { products } = await loadBestBuy();

async function serviceOf(lib: Lib): Promise<here.SearchService> {
  const { catalog } = await new lib.CatalogRegistry({ storage: lib.memoryStorage() }).create({ identifier: 'ab' });
  const ops = Array.from({ length: copies }, (_, c) =>
    products.map((p, i) => ({ operation: 'create-replace' as const, product: { ...toItem(p, i), id: `${c}-${i}` } })),
  ).flat();
  for (let i = 0; i < ops.length; i += 1000) await catalog.batch(ops.slice(i, i + 1000));
  await catalog.sync();
  return new lib.SearchService({ catalog });
}

const queries = [...readJudgedQueries().map((q) => q.query), 'phone', 'cell phone', 'apple iphone', 'gala', 'otterbx', 'samsnug charger'];
const services = { base: await serviceOf(other), here: await serviceOf(here) };
const names = ['base', 'here'] as const;
const times = { base: queries.map((): number[] => []), here: queries.map((): number[] => []) };
for (const name of names) for (const text of queries) await services[name].search({ text, hitsPerPage: 20 });
for (let round = 0; round < rounds; round++)
  for (let q = 0; q < queries.length; q++)
    for (let j = 0; j < 2; j++) {
      const name = names[(j + round + q) % 2]!;
      const t = performance.now();
      await services[name].search({ text: queries[q]!, hitsPerPage: 20 });
      times[name][q]!.push(performance.now() - t);
    }
const medians = { base: times.base.map(median), here: times.here.map(median) };
const sum = (v: number[]) => v.reduce((s, x) => s + x, 0);
console.log(
  `${products.length * copies} items, ${queries.length} queries, ${rounds} alternated rounds: sum of per-query medians ${sum(medians.base).toFixed(1)} ms (base) vs ${sum(medians.here).toFixed(1)} ms (here), here / base ${(sum(medians.here) / sum(medians.base)).toFixed(3)}; median query ${median(medians.base).toFixed(3)} vs ${median(medians.here).toFixed(3)} ms`,
);
