/**
 * `npm run bench -- minisearch`: abkit's term dictionary (its own trie, src/search/dictionary.ts)
 * against the same dictionary backed by MiniSearch's `SearchableMap`, walked by abkit's
 * automaton (radix-dictionary.ts) or through the map's public lookups only, each under abkit's
 * ranking, with MiniSearch's own index and search as a reference: nDCG@10 on every judged set,
 * search latency at 10,000 and 100,000 items (variants alternated query by query), index build
 * time and heap, the dictionary alone (build, heap, lookups) and lines of code. ARCHITECTURE.md
 * ("Search and MiniSearch") quotes it.
 */
import { readFileSync } from 'node:fs';
import { type Catalog, SearchService } from '../../src/index';
import { Analyzer } from '../../src/search/analysis';
import type { LookupWork } from '../../src/search/dictionary';
import { MAX_DERIVATIONS } from '../../src/search/matching';
import { allowedTypos } from '../../src/search/typos';
import { type BestBuyProduct, loadBestBuy } from '../helpers/bestbuy';
import { CATALOG_NAMES, type CatalogName, catalogNeed, sharedCatalog } from '../helpers/catalogs';
import { collectGarbage } from './gc';
import { ms } from './loop-watch';
import { buildDictionary, type DictionaryKind, useDictionary } from './minisearch-dictionary';
import type { TermDictionary } from './radix-dictionary';
import { judgedCatalog } from './relevance-catalogs';
import { miniSearchEngine, miniSearchOver } from './relevance-engines';
import { type Half, type JudgedQuery, readCatalogQueries, readHoldoutQueries, readJudgedQueries } from './relevance-judgments';
import { median, ndcgAt, percentile } from './relevance-metrics';
import { alternate, LARGE, type Latency, largeCatalog, QUERIES, repeated } from './search';

const KINDS: readonly DictionaryKind[] = ['trie', 'searchable-map', 'searchable-map-public'];
const LABEL: Record<DictionaryKind, string> = {
  trie: 'abkit trie (default)',
  'searchable-map': 'SearchableMap + abkit automaton',
  'searchable-map-public': 'SearchableMap public API only',
};
const MINI = 'MiniSearch 7 own index and search';
const K = 10;
const mb = (bytes: number) => (bytes / 2 ** 20).toFixed(1);
const mean = (v: readonly number[]) => v.reduce((a, b) => a + b, 0) / v.length;

/** Memory in use: the heap, and the typed arrays' buffers outside it (the trie's, the postings'). */
const used = () => {
  const m = process.memoryUsage();
  return m.heapUsed + m.arrayBuffers;
};

/** Memory retained by what `make` builds (kept alive until measured), and its time. */
async function retained<T>(make: () => Promise<T> | T): Promise<{ value: T; ms: number; heap: number }> {
  collectGarbage();
  const before = used();
  const t = performance.now();
  const value = await make();
  const took = performance.now() - t;
  collectGarbage();
  return { value, ms: took, heap: used() - before };
}

/** A text-only search service whose index holds a `kind` dictionary, built now (its first search), and that dictionary. */
async function serviceWith(kind: DictionaryKind, catalog: Catalog) {
  let dictionary: TermDictionary | undefined;
  const built = await retained(async () => {
    useDictionary(kind, (d) => {
      dictionary = d;
    });
    const service = new SearchService({ catalog, facets: [] });
    try {
      await service.search({ text: 'galaxy case' });
    } finally {
      useDictionary('trie');
    }
    return service;
  });
  return { ...built, dictionary: dictionary! };
}

/** Best Buy and every shared catalog whose data is present (a missing one is said), with their judged halves. */
function judgedSets(): { name: 'bestbuy' | CatalogName; title: string; halves: [Half, JudgedQuery[]][] }[] {
  const sets: ReturnType<typeof judgedSets> = [
    {
      name: 'bestbuy',
      title: 'Best Buy (cell phones and accessories)',
      halves: [
        ['tuning', readJudgedQueries()],
        ['holdout', readHoldoutQueries()],
      ],
    },
  ];
  for (const name of CATALOG_NAMES) {
    const need = catalogNeed(name);
    if (!need.met) console.log(`\n## Relevance on ${name}: SKIPPED, ${need.missing} (see ../shared/data/README.md)`);
    else
      sets.push({
        name,
        title: sharedCatalog(name).title,
        halves: [
          ['tuning', readCatalogQueries(name, 'tuning')],
          ['holdout', readCatalogQueries(name, 'holdout')],
        ],
      });
  }
  return sets;
}

