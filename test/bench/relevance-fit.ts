/**
 * Study (bench only): would a combination of the rule signals, fitted across catalogs, rank better
 * than the neutral cascade, where one rule settles every order it can before the next is read?
 *
 * For every TUNING query of the four judged catalogs (never a held-out file) it gathers a pool of
 * candidates: abkit's first {@link POOL} hits with their `_rankingScoreDetails`, plus MiniSearch's
 * first {@link PEER_POOL} among abkit's first {@link DEEP} (the peer's finds abkit ranks low), and
 * each one's signals in [0, 1] and its grade. Then, leaving one catalog out at a time, it fits a
 * few small models on the other three (coordinate ascent over a grid of weights, maximizing the
 * mean over catalogs of mean nDCG@10) and measures them on the catalog left out, next to the
 * cascade (abkit's own order of the pool; re-sorting the pool changes only the order, never the
 * ideal, so the cascade's figure is its relevance-tune.ts figure).
 *
 * ```sh
 * npx tsx test/bench/relevance-fit.ts               # gathers (cached in /tmp/relevance-fit.json), then fits
 * npx tsx test/bench/relevance-fit.ts --regather    # gathers again (after a change to the rules)
 * npx tsx test/bench/relevance-fit.ts --restarts=0   # coordinate ascent from the cascade only (seconds, not minutes)
 * ```
 *
 * What it found (tuning halves, November 2026, at the neutral cascade of 0.942 / 0.880 / 0.853 /
 * 0.899): no model beats the cascade leaving one catalog out on three catalogs without losing on
 * one. Weights that help sporting goods and general merchandise (subject or BM25 allowed to
 * outweigh part of `words`: an item named by the query's head word before one matching more words
 * elsewhere) cost Best Buy 0.009–0.023 and menswear 0.002–0.009, and each catalog fitting itself
 * finds at most +0.003 on Best Buy and +0.004 on menswear: there the cascade's order is already the
 * best these signals allow. `words` decides 72–94% of the gain-weighted pairs of the cascade's first
 * ten and is wrong on ≤ 1% of them; the signals' errors are in what they read (matching, subject),
 * not in how the cascade combines them. The only fold-stable gain, `words` + `exactness` in one key,
 * moves one query each on two catalogs (+0.002): noise.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { CATALOG_NAMES, type CatalogName, catalogNeed } from '../helpers/catalogs';
import { judgedCatalog } from './relevance-catalogs';
import { abkitEngine, miniSearchOver } from './relevance-engines';
import { type JudgedQuery, readCatalogQueries, readJudgedQueries } from './relevance-judgments';
import { gain, seededRandom } from './relevance-metrics';

const K = 10;
const POOL = 200;
const DEEP = 1000;
const PEER_POOL = 100;
const CACHE = '/tmp/relevance-fit.json';

/** The signals read per candidate, each in [0, 1], the higher the better. */
const SIGNALS = [
  'words',
  'typo',
  'exactness',
  'subject',
  'proximity',
  'bm25',
  'nameCoverage',
  'textCoverage',
  'attribute',
  // The share of the query's terms matched, unweighted by rarity.
  'matched',
  // Whether the query's head term names the item (ends a phrase of its name, or is its category's type word).
  'headNames',
] as const;
type Signal = (typeof SIGNALS)[number];

/** One candidate: its signals (in {@link SIGNALS}' order), its place in abkit's order and its grade. */
interface Candidate {
  f: number[];
  rank: number;
  grade: number;
}

interface Query {
  query: string;
  /** The ideal DCG@10 from every judged product (the pool's order never changes it). */
  ideal: number;
  cands: Candidate[];
}

type Data = Record<string, Query[]>;

type Details = Record<string, Record<string, unknown> | undefined>;

const num = (v: unknown, fallback: number): number => (typeof v === 'number' ? v : fallback);

/** A hit's signals from its details: each rule's detail score, BM25 over the pool's best. */
function signals(d: Details, bestBm25: number): number[] {
  const bm = num(d.bm25?.value, 0);
  const values: Record<Signal, number> = {
    words: num(d.words?.score, 1),
    typo: num(d.typo?.score, 1),
    exactness: num(d.exactness?.score, 0),
    subject: num(d.subject?.score, 0),
    proximity: num(d.proximity?.score, 0),
    bm25: bestBm25 > 0 ? bm / bestBm25 : 0,
    nameCoverage: num(d.bm25?.coverage, 0),
    textCoverage: num(d.bm25?.textCoverage, 0),
    attribute: num(d.attribute?.score, 0),
    matched: num(d.words?.matchingWords, 1) / Math.max(1, num(d.words?.maxMatchingWords, 1)),
    headNames: d.subject?.headNamesItem === true ? 1 : 0,
  };
  return SIGNALS.map((s) => values[s]);
}

