/**
 * `npm run bench -- relevance`: nDCG@10, MRR@10 and P@5 of abkit and three BM25 peers on the
 * judged Best Buy queries (test/fixtures/relevance/bestbuy-judgments.json), with the latency of
 * each engine measured in the same run (engines alternated query by query, several rounds), and the
 * same figures on the held-out queries (bestbuy-holdout.json), never used to tune the ranking.
 */
import { loadBestBuy, type BestBuyProduct } from '../helpers/bestbuy';
import { abkitEngine, fts5Engine, miniSearchEngine, oramaEngine, type AbkitEngine, type Engine } from './relevance-engines';
import { readHoldoutQueries, readJudgedQueries, type JudgedQuery } from './relevance-judgments';
import { ndcgAt, percentile, precisionAt, reciprocalRankAt, unjudgedAt } from './relevance-metrics';

const K = 10;
const ROUNDS = 5;

/** An engine's figures over the whole query set. */
export interface RelevanceRow {
  engine: string;
  ndcg: number;
  mrr: number;
  p5: number;
  unjudged: number;
  p50: number;
  p99: number;
  perQuery: number[];
}

function mean(values: readonly number[]): number {
  return values.reduce((a, b) => a + b, 0) / values.length;
}

/** How the top-`K` positions of one engine's hits are decided, counted over a query set. */
interface TieCounts {
  positions: number;
  /** Hits equal on every ranking rule (before the tie-break criteria). */
  tiedOnRules: number;
  /** Of those, decided by a tie-break criterion after the price (the name, by default). */
  byLaterTieBreak: number;
  /** Equal on every rule and tie-break criterion: decided by id. */
  byId: number;
  /** Of those, identical in everything a shopper sees (name, brand, price, description, image). */
  identical: number;
  examples: string[];
}

/**
 * Counts, among the top-`K` positions, those whose hit ties with the next one on every ranking
 * rule (each rule's `score`, or `value` for bm25 and customRanking, bm25's coverages), then
 * how the tie was broken: by the tie-break criteria (`_rankingScoreDetails.tieBreak.values`; the
 * price, then a later one such as the name) or by id, and whether the two products are identical
 * in every field a shopper sees; undefined while hits carry no details.
 */
async function tieCounts(
  engine: AbkitEngine,
  queries: readonly JudgedQuery[],
  products: readonly BestBuyProduct[],
): Promise<TieCounts | undefined> {
  const counts: TieCounts = { positions: 0, tiedOnRules: 0, byLaterTieBreak: 0, byId: 0, identical: 0, examples: [] };
  const visible = (id: string) => {
    const p = products[Number(id.slice(3))]!;
    return JSON.stringify([p.name, p.brand, p.price, p.description, p.image]);
  };
  for (const q of queries) {
    const hits = await engine.details(q.query, K + 1);
    if (hits.length > 0 && hits[0]!._rankingScoreDetails === undefined) return undefined;
    const keys = hits.map((h) => {
      const details = (h._rankingScoreDetails ?? {}) as Record<string, Record<string, unknown> | undefined>;
      // Every value the comparator orders by: each rule's score (or value) and bm25's coverages.
      const fields = ['score', 'value', 'coverage', 'textCoverage'];
      const rules = JSON.stringify(
        Object.keys(details)
          .filter((rule) => rule !== 'tieBreak')
          .sort()
          .map((rule) => [rule, fields.map((k) => details[rule]?.[k] ?? null)]),
      );
      const tie = Object.entries((details.tieBreak?.values ?? {}) as Record<string, unknown>);
      return { rules, first: JSON.stringify(tie.slice(0, 1)), all: JSON.stringify(tie) };
    });
    for (let i = 0; i < Math.min(K, hits.length - 1); i++) {
      counts.positions++;
      const [a, b] = [keys[i]!, keys[i + 1]!];
      if (a.rules !== b.rules) continue;
      counts.tiedOnRules++;
      if (a.all === b.all) {
        counts.byId++;
        if (visible(String(hits[i]!.id)) === visible(String(hits[i + 1]!.id))) counts.identical++;
        if (counts.examples.length < 5) counts.examples.push(`"${q.query}" #${i + 1} ${String(hits[i]!.id)} = ${String(hits[i + 1]!.id)}`);
      } else if (a.first === b.first) counts.byLaterTieBreak++;
    }
  }
  return counts;
}

