/**
 * Lazy ranking (Ranker.ordered): candidates hold upper bounds of the rules that read a
 * document's words until they are read, and a page reads only the candidates whose bounds reach
 * it. Checked against the eager order (every candidate read, then sorted by the same keys) on
 * random catalogs, bound by bound, and by counting the documents read (SearchService.work).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { CatalogItem } from '../../src/storage/catalog';
import { Analyzer } from '../../src/search/analysis';
import { gather, matchQuery, type MatchingStrategy } from '../../src/search/matching';
import { RANKING_RULES, Ranker, TIE_BREAK, type RankingRule } from '../../src/search/ranking';
import { float32Above, SearchIndex } from '../../src/search/search-index';
import type { SortCriterion } from '../../src/search/query';
import { serviceOf } from '../helpers/search';

// Few words, so that documents tie often and share the query's words in every place a rule reads.
const WORDS = [
  'phone',
  'phones',
  'phon',
  'case',
  'cases',
  'galaxy',
  's7',
  'edge',
  'plus',
  'iphone',
  '7',
  'apple',
  'samsung',
  'for',
  'with',
  'the',
  'black',
  'cell',
  'charger',
  'usb',
  'c',
  'cellphone',
  // A range of a unit and a number in it, a word a far first letter reaches ("qatch"), a word a typo of an unknown one reaches ("ridgid").
  '40-70 inch',
  '55',
  'inch',
  'watch',
  'batch',
  'rigid',
];
const SEPARATORS = [' ', ' ', ' ', ' - ', ' | ', ', ', ' (', ') '];
const CATEGORIES = ['cell-phones', 'cell-phone-cases-clips', 'prepaid-phones', 'chargers-for-phones', 'cases'];

const text = (min: number, max: number) =>
  fc.array(fc.tuple(fc.constantFrom(...WORDS), fc.constantFrom(...SEPARATORS)), { minLength: min, maxLength: max }).map((parts) =>
    parts
      .map(([w, s]) => w + s)
      .join('')
      .trim(),
  );

const itemArb = fc.record({
  name: text(1, 9),
  brand: fc.constantFrom('Apple', 'Samsung', 'Otter', 'Phone'),
  // Often long enough that the descriptions are prose (over 3 names' mean length: `words`' second rank).
  description: fc.oneof(text(0, 14), text(20, 40)),
  categories_ids: fc.subarray(CATEGORIES, { minLength: 0, maxLength: 3 }),
  price: fc.constantFrom(5, 10, 10, 20),
  popularity: fc.integer({ min: 0, max: 3 }),
});

// Typos (of a first letter, of a word no item has), prefixes, compounds written apart in the items ("phonecase") or as one ("cell phone"), a price word.
const queryArb = fc
  .array(fc.constantFrom(...WORDS, 'phnoe', 'galax', 'cas', 'samsnug', 'phonecase', 'cheap', 'qatch', 'ridgid'), {
    minLength: 1,
    maxLength: 4,
  })
  .map((w) => w.join(' '));

const rulesArb = fc.oneof(fc.constant([...RANKING_RULES]), fc.shuffledSubarray([...RANKING_RULES], { minLength: 1 }));

function items(list: readonly Record<string, unknown>[]): CatalogItem[] {
  // Ids in order, as stores give them.
  return list.map(
    (x, i) =>
      ({
        id: `d${String(i).padStart(4, '0')}`,
        is_recommendable: true,
        absolute_link: null,
        img_link: null,
        ...x,
      }) as unknown as CatalogItem,
  );
}

/** The services' facets: two fields each item has. */
const FACETS = { facets: ['brand', 'price'] };

async function rankerOf(
  index: SearchIndex,
  analyzer: Analyzer,
  text: string,
  rules: readonly RankingRule[],
  strategy: MatchingStrategy,
  sort: SortCriterion[],
): Promise<Ranker | undefined> {
  const analyzed = analyzer.query(text, 10);
  if (analyzed.terms.length === 0) return undefined;
  const match = matchQuery(index, analyzer, analyzed);
  const tieBreak = TIE_BREAK.map((t) => ({ field: t.split(':')[0]!, direction: t.split(':')[1] as 'asc' | 'desc' }));
  return new Ranker(index, match, gather(index, match, strategy, undefined), {
    rules,
    customRanking: [{ field: 'popularity', direction: 'desc' }],
    tieBreak,
    strategy,
    sort,
    stopWords: analyzer.stopWords,
    priceField: 'price',
  });
}