function dcgOf(grades: readonly number[]): number {
  let sum = 0;
  for (let i = 0; i < Math.min(K, grades.length); i++) sum += gain(grades[i]!) / Math.log2(i + 2);
  return sum;
}

async function gather(): Promise<Data> {
  const subjects: { name: string; queries: JudgedQuery[] }[] = [{ name: 'bestbuy', queries: readJudgedQueries() }];
  for (const name of CATALOG_NAMES) if (catalogNeed(name).met) subjects.push({ name, queries: readCatalogQueries(name, 'tuning') });
  const data: Data = {};
  for (const s of subjects) {
    const { catalog, fields, docs } = await judgedCatalog(s.name as 'bestbuy' | CatalogName);
    const engine = abkitEngine(catalog);
    const peer = miniSearchOver(docs, fields);
    const out: Query[] = [];
    for (const q of s.queries) {
      const hits = await engine.details(q.query, DEEP);
      const peerIds = new Set(await peer.search(q.query, PEER_POOL));
      const kept = hits.map((h, rank) => ({ h, rank })).filter(({ h, rank }) => rank < POOL || peerIds.has(String(h.id)));
      const bestBm25 = Math.max(0, ...kept.map(({ h }) => num((h._rankingScoreDetails as Details).bm25?.value, 0)));
      const cands = kept.map(({ h, rank }) => ({
        f: signals(h._rankingScoreDetails as Details, bestBm25),
        rank,
        grade: q.judged.get(String(h.id)) ?? 0,
      }));
      out.push({ query: q.query, ideal: dcgOf([...q.judged.values()].sort((a, b) => b - a)), cands });
    }
    data[s.name] = out;
    console.error(`gathered ${s.name}: ${out.length} queries, ${out.reduce((n, q) => n + q.cands.length, 0)} candidates`);
  }
  return data;
}

/** One key of a model: a weighted sum of the signals, rounded to `step` when step > 0 (near-equal sums tie). */
interface Key {
  weights: number[];
  step: number;
}

/** A model: keys compared in turn, the cascade's own order breaking the last ties. */
type Model = Key[];

const at = (s: Signal) => SIGNALS.indexOf(s);
const only = (s: Signal, step = 0): Key => ({ weights: SIGNALS.map((x) => (x === s ? 1 : 0)), step });

function keyOf(k: Key, f: readonly number[]): number {
  let s = 0;
  for (let i = 0; i < SIGNALS.length; i++) s += k.weights[i]! * f[i]!;
  return k.step > 0 ? Math.round(s / k.step) : s;
}

function ndcgOf(q: Query, m: Model): number {
  if (q.ideal === 0) return 0;
  const keyed = q.cands.map((c) => ({ keys: m.map((k) => keyOf(k, c.f)), rank: c.rank, grade: c.grade }));
  keyed.sort((a, b) => {
    for (let i = 0; i < m.length; i++) if (a.keys[i] !== b.keys[i]) return b.keys[i]! - a.keys[i]!;
    return a.rank - b.rank;
  });
  return dcgOf(keyed.map((k) => k.grade)) / q.ideal;
}

const mean = (v: readonly number[]) => v.reduce((a, b) => a + b, 0) / v.length;
const catalogMean = (qs: readonly Query[], m: Model) => mean(qs.map((q) => ndcgOf(q, m)));
/** The objective: the mean over catalogs (each weighing alike, whatever its number of queries). */
const objective = (cats: readonly Query[][], m: Model) => mean(cats.map((qs) => catalogMean(qs, m)));

/** The cascade: abkit's own order of the pool. */
const CASCADE: Model = [];
/** The cascade rebuilt from the signals (a check that they carry its order: the same figures as {@link CASCADE}). */
const REBUILT: Model = (
  ['words', 'typo', 'exactness', 'subject', 'proximity', 'bm25', 'nameCoverage', 'textCoverage', 'attribute'] as const
).map((s) => only(s));

/** A parameter of a family: a weight of one of its keys, or a key's step, and the values it may take. */
interface Param {
  key: number;
  /** A signal's weight, or the key's step. */
  what: Signal | 'step';
  grid: readonly number[];
}

/** A family of models: its model before fitting, and the parameters the fit may move. */
interface Family {
  name: string;
  start: Model;
  params: readonly Param[];
  /** Subtracted from the objective per unit of weight moved off the start, against weights the data hardly asks for. */
  penalty: number;
}

