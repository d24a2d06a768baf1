/**
 * Behaviour ranking (docs/ranking.md, Behaviour ranking): the re-ranker's guardrails as
 * properties (no item moves more than maxShift, no evidence changes nothing), the `_behaviour`
 * criterion of customRanking, re-ranking through the service with its details, queries without
 * feedback answered bit for bit as without behaviour ranking, and the option's messages.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { BehaviourSource, QueryFeedback } from '../../src/search/behaviour';
import { behaviourSourced, rerank } from '../../src/search/behaviour-ranking';
import { ids, item, serviceOf } from '../helpers/search';

const DEFAULTS = { minExamined: 5, maxShift: 3, depth: 50, priorExamined: 10 };

/** A source answering from fixed maps: signals per item, feedback per normalized query. */
function stub(signals: Record<string, number>, feedback: Record<string, Record<string, QueryFeedback>>): BehaviourSource {
  return {
    itemSignals: () => new Map(Object.entries(signals)),
    queryFeedback: (_catalog, query) => (feedback[query] ? new Map(Object.entries(feedback[query])) : undefined),
  };
}

const feedbackArb = (n: number) =>
  fc.array(
    fc.record({
      item: fc.integer({ min: 0, max: n + 5 }),
      clicks: fc.nat({ max: 200 }),
      examined: fc.double({ min: 0, max: 300, noNaN: true }),
    }),
    { maxLength: n + 5 },
  );

describe('rerank', () => {
  it('never moves an item out of its group (property)', () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: -1, max: 1 }), { maxLength: 40 }),
        fc.integer({ min: 0, max: 6 }),
        feedbackArb(40),
        (raw, maxShift, entries) => {
          const groups = [...raw].sort((a, b) => b - a);
          const itemIds = groups.map((_, i) => `i${i}`);
          const feedback = new Map(entries.map((e) => [`i${e.item}`, { clicks: e.clicks, examined: e.examined }]));
          const result = rerank(itemIds, feedback, { ...DEFAULTS, maxShift }, 0, groups);
          if (result) expect(result.order.map((i) => groups[i])).toEqual(groups);
        },
      ),
    );
  });

  it('never moves an item more than maxShift positions, keeps every item, and moves nothing past depth (property)', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 80 }),
        fc.integer({ min: 0, max: 6 }),
        fc.integer({ min: 1, max: 60 }),
        fc.double({ min: 0, max: 20, noNaN: true }),
        fc.double({ min: 0, max: 50, noNaN: true }),
        feedbackArb(80),
        (n, maxShift, depth, minExamined, priorExamined, entries) => {
          const itemIds = Array.from({ length: n }, (_, i) => `i${i}`);
          const feedback = new Map(entries.map((e) => [`i${e.item}`, { clicks: e.clicks, examined: e.examined }]));
          const result = rerank(itemIds, feedback, { maxShift, depth, minExamined, priorExamined });
          if (!result) return;
          const { order, details } = result;
          expect(order.length).toBe(Math.min(n, depth));
          expect([...order].sort((a, b) => a - b)).toEqual(order.map((_, i) => i));
          order.forEach((i, p) => {
            expect(Math.abs(i - p)).toBeLessThanOrEqual(maxShift);
            if (details.has(i)) expect(details.get(i)!.moved).toBe(i - p);
          });
        },
      ),
    );
  });

  it('leaves the order as it is when no item has enough evidence (property)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 60 }), feedbackArb(60), (n, entries) => {
        const itemIds = Array.from({ length: n }, (_, i) => `i${i}`);
        // Every examination count under the minimum.
        const feedback = new Map(entries.map((e) => [`i${e.item}`, { clicks: e.clicks, examined: Math.min(e.examined, 4.99) }]));
        expect(rerank(itemIds, feedback, DEFAULTS)).toBeUndefined();
      }),
    );
  });

  it('moves an often-clicked item up and a never-clicked one down, shrunk toward the query mean', () => {
    const itemIds = ['a', 'b', 'c', 'd', 'e', 'f'];
    const feedback = new Map([
      ['a', { clicks: 0, examined: 100 }],
      ['e', { clicks: 60, examined: 100 }],
      ['f', { clicks: 1, examined: 2 }], // below minExamined: no evidence
    ]);
    const result = rerank(itemIds, feedback, { ...DEFAULTS, maxShift: 2 })!;
    // a must not fall more than 2 places, e not rise more than 2: a is placed 3rd, e 4th.
    expect(result.order.map((i) => itemIds[i])).toEqual(['b', 'c', 'a', 'e', 'd', 'f']);
    const mean = 61 / 202;
    expect(result.details.get(4)).toEqual({ order: 0, clicks: 60, examined: 100, estimate: (60 + 10 * mean) / 110, moved: 1 });
    expect(result.details.get(0)!.moved).toBe(-2);
    // Below every known item, f is taken as the least attractive of them (a's estimate).
    expect(result.details.get(5)!.estimate).toBe((0 + 10 * mean) / 110);
  });

  it("gives an item without evidence the rate of the known items below it, so it never passes a known item on the first hits' popularity", () => {
    // a is clicked most (it pulls the query's mean up to about 0.59); b is known and fairly
    // attractive (0.3); c was never examined enough; d, below, is known and rarely clicked.
    const itemIds = ['a', 'b', 'c', 'd'];
    const feedback = new Map([
      ['a', { clicks: 800, examined: 1000 }],
      ['b', { clicks: 60, examined: 200 }],
      ['d', { clicks: 2, examined: 200 }],
    ]);
    const result = rerank(itemIds, feedback, { ...DEFAULTS, maxShift: 3 })!;
    // With the query's mean (0.59) as c's estimate, c would pass b; with d's rate (0.01) it stays.
    expect(result.order.map((i) => itemIds[i])).toEqual(['a', 'b', 'c', 'd']);
  });
});