/** Checks that the lazy ranker's first `take` candidates are the eager order's, with the same scores; releases both. */
function expectEagerOrder(eager: Ranker, lazy: Ranker, take: number): void {
  try {
    const expected = Array.from(eager.eagerOrder()).slice(0, take);
    const ordered = lazy.ordered();
    const got: number[] = [];
    for (let k = 0; k < take; k++) {
      const c = ordered.next();
      if (c < 0) break;
      got.push(c);
    }
    expect(got).toEqual(expected);
    for (const c of got) expect(lazy.score(c)).toBe(eager.score(c));
  } finally {
    eager.release();
    lazy.release();
  }
}

const BOUNDED = ['exactness', 'subject', 'variant', 'proximity', 'attribute', 'bm25', 'coverage', 'textCoverage'] as const;

/** A bounded rank array of a ranker by its name (coverage and textCoverage are bm25's tie-breakers). */
function ranksNamed(ranker: Ranker, name: (typeof BOUNDED)[number]): Int32Array | Float64Array {
  const [rule, k] = name === 'coverage' ? (['bm25', 1] as const) : name === 'textCoverage' ? (['bm25', 2] as const) : ([name, 0] as const);
  return ranker.ranksOf(rule)[k]!;
}

describe('lazy ranking against the eager order (property)', () => {
  it('every bound is at least the exact rank; exactness, attribute and coverage are exact', async () => {
    const analyzer = new Analyzer({ priceWords: ['cheap'] });
    await fc.assert(
      fc.asyncProperty(
        fc.array(itemArb, { minLength: 1, maxLength: 40 }),
        queryArb,
        fc.constantFrom<MatchingStrategy>('frequency', 'last', 'all'),
        async (list, text, strategy) => {
          const index = await SearchIndex.build(1, items(list), {}, analyzer);
          const ranker = await rankerOf(index, analyzer, text, RANKING_RULES, strategy, []);
          if (!ranker) return;
          const bounds = BOUNDED.map((rule) => Array.from(ranksNamed(ranker, rule)));
          for (let c = 0; c < ranker.size; c++) ranker.describe(c);
          BOUNDED.forEach((rule, k) => {
            for (let c = 0; c < ranker.size; c++) {
              const exact = ranksNamed(ranker, rule)[c]!;
              const bound = bounds[k]![c]!;
              if (!(exact <= bound)) throw new Error(`${rule} of candidate ${c} for "${text}": exact ${exact} above its bound ${bound}`);
              if ((rule === 'exactness' || rule === 'attribute' || rule === 'coverage' || rule === 'textCoverage') && exact !== bound)
                throw new Error(`${rule} of candidate ${c} for "${text}": exact ${exact}, bound ${bound}`);
            }
          });
        },
      ),
      { numRuns: 300 },
    );
  });

  it('gives the eager order, whatever the rules, strategy and sort', async () => {
    const analyzer = new Analyzer({ priceWords: ['cheap'] });
    const sortArb = fc.constantFrom<SortCriterion[]>(
      [],
      [],
      [{ field: 'price', direction: 'asc' }],
      [{ field: 'popularity', direction: 'desc' }],
    );
    await fc.assert(
      fc.asyncProperty(
        fc.array(itemArb, { minLength: 1, maxLength: 60 }),
        queryArb,
        rulesArb,
        fc.constantFrom<MatchingStrategy>('frequency', 'last', 'all'),
        sortArb,
        fc.integer({ min: 1, max: 30 }),
        async (list, text, rules, strategy, sort, take) => {
          const index = await SearchIndex.build(1, items(list), {}, analyzer);
          const eager = await rankerOf(index, analyzer, text, rules, strategy, sort);
          const lazy = await rankerOf(index, analyzer, text, rules, strategy, sort);
          if (!eager || !lazy) return;
          expectEagerOrder(eager, lazy, take);
        },
      ),
      { numRuns: 300 },
    );
  });
});

