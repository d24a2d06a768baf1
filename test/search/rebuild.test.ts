/**
 * An index rebuild never holds the event loop for long: it is built in steps, each bounded by a
 * count of work (characters analysed, items visited), and the service gives the event loop a
 * turn between steps while searches keep using the previous index. Guarded by counting work and
 * turns, never by timing.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { SearchService } from '../../src/index';
import { Analyzer } from '../../src/search/analysis';
import { BUILD_CHECKPOINT_CHARACTERS, BUILD_CHECKPOINT_ITEMS, SearchIndex } from '../../src/search/search-index';
import type { CatalogItem } from '../../src/storage/catalog';
import { runAtOnce } from '../../src/slices';
import { ZEROED_BYTES_PER_STEP, zeroed } from '../../src/search/growable';
import { docsWith } from '../../src/search/path-index';
import { catalogOf } from '../helpers/search';
import { countTurns } from '../helpers/turns';

const VOCABULARY = ['galaxy', 'case', 'charger', 'cable', 'screen', 'protector', 'wireless', 'black', 'usb', 'phone', 'otterbox', 'slim'];

/** `count` words of the vocabulary, in a fixed pseudo-random order. */
function text(seed: number, count: number): string {
  const out: string[] = [];
  for (let i = 0; i < count; i++) {
    seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
    out.push(VOCABULARY[(seed >>> 16) % VOCABULARY.length]!);
  }
  return out.join(' ');
}

function product(i: number, words: number): CatalogItem {
  return {
    id: `p${String(i).padStart(5, '0')}`,
    is_recommendable: true,
    name: text(i + 1, words),
    absolute_link: null,
    img_link: null,
    price: i % 50,
    categories_ids: ['phones'],
  } as CatalogItem;
}

describe('SearchIndex.steps', () => {
  it('reaches a step boundary every few thousand characters analysed and every few hundred items visited', () => {
    const N = 3000;
    const LONG = 400; // words of about 6 letters: ~2,800 characters a name
    // Items whose name is read through a getter: the test sees every read and its length.
    let reads = 0;
    let characters = 0;
    const items = Array.from({ length: N }, (_, i) => {
      const { name, ...rest } = product(i, i % 10 === 0 ? LONG : 3);
      return Object.defineProperty(rest, 'name', {
        enumerable: true,
        get() {
          reads++;
          characters += (name as string).length;
          return name;
        },
      }) as CatalogItem;
    });
    const longest = Math.max(...items.map((item) => (item.name as string).length));
    reads = characters = 0;
    const steps = SearchIndex.steps(1, items, {}, new Analyzer());
    const slices: { reads: number; characters: number; readsBefore: number }[] = [];
    let index: SearchIndex | undefined;
    while (!index) {
      const before = { reads, characters };
      const step = steps.next();
      slices.push({ reads: reads - before.reads, characters: characters - before.characters, readsBefore: before.reads });
      if (step.done) index = step.value;
    }
    // The text is analysed first, each name read once in item order; the value indexes read them again.
    expect(reads).toBe(2 * N);
    const analysed = slices.filter((s) => s.readsBefore < N);
    const total = analysed.reduce((sum, s) => sum + s.characters, 0);
    expect(analysed.length).toBeGreaterThanOrEqual(Math.floor(total / (BUILD_CHECKPOINT_CHARACTERS + longest)));
    for (const s of analysed)
      if (s.readsBefore + s.reads <= N) expect(s.characters).toBeLessThanOrEqual(BUILD_CHECKPOINT_CHARACTERS + longest);
    for (const s of slices) expect(s.reads).toBeLessThanOrEqual(BUILD_CHECKPOINT_ITEMS);
    // And the index built in steps is a whole one.
    expect(index.items.length).toBe(N);
    expect(index.docs(index.dictionary.id('otterbox')).length).toBeGreaterThan(N / 10);
    expect(index.paths.get('price')!.postingDocs.length).toBe(N);
  });
});

describe('zeroed', () => {
  it('writes a new array a bounded slice per step, and returns it zero-filled', () => {
    const length = 3 * (ZEROED_BYTES_PER_STEP / 8) + 5;
    const steps = zeroed(Float64Array, length);
    let yields = 0;
    let step = steps.next();
    while (!step.done) {
      yields++;
      step = steps.next();
    }
    // 8-byte elements: three full slices and a partial one, one step each.
    expect(yields).toBe(4);
    expect(step.value).toBeInstanceOf(Float64Array);
    expect(step.value.length).toBe(length);
    expect(step.value.every((x) => x === 0)).toBe(true);
    expect(runAtOnce(zeroed(Uint8Array, 0)).length).toBe(0);
  });
});