// Phones with the same name words: the ranking rules order them by id (via tieBreak on equal prices).
const ITEMS = Array.from({ length: 12 }, (_, i) => item(`p${String(i).padStart(2, '0')}`, 'Galaxy phone', { popularity: i % 3 }));

describe('behaviour ranking in SearchService', () => {
  it('orders by the items’ signals with _behaviour in customRanking, placeholder searches included', async () => {
    const source = stub({ p03: 5, p07: 9, p10: 1 }, {});
    const service = await serviceOf(ITEMS, { customRanking: ['_behaviour:desc'], behaviour: { source } });
    expect(ids(await service.search({ text: 'galaxy', hitsPerPage: 3 }))).toEqual(['p07', 'p03', 'p10']);
    expect(ids(await service.search({ text: '', hitsPerPage: 3 }))).toEqual(['p07', 'p03', 'p10']);
    const { hits } = await service.search({ text: 'galaxy', hitsPerPage: 1, showRankingScoreDetails: true });
    expect(hits[0]!._rankingScoreDetails?.['_behaviour:desc']).toMatchObject({ value: 9 });
    // Behaviour off (or no source): every signal is 0, the order is the id order.
    const off = await serviceOf(ITEMS, { customRanking: ['_behaviour:desc'], behaviour: { enabled: false, source } });
    expect(ids(await off.search({ text: 'galaxy', hitsPerPage: 3 }))).toEqual(['p00', 'p01', 'p02']);
  });

  it('re-ranks a query with click feedback within maxShift, and explains it in _rankingScoreDetails.behaviour', async () => {
    const source = stub({}, { 'galaxy phone': { p09: { clicks: 40, examined: 50 }, p00: { clicks: 0, examined: 80 } } });
    const service = await serviceOf(ITEMS, { behaviour: { source, rerank: { maxShift: 3 } } });
    const page = await service.search({ text: 'Galaxy  PHONE', hitsPerPage: 12, showRankingScoreDetails: true });
    const got = ids(page);
    expect(got.indexOf('p09')).toBe(6); // up 3, no more
    expect(got.indexOf('p00')).toBe(3); // down 3
    const detail = page.hits[6]!._rankingScoreDetails?.behaviour;
    expect(detail).toMatchObject({ clicks: 40, examined: 50, moved: 3 });
    // Pages agree with the whole list.
    const pages = [];
    for (let p = 0; p < 4; p++) pages.push(...ids(await service.search({ text: 'galaxy phone', hitsPerPage: 3, page: p })));
    expect(pages).toEqual(got);
    // Another query has no feedback: untouched.
    expect(ids(await service.search({ text: 'galaxy', hitsPerPage: 12 }))).toEqual(ITEMS.map((i) => i.id));
  });

  it('answers queries without feedback exactly as without behaviour ranking (property)', async () => {
    const source = stub(
      { p01: 3 },
      { phone: { p05: { clicks: 0, examined: 30 }, p02: { clicks: 0, examined: 30 }, p11: { clicks: 30, examined: 30 } } },
    );
    const plain = await serviceOf(ITEMS, { customRanking: ['popularity:desc'] });
    const withBehaviour = await serviceOf(ITEMS, { customRanking: ['popularity:desc'], behaviour: { source } });
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom('galaxy', 'galaxy phone', 'phone galaxy', 'galaxi', '', 'gal'),
        fc.integer({ min: 1, max: 12 }),
        fc.integer({ min: 0, max: 3 }),
        fc.boolean(),
        async (text, hitsPerPage, page, showRankingScoreDetails) => {
          const query = { text, hitsPerPage, page, showRankingScoreDetails };
          expect(JSON.stringify(await withBehaviour.search(query))).toBe(JSON.stringify(await plain.search(query)));
        },
      ),
      { numRuns: 60 },
    );
    // The query with feedback does change.
    expect(ids(await withBehaviour.search({ text: 'phone' }))).not.toEqual(ids(await plain.search({ text: 'phone' })));
  });

  it('leaves an explicit sort alone, and keeps boosted and buried hits in their group', async () => {
    const source = stub({}, { galaxy: { p11: { clicks: 50, examined: 50 }, p00: { clicks: 0, examined: 50 } } });
    const service = await serviceOf(ITEMS, {
      behaviour: { source, rerank: { maxShift: 5 } },
      merchandising: [{ id: 'b', query: { equals: 'galaxy' }, boost: { popularity: [0] } }],
    });
    // Boosted: popularity 0 (p00, p03, p06, p09); p00 never clicked may not leave it, p11 clicked may not enter it.
    const got = ids(await service.search({ text: 'galaxy', hitsPerPage: 12 }));
    expect(got.slice(0, 4).sort()).toEqual(['p00', 'p03', 'p06', 'p09']);
    expect(got[3]).toBe('p00'); // down 3: the end of its group
    expect(got[6]).toBe('p11'); // up 5 (maxShift), not into the boosted group
    const sorted = ids(await service.search({ text: 'galaxy', hitsPerPage: 12, sort: ['id:desc'] }));
    expect(sorted).toEqual(ITEMS.map((i) => i.id).reverse());
  });

  it('pages concatenate to the whole re-ranked list, whatever the feedback and page size (property)', async () => {
    await fc.assert(
      fc.asyncProperty(feedbackArb(12), fc.integer({ min: 1, max: 5 }), fc.integer({ min: 0, max: 4 }), async (entries, size, maxShift) => {
        const feedback = Object.fromEntries(
          entries.map((e) => [`p${String(e.item).padStart(2, '0')}`, { clicks: e.clicks, examined: e.examined }]),
        );
        const service = await serviceOf(ITEMS, { behaviour: { source: stub({}, { galaxy: feedback }), rerank: { maxShift } } });
        const whole = ids(await service.search({ text: 'galaxy', hitsPerPage: 12 }));
        const pages: string[] = [];
        for (let p = 0; p * size < 12; p++) pages.push(...ids(await service.search({ text: 'galaxy', hitsPerPage: size, page: p })));
        expect(pages).toEqual(whole);
      }),
      { numRuns: 40 },
    );
  });

  it('turns re-ranking off with rerank: false, and checks the option naming behaviour.…', async () => {
    const source = stub({}, { 'galaxy phone': { p09: { clicks: 40, examined: 50 } } });
    const off = await serviceOf(ITEMS, { behaviour: { source, rerank: false } });
    expect(ids(await off.search({ text: 'galaxy phone', hitsPerPage: 12 }))).toEqual(ITEMS.map((i) => i.id));
    const bad: [unknown, RegExp][] = [
      ['yes', /behaviour must be true, false or \{ enabled, source, rerank \}/],
      [{ enabled: 'yes' }, /behaviour\.enabled must be true or false/],
      [{ source: {} }, /behaviour\.source must be a BehaviourSource/],
      [{ rerank: { maxShift: -1 } }, /behaviour\.rerank\.maxShift: must be an integer from 0 to 50, got -1/],
      [{ rerank: { depth: 500 } }, /behaviour\.rerank\.depth: must be an integer from 1 to 200, got 500/],
      [{ rerank: { shift: 2 } }, /behaviour\.rerank/],
    ];
    for (const [behaviour, message] of bad) await expect(serviceOf(ITEMS, { behaviour: behaviour as never })).rejects.toThrow(message);
  });
});

describe('behaviourSourced', () => {
  it('gives the source to settings asking for behaviour ranking, the same object for the same settings', () => {
    const source = stub({}, {});
    const withSource = behaviourSourced(source);
    const on = { behaviour: { enabled: true, rerank: { maxShift: 2 } } };
    const given = withSource(on);
    expect(given).toEqual({ behaviour: { enabled: true, rerank: { maxShift: 2 }, source } });
    expect(withSource(on)).toBe(given);
    expect(withSource({ behaviour: true }).behaviour).toEqual({ source });
    const off = { behaviour: { enabled: false } };
    expect(withSource(off)).toBe(off);
    const none = {};
    expect(withSource(none)).toBe(none);
  });
});
