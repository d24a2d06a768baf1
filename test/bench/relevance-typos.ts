/**
 * Tuning (and, with `--held-out`, the final measure): how abkit and MiniSearch hold up when the judged queries are misspelt. For each
 * TUNING half (the held-out ones only with `--held-out`), every query is rewritten with one realistic typo per kind
 * and seed, and both engines are measured (nDCG@10) against the same judgments: the shopper's
 * intent is unchanged, only the spelling.
 *
 * Kinds: in one word of 4 letters or more, a letter left out (`deletion`), a neighbouring key of
 * a letter typed before or after it (`insertion`), two adjacent letters swapped (`transposition`),
 * a letter replaced by a neighbouring key (`substitution`), a letter typed twice (`doubled`); two
 * adjacent words typed as one (`runTogether`); one word of 4 letters or more split in two halves of
 * 2 letters or more (`split`).
 *
 * ```sh
 * npx tsx test/bench/relevance-typos.ts                 # 5 seeds
 * npx tsx test/bench/relevance-typos.ts --seeds=10 --by # more seeds; breakdowns by length, position, first letter
 * npx tsx test/bench/relevance-typos.ts --worst=20 --kind=split # the typo'd queries abkit loses most to MiniSearch on (of one kind)
 * npx tsx test/bench/relevance-typos.ts --dump=/tmp/a.json   # then, after a code change: --against=/tmp/a.json
 * npx tsx test/bench/relevance-typos.ts '{"matchingStrategy":"last"}' # a variant's abkit figures (SearchService options)
 * npx tsx test/bench/relevance-typos.ts --held-out      # the held-out halves: once, at the end of a change
 * ```
 */
import { readFileSync, writeFileSync } from 'node:fs';
import type { Catalog, SearchServiceOptions } from '../../src/index';
import { nearKeys } from '../../src/search/typos';
import { CATALOG_NAMES, type CatalogName, catalogNeed } from '../helpers/catalogs';
import { judgedCatalog } from './relevance-catalogs';
import { abkitEngine, type Engine, miniSearchOver } from './relevance-engines';
import { type JudgedQuery, readCatalogQueries, readHoldoutQueries, readJudgedQueries } from './relevance-judgments';
import { ndcgAt, seededRandom } from './relevance-metrics';

const K = 10;

/** The kinds of typo, each applied alone to a query. */
export const TYPO_KINDS = ['deletion', 'insertion', 'transposition', 'substitution', 'doubled', 'runTogether', 'split'] as const;
export type TypoKind = (typeof TYPO_KINDS)[number];

/** A misspelt query: its text, and where the typo fell (for the breakdowns). */
export interface Typo {
  readonly text: string;
  readonly kind: TypoKind;
  /** Length of the word the typo fell in (for `runTogether`, the joined word's). */
  readonly length: number;
  /** The word's place: first, inner or last word of the query (a one-word query's word is `last`). */
  readonly place: 'first' | 'inner' | 'last';
  /** Whether the typo changed the word's first letter. */
  readonly firstLetter: boolean;
}

const LETTERS = 'abcdefghijklmnopqrstuvwxyz';
/** The letters whose key touches `c`'s (QWERTY, as the engine's first-letter rule counts). */
const NEIGHBOURS = new Map([...LETTERS].map((c) => [c, [...LETTERS].filter((d) => d !== c && nearKeys(c.charCodeAt(0), d.charCodeAt(0)))]));
/** A word a letter typo may fall in: 4 letters or more (a, b, c…; digits and hyphens aside). */
const TYPABLE = /^[a-z]{4,}$/;

const pick = <T>(random: () => number, list: readonly T[]): T => list[Math.floor(random() * list.length)]!;