/** What an index says of each document and word, by word text (word numbers may differ). */
function contents(index: SearchIndex) {
  const F = index.searchable.length;
  const words = index.dictionary.words;
  const fields = index.items.map((_, d) =>
    index.searchable.map((_, f) =>
      Array.from(index.tokens.subarray(index.offsets[d * F + f], index.offsets[d * F + f + 1]), (w) => words[w]),
    ),
  );
  const postings = Object.fromEntries(words.map((w, k) => [w, Array.from(index.docs(k))]));
  const stems = Object.fromEntries([...index.stems].map(([stem, list]) => [stem, list.map((k) => words[k]).sort()]));
  return { fields, postings, stems, words: [...words].sort(), averageLength: Array.from(index.averageLength), paths: pathContents(index) };
}

/** What the value indexes say: per path, the documents of each value having any, and each document's values (value numbers may differ). */
function pathContents(index: SearchIndex) {
  const out: Record<string, unknown> = {};
  for (const [path, p] of index.paths) {
    if (p.sortedValues) {
      // A rare path has no per-document arrays (either build leaves them out alike).
      out[path] = {
        docs: Array.from(p.postingDocs),
        values: Array.from(p.sortedValues),
        first: p.first && Array.from(p.first),
        min: p.min && Array.from(p.min),
        max: p.max && Array.from(p.max),
      };
      continue;
    }
    const byValue = p.values!.map((v) => [String(v), Array.from(docsWith(p, v))] as const).filter(([, docs]) => docs.length > 0);
    const perDoc =
      p.offsets &&
      index.items.map((_, d) => Array.from(p.ids!.subarray(p.offsets![d], p.offsets![d + 1]), (k) => String(p.values![k])).sort());
    out[path] = { byValue: byValue.sort(([a], [b]) => (a < b ? -1 : 1)), perDoc };
  }
  return out;
}

describe('a rebuild from the previous index', () => {
  const vocabulary = fc.constantFrom('galaxy', 'case', 'Charger', 'usb-c', 'otterbox', 's7', 'slim', 'phone');
  const phrase = fc.array(vocabulary, { maxLength: 5 }).map((w) => w.join(' '));
  const edit = fc.constantFrom('keep', 'copy', 'rename', 'describe', 'delete');

  it('gives the index a build from scratch gives, whatever changed (property)', () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(phrase, phrase, edit, phrase), { minLength: 1, maxLength: 25 }),
        fc.array(phrase, { maxLength: 5 }),
        (rows, added) => {
          // A text value per item (link), a few shared ones (brand), lists (tags): the value indexes' numbering is reused too.
          const described = (item: CatalogItem, description: string) =>
            ({ ...item, description, tags: description.split(' ').filter(Boolean) }) as CatalogItem;
          const before = rows.map(([name, description], i) =>
            described(
              { ...product(i, 0), id: `i${String(i).padStart(3, '0')}`, name, link: `u${i}`, brand: name.split(' ')[0] },
              description,
            ),
          );
          const after: CatalogItem[] = [];
          rows.forEach(([, , change, text], i) => {
            const item = before[i]!;
            if (change === 'keep') after.push(item);
            else if (change === 'copy') after.push({ ...item });
            else if (change === 'rename') after.push({ ...item, name: text });
            else if (change === 'describe') after.push(described(item, text));
          });
          added.forEach((name, k) => after.push(described({ ...product(k, 0), id: `j${k}`, name, link: `v${k}`, brand: 'new' }, name)));
          after.sort((a, b) => (a.id < b.id ? -1 : 1));
          const analyzer = new Analyzer();
          const previous = runAtOnce(SearchIndex.steps(1, before, {}, analyzer));
          const scratch = runAtOnce(SearchIndex.steps(2, after, {}, analyzer));
          const incremental = runAtOnce(SearchIndex.steps(2, after, {}, analyzer, previous));
          expect(contents(incremental)).toEqual(contents(scratch));
          // And back: values numbered by the rebuild, and those it left without documents, carried one version further.
          expect(contents(runAtOnce(SearchIndex.steps(3, before, {}, analyzer, incremental)))).toEqual(contents(previous));
        },
      ),
      { numRuns: 200 },
    );
  });

  it('analyses only the items whose searched text changed', () => {
    let analysed = 0;
    const items = Array.from({ length: 200 }, (_, i) => product(i, 5));
    const counted = (list: CatalogItem[]) =>
      list.map((item) => {
        const { name, ...rest } = item;
        return Object.defineProperty(rest, 'name', { enumerable: true, get: () => (analysed++, name) }) as CatalogItem;
      });
    const analyzer = new Analyzer();
    const before = counted(items);
    const previous = runAtOnce(SearchIndex.steps(1, before, {}, analyzer));
    const after = [...before];
    after[10] = counted([{ ...items[10]!, name: 'zqxmarker galaxy s7' }])[0]!;
    after.splice(20, 1);
    analysed = 0;
    const index = runAtOnce(SearchIndex.steps(2, after, {}, analyzer, previous));
    // Unchanged items (the same objects) are not read; item 10's previous and new names are read
    // to compare them, then the new one is analysed; the value indexes read every name once.
    expect(analysed).toBe(3 + after.length);
    expect(Array.from(index.docs(index.dictionary.id('zqxmarker')))).toEqual([10]);
  });
});

