import { describe, expect, it } from 'vitest';
import { SearchService } from '../../src/index';
import { catalogOf, ids, item } from '../helpers/search';

const ITEMS = [
  item('a', 'Phone case', { popularity: 1 }),
  item('b', 'Phone case', { popularity: 9 }),
  item('c', 'Phone charger', { popularity: 5 }),
];

/** A service over a fresh catalog, and how many times an index was built (the catalog's visible items read). */
async function counted() {
  const catalog = await catalogOf(ITEMS);
  let builds = 0;
  const visible = catalog.visible.bind(catalog);
  catalog.visible = (...args: Parameters<typeof visible>) => {
    builds++;
    return visible(...args);
  };
  return { catalog, service: new SearchService({ catalog }), builds: () => builds };
}

describe('SearchService.withSettings', () => {
  it('ranks with the view settings over the one index of the service', async () => {
    const { service, builds } = await counted();
    const view = service.withSettings({ rankingRules: ['customRanking', 'words'], customRanking: ['popularity:desc'] });
    expect(ids(await service.search({ text: 'phone case' }))).toEqual(['a', 'b', 'c']);
    expect(ids(await view.search({ text: 'phone case' }))).toEqual(['b', 'c', 'a']);
    expect((await view.autocomplete({ query: 'phone' })).suggestions.map((s) => s.text)).toEqual(['Phone case', 'Phone charger']);
    expect(builds()).toBe(1);
  });

  it('follows the catalog with the service: a sync is built once for both', async () => {
    const { catalog, service, builds } = await counted();
    const view = service.withSettings({ customRanking: ['popularity:desc'] });
    await view.search({ text: 'phone' });
    await catalog.batch([{ operation: 'create-replace', product: item('d', 'Phone stand', { popularity: 3 }) }]);
    await catalog.sync();
    expect(ids(await view.search({ text: 'stand' }))).toEqual(['d']);
    expect(ids(await service.search({ text: 'stand' }))).toEqual(['d']);
    expect(builds()).toBe(2);
  });

  it('keeps one view per settings, and an absent setting keeps the service its own', async () => {
    const { service } = await counted();
    const custom = new SearchService({ catalog: service.catalog, customRanking: ['popularity:desc'] });
    const view = custom.withSettings({ rankingRules: ['customRanking', 'words'], customRanking: undefined });
    expect(custom.withSettings({ rankingRules: ['customRanking', 'words'], customRanking: undefined })).toBe(view);
    expect(ids(await view.search({ text: 'phone' }))).toEqual(['b', 'c', 'a']);
  });

  it("turns behaviour ranking on with the service's behaviour source", async () => {
    const { catalog } = await counted();
    const source = { itemSignals: () => new Map([['c', 9]]), queryFeedback: () => undefined };
    const base = new SearchService({ catalog, behaviour: { enabled: false, source } });
    const view = base.withSettings({ behaviour: true, customRanking: ['_behaviour:desc'], rankingRules: ['customRanking', 'words'] });
    expect(ids(await view.search({ text: 'phone' }))[0]).toBe('c');
    expect(
      ids(
        await base.withSettings({ customRanking: ['popularity:desc'], rankingRules: ['customRanking', 'words'] }).search({ text: 'phone' }),
      )[0],
    ).toBe('b');
  });

  it('refuses index settings and bad values, naming them', async () => {
    const { service } = await counted();
    expect(() => service.withSettings({ searchableFields: ['name'] } as never)).toThrow(
      /^SearchService.withSettings: searchableFields is not a query-time setting \(rankingRules, /,
    );
    expect(() => service.withSettings({ rankingRules: ['words', 'popularity'] } as never)).toThrow(
      'SearchService: rankingRules[1]: unknown rule "popularity"',
    );
    expect(() => service.withSettings(null as never)).toThrow('settings must be an object, got null');
  });
});