const clone = (m: Model): Model => m.map((k) => ({ weights: [...k.weights], step: k.step }));
const paramValue = (m: Model, p: Param) => (p.what === 'step' ? m[p.key]!.step : m[p.key]!.weights[at(p.what)]!);
function withValue(m: Model, p: Param, v: number): Model {
  const out = clone(m);
  if (p.what === 'step') out[p.key]!.step = v;
  else out[p.key]!.weights[at(p.what)] = v;
  return out;
}

/** Coordinate ascent over the grids, from `start`, until no parameter moves. */
function ascend(family: Family, score: (m: Model) => number, start: Model): { model: Model; score: number } {
  let best = start;
  let bestScore = score(best);
  for (let round = 0; round < 8; round++) {
    let moved = false;
    for (const p of family.params)
      for (const v of p.grid) {
        const m = withValue(best, p, v);
        const s = score(m);
        if (s > bestScore + 1e-9) [best, bestScore, moved] = [m, s, true];
      }
    if (!moved) break;
  }
  return { model: best, score: bestScore };
}

/** Restarts of the ascent besides the family's start: random models near it (seeded, so a run is reproducible). */
const RESTARTS = Number(process.argv.find((a) => a.startsWith('--restarts='))?.slice(11) ?? 12);

/** The best of coordinate ascents from the family's start and from {@link RESTARTS} random starts. */
function fitModel(cats: readonly Query[][], family: Family): Model {
  const cost = (m: Model) =>
    family.params.filter((p) => p.what !== 'step').reduce((sum, p) => sum + Math.abs(paramValue(m, p) - paramValue(family.start, p)), 0);
  const score = (m: Model) => objective(cats, m) - family.penalty * cost(m);
  const random = seededRandom(26);
  let best = ascend(family, score, family.start);
  for (let r = 0; r < RESTARTS; r++) {
    let start = family.start;
    for (const p of family.params) if (random() < 0.3) start = withValue(start, p, p.grid[Math.floor(random() * p.grid.length)]!);
    const found = ascend(family, score, start);
    if (found.score > best.score + 1e-9) best = found;
  }
  return best.model;
}

const WEIGHTS = [0, 0.05, 0.1, 0.2, 0.3, 0.5, 0.75, 1];
const STEPS = [0, 0.05, 0.1, 0.2, 0.25, 0.34, 0.5];
const LATER: readonly Signal[] = SIGNALS.filter((s) => s !== 'words');
const FAMILIES: Family[] = [
  // The words key coarsened (coverage bucketed), the cascade after it.
  { name: 'words bucketed', start: [only('words')], params: [{ key: 0, what: 'step', grid: STEPS }], penalty: 0 },
  // Words and one later rule merged into one key, bucketed; the cascade after it.
  ...(['subject', 'headNames', 'matched', 'bm25', 'exactness', 'proximity'] as const).map((s) => ({
    name: `words+${s}, bucketed`,
    start: [only('words')],
    params: [
      { key: 0, what: s, grid: WEIGHTS },
      { key: 0, what: 'step' as const, grid: STEPS },
    ],
    penalty: 0,
  })),
  // One key: words plus a linear blend of every later signal (rounded or not); the cascade after it.
  {
    name: 'linear blend',
    start: [only('words')],
    params: [...LATER.map((s) => ({ key: 0, what: s, grid: WEIGHTS })), { key: 0, what: 'step' as const, grid: STEPS }],
    penalty: 0.002,
  },
  // Coverage bucketed first, then a linear blend of the later signals instead of their cascade.
  {
    name: 'words bucketed, then blend',
    start: [only('words', 0.2), { ...only('typo'), weights: SIGNALS.map(() => 0) }],
    params: [{ key: 0, what: 'step', grid: STEPS.slice(1) }, ...LATER.map((s) => ({ key: 1, what: s, grid: WEIGHTS }))],
    penalty: 0.002,
  },
];

/**
 * The classic learned combination: a linear score over the signals fitted by pairwise logistic
 * loss (RankNet with a linear model), with an L2 penalty `l2`: every pair of a query's pooled hits
 * of different grades with one of them in the cascade's first {@link PAIR_DEPTH}, weighted by the
 * gain at stake, each query weighing alike within its catalog and each catalog alike.
 */
const PAIR_DEPTH = 30;