describe('value indexes', () => {
  it('a rebuild numbers only the values it had not met: a path with a value per item keeps the previous map', () => {
    const items = Array.from({ length: 500 }, (_, i) => ({ ...product(i, 2), link: `https://shop.example/p${i}` }) as CatalogItem);
    const analyzer = new Analyzer();
    const previous = runAtOnce(SearchIndex.steps(1, items, {}, analyzer));
    const after = [...items];
    after[7] = { ...items[7]!, link: 'https://shop.example/new' } as CatalogItem;
    after.splice(9, 1);
    const index = runAtOnce(SearchIndex.steps(2, after, {}, analyzer, previous));
    const [was, now] = [previous.paths.get('link')!, index.paths.get('link')!];
    expect(now.valueIds.root).toBe(was.valueIds.root);
    expect([...now.valueIds.added.keys()]).toEqual(['https://shop.example/new']);
    // The two values no document has any more: no posting, no facet count.
    expect(now.stale).toBe(2);
    expect(docsWith(now, 'https://shop.example/p7').length).toBe(0);
    expect(Array.from(docsWith(now, 'https://shop.example/new'))).toEqual([7]);
    expect(Array.from(docsWith(now, 'https://shop.example/p10'))).toEqual([9]);
  });

  it('a facet leaves out values no item has any more after a rebuild', async () => {
    const catalog = await catalogOf([
      { ...product(0, 2), tags: ['5g', 'dual'] },
      { ...product(1, 2), tags: ['dual'] },
    ] as CatalogItem[]);
    const service = new SearchService({ catalog });
    expect((await service.search({ text: '' })).facets.tags).toEqual({
      type: 'list',
      values: [
        ['dual', 2],
        ['5g', 1],
      ],
    });
    await catalog.batch([{ operation: 'create-replace', product: { ...product(0, 2), tags: ['lte'] } }]);
    await catalog.sync();
    const page = await service.search({ text: '' });
    expect(page.facets.tags).toEqual({
      type: 'list',
      values: [
        ['dual', 1],
        ['lte', 1],
      ],
    });
    expect((await service.search({ text: '', filters: { tags: ['5g'] } })).totalHits).toBe(0);
  });

  it('count a value a list names twice in one item once, in filters and facets', async () => {
    const catalog = await catalogOf([
      { ...product(0, 2), tags: ['5g', '5g', 'dual'] },
      { ...product(1, 2), tags: ['dual', '5g'] },
      { ...product(2, 2), tags: ['dual'] },
    ] as CatalogItem[]);
    const page = await new SearchService({ catalog }).search({ text: '', filters: { tags: ['5g'] } });
    expect(page.hits.map((h) => h.id)).toEqual(['p00000', 'p00001']);
    expect(page.facets.tags).toEqual({
      type: 'list',
      values: [
        ['5g', 2],
        ['dual', 2],
      ],
    });
  });
});

describe('a rebuild after a sync', () => {
  it('gives the event loop a turn at every step, and searches meanwhile answer from the previous index', async () => {
    const N = 800;
    const items = Array.from({ length: N }, (_, i) => ({ ...product(i, 3), description: text(i + 7, 300) }) as CatalogItem);
    const catalog = await catalogOf(items);
    const service = new SearchService({ catalog });
    expect((await service.search({ text: 'zqxmarker' })).totalHits).toBe(0);
    // Every item changes (a full rebuild: nothing can be copied from the previous index).
    const changed = items.map(
      (item, i) => ({ ...item, description: `${item.description} ${i === 5 ? 'zqxmarker' : 'plain'}` }) as CatalogItem,
    );
    await catalog.batch(changed.map((product) => ({ operation: 'create-replace' as const, product })));
    await catalog.sync();

    const turns = countTurns();
    const first = service.search({ text: 'zqxmarker' }); // notices version 2 and builds its index
    const meanwhile = await service.search({ text: 'zqxmarker' });
    expect(meanwhile.totalHits).toBe(0); // the previous index
    const turnsWhenAnswered = turns.turns;
    expect((await first).hits.map((h) => h.id)).toEqual(['p00005']);
    const total = turns.stop();
    // The search served meanwhile did not wait for the build.
    expect(turnsWhenAnswered).toBeLessThan(3);
    // ~1,800 characters of description and name per item: at least a turn per checkpoint of text.
    const characters = changed.reduce((sum, item) => sum + (item.name as string).length + (item.description as string).length, 0);
    expect(total).toBeGreaterThanOrEqual(Math.floor(characters / BUILD_CHECKPOINT_CHARACTERS));
    expect((await service.search({ text: 'zqxmarker' })).hits.map((h) => h.id)).toEqual(['p00005']);
  });
});