describe('lazy ranking over many searched fields (property)', () => {
  // Field masks are one byte per posting up to 8 fields, two up to 16, four beyond (0 over 32: unknown).
  it('bounds stay at least the exact ranks and the order the eager one, with 4 to 36 searched fields', async () => {
    const analyzer = new Analyzer({ priceWords: ['cheap'] });
    const extraArb = fc.constantFrom(0, 6, 12, 30, 32);
    await fc.assert(
      fc.asyncProperty(
        extraArb.chain((k) =>
          fc.array(fc.tuple(itemArb, fc.array(text(0, 3), { minLength: k, maxLength: k })), { minLength: 1, maxLength: 30 }),
        ),
        queryArb,
        async (rows, text) => {
          const list = rows.map(([item, extra]) => ({ ...item, ...Object.fromEntries(extra.map((t, f) => [`f${f}`, t])) }));
          const index = await SearchIndex.build(1, items(list), {}, analyzer);
          const eager = await rankerOf(index, analyzer, text, RANKING_RULES, 'last', []);
          const lazy = await rankerOf(index, analyzer, text, RANKING_RULES, 'last', []);
          if (!eager || !lazy) return;
          const bounds = Array.from(ranksNamed(lazy, 'bm25'));
          expectEagerOrder(eager, lazy, lazy.size);
          for (let c = 0; c < eager.size; c++) expect(ranksNamed(eager, 'bm25')[c]!).toBeLessThanOrEqual(bounds[c]!);
        },
      ),
      { numRuns: 150 },
    );
  });
});

describe('bm25 shares kept as float32 (property)', () => {
  it('the index keeps the least float32 at least each share, so a bound never drops below it', () => {
    const below = (y: number) => {
      const f = new Float32Array([y]);
      new Uint32Array(f.buffer)[0]!--;
      return f[0]!;
    };
    fc.assert(
      fc.property(fc.double({ min: 0, max: 1e6, noNaN: true }), (x) => {
        const y = float32Above(x);
        expect(Math.fround(y)).toBe(y);
        expect(y).toBeGreaterThanOrEqual(x);
        if (y > 0) expect(below(y)).toBeLessThan(x);
      }),
      { numRuns: 2000 },
    );
  });
});

describe('a threshold keeps its meaning (property)', () => {
  it('totals, facets and pages count exactly the hits scoring at least the threshold', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(itemArb, { minLength: 1, maxLength: 40 }),
        queryArb,
        fc.double({ min: 0, max: 1, noNaN: true }),
        fc.integer({ min: 1, max: 7 }),
        fc.boolean(),
        async (list, text, raw, hitsPerPage, fromHit) => {
          const service = await serviceOf(items(list), FACETS);
          const all = await service.search({ text, hitsPerPage: 1000 });
          // A threshold equal to a hit's score keeps that hit (scores are returned unrounded).
          const threshold =
            fromHit && all.hits.length > 0 ? all.hits[Math.floor(raw * all.hits.length) % all.hits.length]!._rankingScore : raw;
          const kept = all.hits.filter((h) => h._rankingScore >= threshold);
          const got = await service.search({ text, hitsPerPage: 1000, rankingScoreThreshold: threshold });
          expect(got.hits.map((h) => h.id)).toEqual(kept.map((h) => h.id));
          expect(got.totalHits).toBe(kept.length);
          const brands = new Map<string, number>();
          for (const h of kept) brands.set(h.brand as string, (brands.get(h.brand as string) ?? 0) + 1);
          const facet = got.facets.brand;
          expect(facet?.type === 'list' ? new Map(facet.values as [string, number][]) : new Map()).toEqual(brands);
          const page = await service.search({
            text,
            hitsPerPage,
            page: 1,
            rankingScoreThreshold: threshold,
            showRankingScoreDetails: true,
          });
          expect(page.hits.map((h) => [h.id, h._rankingScore])).toEqual(
            kept.slice(hitsPerPage, 2 * hitsPerPage).map((h) => [h.id, h._rankingScore]),
          );
          expect(page.totalHits).toBe(kept.length);
          for (const h of page.hits) expect(h._rankingScoreDetails?.words).toBeDefined();
        },
      ),
      { numRuns: 120 },
    );
  });
});

