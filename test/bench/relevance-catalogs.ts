/**
 * `npm run bench -- relevance`, the four-catalog part: on Best Buy and the three shared catalogs
 * (sporting goods, menswear, general merchandise), each judged set's tuning half and held-out half,
 * nDCG@10, MRR@10 and P@5 of abkit (defaults) and the three peers in the same run, with a paired
 * bootstrap 95% interval of abkit − best peer nDCG@10 over queries and the ratio abkit / best peer.
 * Every engine searches the same fields, the name boosted alike in the peers (abkit's defaults have
 * no boost). Quality only: latency is the search benchmark's and the Best Buy section's.
 */
import { loadBestBuy } from '../helpers/bestbuy';
import type { Catalog } from '../../src/index';
import type { SearchProfile } from '../../src/types';
import { CATALOG_NAMES, type CatalogName, catalogNeed, loadCatalog, sharedCatalog, viewText } from '../helpers/catalogs';
import { abkitEngine, type Engine, type FieldDoc, fts5Over, miniSearchOver, oramaOver } from './relevance-engines';
import { type Half, type JudgedQuery, readCatalogQueries, readHoldoutQueries, readJudgedQueries } from './relevance-judgments';
import { type BootstrapInterval, ndcgAt, pairedBootstrap, precisionAt, reciprocalRankAt } from './relevance-metrics';

const K = 10;
const RESAMPLES = 10_000;
const SEED = 26;

/** One engine's figures on one half. */
export interface HalfRow {
  engine: string;
  ndcg: number;
  mrr: number;
  p5: number;
  perQuery: number[];
}

/** One catalog half: every engine's figures, the best peer, the interval and the ratio. */
export interface HalfResult {
  catalog: string;
  half: Half;
  queries: number;
  rows: HalfRow[];
  bestPeer: string;
  ratio: number;
  interval: BootstrapInterval;
}

const mean = (v: readonly number[]) => v.reduce((a, b) => a + b, 0) / v.length;

async function rank(engine: Engine, queries: readonly JudgedQuery[]): Promise<HalfRow> {
  const lists: string[][] = [];
  for (const q of queries) lists.push(await engine.search(q.query, K));
  const perQuery = queries.map((q, i) => ndcgAt(lists[i]!, q.judged, K));
  return {
    engine: engine.name,
    ndcg: mean(perQuery),
    mrr: mean(queries.map((q, i) => reciprocalRankAt(lists[i]!, q.judged, K))),
    p5: mean(queries.map((q, i) => precisionAt(lists[i]!, q.judged, 5))),
    perQuery,
  };
}

/** The figures of one half: abkit first, then the peers; the best peer by mean nDCG@10. */
export async function measureHalf(
  catalog: string,
  half: Half,
  abkit: Engine,
  peers: readonly Engine[],
  queries: readonly JudgedQuery[],
): Promise<HalfResult> {
  const rows = [await rank(abkit, queries)];
  for (const p of peers) rows.push(await rank(p, queries));
  const mine = rows[0]!;
  const best = rows.slice(1).reduce((a, b) => (b.ndcg > a.ndcg ? b : a));
  return {
    catalog,
    half,
    queries: queries.length,
    rows,
    bestPeer: best.engine,
    ratio: mine.ndcg / best.ndcg,
    interval: pairedBootstrap(mine.perQuery, best.perQuery, { resamples: RESAMPLES, seed: SEED }),
  };
}

interface Subject {
  title: string;
  abkit: Engine;
  peers: Engine[];
  halves: [Half, JudgedQuery[]][];
  fields: readonly string[];
}

async function peersOver(docs: readonly FieldDoc[], fields: readonly string[]): Promise<Engine[]> {
  return [miniSearchOver(docs, fields), await oramaOver(docs, fields), fts5Over(docs, fields)];
}

/** A judged catalog's abkit catalog, and the fields and documents the peers index. */
export async function judgedCatalog(
  name: 'bestbuy' | CatalogName,
): Promise<{ catalog: Catalog; fields: readonly string[]; docs: FieldDoc[] }> {
  if (name === 'bestbuy') {
    const { catalog, products } = await loadBestBuy();
    // abkit's Best Buy items carry name, brand and description as text (test/helpers/bestbuy.ts); the
    // peers get the same three fields here, not the category path the Best Buy section gives them.
    const docs = products.map((p, i) => ({ id: `bb-${i}`, name: p.name, brand: p.brand, description: p.description }));
    return { catalog, fields: ['name', 'brand', 'description'], docs };
  }
  const { shared, catalog, products } = await loadCatalog(name);
  const fields = shared.fields;
  const docs = products.map((p) => {
    const text = viewText(p);
    return { id: p.id, ...Object.fromEntries(fields.map((f) => [f, text[f]])) } as FieldDoc;
  });
  return { catalog, fields, docs };
}

