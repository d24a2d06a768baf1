/**
 * Merchandising rules (docs/ranking.md, Merchandising): pins at positions across pages, hidden
 * items out of hits, totals and facets, boost and bury order, the time window on an injected
 * clock, the query match, details, and the constructor's messages.
 */
import { describe, expect, it } from 'vitest';
import type { MerchandisingRule } from '../../src/search/merchandising';
import { placePins } from '../../src/search/merchandising';
import { ids, item, serviceOf } from '../helpers/search';

// 30 phones p00..p29 (p00 the best match of "phone": the shorter name ranks first), brand alternating, and 5 cases.
const pad = (i: number) => String(i).padStart(2, '0');
const ITEMS = [
  ...Array.from({ length: 30 }, (_, i) => item(`p${pad(i)}`, `Phone ${i}`, { brand: i % 2 === 0 ? 'Acme' : 'Zeta', stock: i })),
  ...Array.from({ length: 5 }, (_, i) => item(`c${i}`, `Case ${i}`, { brand: 'Acme', stock: 100 + i })),
];

const rules = (...list: MerchandisingRule[]) => ({ merchandising: list });

async function plain(text = 'phone', extra = {}) {
  return (await serviceOf(ITEMS)).search({ text, hitsPerPage: 100, ...extra });
}