/** The word with one typo of `kind` (a letter kind), its first letter changed or not; undefined if none applies. */
function misspell(word: string, kind: TypoKind, random: () => number): { text: string; firstLetter: boolean } | undefined {
  const n = word.length;
  switch (kind) {
    case 'deletion': {
      const at = Math.floor(random() * n);
      return { text: word.slice(0, at) + word.slice(at + 1), firstLetter: at === 0 };
    }
    case 'insertion': {
      // A neighbouring key of the letter before or after the gap, hit along with it.
      const at = Math.floor(random() * (n + 1));
      const near = NEIGHBOURS.get(word[at === 0 ? 0 : at === n ? n - 1 : random() < 0.5 ? at - 1 : at]!) ?? [];
      if (near.length === 0) return undefined;
      return { text: word.slice(0, at) + pick(random, near) + word.slice(at), firstLetter: at === 0 };
    }
    case 'transposition': {
      const places = [...Array(n - 1).keys()].filter((i) => word[i] !== word[i + 1]);
      if (places.length === 0) return undefined;
      const at = pick(random, places);
      return { text: word.slice(0, at) + word[at + 1] + word[at] + word.slice(at + 2), firstLetter: at === 0 };
    }
    case 'substitution': {
      const at = Math.floor(random() * n);
      const near = NEIGHBOURS.get(word[at]!) ?? [];
      if (near.length === 0) return undefined;
      return { text: word.slice(0, at) + pick(random, near) + word.slice(at + 1), firstLetter: at === 0 };
    }
    case 'doubled': {
      const at = Math.floor(random() * n);
      return { text: word.slice(0, at + 1) + word.slice(at), firstLetter: false };
    }
    default:
      return undefined;
  }
}

const placeOf = (i: number, n: number): Typo['place'] => (i === n - 1 ? 'last' : i === 0 ? 'first' : 'inner');

/**
 * `query` with one typo of `kind`, drawn from `random`: undefined when the kind applies to none of
 * its words (no word of 4 letters, or a one-word query to run together).
 *
 * @example
 * ```ts
 * misspellQuery('toilet seat', 'transposition', seededRandom(1))?.text; // e.g. 'toliet seat'
 * ```
 */
export function misspellQuery(query: string, kind: TypoKind, random: () => number): Typo | undefined {
  const words = query.toLowerCase().split(/\s+/).filter(Boolean);
  const n = words.length;
  if (kind === 'runTogether') {
    if (n < 2) return undefined;
    const at = Math.floor(random() * (n - 1));
    const joined = words[at]! + words[at + 1]!;
    const text = [...words.slice(0, at), joined, ...words.slice(at + 2)].join(' ');
    return { text, kind, length: joined.length, place: placeOf(at, n - 1), firstLetter: false };
  }
  const typable = [...words.keys()].filter((i) => TYPABLE.test(words[i]!));
  if (typable.length === 0) return undefined;
  const at = pick(random, typable);
  const word = words[at]!;
  if (kind === 'split') {
    const cut = 2 + Math.floor(random() * (word.length - 3));
    const text = [...words.slice(0, at), word.slice(0, cut), word.slice(cut), ...words.slice(at + 1)].join(' ');
    return { text, kind, length: word.length, place: placeOf(at, n), firstLetter: false };
  }
  const typo = misspell(word, kind, random);
  if (!typo || typo.text === word) return undefined;
  const text = [...words.slice(0, at), typo.text, ...words.slice(at + 1)].join(' ');
  return { text, kind, length: word.length, place: placeOf(at, n), firstLetter: typo.firstLetter };
}

/** One misspelt query measured: clean and typo'd nDCG@10 of both engines. */
interface Trial {
  catalog: string;
  query: string;
  typo: Typo;
  seed: number;
  abkitClean: number;
  abkitTypo: number;
  peerClean: number;
  peerTypo: number;
}

interface Subject {
  name: 'bestbuy' | CatalogName;
  catalog: Catalog;
  peer: Engine;
  queries: JudgedQuery[];
}

async function subjects(): Promise<Subject[]> {
  const names: ('bestbuy' | CatalogName)[] = ['bestbuy', ...CATALOG_NAMES.filter((n) => catalogNeed(n).met)];
  const out: Subject[] = [];
  for (const name of names) {
    const { catalog, fields, docs } = await judgedCatalog(name);
    out.push({
      name,
      catalog,
      peer: miniSearchOver(docs, fields),
      queries: heldOut
        ? name === 'bestbuy'
          ? readHoldoutQueries()
          : readCatalogQueries(name, 'holdout')
        : name === 'bestbuy'
          ? readJudgedQueries()
          : readCatalogQueries(name, 'tuning'),
    });
  }
  return out;
}

/** Every query of every subject with one typo per kind and seed (the same draws for every variant). */
function trialsOf(s: Subject, seeds: number): { query: JudgedQuery; typo: Typo; seed: number }[] {
  const out: { query: JudgedQuery; typo: Typo; seed: number }[] = [];
  for (let seed = 1; seed <= seeds; seed++)
    s.queries.forEach((q, qi) => {
      TYPO_KINDS.forEach((kind, ki) => {
        // One stream per query, kind and seed: adding a kind or a query leaves the others' draws alone.
        const random = seededRandom(seed * 1_000_003 + qi * 101 + ki);
        const typo = misspellQuery(q.query, kind, random);
        if (typo) out.push({ query: q, typo, seed });
      });
    });
  return out;
}