/** Best Buy with abkit's defaults, or opting into a profile (its listings are named as the `retail` profile reads). */
async function bestBuySubject(profile?: SearchProfile): Promise<Subject> {
  const { catalog, fields, docs } = await judgedCatalog('bestbuy');
  return {
    title: `Best Buy (cell phones and accessories)${profile ? `, profile '${profile}'` : ''}`,
    abkit: profile ? abkitEngine(catalog, { profile }, `profile '${profile}'`) : abkitEngine(catalog),
    peers: await peersOver(docs, fields),
    halves: [
      ['tuning', readJudgedQueries()],
      ['holdout', readHoldoutQueries()],
    ],
    fields,
  };
}

async function sharedSubject(name: CatalogName): Promise<Subject> {
  const { catalog, fields, docs } = await judgedCatalog(name);
  return {
    title: sharedCatalog(name).title,
    abkit: abkitEngine(catalog),
    peers: await peersOver(docs, fields),
    halves: [
      ['tuning', readCatalogQueries(name, 'tuning')],
      ['holdout', readCatalogQueries(name, 'holdout')],
    ],
    fields,
  };
}

const fmt = (n: number, digits = 3) => n.toFixed(digits);
const signed = (n: number) => `${n >= 0 ? '+' : '−'}${fmt(Math.abs(n))}`;

/** Runs every catalog with data present (a missing one is skipped, saying so; under CI=true it throws) and prints the tables. */
export async function benchRelevanceCatalogs(): Promise<HalfResult[]> {
  const results: HalfResult[] = [];
  const subjects: (() => Promise<Subject>)[] = [() => bestBuySubject(), () => bestBuySubject('retail')];
  for (const name of CATALOG_NAMES) {
    const need = catalogNeed(name);
    if (need.met) subjects.push(() => sharedSubject(name));
    else console.log(`\n## Relevance on ${name}: SKIPPED, ${need.missing} (see ../shared/data/README.md)`);
  }
  console.log(`\n## Relevance on four catalogs: abkit (defaults; Best Buy also with profile 'retail') and three peers, same run, top ${K}`);
  console.log(
    `Every engine searches the same fields; the peers boost the name ×2 (MiniSearch, Orama, FTS5 alike), abkit runs with its defaults. Interval: paired bootstrap of abkit − best peer nDCG@10 over queries, ${RESAMPLES.toLocaleString('en')} resamples, seed ${SEED}.`,
  );
  for (const make of subjects) {
    const s = await make();
    console.log(`\n### ${s.title} (fields ${s.fields.join(', ')})`);
    console.log('| half (queries) | engine | nDCG@10 | MRR@10 | P@5 |');
    console.log('|---|---|---|---|---|');
    for (const [half, queries] of s.halves) {
      const r = await measureHalf(s.title, half, s.abkit, s.peers, queries);
      results.push(r);
      for (const row of r.rows)
        console.log(
          `| ${half === 'tuning' ? 'tuning' : 'held-out'} (${r.queries}) | ${row.engine} | ${fmt(row.ndcg)} | ${fmt(row.mrr)} | ${fmt(row.p5)} |`,
        );
    }
    for (const r of results.slice(-2))
      console.log(
        `${r.half === 'tuning' ? 'tuning' : 'held-out'}: abkit / best peer (${r.bestPeer}) nDCG@10 = ${fmt(r.ratio)} ×; abkit − best peer ${signed(r.interval.mean)} [${signed(r.interval.low)}, ${signed(r.interval.high)}] 95% CI`,
      );
    for (const e of [s.abkit, ...s.peers]) e.close?.();
  }
  console.log('\n| catalog | half | queries | abkit nDCG@10 | best peer | its nDCG@10 | ratio | abkit − best, 95% CI |');
  console.log('|---|---|---|---|---|---|---|---|');
  for (const r of results) {
    const best = r.rows.find((row) => row.engine === r.bestPeer)!;
    console.log(
      `| ${r.catalog} | ${r.half === 'tuning' ? 'tuning' : 'held-out'} | ${r.queries} | ${fmt(r.rows[0]!.ndcg)} | ${r.bestPeer} | ${fmt(best.ndcg)} | ${fmt(r.ratio)} × | ${signed(r.interval.mean)} [${signed(r.interval.low)}, ${signed(r.interval.high)}] |`,
    );
  }
  console.log('MRR@10 and P@5 count grade ≥ 2 as relevant; every product not listed in a judgment is graded 0.\n');
  return results;
}
