/**
 * Tuning only: abkit's nDCG@10 on the TUNING half of every judged catalog (Best Buy's
 * bestbuy-judgments.json, the others' <catalog>-tuning.json), for the defaults and for the variants
 * named on the command line. It never reads a held-out file: those are measured once, at the end of
 * a change, by `npm run bench -- relevance`.
 *
 * ```sh
 * npx tsx test/bench/relevance-tune.ts                       # the defaults
 * npx tsx test/bench/relevance-tune.ts '{"profile":"retail"}' # defaults, then each variant (SearchService options as JSON)
 * ```
 *
 * Each variant prints its nDCG@10 per catalog and its difference from the defaults; `--queries`
 * also lists the queries a variant changes most, `--peer` MiniSearch's figures and the defaults' losses to it.
 * `--fields=name` (or any comma-separated list) makes abkit and MiniSearch search those fields
 * alone on every catalog: a catalog of titles only, as some stores are, has no brand or category
 * text for a rule to lean on.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { CATALOG_NAMES, type CatalogName, catalogNeed } from '../helpers/catalogs';
import type { Catalog, SearchServiceOptions } from '../../src/index';
import { type NamingHabits, PROFILE_HABITS } from '../../src/search/naming';
import { judgedCatalog } from './relevance-catalogs';
import { abkitEngine, miniSearchOver } from './relevance-engines';
import { type JudgedQuery, readCatalogQueries, readJudgedQueries } from './relevance-judgments';
import { ndcgAt } from './relevance-metrics';

const K = 10;

interface Subject {
  name: 'bestbuy' | CatalogName;
  catalog: Catalog;
  queries: JudgedQuery[];
}

async function subjects(): Promise<Subject[]> {
  const list: Subject[] = [{ name: 'bestbuy', catalog: (await judgedCatalog('bestbuy')).catalog, queries: readJudgedQueries() }];
  for (const name of CATALOG_NAMES)
    if (catalogNeed(name).met)
      list.push({ name, catalog: (await judgedCatalog(name)).catalog, queries: readCatalogQueries(name, 'tuning') });
  return list;
}

const args = process.argv.slice(2);
/** `--fields=a,b`: the only fields every engine searches (the catalog's others stay in its items, unsearched). */
const onlyFields = args
  .find((a) => a.startsWith('--fields='))
  ?.slice(9)
  .split(',')
  .filter((f) => f !== '');

/** The fields searched on a catalog searching `fields`: all of them, or those of `--fields` it has. */
function searched(fields: readonly string[]): readonly string[] {
  if (!onlyFields) return fields;
  const kept = fields.filter((f) => onlyFields.includes(f));
  if (kept.length === 0) throw new Error(`--fields=${onlyFields.join(',')}: none of ${fields.join(', ')}`);
  return kept;
}

/** MiniSearch's nDCG@10 per query on a subject's tuning half (`--peer`: the losses against it). */
async function peerPerQuery(s: Subject): Promise<number[]> {
  const { fields, docs } = await judgedCatalog(s.name);
  const peer = miniSearchOver(docs, searched(fields));
  return Promise.all(s.queries.map(async (q) => ndcgAt(await peer.search(q.query, K), q.judged, K)));
}

/** SearchService options, and `habits`: switches of the chosen profile's naming habits, for ablations (not an option of the service). */
type Options = Omit<SearchServiceOptions, 'catalog'> & { habits?: Partial<NamingHabits> };

async function perQuery(s: Subject, { habits, ...options }: Options): Promise<number[]> {
  const profile = options.profile ?? 'neutral';
  const saved = PROFILE_HABITS[profile];
  // The service reads its profile's habits when made and builds its index at the first search.
  PROFILE_HABITS[profile] = { ...saved, ...habits };
  try {
    const fields = onlyFields && searched((await judgedCatalog(s.name)).fields);
    const engine = abkitEngine(s.catalog, fields ? { searchableFields: fields, ...options } : options);
    const out: number[] = [];
    for (const q of s.queries) out.push(ndcgAt(await engine.search(q.query, K), q.judged, K));
    return out;
  } finally {
    PROFILE_HABITS[profile] = saved;
  }
}

const mean = (v: readonly number[]) => v.reduce((a, b) => a + b, 0) / v.length;
const fmt = (n: number) => n.toFixed(3);
const signed = (n: number) => `${n >= 0 ? '+' : '−'}${Math.abs(n).toFixed(3)}`;

const showQueries = args.includes('--queries');
const showPeer = args.includes('--peer');
// `--dump=<file>` writes the defaults' nDCG@10 per query; `--against=<file>` lists the queries that changed since such a file.
const dump = args.find((a) => a.startsWith('--dump='))?.slice(7);
const against = args.find((a) => a.startsWith('--against='))?.slice(10);
const variants = args.filter((a) => !a.startsWith('--')).map((a) => JSON.parse(a) as Options);
const all = await subjects();
const base = new Map<string, number[]>();
console.log(`| variant | ${all.map((s) => `${s.name} (${s.queries.length})`).join(' | ')} |`);
console.log(`|---|${all.map(() => '---').join('|')}|`);
for (const s of all) base.set(s.name, await perQuery(s, {}));
console.log(`| defaults | ${all.map((s) => fmt(mean(base.get(s.name)!))).join(' | ')} |`);
if (dump) writeFileSync(dump, JSON.stringify(Object.fromEntries(all.map((s) => [s.name, base.get(s.name)]))));
if (against) {
  const before = JSON.parse(readFileSync(against, 'utf8')) as Record<string, number[]>;
  for (const s of all) {
    const was = before[s.name] ?? [];
    const moved = s.queries
      .map((q, i) => ({ q: q.query, d: base.get(s.name)![i]! - (was[i] ?? 0) }))
      .filter((x) => Math.abs(x.d) > 0.005)
      .sort((a, b) => a.d - b.d);
    console.log(`  ${s.name} since ${against}: ${moved.map((x) => `"${x.q}" ${signed(x.d)}`).join(', ') || 'no change'}`);
  }
}
if (showPeer) {
  const peer = await Promise.all(all.map(peerPerQuery));
  console.log(
    `| MiniSearch | ${peer.map((p, i) => `${fmt(mean(p))} (abkit ×${fmt(mean(base.get(all[i]!.name)!) / mean(p))})`).join(' | ')} |`,
  );
  all.forEach((s, i) => {
    const losses = s.queries
      .map((q, k) => ({ q: q.query, d: base.get(s.name)![k]! - peer[i]![k]! }))
      .filter((x) => x.d < -0.02)
      .sort((a, b) => a.d - b.d);
    console.log(`  ${s.name} losses to MiniSearch: ${losses.map((x) => `"${x.q}" ${signed(x.d)}`).join(', ') || 'none'}`);
  });
}
for (const v of variants) {
  const cells: string[] = [];
  const changed: string[] = [];
  for (const s of all) {
    const scores = await perQuery(s, v);
    const b = base.get(s.name)!;
    cells.push(`${fmt(mean(scores))} (${signed(mean(scores) - mean(b))})`);
    if (showQueries)
      changed.push(
        ...s.queries
          .map((q, i) => ({ q: `${s.name}: "${q.query}"`, d: scores[i]! - b[i]! }))
          .filter((x) => Math.abs(x.d) > 0.05)
          .sort((a, b) => a.d - b.d)
          .map((x) => `${x.q} ${signed(x.d)}`),
      );
  }
  console.log(`| ${JSON.stringify(v)} | ${cells.join(' | ')} |`);
  if (changed.length > 0) console.log(`  changed: ${changed.join('; ')}`);
}