describe('work: a common word reads about a page of documents, not every candidate', () => {
  // 4,000 phones: every one matches "phone", in varied names, descriptions and categories.
  const phones = Array.from({ length: 4000 }, (_, i) => ({
    name: `${['Samsung', 'Apple', 'LG', 'Moto'][i % 4]} - Model ${i} ${i % 3 === 0 ? 'Prepaid Cell Phone' : i % 3 === 1 ? `Phone Case for Model ${i >> 2}` : 'Charger for Cell Phones'} - ${['Black', 'White', 'Gold'][i % 3]}`,
    brand: ['Samsung', 'Apple', 'LG', 'Moto'][i % 4],
    description: `A ${i % 5 === 0 ? 'phone' : 'device'} with ${i % 7} cameras and ${(i * 37) % 101} hours of battery, for every phone user ${i}.`,
    categories_ids: i % 3 === 0 ? ['cell-phones'] : ['cell-phone-accessories', i % 3 === 1 ? 'cell-phone-cases-clips' : 'chargers'],
    price: 10 + (i % 50),
    popularity: i % 100,
  }));

  it('"phone" over 4,000 matching items reads at most two pages of documents, for the same hits', async () => {
    const service = await serviceOf(items(phones), FACETS);
    const first = await service.search({ text: 'phone' });
    expect(first.totalHits).toBe(4000);
    expect(service.work.candidates).toBe(4000);
    expect(service.work.documentsRead).toBeLessThanOrEqual(40);
    // The second page reads about one page more; a threshold reads what its bounds cannot decide.
    const second = await service.search({ text: 'phone', page: 1 });
    expect(service.work.documentsRead).toBeLessThanOrEqual(60);
    const both = await service.search({ text: 'phone', hitsPerPage: 40 });
    expect(both.hits.map((h) => h.id)).toEqual([...first.hits, ...second.hits].map((h) => h.id));
    await service.search({ text: 'cell phone' });
    expect(service.work.documentsRead).toBeLessThanOrEqual(200);
  });
});

describe('word numbers two bytes each up to 65,536 words, four beyond', () => {
  it('each document reads back its words, in either width', async () => {
    const analyzer = new Analyzer({});
    for (const [docs, perDoc] of [
      [50, 4],
      [7000, 10],
    ] as const) {
      // Distinct words of letters only ("qab", "qac", …): docs × perDoc of them.
      const word = (n: number) => `q${n.toString(26).replace(/./g, (c) => String.fromCharCode(97 + parseInt(c, 26)))}`;
      const list = Array.from({ length: docs }, (_, d) => ({
        name: Array.from({ length: perDoc }, (_, k) => word(d * perDoc + k)).join(' '),
      }));
      const index = await SearchIndex.build(1, items(list), { searchableFields: ['name'] }, analyzer);
      expect(index.dictionary.words.length).toBe(docs * perDoc);
      expect(index.tokens).toBeInstanceOf(docs * perDoc <= 0x10000 ? Uint16Array : Uint32Array);
      for (const d of [0, docs >> 1, docs - 1]) {
        const got = Array.from(index.tokens.subarray(index.offsets[d]!, index.offsets[d + 1]!), (w) => index.dictionary.words[w]);
        expect(got.join(' ')).toBe(list[d]!.name);
      }
    }
  });
});

describe('gather', () => {
  it('reads one match the same every time, a slip reading it added included', async () => {
    const analyzer = new Analyzer();
    const names = ['Folding Camping Chair', 'Campig Chair Cover', 'Office Chair', 'Elastic Hair Band', 'Camping Tent'];
    const index = await SearchIndex.build(1, items(names.map((name) => ({ name }))), {}, analyzer);
    for (const strategy of ['frequency', 'last', 'all'] as const) {
      const match = matchQuery(index, analyzer, analyzer.query('camping hair', 10));
      const once = gather(index, match, strategy);
      const words = match.termWords.map((w) => [...w]);
      const again = gather(index, match, strategy);
      expect([...again.docs], strategy).toEqual([...once.docs]);
      expect([...again.codes], strategy).toEqual([...once.codes]);
      expect([...again.df], strategy).toEqual([...once.df]);
      expect(match.termWords, strategy).toEqual(words);
    }
  });
});