async function measure(
  all: readonly Subject[],
  seeds: number,
  options: Omit<SearchServiceOptions, 'catalog'>,
  peerCache: Map<string, number>,
): Promise<Trial[]> {
  const trials: Trial[] = [];
  for (const s of all) {
    const abkit = abkitEngine(s.catalog, options);
    const memo = new Map<string, number>();
    const score = async (engine: Engine, cache: Map<string, number>, key: string, text: string, q: JudgedQuery) => {
      const k = `${key}\u0000${text}`;
      let v = cache.get(k);
      if (v === undefined) cache.set(k, (v = ndcgAt(await engine.search(text, K), q.judged, K)));
      return v;
    };
    for (const { query, typo, seed } of trialsOf(s, seeds)) {
      const key = `${s.name}\u0000${query.query}`;
      trials.push({
        catalog: s.name,
        query: query.query,
        typo,
        seed,
        abkitClean: await score(abkit, memo, key, query.query, query),
        abkitTypo: await score(abkit, memo, key, typo.text, query),
        peerClean: await score(s.peer, peerCache, key, query.query, query),
        peerTypo: await score(s.peer, peerCache, key, typo.text, query),
      });
    }
  }
  return trials;
}

const mean = (v: readonly number[]) => (v.length === 0 ? Number.NaN : v.reduce((a, b) => a + b, 0) / v.length);
const fmt = (n: number) => n.toFixed(3);
const signed = (n: number) => `${n >= 0 ? '+' : '−'}${Math.abs(n).toFixed(3)}`;

/** A row of figures for a group of trials: both engines clean and typo'd, their ratios. */
function row(label: string, group: readonly Trial[]): string {
  const ac = mean(group.map((t) => t.abkitClean));
  const at = mean(group.map((t) => t.abkitTypo));
  const pc = mean(group.map((t) => t.peerClean));
  const pt = mean(group.map((t) => t.peerTypo));
  return `| ${label} | ${group.length} | ${fmt(ac)} | ${fmt(at)} | ${fmt(at / ac)} | ${fmt(pc)} | ${fmt(pt)} | ${fmt(pt / pc)} | ${fmt(at / pt)} |`;
}

const HEADER =
  '| group | trials | abkit clean | abkit typo | kept | MiniSearch clean | MiniSearch typo | kept | abkit/MiniSearch typo |\n|---|---|---|---|---|---|---|---|---|';

function table(title: string, trials: readonly Trial[], key: (t: Trial) => string, order?: readonly string[]): void {
  const groups = new Map<string, Trial[]>();
  for (const t of trials) {
    const k = key(t);
    let g = groups.get(k);
    if (!g) groups.set(k, (g = []));
    g.push(t);
  }
  const keys = order ? order.filter((k) => groups.has(k)) : [...groups.keys()].sort();
  console.log(`\n${title}\n${HEADER}`);
  for (const k of keys) console.log(row(k, groups.get(k)!));
}

const lengthBand = (n: number) => (n <= 4 ? '4' : n <= 5 ? '5' : n <= 8 ? '6-8' : '9+');

const args = process.argv.slice(2);
const seeds = Number(args.find((a) => a.startsWith('--seeds='))?.slice(8) ?? 5);
const worst = Number(args.find((a) => a.startsWith('--worst='))?.slice(8) ?? 0);
const by = args.includes('--by');
// `--held-out`: the held-out halves, measured once a change is done (never to choose one).
const heldOut = args.includes('--held-out');
// `--kind=<kind>` keeps only that kind's trials in the `--worst` list.
const onlyKind = args.find((a) => a.startsWith('--kind='))?.slice(7);
// `--dump=<file>` writes abkit's typo'd nDCG@10 per trial; `--against=<file>` compares a code change with such a file.
const dump = args.find((a) => a.startsWith('--dump='))?.slice(7);
const against = args.find((a) => a.startsWith('--against='))?.slice(10);
const variants = args.filter((a) => !a.startsWith('--')).map((a) => JSON.parse(a) as Omit<SearchServiceOptions, 'catalog'>);
const all = await subjects();
const peerCache = new Map<string, number>();
const base = await measure(all, seeds, {}, peerCache);
const names = all.map((s) => s.name);