const ids = async (service: SearchService, text: string) => (await service.search({ text, hitsPerPage: K })).hits.map((h) => h.id);

/** nDCG@10 of each variant on every half of every judged catalog; the queries whose top 10 differ from the trie's. */
async function relevance(): Promise<string[]> {
  const words = new Set<string>();
  console.log(`\n## Relevance: nDCG@${K} on every judged set (abkit's ranking over each dictionary; MiniSearch's own search as reference)`);
  console.log(`| catalog | half (queries) | ${KINDS.map((k) => LABEL[k]).join(' | ')} | ${MINI} |`);
  console.log(`|---|---|${KINDS.map(() => '---|').join('')}---|`);
  const notes: string[] = [];
  for (const set of judgedSets()) {
    const j = { ...set, ...(await judgedCatalog(set.name)) };
    const services = new Map<DictionaryKind, SearchService>();
    for (const kind of KINDS) {
      const { value, dictionary } = await serviceWith(kind, j.catalog);
      services.set(kind, value);
      for (const w of dictionary.words) words.add(w);
    }
    const mini = miniSearchOver(j.docs, j.fields);
    for (const [half, queries] of j.halves) {
      const cells: string[] = [];
      let trieLists: string[][] = [];
      for (const kind of KINDS) {
        const lists: string[][] = [];
        for (const q of queries) lists.push(await ids(services.get(kind)!, q.query));
        if (kind === 'trie') trieLists = lists;
        const differ = queries.filter((_, i) => lists[i]!.join() !== trieLists[i]!.join());
        const ndcg = mean(queries.map((q, i) => ndcgAt(lists[i]!, q.judged, K)));
        cells.push(`${ndcg.toFixed(3)}${kind === 'trie' ? '' : differ.length === 0 ? ' (identical)' : ` (${differ.length} differ)`}`);
        if (differ.length > 0) notes.push(`${LABEL[kind]}, ${j.title} ${half}: ${differ.map((q) => `"${q.query}"`).join(', ')}`);
      }
      const miniNdcg = mean(await Promise.all(queries.map(async (q) => ndcgAt(await mini.search(q.query, K), q.judged, K))));
      console.log(
        `| ${j.title} | ${half === 'tuning' ? 'tuning' : 'held-out'} (${queries.length}) | ${cells.join(' | ')} | ${miniNdcg.toFixed(3)} |`,
      );
    }
  }
  console.log('"identical": every query\'s top 10, ids and order, is the trie\'s. Queries whose top 10 differ:');
  for (const note of notes) console.log(`- ${note}`);
  return [...words];
}

/** What matching (src/search/matching.ts) asks of the dictionary for one query's terms. */
function dictionaryWork(dict: TermDictionary, analyzer: Analyzer, text: string, work: LookupWork): number {
  const { terms } = analyzer.query(text, 10);
  let found = 0;
  terms.forEach((term, i) => {
    found += dict.id(term.text) >= 0 ? 1 : 0;
    const typos = allowedTypos(term.text.length);
    const prefix = i === terms.length - 1 || term.text.length >= 3;
    if (typos > 0 || prefix) dict.lookup(term.text, typos, prefix, MAX_DERIVATIONS, () => found++, work);
    found += dict.id(term.stem) >= 0 ? 1 : 0;
    // The halves of a word written as two ("earbuds" → "ear buds").
    for (let p = 2; p + 2 <= term.text.length; p++) found += dict.id(term.text.slice(0, p)) + dict.id(term.text.slice(p)) >= 0 ? 1 : 0;
  });
  return found;
}