describe('merchandising rules', () => {
  it('pins items at their positions of the whole list, across pages, without repeating them', async () => {
    const service = await serviceOf(
      ITEMS,
      rules({
        id: 'r',
        query: { equals: 'Phone' },
        pin: [
          { itemId: 'p20', position: 1 },
          { itemId: 'c3', position: 12 },
        ],
      }),
    );
    const organic = ids(await plain());
    const all = ids(await service.search({ text: 'phone', hitsPerPage: 100 }));
    expect(all[0]).toBe('p20');
    expect(all[11]).toBe('c3'); // a case, which the text does not match, pinned anyway
    expect(all.filter((id) => id !== 'c3' && id !== 'p20')).toEqual(organic.filter((id) => id !== 'p20'));
    // Pages of 5 concatenate to the same list: nothing repeated, nothing lost.
    const pages = [];
    for (let page = 0; page < 7; page++) pages.push(...ids(await service.search({ text: 'phone', hitsPerPage: 5, page })));
    expect(pages).toEqual(all);
    const page = await service.search({ text: 'phone', hitsPerPage: 5 });
    expect(page.totalHits).toBe(31); // 30 phones and the pinned case
    expect(page.totalPages).toBe(7);
  });

  it('puts a pin past the end of the list right after it, and skips a pin outside the filters', async () => {
    const service = await serviceOf(
      ITEMS,
      rules({
        id: 'r',
        query: { contains: ['phone'] },
        pin: [
          { itemId: 'c1', position: 500 },
          { itemId: 'p03', position: 1 },
        ],
      }),
    );
    const all = ids(await service.search({ text: 'phone', hitsPerPage: 100 }));
    expect(all.length).toBe(31);
    expect(all.at(-1)).toBe('c1');
    // p03 is a Zeta phone: an Acme filter leaves it out, and the pin with it.
    const acme = await service.search({ text: 'phone', filters: { brand: ['Acme'] }, hitsPerPage: 100 });
    expect(ids(acme)).not.toContain('p03');
    expect(ids(acme).at(-1)).toBe('c1');
    expect(acme.totalHits).toBe(16);
  });

  it('removes hidden items from hits, totals and facets', async () => {
    const hide = ['p00', 'p02', 'p04'];
    const service = await serviceOf(ITEMS, { ...rules({ id: 'h', query: { equals: 'phone' }, hide }), facets: ['brand'] });
    const before = await (await serviceOf(ITEMS, { facets: ['brand'] })).search({ text: 'phone', hitsPerPage: 100 });
    const after = await service.search({ text: 'phone', hitsPerPage: 100 });
    expect(ids(after)).toEqual(ids(before).filter((id) => !hide.includes(id)));
    expect(after.totalHits).toBe(before.totalHits - 3);
    const count = (r: typeof after, brand: string) =>
      (r.facets.brand as unknown as { values: [unknown, number][] }).values.find(([v]) => v === brand)?.[1];
    expect(count(after, 'Acme')).toBe((count(before, 'Acme') ?? 0) - 3);
    expect(count(after, 'Zeta')).toBe(count(before, 'Zeta'));
    // Another query is untouched.
    expect(ids(await service.search({ text: 'phone 2', hitsPerPage: 100 }))).toContain('p02');
  });

  it('boosts the items a filter selects before the others and buries others after, keeping relevance order inside each group', async () => {
    const organic = ids(await plain());
    const service = await serviceOf(
      ITEMS,
      rules({ id: 'b', query: { equals: 'phone' }, boost: { brand: ['Zeta'] }, bury: { stock: [{ operator: '<', value: 4 }] } }),
    );
    const got = ids(await service.search({ text: 'phone', hitsPerPage: 100 }));
    const n = (id: string) => Number(id.slice(1));
    const zeta = organic.filter((id) => n(id) % 2 === 1);
    const buried = organic.filter((id) => n(id) % 2 === 0 && n(id) < 4);
    const middle = organic.filter((id) => !zeta.includes(id) && !buried.includes(id));
    // p01 and p03 are Zeta (boosted) and low in stock (buried): the boost wins for them.
    expect(got).toEqual([...zeta, ...middle, ...buried]);
    // An explicit sort comes first: boost orders ties of the sort.
    const sorted = ids(await service.search({ text: 'phone', sort: ['brand:asc'], hitsPerPage: 100 }));
    expect(sorted.slice(0, 15).every((id) => n(id) % 2 === 0)).toBe(true);
    expect(sorted.slice(0, 15).slice(-2)).toEqual(buried);
  });

  it('applies a rule only inside its time window, read on the injected clock', async () => {
    let now = Date.parse('2026-11-26T12:00:00Z');
    const service = await serviceOf(ITEMS, {
      ...rules({
        id: 'w',
        query: { equals: 'phone' },
        pin: [{ itemId: 'p29', position: 1 }],
        from: '2026-11-27T00:00:00Z',
        until: '2026-11-28T00:00:00+01:00',
      }),
      clock: () => now,
    });
    const first = async () => ids(await service.search({ text: 'phone', hitsPerPage: 1 }))[0];
    expect(await first()).toBe('p00');
    now = Date.parse('2026-11-27T00:00:00Z');
    expect(await first()).toBe('p29');
    now = Date.parse('2026-11-27T22:59:59.999Z');
    expect(await first()).toBe('p29');
    now = Date.parse('2026-11-27T23:00:00Z'); // until, in UTC: excluded
    expect(await first()).toBe('p00');
  });

  it('matches equals on the normalized query, contains on every listed word, and equals "" on the placeholder search', async () => {
    const service = await serviceOf(
      ITEMS,
      rules(
        { id: 'e', query: { equals: '  PHONE  7 ' }, pin: [{ itemId: 'c0', position: 1 }] },
        { id: 'k', query: { contains: ['Acme', 'phone'] }, pin: [{ itemId: 'c1', position: 1 }] },
        { id: 'p', query: { equals: '' }, pin: [{ itemId: 'c2', position: 1 }] },
      ),
    );
    const first = async (text: string) => ids(await service.search({ text, hitsPerPage: 2 }))[0];
    expect(await first('phone 7')).toBe('c0');
    expect(await first('Phone, 7!')).toBe('c0');
    expect(await first('phone 7 case')).not.toBe('c0');
    expect(await first('acme blue phone')).toBe('c1');
    expect(await first('acme')).not.toBe('c1');
    expect(await first('')).toBe('c2');
  });

  it('a later pin at a taken position takes the next free one; an item pinned twice keeps its first pin', async () => {
    const service = await serviceOf(
      ITEMS,
      rules(
        { id: 'a', query: { contains: ['phone'] }, pin: [{ itemId: 'c0', position: 2 }] },
        {
          id: 'b',
          query: { contains: ['phone'] },
          pin: [
            { itemId: 'c1', position: 2 },
            { itemId: 'c0', position: 5 },
          ],
        },
      ),
    );
    const got = ids(await service.search({ text: 'phone', hitsPerPage: 6 }));
    expect(got[1]).toBe('c0');
    expect(got[2]).toBe('c1');
    expect(got.filter((id) => id === 'c0')).toHaveLength(1);
  });

  it('shows what a rule did in _rankingScoreDetails.merchandising', async () => {
    const service = await serviceOf(
      ITEMS,
      rules({
        id: 'mix',
        query: { equals: 'phone' },
        pin: [{ itemId: 'c4', position: 1 }],
        boost: { brand: ['Zeta'] },
        bury: { brand: ['Acme'] },
      }),
    );
    const { hits } = await service.search({ text: 'phone', hitsPerPage: 100, showRankingScoreDetails: true });
    expect(hits[0]!._rankingScoreDetails?.merchandising).toEqual({ order: -1, rule: 'mix', pinned: 1 });
    expect(hits[0]!._rankingScore).toBe(0); // pinned without matching the text
    expect(hits[1]!._rankingScoreDetails?.merchandising).toEqual({ order: -1, rule: 'mix', boosted: true });
    expect(hits.at(-1)!._rankingScoreDetails?.merchandising).toEqual({ order: -1, rule: 'mix', buried: true });
    expect(hits[1]!._rankingScoreDetails?.words).toBeDefined();
    const without = await service.search({ text: 'phone', hitsPerPage: 1 });
    expect(without.hits[0]!._rankingScoreDetails).toBeUndefined();
  });

  it('a boost or bury on a field the catalog lacks selects nothing instead of failing the search', async () => {
    const service = await serviceOf(
      ITEMS,
      rules({ id: 'x', query: { equals: 'phone' }, boost: { colour: ['red'] }, bury: { brand: [{ operator: '>', value: 1 }] } }),
    );
    expect(ids(await service.search({ text: 'phone', hitsPerPage: 100 }))).toEqual(ids(await plain()));
  });

  it('refuses bad rules in the constructor, naming merchandising[i].field', async () => {
    const bad: [unknown, RegExp][] = [
      [[{ id: 'a', query: { equals: 'x' } }], /merchandising\[0\]: must pin, hide, boost or bury something/],
      [[{ id: 'a', query: { equals: 'x' }, pin: [{ itemId: 'p', position: 0 }] }], /merchandising\[0\]\.pin\[0\]\.position/],
      [[{ id: 'a', query: { startsWith: 'x' }, hide: ['p'] }], /merchandising\[0\]\.query: must be \{ equals/],
      [[{ id: 'a', query: { contains: [] }, hide: ['p'] }], /merchandising\[0\]\.query/],
      [[{ id: 'x'.repeat(257), query: { equals: 'x' }, hide: ['p'] }], /merchandising\[0\]\.id: id must be at most 256 characters/],
      [[{ id: 'a', query: { equals: 'x' }, hide: Array(51).fill('p') }], /merchandising\[0\]\.hide: must hold at most 50 item ids/],
      [[{ id: 'a', query: { equals: 'x' }, hide: ['p'], from: 'tomorrow' }], /merchandising\[0\]\.from: must be an ISO date-time/],
      [
        [{ id: 'a', query: { equals: 'x' }, hide: ['p'], from: '2026-01-02T00:00:00Z', until: '2026-01-01T00:00:00Z' }],
        /merchandising\[0\]\.until: must be after from/,
      ],
      [
        [
          { id: 'a', query: { equals: 'x' }, hide: ['p'] },
          { id: 'a', query: { equals: 'y' }, hide: ['p'] },
        ],
        /merchandising\[1\]\.id: id "a" is used twice/,
      ],
      [
        Array.from({ length: 101 }, (_, i) => ({ id: `r${i}`, query: { equals: 'x' }, hide: ['p'] })),
        /merchandising: must hold at most 100 rules/,
      ],
      [[{ id: 'a', query: { equals: 'x' }, boost: {} }], /merchandising\[0\]\.boost: must name 1 to 20 fields/],
    ];
    for (const [merchandising, message] of bad)
      await expect(serviceOf(ITEMS, { merchandising: merchandising as MerchandisingRule[] })).rejects.toThrow(message);
  });
});

describe('placePins', () => {
  it('lays pins out over any organic list, a page at a time', () => {
    const lay = (organic: string[], pins: number[], first: number, count: number) => {
      let k = 0;
      return placePins(
        pins.map((position, i) => ({ doc: 1000 + i, position, rule: 'r' })),
        () => organic[k++],
        (i) => `pin${i}`,
        first,
        count,
      );
    };
    expect(lay(['a', 'b', 'c'], [0, 2], 0, 10)).toEqual(['pin0', 'a', 'pin1', 'b', 'c']);
    expect(lay(['a', 'b', 'c'], [0, 2], 2, 2)).toEqual(['pin1', 'b']);
    expect(lay(['a'], [5, 9], 0, 10)).toEqual(['a', 'pin0', 'pin1']);
    expect(lay([], [3], 1, 10)).toEqual([]);
    expect(lay([], [3], 0, 10)).toEqual(['pin0']);
  });
});

describe('merchandising in hybrid search', () => {
  /** A deterministic embedder: counts of the letters a–z. */
  const letters = (text: string) => {
    const v = new Array<number>(26).fill(0);
    for (const ch of text.toLowerCase()) if (ch >= 'a' && ch <= 'z') v[ch.charCodeAt(0) - 97]! += 1;
    return v;
  };
  const embedder = { embed: async (texts: readonly string[]) => texts.map(letters) };
  const HYBRID = [
    item('a-bbb', 'apple bbb', { brand: 'A' }),
    item('b-pie', 'apple pie', { brand: 'A' }),
    item('c-pale', 'pale leap pal', { brand: 'C' }),
    item('d-zebra', 'zebra', { brand: 'Z' }),
    item('e-xyz', 'xyz qwv', { brand: 'E' }),
  ];

  it('hides, boosts and pins over the blended list, and filters keep documents out of the semantic joins', async () => {
    const plain = await serviceOf(HYBRID, { embedder, searchableFields: ['name'] });
    const all = await plain.search({ text: 'apple', semanticRatio: 1, hitsPerPage: 10 });
    expect(all.totalHits).toBe(5);
    // A filter applies to documents that join by their vector too.
    const filtered = await plain.search({ text: 'apple', semanticRatio: 1, filters: { brand: ['A', 'Z'] }, hitsPerPage: 10 });
    expect(ids(filtered).sort()).toEqual(['a-bbb', 'b-pie', 'd-zebra']);
    const service = await serviceOf(HYBRID, {
      embedder,
      searchableFields: ['name'],
      ...rules({ id: 'h', query: { equals: 'apple' }, hide: ['c-pale'], boost: { brand: ['Z'] }, pin: [{ itemId: 'e-xyz', position: 1 }] }),
    });
    const got = await service.search({ text: 'apple', semanticRatio: 1, hitsPerPage: 10, showRankingScoreDetails: true });
    const organic = ids(all).filter((id) => id !== 'c-pale' && id !== 'd-zebra' && id !== 'e-xyz');
    expect(ids(got)).toEqual(['e-xyz', 'd-zebra', ...organic]);
    expect(got.totalHits).toBe(4);
    expect(got.hits[0]!._rankingScoreDetails?.merchandising).toEqual({ order: -1, rule: 'h', pinned: 1 });
    expect(got.hits[1]!._rankingScoreDetails?.merchandising).toEqual({ order: -1, rule: 'h', boosted: true });
  });
});