/** An engine's quality figures over `queries`, given its ranked ids per query and its latencies. */
function figures(engine: string, lists: readonly string[][], queries: readonly JudgedQuery[], times: number[]): RelevanceRow {
  const sorted = [...times].sort((a, b) => a - b);
  const perQuery = queries.map((q, i) => ndcgAt(lists[i]!, q.judged, K));
  return {
    engine,
    ndcg: mean(perQuery),
    mrr: mean(queries.map((q, i) => reciprocalRankAt(lists[i]!, q.judged, K))),
    p5: mean(queries.map((q, i) => precisionAt(lists[i]!, q.judged, 5))),
    unjudged: queries.reduce((n, q, i) => n + unjudgedAt(lists[i]!, q.judged, K), 0),
    p50: percentile(sorted, 50),
    p99: percentile(sorted, 99),
    perQuery,
  };
}

function fmt(n: number, digits = 3): string {
  return n.toFixed(digits);
}

export async function benchRelevance(): Promise<RelevanceRow[]> {
  const queries = readJudgedQueries();
  const { catalog, products } = await loadBestBuy();
  // The target compares abkit's defaults with the peers; the popularity row shows what a catalog's
  // customRanking adds (it is not a default, so it is not in the ratio).
  const abkits = [abkitEngine(catalog), abkitEngine(catalog, { customRanking: ['popularity:desc'] }, "customRanking ['popularity:desc']")];
  const peers: Engine[] = [miniSearchEngine(products), await oramaEngine(products), fts5Engine(products)];
  const engines: Engine[] = [...abkits, ...peers];

  // Rankings (and a warm-up) first, then latency: every round runs each query on every engine
  // in turn, starting with a different engine each round, so no engine always runs first.
  const ranked = new Map<Engine, string[][]>();
  for (const e of engines) ranked.set(e, await Promise.all(queries.map(async (q) => e.search(q.query, K))));
  const times = new Map<Engine, number[]>(engines.map((e) => [e, []]));
  for (let round = 0; round < ROUNDS; round++) {
    for (const q of queries) {
      for (let j = 0; j < engines.length; j++) {
        const e = engines[(j + round) % engines.length]!;
        const t = performance.now();
        await e.search(q.query, K);
        times.get(e)!.push(performance.now() - t);
      }
    }
  }

  const rows: RelevanceRow[] = engines.map((e) => figures(e.name, ranked.get(e)!, queries, times.get(e)!));

  console.log(`\n## Relevance on ${queries.length} judged Best Buy queries (${products.length} products), top ${K}`);
  console.log('| engine | nDCG@10 | MRR@10 | P@5 | unjudged in top 10 | p50 ms | p99 ms |');
  console.log('|---|---|---|---|---|---|---|');
  for (const r of rows) {
    console.log(
      `| ${r.engine} | ${fmt(r.ndcg)} | ${fmt(r.mrr)} | ${fmt(r.p5)} | ${r.unjudged} of ${queries.length * K} | ${fmt(r.p50)} | ${fmt(r.p99)} |`,
    );
  }
  const mine = rows[0]!;
  const best = rows.slice(abkits.length).reduce((a, b) => (b.ndcg > a.ndcg ? b : a));
  for (const r of rows.slice(0, abkits.length))
    console.log(
      `\n${r.engine}: nDCG@10 / best peer (${best.engine}) = ${fmt(r.ndcg / best.ndcg)} ×${r === mine ? ' (target ≥ 1.10 with the defaults)' : ''}`,
    );
  console.log(
    `nDCG gain 2^grade − 1; MRR@10 and P@5 count grade ≥ 2 as relevant; unjudged results count as grade 0; latency over ${ROUNDS} alternated rounds of every query.`,
  );

  const byKind = new Map<string, number[]>();
  queries.forEach((q, i) => byKind.set(q.kind, [...(byKind.get(q.kind) ?? []), i]));
  console.log('\nnDCG@10 by query kind:');
  console.log(`| kind (queries) | ${rows.map((r) => r.engine).join(' | ')} |`);
  console.log(`|---|${rows.map(() => '---').join('|')}|`);
  for (const [kind, idx] of byKind)
    console.log(`| ${kind} (${idx.length}) | ${rows.map((r) => fmt(mean(idx.map((i) => r.perQuery[i]!)))).join(' | ')} |`);

  const worst = queries
    .map((q, i) => ({ q: q.query, d: mine.perQuery[i]! - best.perQuery[i]! }))
    .sort((a, b) => a.d - b.d)
    .slice(0, 8);
  console.log(
    `\n${mine.engine}: largest nDCG@10 losses against ${best.engine}: ${
      worst
        .filter((w) => w.d < 0)
        .map((w) => `"${w.q}" ${fmt(w.d, 2)}`)
        .join(', ') || 'none'
    }`,
  );

  // The held-out queries: quality only (latency is measured on the main set).
  const holdout = readHoldoutQueries();
  const held = await Promise.all(
    engines.map(async (e) => figures(e.name, await Promise.all(holdout.map(async (q) => e.search(q.query, K))), holdout, [])),
  );
  console.log(`\n## Held-out: ${holdout.length} judged queries never used for tuning (test/fixtures/relevance/judge-holdout.ts), top ${K}`);
  console.log('| engine | nDCG@10 | MRR@10 | P@5 | unjudged in top 10 |');
  console.log('|---|---|---|---|---|');
  for (const r of held)
    console.log(`| ${r.engine} | ${fmt(r.ndcg)} | ${fmt(r.mrr)} | ${fmt(r.p5)} | ${r.unjudged} of ${holdout.length * K} |`);
  const bestHeld = held.slice(abkits.length).reduce((a, b) => (b.ndcg > a.ndcg ? b : a));
  for (const r of held.slice(0, abkits.length))
    console.log(`${r.engine}: held-out nDCG@10 / best peer (${bestHeld.engine}) = ${fmt(r.ndcg / bestHeld.ndcg)} ×`);
  const heldWorst = holdout
    .map((q, i) => ({ q: q.query, d: held[0]!.perQuery[i]! - bestHeld.perQuery[i]! }))
    .sort((a, b) => a.d - b.d)
    .slice(0, 5);
  console.log(
    `${held[0]!.engine}: largest held-out losses against ${bestHeld.engine}: ${
      heldWorst
        .filter((w) => w.d < 0)
        .map((w) => `"${w.q}" ${fmt(w.d, 2)}`)
        .join(', ') || 'none'
    }\n`,
  );

  for (const abkit of abkits) {
    for (const [set, list] of [
      ['main', queries],
      ['held-out', holdout],
    ] as const) {
      const ties = await tieCounts(abkit, list, products);
      if (ties === undefined)
        console.log(`${abkit.name}: top-10 positions decided by id: n/a (no details yet: hits carry no _rankingScoreDetails)`);
      else {
        const pct = (n: number) => `${n} of ${ties.positions} (${((ties.positions === 0 ? 0 : n / ties.positions) * 100).toFixed(2)}%)`;
        console.log(
          `${abkit.name}, ${set} queries: top-10 positions decided by id: ${pct(ties.byId)}, target ≤ 1%` +
            ` (${ties.identical} of them between products identical in name, brand, price, description and image)` +
            `; equal on every ranking rule: ${pct(ties.tiedOnRules)}, of which decided by the price ${ties.tiedOnRules - ties.byLaterTieBreak - ties.byId}, by a later tie-break criterion (the name) ${ties.byLaterTieBreak}` +
            `${ties.examples.length ? `; id ties e.g. ${ties.examples.join('; ')}` : ''}`,
        );
      }
    }
  }
  for (const e of engines) console.log(`  ${e.name}: ${e.setup}`);
  for (const e of engines) e.close?.();
  return rows;
}