/** The dictionary alone over `words`: build time and heap (5 rounds, alternated), and every query's lookups (alternated). */
export function dictionaryAlone(title: string, words: readonly string[], queries: readonly string[]): void {
  const builds = new Map(KINDS.map((k) => [k, { ms: [] as number[], heap: [] as number[] }]));
  const dicts = new Map<DictionaryKind, TermDictionary>();
  for (let round = 0; round < 5; round++) {
    for (let j = 0; j < KINDS.length; j++) {
      const kind = KINDS[(j + round) % KINDS.length]!;
      dicts.delete(kind);
      collectGarbage();
      const before = used();
      const t = performance.now();
      const dict = buildDictionary(kind, words);
      const took = performance.now() - t;
      collectGarbage();
      builds.get(kind)!.ms.push(took);
      builds.get(kind)!.heap.push(used() - before);
      dicts.set(kind, dict);
    }
  }
  const analyzer = new Analyzer();
  const times = new Map(KINDS.map((k) => [k, [] as number[]]));
  const works = new Map(KINDS.map((k) => [k, { nodes: 0, words: 0 }]));
  const REPEAT = 10;
  for (let round = 0; round < 12; round++) {
    for (const q of queries) {
      for (let j = 0; j < KINDS.length; j++) {
        const kind = KINDS[(j + round) % KINDS.length]!;
        const dict = dicts.get(kind)!;
        const work = round === 0 ? works.get(kind)! : { nodes: 0, words: 0 };
        const t = performance.now();
        for (let r = 0; r < REPEAT; r++) dictionaryWork(dict, analyzer, q, r === 0 ? work : { nodes: 0, words: 0 });
        // Round 0 warms up.
        if (round > 0) times.get(kind)!.push(((performance.now() - t) / REPEAT) * 1000);
      }
    }
  }
  console.log(`\n### The dictionary alone: ${title} (${words.length.toLocaleString('en-US')} words)`);
  console.log(
    '| dictionary | build ms (median of 5) | memory MB | lookups of one query µs p50 | p99 | trie nodes / words reached per pass |',
  );
  console.log('|---|---|---|---|---|---|');
  for (const kind of KINDS) {
    const b = builds.get(kind)!;
    const t = times.get(kind)!.sort((a, z) => a - z);
    const w = works.get(kind)!;
    console.log(
      `| ${LABEL[kind]} | ${ms(median(b.ms))} | ${mb(median(b.heap))} | ${percentile(t, 50).toFixed(1)} | ${percentile(t, 99).toFixed(1)} | ${w.nodes.toLocaleString('en-US')} / ${w.words.toLocaleString('en-US')} |`,
    );
  }
}

interface SizeFigures {
  label: string;
  rows: Latency[];
  build: Map<string, { ms: number[]; heap: number[] }>;
}

/** Index build (time, heap) of every variant at `count` items, then search latency alternated query by query. */
async function atSize(
  products: readonly BestBuyProduct[],
  count: number,
  rounds: number,
  queries: readonly string[],
): Promise<SizeFigures> {
  const catalog = await largeCatalog(repeated(products, count));
  const build = new Map<string, { ms: number[]; heap: number[] }>(
    [...KINDS.map((k) => LABEL[k]), MINI].map((l) => [l, { ms: [], heap: [] }]),
  );
  const services = new Map<DictionaryKind, SearchService>();
  for (let round = 0; round < 3; round++) {
    for (let j = 0; j < KINDS.length; j++) {
      const kind = KINDS[(j + round) % KINDS.length]!;
      services.delete(kind);
      const r = await serviceWith(kind, catalog);
      services.set(kind, r.value);
      build.get(LABEL[kind])!.ms.push(r.ms);
      build.get(LABEL[kind])!.heap.push(r.heap);
    }
  }
  // MiniSearch indexes the same documents (name, brand, description, categories), as the search benchmark's baseline does.
  const docs = Array.from({ length: count }, (_, i) => products[i % products.length]!);
  let mini: ReturnType<typeof miniSearchEngine> | undefined;
  // One build at 100,000 items: it takes seconds and leaves a gigabyte of garbage.
  for (let round = 0; round < (count > 20_000 ? 1 : 3); round++) {
    mini = undefined;
    const r = await retained(() => miniSearchEngine(docs));
    mini = r.value;
    build.get(MINI)!.ms.push(r.ms);
    build.get(MINI)!.heap.push(r.heap);
  }
  const rows = await alternate(
    [
      ...KINDS.map((kind) => ({ name: LABEL[kind], run: (q: string) => services.get(kind)!.search({ text: q }) })),
      { name: MINI, run: (q: string) => mini!.search(q, 20) },
    ],
    rounds,
    queries,
  );
  return { label: count.toLocaleString('en-US'), rows, build };
}

