/**
 * An index rebuild never holds the event loop for long: it is built in steps, each bounded by a
 * count of work (characters analysed, items visited), and the service gives the event loop a
 * turn between steps while searches keep using the previous index. Guarded by counting work and
 * turns, never by timing.
 */
import { describe, expect, it } from 'vitest';
import { CatalogRegistry, memoryStorage, SearchService, type Catalog } from '../../src/index';
import { Analyzer } from '../../src/search/analysis';
import { BUILD_CHECKPOINT_CHARACTERS, BUILD_CHECKPOINT_ITEMS, SearchIndex } from '../../src/search/search-index';
import type { CatalogItem } from '../../src/storage/catalog';

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
  return { id: `p${i}`, is_recommendable: true, name: text(i + 1, words), absolute_link: null, img_link: null, price: i % 50, categories_ids: ['phones'] } as CatalogItem;
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
    for (const s of analysed) if (s.readsBefore + s.reads <= N) expect(s.characters).toBeLessThanOrEqual(BUILD_CHECKPOINT_CHARACTERS + longest);
    for (const s of slices) expect(s.reads).toBeLessThanOrEqual(BUILD_CHECKPOINT_ITEMS);
    // And the index built in steps is a whole one.
    expect(index.items.length).toBe(N);
    expect(index.docs(index.dictionary.id('otterbox')).length).toBeGreaterThan(N / 10);
    expect(index.paths.get('price')!.postingDocs.length).toBe(N);
  });
});

async function catalogOf(items: readonly CatalogItem[]): Promise<Catalog> {
  const registry = new CatalogRegistry({ storage: memoryStorage() });
  const { catalog } = await registry.create({ identifier: 'rebuild' });
  await catalog.batch(items.map((p) => ({ operation: 'create-replace' as const, product: { ...p } })));
  await catalog.sync();
  return catalog;
}

describe('a rebuild after a sync', () => {
  it('gives the event loop a turn at every step, and searches meanwhile answer from the previous index', async () => {
    const N = 800;
    const items = Array.from({ length: N }, (_, i) => ({ ...product(i, 3), description: text(i + 7, 300) }) as CatalogItem);
    const catalog = await catalogOf(items);
    const service = new SearchService({ catalog });
    expect((await service.search({ text: 'zqxmarker' })).totalHits).toBe(0);
    await catalog.put({ ...items[5]!, name: `${items[5]!.name} zqxmarker` });
    await catalog.sync();

    // Counts turns of the event loop: one immediate per turn, re-armed until stopped.
    let turns = 0;
    let counting = true;
    const count = () => {
      turns++;
      if (counting) setImmediate(count);
    };
    setImmediate(count);
    const first = service.search({ text: 'zqxmarker' }); // notices version 2 and builds its index
    const meanwhile = await service.search({ text: 'zqxmarker' });
    expect(meanwhile.totalHits).toBe(0); // the previous index
    const turnsWhenAnswered = turns;
    expect((await first).hits.map((h) => h.id)).toEqual(['p5']);
    counting = false;
    // The search served meanwhile did not wait for the build.
    expect(turnsWhenAnswered).toBeLessThan(3);
    // ~1,800 characters of description and name per item: at least a turn per checkpoint of text.
    const characters = items.reduce((sum, item) => sum + (item.name as string).length + (item.description as string).length, 0);
    expect(turns).toBeGreaterThanOrEqual(Math.floor(characters / BUILD_CHECKPOINT_CHARACTERS));
    expect((await service.search({ text: 'zqxmarker' })).hits.map((h) => h.id)).toEqual(['p5']);
  });
});
