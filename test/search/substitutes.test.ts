/**
 * Substitutes: a query with fewer matches than a page is filled, after every match, with the
 * items best matching the words its matches' names share (pseudo-relevance feedback).
 */
import { describe, expect, it } from 'vitest';
import { ids, item, serviceOf } from '../helpers/search';

// Two cookbooks share "cuisine" with two kits; "cooking" is rarer than "cuisine" but only one cookbook has it.
const KITCHEN = [
  item('b1', 'Moroccan Cuisine Cookbook', { brand: 'Acme' }),
  item('b2', 'Spanish Cuisine Cookbook 2', { brand: 'Acme' }),
  item('k1', 'Thai Cuisine Kit', { brand: 'Zed' }),
  item('k2', 'Cuisine Knife Set', { brand: 'Acme' }),
  item('x1', 'Garden Hose', { brand: 'Zed' }),
  item('x2', 'Spanish Guitar', { brand: 'Zed' }),
];

describe('substitutes', () => {
  it('are found by the lent words as written, no prefix or typo, and their ranking counts in the work', async () => {
    const s = await serviceOf(
      [
        item('o1', 'Oxford Shirt'),
        item('o2', 'Slim Oxford Shirt'),
        item('l', 'Linen Shirt'),
        item('k', 'Denim Skirt'),
        item('d', 'Shirtdress'),
        item('h', 'Garden Hose'),
      ],
      { substitutes: true },
    );
    const page = await s.search({ text: 'oxford', hitsPerPage: 10 });
    expect(ids(page)).toEqual(['o1', 'o2', 'l']);
    // The matches' two candidates, and the one candidate of "shirt" among the others.
    expect(s.work.candidates).toBe(3);
  });

  it('fill a short page after every match with the items of the words the matches share, scored below them', async () => {
    const s = await serviceOf(KITCHEN, { substitutes: true, facets: ['brand'] });
    const page = await s.search({ text: 'cookbook', hitsPerPage: 10, showRankingScoreDetails: true });
    expect(ids(page).slice(0, 2).sort()).toEqual(['b1', 'b2']);
    // "spanish" is in one cookbook only, "2" is a number, "cookbook" the query's own word: "cuisine" alone is lent.
    expect(ids(page).slice(2).sort()).toEqual(['k1', 'k2']);
    expect(page.hits[2]!._rankingScoreDetails?.substitute).toEqual({ order: expect.any(Number), words: ['cuisine'] });
    expect(page.hits[0]!._rankingScoreDetails?.substitute).toBeUndefined();
    expect(Math.max(...page.hits.slice(2).map((h) => h._rankingScore))).toBeLessThanOrEqual(
      Math.min(...page.hits.slice(0, 2).map((h) => h._rankingScore)),
    );
    // Totals and facets count what the pages show; the next page is empty.
    expect(page.totalHits).toBe(4);
    expect(page.facets.brand).toMatchObject({
      type: 'list',
      values: [
        ['Acme', 3],
        ['Zed', 1],
      ],
    });
    expect(ids(await s.search({ text: 'cookbook', hitsPerPage: 10, page: 1 }))).toEqual([]);
  });

  it('fill only up to the page, never past 20, and keep filters', async () => {
    const s = await serviceOf(KITCHEN, { substitutes: true });
    expect(ids(await s.search({ text: 'cookbook', hitsPerPage: 3 }))).toHaveLength(3);
    expect(ids(await s.search({ text: 'cookbook', hitsPerPage: 2 })).sort()).toEqual(['b1', 'b2']);
    expect(ids(await s.search({ text: 'cookbook', filters: { brand: ['Acme'] } })).slice(2)).toEqual(['k2']);
    const many = Array.from({ length: 30 }, (_, i) => item(`m${i}`, `Cuisine Pan ${i}`));
    const wide = await serviceOf([...KITCHEN, ...many], { substitutes: true });
    expect((await wide.search({ text: 'cookbook', hitsPerPage: 1000 })).totalHits).toBe(20);
  });

  it('are off by default, and with a sort, a threshold or every term required', async () => {
    for (const [options, query] of [
      [{}, {}],
      [{ substitutes: false }, {}],
      [{ substitutes: true }, { sort: ['price:asc'] }],
      [{ substitutes: true }, { rankingScoreThreshold: 0.01 }],
      [{ substitutes: true, matchingStrategy: 'all' as const }, {}],
    ] as const) {
      const s = await serviceOf(KITCHEN, options);
      expect(ids(await s.search({ text: 'cookbook', ...query })).sort()).toEqual(['b1', 'b2']);
    }
  });

  it('lend no word the query reaches, no stop word and none held by a single match of several', async () => {
    const items = [
      item('a', 'Lamps for the Porch'),
      item('b', 'Lamp for the Porch'),
      item('c', 'Lamp Oil'),
      item('d', 'Porch Swing'),
      item('e', 'Oil Can'),
      item('f', 'For the Garden'),
    ];
    const s = await serviceOf(items, { substitutes: true });
    // "lamps" reaches "lamp" (its stem); "for" and "the" are stop words; "oil" is one match's: "porch" is lent.
    const found = ids(await s.search({ text: 'lamps' }));
    expect(found.slice(0, 3).sort()).toEqual(['a', 'b', 'c']);
    expect(found.slice(3)).toEqual(['d']);
    // The only match lends its own words: the item holding both first, and nothing else.
    const alone = await serviceOf(
      [item('a', 'Brass Lamp Rare'), item('b', 'Brass Hook Rare'), item('c', 'Rare Stamp'), item('d', 'Hose')],
      {
        substitutes: true,
      },
    );
    expect(ids(await alone.search({ text: 'lamp' }))).toEqual(['a', 'b', 'c']);
  });
});
