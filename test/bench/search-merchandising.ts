/**
 * `npm run bench -- search-merchandising`: what merchandising rules and behaviour ranking cost a
 * search (#27). On the Best Buy catalog, the judged shopper queries are answered by a service
 * without either (the baseline), with 100 rules (every query triggers some: pins, hides, boosts
 * and buries), with behaviour ranking on (click feedback for every query, so each re-ranks its
 * first 50 hits, and `_behaviour` in customRanking), and with both; variants alternated query by
 * query, rotating which runs first; p50 and p99 over every query of every round.
 */
import { SearchService } from '../../src/index';
import type { BehaviourSource, QueryFeedback } from '../../src/search/behaviour';
import { normalizeQuery } from '../../src/search/behaviour';
import type { MerchandisingRule } from '../../src/search/merchandising';
import { loadBestBuy } from '../helpers/bestbuy';
import { ms } from './loop-watch';
import { median } from './relevance-metrics';
import { alternate, QUERIES } from './search';

/** A deterministic generator (the same rules and feedback every run). */
function seeded(seed: number): () => number {
  return () => {
    seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
    return seed / 2 ** 32;
  };
}

/** 100 rules: per query an `equals` rule (pins, hides) and a `contains` rule on its first word (boost, bury), then rules for other queries. */
function hundredRules(ids: readonly string[], brands: readonly string[]): MerchandisingRule[] {
  const random = seeded(7);
  const pick = <T>(list: readonly T[]) => list[Math.floor(random() * list.length)]!;
  const rules: MerchandisingRule[] = [];
  for (const q of QUERIES) {
    rules.push({
      id: `eq-${rules.length}`,
      query: { equals: q },
      pin: Array.from({ length: 3 }, (_, k) => ({ itemId: pick(ids), position: 1 + 4 * k })),
      hide: Array.from({ length: 5 }, () => pick(ids)),
    });
    rules.push({
      id: `in-${rules.length}`,
      query: { contains: [q.split(' ')[0]!] },
      boost: { brand: [pick(brands)] },
      bury: { price: [{ operator: '>', value: 500 }] },
    });
  }
  while (rules.length < 100)
    rules.push({
      id: `other-${rules.length}`,
      query: { equals: `other query ${rules.length}` },
      pin: [{ itemId: pick(ids), position: 1 }],
      boost: { brand: [pick(brands)] },
    });
  return rules;
}

/** A source with click feedback for every query on 60 of its items, and a signal for every item. */
function feedbackSource(ids: readonly string[]): BehaviourSource {
  const random = seeded(11);
  const signals = new Map(ids.map((id) => [id, Math.floor(random() * 100)]));
  const feedback = new Map<string, Map<string, QueryFeedback>>();
  for (const q of QUERIES) {
    const items = new Map<string, QueryFeedback>();
    for (let k = 0; k < 60; k++)
      items.set(ids[Math.floor(random() * ids.length)]!, { clicks: Math.floor(random() * 20), examined: 5 + random() * 40 });
    feedback.set(normalizeQuery(q), items);
  }
  return { itemSignals: () => signals, queryFeedback: (_catalog, query) => feedback.get(query) };
}

export async function benchSearchMerchandising(): Promise<void> {
  const { catalog, items } = await loadBestBuy();
  const ids = items.map((i) => i.id);
  const brands = [...new Set(items.map((i) => i.brand))];
  const merchandising = hundredRules(ids, brands);
  const behaviour = { source: feedbackSource(ids) };
  const services = {
    off: new SearchService({ catalog }),
    rules: new SearchService({ catalog, merchandising }),
    behaviour: new SearchService({ catalog, behaviour, customRanking: ['_behaviour:desc'] }),
    both: new SearchService({ catalog, merchandising, behaviour, customRanking: ['_behaviour:desc'] }),
  };
  for (const s of Object.values(services)) await s.search({ text: 'galaxy case' });
  const rows = await alternate(
    [
      { name: 'neither (baseline)', run: (q) => services.off.search({ text: q }) },
      { name: '100 merchandising rules', run: (q) => services.rules.search({ text: q }) },
      { name: 'behaviour ranking (feedback for every query)', run: (q) => services.behaviour.search({ text: q }) },
      { name: '100 rules and behaviour ranking', run: (q) => services.both.search({ text: q }) },
    ],
    Number(process.env.BENCH_ROUNDS ?? 60),
  );
  const base = rows[0]!;
  // Work is counted, not timed: the documents each variant's ranking read for the queries.
  const documentsRead = Object.values(services).map((service) => {
    let read = 0;
    return async () => {
      for (const q of QUERIES) {
        await service.search({ text: q });
        read += service.work.documentsRead;
      }
      return read;
    };
  });
  const reads: number[] = [];
  for (const count of documentsRead) reads.push(await count());
  console.log(
    `\n## Search with merchandising and behaviour ranking: ${items.length.toLocaleString('en-US')} Best Buy items, ${QUERIES.length} queries, page of 20`,
  );
  console.log(
    '| Variant | p50 ms | p50 vs baseline | median paired ratio | p99 ms | documents read, 12 queries |\n|---|---|---|---|---|---|',
  );
  rows.forEach((r, k) => {
    // Each query's time over the baseline's for the same query in the same round: the load of the moment cancels out.
    const paired = median(r.times.map((t, i) => t / base.times[i]!));
    console.log(`| ${r.name} | ${ms(r.p50)} | ${(r.p50 / base.p50).toFixed(2)} | ${paired.toFixed(2)} | ${ms(r.p99)} | ${reads[k]} |`);
  });
}