console.log(
  `${seeds} seeds; one typo per query, kind and seed; nDCG@10 against the unchanged judgments (${heldOut ? 'held-out' : 'tuning'} halves).`,
);
table('Per catalog (every kind)', base, (t) => t.catalog, names);
table('Per kind (every catalog)', base, (t) => t.typo.kind, TYPO_KINDS);
for (const name of names)
  table(
    `Per kind, ${name}`,
    base.filter((t) => t.catalog === name),
    (t) => t.typo.kind,
    TYPO_KINDS,
  );
if (by) {
  const letterKinds = base.filter((t) => t.typo.kind !== 'runTogether' && t.typo.kind !== 'split');
  table('Letter typos by word length', letterKinds, (t) => lengthBand(t.typo.length), ['4', '5', '6-8', '9+']);
  table('Letter typos by kind and word length', letterKinds, (t) => `${t.typo.kind} ${lengthBand(t.typo.length)}`);
  table('Every kind by place of the word', base, (t) => `${t.typo.kind} ${t.typo.place}`);
  table('Letter typos by first letter changed', letterKinds, (t) => (t.typo.firstLetter ? 'first letter' : 'later letter'));
  table(
    'Run-together by joined length',
    base.filter((t) => t.typo.kind === 'runTogether'),
    (t) => lengthBand(t.typo.length),
    ['4', '5', '6-8', '9+'],
  );
}
if (dump) writeFileSync(dump, JSON.stringify(base.map((t) => [t.abkitClean, t.abkitTypo])));
if (against) {
  const was = JSON.parse(readFileSync(against, 'utf8')) as [number, number][];
  const delta = (group: (t: Trial) => boolean, at: 0 | 1) => {
    const idx = base.flatMap((t, i) => (group(t) ? [i] : []));
    return mean(idx.map((i) => (at === 0 ? base[i]!.abkitClean : base[i]!.abkitTypo) - was[i]![at]));
  };
  console.log(`\nabkit since ${against}: clean / typo'd`);
  for (const name of names)
    console.log(`  ${name}: ${signed(delta((t) => t.catalog === name, 0))} / ${signed(delta((t) => t.catalog === name, 1))}`);
  for (const kind of TYPO_KINDS) console.log(`  ${kind}: typo'd ${signed(delta((t) => t.typo.kind === kind, 1))}`);
  const moved = base
    .map((t, i) => ({ t, d: t.abkitTypo - was[i]![1] }))
    .filter((x) => Math.abs(x.d) > 0.05)
    .sort((a, b) => a.d - b.d);
  console.log(
    `  typo'd queries moved (${moved.length}): ${moved.map(({ t, d }) => `${t.catalog} "${t.typo.text}" ${signed(d)}`).join(', ')}`,
  );
}
if (worst > 0) {
  const lost = base
    .filter((t) => !onlyKind || t.typo.kind === onlyKind)
    .sort((a, b) => a.abkitTypo - a.peerTypo - (b.abkitTypo - b.peerTypo))
    .slice(0, worst);
  console.log("\nTypo'd queries abkit loses most to MiniSearch on (clean abkit/MiniSearch → typo'd):");
  for (const t of lost)
    console.log(
      `  ${t.catalog} ${t.typo.kind}: "${t.query}" → "${t.typo.text}": abkit ${fmt(t.abkitClean)} → ${fmt(t.abkitTypo)}, MiniSearch ${fmt(t.peerClean)} → ${fmt(t.peerTypo)}`,
    );
}
for (const v of variants) {
  const trials = await measure(all, seeds, v, peerCache);
  const cells = names.map((name) => {
    const b = base.filter((t) => t.catalog === name);
    const x = trials.filter((t) => t.catalog === name);
    return `${fmt(mean(x.map((t) => t.abkitTypo)))} (${signed(mean(x.map((t) => t.abkitTypo)) - mean(b.map((t) => t.abkitTypo)))})`;
  });
  console.log(`\n| ${JSON.stringify(v)} typo'd | ${cells.join(' | ')} |`);
  const kinds = TYPO_KINDS.map((k) => {
    const b = base.filter((t) => t.typo.kind === k);
    const x = trials.filter((t) => t.typo.kind === k);
    return `${k} ${signed(mean(x.map((t) => t.abkitTypo)) - mean(b.map((t) => t.abkitTypo)))}`;
  });
  console.log(`  per kind: ${kinds.join(', ')}`);
}