function pairwiseFit(cats: readonly Query[][], l2: number): number[] {
  const d = SIGNALS.length;
  const diffs: number[] = [];
  const weights: number[] = [];
  for (const qs of cats)
    for (const q of qs) {
      const pairs: [Candidate, Candidate, number][] = [];
      for (const a of q.cands)
        for (const b of q.cands)
          if (a.grade > b.grade && Math.min(a.rank, b.rank) < PAIR_DEPTH) pairs.push([a, b, gain(a.grade) - gain(b.grade)]);
      const total = pairs.reduce((sum, [, , w]) => sum + w, 0);
      for (const [a, b, w] of pairs) {
        for (let i = 0; i < d; i++) diffs.push(a.f[i]! - b.f[i]!);
        weights.push(w / total / qs.length / cats.length);
      }
    }
  const x = Float64Array.from(diffs);
  // Newton's method on the convex loss: a few steps, each solving the d × d system.
  const w = new Float64Array(d);
  for (let iter = 0; iter < 12; iter++) {
    const grad = Array.from(w, (v) => 2 * l2 * v);
    const hess = Array.from({ length: d }, (_, i) => Array.from({ length: d }, (_, j) => (i === j ? 2 * l2 : 0)));
    for (let p = 0; p < weights.length; p++) {
      let margin = 0;
      for (let i = 0; i < d; i++) margin += w[i]! * x[p * d + i]!;
      const sigma = 1 / (1 + Math.exp(margin));
      const g = -weights[p]! * sigma;
      const h = weights[p]! * sigma * (1 - sigma);
      for (let i = 0; i < d; i++) {
        const xi = x[p * d + i]!;
        grad[i]! += g * xi;
        const row = hess[i]!;
        for (let j = 0; j < d; j++) row[j]! += h * xi * x[p * d + j]!;
      }
    }
    const step = solve(hess, grad);
    for (let i = 0; i < d; i++) w[i]! -= step[i]!;
  }
  return Array.from(w, (v) => Math.round(v * 1000) / 1000);
}

/** Solves a · x = b by Gaussian elimination with partial pivoting (a small, positive definite system). */
function solve(a: number[][], b: number[]): number[] {
  const n = b.length;
  const m = a.map((row, i) => [...row, b[i]!]);
  for (let c = 0; c < n; c++) {
    let pivot = c;
    for (let r = c + 1; r < n; r++) if (Math.abs(m[r]![c]!) > Math.abs(m[pivot]![c]!)) pivot = r;
    [m[c], m[pivot]] = [m[pivot]!, m[c]!];
    for (let r = c + 1; r < n; r++) {
      const f = m[r]![c]! / m[c]![c]!;
      for (let k = c; k <= n; k++) m[r]![k]! -= f * m[c]![k]!;
    }
  }
  const out = new Array<number>(n).fill(0);
  for (let r = n - 1; r >= 0; r--) {
    let sum = m[r]![n]!;
    for (let k = r + 1; k < n; k++) sum -= m[r]![k]! * out[k]!;
    out[r] = sum / m[r]![r]!;
  }
  return out;
}

function pairwiseRows(names: readonly string[], data: Data): string[] {
  const rows: string[] = [];
  for (const l2 of [0.001, 0.01]) {
    for (const afterWords of [false, true]) {
      const cells: string[] = [];
      const fitted: string[] = [];
      let wins = 0;
      let losses = 0;
      for (const held of names) {
        const w = pairwiseFit(
          names.filter((n) => n !== held).map((n) => data[n]!),
          l2,
        );
        const blend: Key = { weights: w, step: 0 };
        const model: Model = afterWords ? [only('words'), blend] : [blend];
        const base = catalogMean(data[held]!, CASCADE);
        const v = catalogMean(data[held]!, model);
        if (v - base > 0.002) wins++;
        if (v - base < -0.002) losses++;
        const moves = data[held]!.map((q) => ndcgOf(q, model) - ndcgOf(q, CASCADE));
        cells.push(`${fmt(v)} (${signed(v - base)}; ${moves.filter((x) => x > 0.005).length}↑ ${moves.filter((x) => x < -0.005).length}↓)`);
        fitted.push(`  without ${held}: ${describe(model)}`);
      }
      rows.push(`| pairwise logistic, L2 ${l2}${afterWords ? ', after words' : ''} (LOCO) | ${cells.join(' | ')} | ${wins}/${losses} |`);
      rows.push(...fitted);
    }
  }
  return rows;
}

const args = process.argv.slice(2);
const data: Data = !args.includes('--regather') && existsSync(CACHE) ? (JSON.parse(readFileSync(CACHE, 'utf8')) as Data) : await gather();
writeFileSync(CACHE, JSON.stringify(data));
const names = Object.keys(data);
const fmt = (n: number) => n.toFixed(3);
const signed = (n: number) => `${n >= 0 ? '+' : '−'}${Math.abs(n).toFixed(3)}`;
const describe = (m: Model) =>
  m
    .map(
      (k) =>
        `[${SIGNALS.map((s, i) => [s, k.weights[i]!] as const)
          .filter(([, w]) => w !== 0)
          .map(([s, w]) => `${s} ${w}`)
          .join(' + ')}${k.step > 0 ? ` /${k.step}` : ''}]`,
    )
    .join(', ');

