import { describe, expect, it } from 'vitest';
import { CatalogRegistry, memoryStorage } from '../../src/index';
import { createSearchHandler } from '../../src/http/search';
import type { SearchServiceOptions } from '../../src/search/service';
import { item } from '../helpers/search';

type Settings = Omit<SearchServiceOptions, 'catalog'>;

async function shop() {
  const registry = new CatalogRegistry({ storage: memoryStorage() });
  const { catalog } = await registry.create({ identifier: 'shop' });
  await catalog.batch([
    { operation: 'create-replace', product: item('p1', 'Trail sneaker', { price: 90 }) },
    { operation: 'create-replace', product: item('p2', 'Road runner', { price: 120 }) },
  ]);
  await catalog.sync();
  return registry;
}

const hits = async (handler: (r: Request) => Promise<Response>, text: string) =>
  ((await (await handler(new Request(`http://x/search?text=${text}`))).json()) as { hits: { id: string }[] }).hits.map((h) => h.id);

describe('search settings given as a function', () => {
  it('apply at the next request when they change, without a restart (the admin API stores them so)', async () => {
    let settings: Settings = {};
    const handler = createSearchHandler({ registry: await shop(), search: () => settings });
    expect(await hits(handler, 'trainer')).toEqual([]);
    settings = { synonyms: { multiWay: [['trainer', 'sneaker']] } };
    expect(await hits(handler, 'trainer')).toEqual(['p1']);
    settings = {};
    expect(await hits(handler, 'trainer')).toEqual([]);
  });

  it('a fresh object with the same settings at every call keeps the catalog service (no rebuild per request)', async () => {
    let calls = 0;
    const registry = await shop();
    const get = registry.get.bind(registry);
    let built = 0;
    registry.get = async (identifier: string) => {
      built++;
      return get(identifier);
    };
    const handler = createSearchHandler({
      registry,
      search: () => ({ synonyms: { multiWay: [['trainer', 'sneaker']] }, calls: ++calls }) as Settings,
    });
    for (let i = 0; i < 5; i++) await hits(handler, 'trainer');
    // Each call's object differs (calls counts up), so this one is rebuilt per request...
    expect(built).toBe(5);
    const steady = createSearchHandler({ registry, search: () => ({ synonyms: { multiWay: [['trainer', 'sneaker']] } }) });
    built = 0;
    for (let i = 0; i < 5; i++) expect(await hits(steady, 'trainer')).toEqual(['p1']);
    // ...and equal settings in fresh objects are not.
    expect(built).toBe(1);
  });
});
