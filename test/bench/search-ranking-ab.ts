/**
 * `npm run bench -- search-experiments`, measurement 2: an A/B of two ranking settings whose
 * nDCG@10 gap is measured in the same run, with simulated shoppers on the judged Best Buy queries
 * (both halves), read with the results' statistics; and the false positive rate of A/A runs.
 */
import { normalQuantile } from '../../src/results/distributions';
import { loadBestBuy } from '../helpers/bestbuy';
import { expectedBrowse, type Search, Shoppers } from '../helpers/shoppers';
import {
  type Arm,
  abConfig,
  CachedSearches,
  type Checkpoint,
  experimentOf,
  httpArms,
  inProcessArms,
  type Recorder,
  readResults,
  runCheckpoints,
} from '../sim/ab';
import { type JudgedQuery, readHoldoutQueries, readJudgedQueries } from './relevance-judgments';
import { ndcgAt } from './relevance-metrics';

/** The reference (abkit's default rules) and a degraded ranking (BM25 alone). */
export const ARMS: readonly [Arm, Arm] = [
  { id: 'rules-default', settings: {} },
  { id: 'rules-bm25', settings: { rankingRules: ['bm25'] } },
];
const CHECKPOINTS = [250, 500, 1000, 1500, 2000, 3000, 4000, 6000, 8000, 12000] as const;
export const AB_RUNS = 20;
export const AA_RUNS = 400;
const AA_SESSIONS = 2000;
export const ALPHA = 0.05;

/** What a run needs to search and record through: in process, or over HTTP once the handler decides. */
export interface AbDriver {
  readonly label: string;
  /** A fresh experiment for `arms` and the search and recorder going through it. */
  open(
    arms: readonly [Arm, Arm],
    seed: number,
  ): Promise<{ search: Search; record: Recorder; flush: () => Promise<void>; read: (sessions: number) => Promise<Checkpoint> }>;
}

/** Deciding, exposing and tracking in process through DecisionEngine and ExperimentService. */
export function inProcessDriver(searches: CachedSearches): AbDriver {
  return {
    label: 'in process: DecisionEngine.decideCampaign, ExperimentService.activate/track/results, a SearchService per variation',
    open: async (arms) => {
      const { engine, experiments } = await experimentOf(abConfig(arms));
      const { search, record, flush } = inProcessArms(searches, arms, engine, experiments);
      return { search, record, flush, read: (n) => readResults(experiments, n) };
    },
  };
}

const mean = (v: readonly number[]) => v.reduce((a, b) => a + b, 0) / v.length;
const fmt = (n: number, d = 3) => n.toFixed(d);

/** nDCG@10 of each arm on the judged queries, and its expected click and conversion rate per session under the shoppers' query mix. */
async function armQuality(searches: CachedSearches, shoppers: Shoppers, queries: readonly JudgedQuery[]) {
  const out = new Map<string, { ndcg: number; click: number; conversion: number }>();
  for (const { id, settings } of ARMS) {
    const ndcg: number[] = [];
    let click = 0;
    let conversion = 0;
    const byQuery = new Map<JudgedQuery, string[]>();
    for (const q of queries) {
      const { ids } = await searches.page(settings, q.query, 10);
      byQuery.set(q, ids);
      ndcg.push(ndcgAt(ids, q.judged, 10));
    }
    for (const { query, share } of shoppers.shares()) {
      const e = expectedBrowse(byQuery.get(query)!, query.judged, shoppers.options.model);
      click += share * e.anyClick;
      conversion += share * e.conversion;
    }
    out.set(id, { ndcg: mean(ndcg), click, conversion });
  }
  return out;
}

/** Visitors per variation for a two-sided z-test at `ALPHA` with 80 % power. */
function sampleSize(p1: number, p2: number): number {
  const za = normalQuantile(1 - ALPHA / 2);
  const zb = normalQuantile(0.8);
  const pBar = (p1 + p2) / 2;
  return Math.ceil((za * Math.sqrt(2 * pBar * (1 - pBar)) + zb * Math.sqrt(p1 * (1 - p1) + p2 * (1 - p2))) ** 2 / (p1 - p2) ** 2);
}