console.log(`| model | ${names.map((n) => `${n} (${data[n]!.length})`).join(' | ')} | wins/losses |`);
console.log(`|---|${names.map(() => '---').join('|')}|---|`);
console.log(`| cascade (abkit's order) | ${names.map((n) => fmt(catalogMean(data[n]!, CASCADE))).join(' | ')} | |`);
console.log(`| cascade rebuilt from the signals | ${names.map((n) => fmt(catalogMean(data[n]!, REBUILT))).join(' | ')} | |`);
const inSample: string[] = [];
for (const family of FAMILIES) {
  const cells: string[] = [];
  const fitted: string[] = [];
  let wins = 0;
  let losses = 0;
  for (const held of names) {
    const model = fitModel(
      names.filter((n) => n !== held).map((n) => data[n]!),
      family,
    );
    const base = catalogMean(data[held]!, CASCADE);
    const v = catalogMean(data[held]!, model);
    if (v - base > 0.002) wins++;
    if (v - base < -0.002) losses++;
    // The held-out catalog's queries it moves (by more than 0.005): up/down.
    const moves = data[held]!.map((q) => ndcgOf(q, model) - ndcgOf(q, CASCADE));
    const up = moves.filter((d) => d > 0.005).length;
    const down = moves.filter((d) => d < -0.005).length;
    cells.push(`${fmt(v)} (${signed(v - base)}; ${up}↑ ${down}↓)`);
    fitted.push(`  without ${held}: ${describe(model)}`);
  }
  console.log(`| ${family.name} (LOCO) | ${cells.join(' | ')} | ${wins}/${losses} |`);
  console.log(fitted.join('\n'));
  // Fitted on each catalog alone, measured on it: how much any such model could gain at best (no held-out figure).
  inSample.push(
    `| ${family.name} (in-sample, per catalog) | ${names
      .map((n) => {
        const m = fitModel([data[n]!], family);
        const v = catalogMean(data[n]!, m);
        return `${fmt(v)} (${signed(v - catalogMean(data[n]!, CASCADE))})`;
      })
      .join(' | ')} | |`,
  );
}
console.log(pairwiseRows(names, data).join('\n'));
console.log('\nUpper bounds, each catalog fitting itself:');
console.log(inSample.join('\n'));

/**
 * Which signal decides the cascade's pairs in its first ten: for each pair of a hit in the first
 * ten above another pooled hit of a different grade, the first signal (in the cascade's order)
 * on which they differ, weighted by the gain at stake at the upper one's place; "wrong" when the
 * lower grade is above. A rule that is seldom wrong leaves a blend little to correct.
 */
const CASCADE_ORDER: readonly Signal[] = SIGNALS.filter((s) => s !== 'matched' && s !== 'headNames');
console.log('\nWho decides the cascade’s first ten (gain-weighted pairs it orders; share wrong):');
for (const n of names) {
  const decided = new Map<string, { right: number; wrong: number }>();
  for (const q of data[n]!) {
    const ranked = [...q.cands].sort((a, b) => a.rank - b.rank);
    for (let i = 0; i < Math.min(K, ranked.length); i++)
      for (let j = i + 1; j < ranked.length; j++) {
        const [a, b] = [ranked[i]!, ranked[j]!];
        if (a.grade === b.grade) continue;
        const by = CASCADE_ORDER.find((s) => Math.abs(a.f[at(s)]! - b.f[at(s)]!) > 1e-9) ?? 'later rules';
        const tally = decided.get(by) ?? { right: 0, wrong: 0 };
        const stake = Math.abs(gain(a.grade) - gain(b.grade)) / Math.log2(i + 2);
        if (a.grade > b.grade) tally.right += stake;
        else tally.wrong += stake;
        decided.set(by, tally);
      }
  }
  const total = [...decided.values()].reduce((s, t) => s + t.right + t.wrong, 0);
  console.log(
    `  ${n}: ${[...decided]
      .sort(([, x], [, y]) => y.right + y.wrong - (x.right + x.wrong))
      .map(
        ([s, t]) =>
          `${s} ${((100 * (t.right + t.wrong)) / total).toFixed(1)}% (${((100 * t.wrong) / (t.right + t.wrong)).toFixed(0)}% wrong)`,
      )
      .join(', ')}`,
  );
}