/** Lines that are code: neither blank nor comment. */
function codeLines(url: URL): number {
  return readFileSync(url, 'utf8')
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l !== '' && !l.startsWith('//') && !l.startsWith('/*') && !l.startsWith('*')).length;
}

export async function benchMiniSearch(): Promise<void> {
  const words = await relevance();
  const { products } = await loadBestBuy();
  const queries = [...QUERIES, ...readJudgedQueries().map((q) => q.query), ...readHoldoutQueries().map((q) => q.query)];
  dictionaryAlone("the four judged catalogs' words together", words, queries);
  // A catalog of 100,000 distinct products has far more words than the repeated one: model
  // numbers, sizes, codes. The same words each with the suffixes 0 to 15 stand for them.
  const suffixed = [...words, ...words.flatMap((w) => Array.from({ length: 16 }, (_, i) => `${w}${i}`))];
  dictionaryAlone('the same words, each also with the suffixes 0 to 15 (as model numbers)', [...new Set(suffixed)], queries);

  const sizes: SizeFigures[] = [];
  sizes.push(await atSize(products, 10_000, 5, queries));
  collectGarbage();
  sizes.push(await atSize(products, LARGE, 3, queries));
  console.log(
    `\n## Search latency (text only, page of 20; ${queries.length} queries: the search benchmark's and every judged Best Buy query; variants alternated query by query)`,
  );
  console.log('| items | variant | p50 ms | p99 ms | p50 / trie | index build ms (median) | memory after build MB |');
  console.log('|---|---|---|---|---|---|---|');
  for (const s of sizes) {
    const base = s.rows[0]!;
    for (const r of s.rows) {
      const b = s.build.get(r.name)!;
      console.log(
        `| ${s.label} | ${r.name} | ${ms(r.p50)} | ${ms(r.p99)} | ${(r.p50 / base.p50).toFixed(2)} × | ${ms(median(b.ms))} | ${mb(median(b.heap))} |`,
      );
    }
  }
  console.log(
    'abkit builds: 3 rounds alternated (first search after the catalog is loaded); MiniSearch addAll: 3 rounds at 10,000 items, 1 at 100,000.',
  );

  console.log('\n## Lines of code (neither blank nor comment)');
  console.log(
    `- abkit trie and automaton, src/search/dictionary.ts: ${codeLines(new URL('../../src/search/dictionary.ts', import.meta.url))}`,
  );
  console.log(
    `- SearchableMap walked by abkit's automaton, test/bench/radix-dictionary.ts: ${codeLines(new URL('./radix-dictionary.ts', import.meta.url))}`,
  );
  console.log(
    `  plus the dependency, minisearch/dist/es/SearchableMap.js: ${codeLines(new URL('../../node_modules/minisearch/dist/es/SearchableMap.js', import.meta.url))}`,
  );
}

/**
 * `npm run bench -- minisearch-control`: the latency comparison at `LARGE` items with the trie
 * twice (an A/A control, built first and last around the SearchableMap variant): how far two
 * services with the same dictionary drift apart in one run on this machine.
 */
export async function benchMiniSearchControl(): Promise<void> {
  const { products } = await loadBestBuy();
  const catalog = await largeCatalog(repeated(products, LARGE));
  const queries = [...QUERIES, ...readJudgedQueries().map((q) => q.query), ...readHoldoutQueries().map((q) => q.query)];
  const a = (await serviceWith('trie', catalog)).value;
  const radix = (await serviceWith('searchable-map', catalog)).value;
  const b = (await serviceWith('trie', catalog)).value;
  const rows = await alternate(
    [
      { name: 'abkit trie, built first', run: (q: string) => a.search({ text: q }) },
      { name: LABEL['searchable-map'], run: (q: string) => radix.search({ text: q }) },
      { name: 'abkit trie, built last', run: (q: string) => b.search({ text: q }) },
    ],
    3,
    queries,
  );
  console.log(`\n## A/A control at ${LARGE.toLocaleString('en-US')} items (text only, ${queries.length} queries, 3 rounds alternated)`);
  console.log('| variant | p50 ms | p99 ms | p50 / first |');
  console.log('|---|---|---|---|');
  for (const r of rows) console.log(`| ${r.name} | ${ms(r.p50)} | ${ms(r.p99)} | ${(r.p50 / rows[0]!.p50).toFixed(2)} × |`);
}