/** Wilson 95 % interval of a proportion. */
export function wilson(k: number, n: number): [number, number] {
  const z = 1.959964;
  const p = k / n;
  const centre = (p + (z * z) / (2 * n)) / (1 + (z * z) / n);
  const half = (z / (1 + (z * z) / n)) * Math.sqrt((p * (1 - p)) / n + (z * z) / (4 * n * n));
  return [centre - half, centre + half];
}

export const shoppersOf = (queries: readonly JudgedQuery[], seed: number) =>
  new Shoppers({ queries, seed, zipf: 1, visitorPrefix: `s${seed}-v` });

/** The A/B and A/A figures, printed as tables. */
export async function benchSearchAb(
  driver?: AbDriver,
): Promise<{ checkpoints: Checkpoint[][]; falsePositiveRate: number; httpIdentical: boolean }> {
  const queries = [...readJudgedQueries(), ...readHoldoutQueries()];
  const searches = new CachedSearches((await loadBestBuy()).catalog);
  const quality = await armQuality(searches, shoppersOf(queries, 1), queries);
  const d = driver ?? inProcessDriver(searches);
  const a = quality.get(ARMS[0].id)!;
  const b = quality.get(ARMS[1].id)!;
  console.log(`\n## Search experiments: an A/B of two ranking settings (${d.label})`);
  console.log(
    `Best Buy, ${queries.length} judged queries (both halves), Zipf-popular (s = 1), one session per visitor, cascade click model (test/helpers/shoppers.ts). Metrics per exposed visitor: search_click (clicked), search_conversion (converted); two-proportion z-test of src/results.`,
  );
  console.log('| variation | settings | nDCG@10 | expected click rate | expected conversion rate |');
  console.log('|---|---|---|---|---|');
  for (const arm of ARMS) {
    const q = quality.get(arm.id)!;
    console.log(`| ${arm.id} | ${JSON.stringify(arm.settings)} | ${fmt(q.ndcg)} | ${fmt(q.click)} | ${fmt(q.conversion)} |`);
  }
  const need = { click: sampleSize(a.click, b.click), conversion: sampleSize(a.conversion, b.conversion) };
  console.log(
    `nDCG@10 gap ${fmt(a.ndcg - b.ndcg)}; theory (80 % power, α = ${ALPHA}): ${need.click} visitors per variation for clicks, ${need.conversion} for conversions (${2 * need.click}, ${2 * need.conversion} sessions).`,
  );
  const all: Checkpoint[][] = [];
  for (let run = 0; run < AB_RUNS; run++) {
    const seed = 1000 + run;
    const { search, record, flush, read } = await d.open(ARMS, seed);
    all.push(await runCheckpoints(shoppersOf(queries, seed), search, record, flush, read, CHECKPOINTS));
  }
  console.log(`\n${AB_RUNS} A/B runs (seeds 1000…${999 + AB_RUNS}): share of runs with p < ${ALPHA} (rules-bm25 worse) at each checkpoint`);
  console.log(
    '| sessions | exposed (run 1) | click rates (run 1) | p, clicks (run 1) | runs p < 0.05, clicks | conversion rates (run 1) | p, conversions (run 1) | runs p < 0.05, conversions |',
  );
  console.log('|---|---|---|---|---|---|---|---|');
  const worse = (c: Checkpoint['click']) => c.pValue !== null && c.pValue < ALPHA && c.rates[1] < c.rates[0];
  CHECKPOINTS.forEach((n, i) => {
    const first = all[0]![i]!;
    const share = (m: 'click' | 'conversion') => `${all.filter((r) => worse(r[i]![m])).length}/${AB_RUNS}`;
    console.log(
      `| ${n} | ${first.exposed.join(' / ')} | ${first.click.rates.map((r) => fmt(r)).join(' / ')} | ${pValue(first.click.pValue)} | ${share('click')} | ${first.conversion.rates.map((r) => fmt(r)).join(' / ')} | ${pValue(first.conversion.pValue)} | ${share('conversion')} |`,
    );
  });
  const firstSignificant = (m: 'click' | 'conversion') =>
    all.map((r) => r.find((c) => worse(c[m]))?.sessions ?? Infinity).sort((x, y) => x - y)[Math.floor(AB_RUNS / 2)]!;
  console.log(
    `Median sessions until p < ${ALPHA} first: ${firstSignificant('click')} for clicks, ${firstSignificant('conversion')} for conversions (looking at every checkpoint: the A/A line below reads once, at its end).`,
  );
  const http = await httpRun(all[0]!);
  let positives = 0;
  let clickPositives = 0;
  let srm = 0;
  for (let run = 0; run < AA_RUNS; run++) {
    const seed = 5000 + run;
    const { search, record, flush, read } = await d.open([ARMS[0], { ...ARMS[0], id: 'rules-default-copy' }], seed);
    const [end] = await runCheckpoints(shoppersOf(queries, seed), search, record, flush, read, [AA_SESSIONS]);
    if (end!.conversion.pValue !== null && end!.conversion.pValue < ALPHA) positives++;
    if (end!.click.pValue !== null && end!.click.pValue < ALPHA) clickPositives++;
    if (end!.sampleRatioMismatch) srm++;
  }
  const rate = (k: number) => {
    const [low, high] = wilson(k, AA_RUNS);
    return `${k} runs with p < ${ALPHA}, false positive rate ${fmt((100 * k) / AA_RUNS, 1)} % (Wilson 95 % ${fmt(100 * low, 1)}–${fmt(100 * high, 1)} %)`;
  };
  console.log(
    `A/A: ${AA_RUNS} runs of ${AA_SESSIONS} sessions (the same settings in both variations, seeds 5000…${4999 + AA_RUNS}), results read once at the end: conversions ${rate(positives)}; clicks ${rate(clickPositives)}; sample ratio mismatch in ${srm} runs.`,
  );
  return { checkpoints: all, falsePositiveRate: positives / AA_RUNS, httpIdentical: http };
}

