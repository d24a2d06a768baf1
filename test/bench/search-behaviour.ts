/**
 * `npm run bench -- search-experiments`, measurement 3: behaviour ranking learning from simulated
 * shoppers. On each catalog's HELD-OUT judged queries (never used to tune the ranking), split in
 * two: shoppers search one half through a SearchService with behaviour ranking over
 * SearchAnalytics' snapshots (refreshed every {@link REFRESH} sessions, so shoppers see what it
 * learnt so far), the other half is never searched. nDCG@10 of both halves after N sessions,
 * against the same service without behaviour.
 */
import { type Catalog, memoryStorage, SearchService, type SearchServiceOptions } from '../../src/index';
import { loadBestBuy } from '../helpers/bestbuy';
import { CATALOG_NAMES, catalogNeed, loadCatalog } from '../helpers/catalogs';
import { Shoppers } from '../helpers/shoppers';
import { analyticsOver, recordedSearch } from '../sim/analytics';
import { type JudgedQuery, readCatalogQueries, readHoldoutQueries } from './relevance-judgments';
import { ndcgAt } from './relevance-metrics';

/** Session counts at which nDCG@10 is read. */
const CURVE = [0, 100, 300, 1000, 3000] as const;
/** Sessions between two reads of the behaviour snapshot. */
const REFRESH = 100;
const K = 10;

/** The behaviour settings measured (the source is injected). */
const SETTINGS: readonly { label: string; options: Omit<SearchServiceOptions, 'catalog'> }[] = [
  { label: 'rerank (defaults: minExamined 5, maxShift 3, depth 50, prior 10)', options: { behaviour: { rerank: true } } },
  { label: 'rerank + customRanking [_behaviour:desc]', options: { behaviour: { rerank: true }, customRanking: ['_behaviour:desc'] } },
];

interface Subject {
  name: string;
  catalog: Catalog;
  queries: JudgedQuery[];
}

async function subjects(): Promise<Subject[]> {
  const out: Subject[] = [{ name: 'Best Buy', catalog: (await loadBestBuy()).catalog, queries: readHoldoutQueries() }];
  for (const name of CATALOG_NAMES) {
    const need = catalogNeed(name);
    if (!need.met) {
      console.log(`${name}: SKIPPED, ${need.missing}`);
      continue;
    }
    out.push({ name, catalog: (await loadCatalog(name)).catalog, queries: readCatalogQueries(name, 'holdout') });
  }
  return out;
}

const mean = (v: readonly number[]) => (v.length === 0 ? NaN : v.reduce((a, b) => a + b, 0) / v.length);

async function pagesOf(service: SearchService, queries: readonly JudgedQuery[]): Promise<string[][]> {
  const out: string[][] = [];
  for (const q of queries) out.push((await service.search({ text: q.query, hitsPerPage: K })).hits.map((h) => h.id));
  return out;
}

/** One point of a curve: mean nDCG@10 of both halves, and how many unsearched queries are ranked exactly as without behaviour. */
interface Point {
  sessions: number;
  searched: number;
  /** Searched queries scoring higher, and lower, than without behaviour. */
  raised: number;
  dropped: number;
  unsearched: number;
  unchanged: number;
  lowered: number;
}

/** Runs the shoppers on one catalog with one behaviour setting, reading the curve. */
async function curve(subject: Subject, options: Omit<SearchServiceOptions, 'catalog'>, baseline: string[][]): Promise<Point[]> {
  const storage = memoryStorage();
  const analytics = analyticsOver(storage, subject.catalog);
  const source = analytics.behaviour;
  const service = new SearchService({ ...options, catalog: subject.catalog, behaviour: { ...(options.behaviour as object), source } });
  const searched = subject.queries.filter((_, i) => i % 2 === 0);
  const unsearched = subject.queries.filter((_, i) => i % 2 === 1);
  const baseUnsearched = baseline.filter((_, i) => i % 2 === 1);
  const baseSearched = baseline.filter((_, i) => i % 2 === 0).map((ids, i) => ndcgAt(ids, searched[i]!.judged, K));
  // Pages are cached between two snapshot reads: the ranking only changes when the snapshot does.
  let cache = new Map<string, { ids: string[]; totalHits: number }>();
  const { search, record, flush } = recordedSearch(
    async (text, hitsPerPage) => {
      let page = cache.get(text);
      if (!page) {
        const answer = await service.search({ text, hitsPerPage });
        cache.set(text, (page = { ids: answer.hits.map((h) => h.id), totalHits: answer.totalHits }));
      }
      return page;
    },
    analytics,
    subject.catalog.identifier,
  );
  const shoppers = new Shoppers({ queries: searched, seed: 3, zipf: 1 });
  const points: Point[] = [];
  let done = 0;
  try {
    for (const n of CURVE) {
      while (done < n) {
        const step = Math.min(REFRESH, n - done);
        await shoppers.run(search, step, done, record);
        done += step;
        await flush();
        await analytics.refresh(subject.catalog.identifier);
        cache = new Map();
      }
      const now = await pagesOf(service, unsearched);
      const scores = now.map((ids, i) => ndcgAt(ids, unsearched[i]!.judged, K));
      const base = baseUnsearched.map((ids, i) => ndcgAt(ids, unsearched[i]!.judged, K));
      const learnt = (await pagesOf(service, searched)).map((ids, i) => ndcgAt(ids, searched[i]!.judged, K));
      points.push({
        sessions: n,
        searched: mean(learnt),
        raised: learnt.filter((v, i) => v > baseSearched[i]! + 1e-12).length,
        dropped: learnt.filter((v, i) => v < baseSearched[i]! - 1e-12).length,
        unsearched: mean(scores),
        unchanged: now.filter((ids, i) => ids.join() === baseUnsearched[i]!.join()).length,
        lowered: scores.filter((s, i) => s < base[i]! - 1e-12).length,
      });
    }
  } finally {
    await analytics.close();
  }
  return points;
}

const fmt = (n: number) => n.toFixed(3);

/** Prints the curves, per catalog and setting. */
export async function benchSearchBehaviour(): Promise<Map<string, Point[]>> {
  console.log('\n## Search experiments: behaviour ranking learning from simulated shoppers');
  console.log(
    `Each catalog's held-out judged queries, split by position in the file: shoppers search the even ones (Zipf-popular, cascade click model), the odd ones are never searched. Every search and its clicks go through SearchAnalytics (memory store), whose snapshot the service reads every ${REFRESH} sessions. nDCG@${K} after N sessions; N = 0 is the ranking without behaviour.`,
  );
  const out = new Map<string, Point[]>();
  for (const s of await subjects()) {
    const plain = new SearchService({ catalog: s.catalog });
    const baseline = await pagesOf(plain, s.queries);
    for (const setting of SETTINGS) {
      const points = await curve(s, setting.options, baseline);
      out.set(`${s.name} / ${setting.label}`, points);
      const searched = Math.ceil(s.queries.length / 2);
      const unsearched = s.queries.length - searched;
      console.log(`\n### ${s.name}, ${setting.label}: ${searched} searched and ${unsearched} unsearched held-out queries`);
      console.log(
        '| sessions | nDCG@10 searched | searched raised / lowered | nDCG@10 unsearched | unsearched ranked as without behaviour | unsearched lowered |',
      );
      console.log('|---|---|---|---|---|---|');
      for (const p of points)
        console.log(
          `| ${p.sessions} | ${fmt(p.searched)} | ${p.raised} / ${p.dropped} | ${fmt(p.unsearched)} | ${p.unchanged}/${unsearched} | ${p.lowered} |`,
        );
    }
  }
  return out;
}