const HTTP_CHECKPOINTS = CHECKPOINTS.filter((n) => n <= 3000);

/**
 * Run 1 again over HTTP (GET /search?visitorId= deciding through SearchExperiments, POST
 * /search/events tracking): the same visitors, variations, pages and draws, so the same counts
 * and p-values at every checkpoint. Prints them and whether they are identical.
 */
async function httpRun(inProcess: readonly Checkpoint[]): Promise<boolean> {
  const { registry, catalog } = await loadBestBuy();
  const queries = [...readJudgedQueries(), ...readHoldoutQueries()];
  const { search, record, flush, read, close } = await httpArms(registry, catalog.identifier, ARMS);
  const points = await runCheckpoints(shoppersOf(queries, 1000), search, record, flush, read, HTTP_CHECKPOINTS);
  await close();
  const same = points.every((p, i) => JSON.stringify(p) === JSON.stringify(inProcess[i]));
  console.log(
    `\nRun 1 over HTTP (campaign variations with search modifications, GET /search?clickAnalytics=true&visitorId=… deciding, events posted to POST /search/events and tracked as search_click / search_conversion): ${same ? 'identical' : 'DIFFERENT'} exposures, rates and p-values at every checkpoint to ${HTTP_CHECKPOINTS.at(-1)} sessions.`,
  );
  console.log('| sessions | exposed | click rates | p, clicks | conversion rates | p, conversions |');
  console.log('|---|---|---|---|---|---|');
  for (const p of points)
    console.log(
      `| ${p.sessions} | ${p.exposed.join(' / ')} | ${p.click.rates.map((r) => fmt(r)).join(' / ')} | ${pValue(p.click.pValue)} | ${p.conversion.rates.map((r) => fmt(r)).join(' / ')} | ${pValue(p.conversion.pValue)} |`,
    );
  return same;
}

const pValue = (v: number | null) => (v === null ? '—' : v < 0.0001 ? '< 0.0001' : fmt(v, 4));
