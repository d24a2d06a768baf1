/**
 * The shopper simulator's click model and sessions (test/helpers/shoppers.ts): the cascade's
 * rules, its exact expectations against its draws, determinism by seed, and the plain tally.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { JudgedQuery } from '../bench/relevance-judgments';
import {
  browse,
  type ClickModel,
  DEFAULT_CLICK_MODEL,
  expectedBrowse,
  NO_RESULT_QUERIES,
  type Search,
  searchEvents,
  sessionRandom,
  Shoppers,
  tally,
} from '../helpers/shoppers';

const probability = fc.double({ min: 0, max: 1, noNaN: true });
const byGrade = fc.tuple(probability, probability, probability, probability);
const model: fc.Arbitrary<ClickModel> = fc.record({
  attractiveness: byGrade,
  conversion: byGrade,
  satisfaction: byGrade,
  patience: probability,
});
/** A ranked list of 0..12 distinct items `i<k>`, each with a grade 0..3 (some unjudged). */
const list = fc.array(fc.option(fc.integer({ min: 0, max: 3 }), { nil: undefined }), { maxLength: 12 }).map((grades) => ({
  ranked: grades.map((_, i) => `i${i}`),
  judged: new Map<string, number>(grades.flatMap((g, i) => (g === undefined ? [] : [[`i${i}`, g] as const]))),
}));

describe('cascade click model', () => {
  it('examines top down, clicks only examined positions, and stops at a conversion', () => {
    fc.assert(
      fc.property(list, model, fc.integer(), ({ ranked, judged }, m, seed) => {
        const b = browse(ranked, judged, sessionRandom(seed, 0), m);
        expect(b.depth).toBeLessThanOrEqual(ranked.length);
        expect(b.depth === 0).toBe(ranked.length === 0);
        const positions = b.clicks.map((c) => c.position);
        expect(positions).toEqual([...new Set(positions)].sort((x, y) => x - y));
        for (const c of b.clicks) {
          expect(c.position).toBeLessThanOrEqual(b.depth);
          expect(c.itemId).toBe(ranked[c.position - 1]);
        }
        if (b.conversion) {
          expect(b.clicks.at(-1)).toBe(b.conversion);
          expect(b.conversion.position).toBe(b.depth);
        }
      }),
    );
  });

  it('draws the same for the same seed and session', () => {
    fc.assert(
      fc.property(list, model, fc.integer(), fc.nat(10_000), ({ ranked, judged }, m, seed, index) => {
        expect(browse(ranked, judged, sessionRandom(seed, index), m)).toEqual(browse(ranked, judged, sessionRandom(seed, index), m));
      }),
    );
  });

  it('never goes past the first position without patience, and never clicks what is never attractive', () => {
    fc.assert(
      fc.property(list, fc.integer(), ({ ranked, judged }, seed) => {
        const impatient = browse(ranked, judged, sessionRandom(seed, 1), { ...DEFAULT_CLICK_MODEL, patience: 0 });
        expect(impatient.depth).toBeLessThanOrEqual(1);
        const unattractive = browse(ranked, judged, sessionRandom(seed, 2), { ...DEFAULT_CLICK_MODEL, attractiveness: [0, 0, 0, 0] });
        expect(unattractive.clicks).toEqual([]);
      }),
    );
  });

  it('has exact expectations that are probabilities, with examination never rising down the list', () => {
    fc.assert(
      fc.property(list, model, ({ ranked, judged }, m) => {
        const e = expectedBrowse(ranked, judged, m);
        const eps = 1e-12;
        e.examined.forEach((x, i) => {
          expect(x).toBeGreaterThanOrEqual(-eps);
          expect(x).toBeLessThanOrEqual(i === 0 ? 1 : e.examined[i - 1]! + eps);
          expect(e.click[i]!).toBeLessThanOrEqual(x + eps);
        });
        expect(e.anyClick).toBeLessThanOrEqual(Math.min(1, e.clicks) + eps);
        expect(e.conversion).toBeLessThanOrEqual(e.anyClick + eps);
      }),
    );
  });

  it('draws clicks and conversions at the exact expected rates (within 4.5 standard errors)', () => {
    fc.assert(
      fc.property(list, model, fc.integer(), ({ ranked, judged }, m, seed) => {
        const n = 4000;
        const clicks = new Array<number>(ranked.length).fill(0);
        let conversions = 0;
        let any = 0;
        for (let i = 0; i < n; i++) {
          const b = browse(ranked, judged, sessionRandom(seed, i), m);
          for (const c of b.clicks) clicks[c.position - 1]!++;
          if (b.conversion) conversions++;
          if (b.clicks.length > 0) any++;
        }
        const e = expectedBrowse(ranked, judged, m);
        const close = (count: number, p: number) => {
          const se = Math.sqrt((p * (1 - p)) / n) + 1 / n;
          expect(Math.abs(count / n - p)).toBeLessThanOrEqual(4.5 * se);
        };
        clicks.forEach((c, i) => close(c, e.click[i]!));
        close(conversions, e.conversion);
        close(any, e.anyClick);
      }),
      { numRuns: 30 },
    );
  });

  it('converts at least as often on a list sorted by grade (the default model rewards relevance first)', () => {
    fc.assert(
      fc.property(list, ({ ranked, judged }) => {
        const best = [...ranked].sort((x, y) => (judged.get(y) ?? 0) - (judged.get(x) ?? 0));
        const e = expectedBrowse(ranked, judged);
        const ideal = expectedBrowse(best, judged);
        expect(ideal.conversion).toBeGreaterThanOrEqual(e.conversion - 1e-12);
        expect(ideal.anyClick).toBeGreaterThanOrEqual(e.anyClick - 1e-12);
      }),
    );
  });

  it('refuses a model whose numbers are not probabilities, naming the number', () => {
    expect(() => new Shoppers({ queries: QUERIES, seed: 1, model: { ...DEFAULT_CLICK_MODEL, patience: 1.5 } })).toThrow(
      'click model: patience must be a probability in [0, 1], got 1.5',
    );
    expect(() => new Shoppers({ queries: QUERIES, seed: 1, model: { ...DEFAULT_CLICK_MODEL, conversion: [0, 0, -1, 0] } })).toThrow(
      'conversion[2]',
    );
  });
});

const QUERIES: JudgedQuery[] = Array.from({ length: 8 }, (_, q) => ({
  query: `Query  ${q}`,
  kind: 'test',
  judged: new Map(Array.from({ length: 6 }, (_, i) => [`q${q}-${i}`, (q + i) % 4] as const)),
}));

/** A search answering a judged query with its items, a no-result word with nothing, and a queryID per search. */
const fixed: Search = async ({ text, hitsPerPage }) => {
  const q = QUERIES.find((x) => x.query === text);
  const ids = q ? [...q.judged.keys()].slice(0, hitsPerPage) : [];
  return { ids, totalHits: ids.length, queryID: `id-${text}` };
};

describe('sessions', () => {
  it('depend on the seed and the index only, whatever ran before', async () => {
    const a = new Shoppers({ queries: QUERIES, seed: 7, noResultShare: 0.2, sessionsPerVisitor: 3 });
    const all = await a.run(fixed, 40);
    const late = await new Shoppers({ queries: QUERIES, seed: 7, noResultShare: 0.2, sessionsPerVisitor: 3 }).run(fixed, 10, 30);
    expect(late).toEqual(all.slice(30));
    expect(all[4]!.visitorId).toBe('v1');
    const other = await new Shoppers({ queries: QUERIES, seed: 8, noResultShare: 0.2 }).run(fixed, 40);
    expect(other.map((s) => s.text)).not.toEqual(all.map((s) => s.text));
  });

  it('search the popular queries more (Zipf), the no-result words at their share, keyed by normalizeQuery', async () => {
    const shoppers = new Shoppers({ queries: QUERIES, seed: 3, noResultShare: 0.1 });
    const sessions = await shoppers.run(fixed, 3000);
    const t = tally(sessions);
    const count = (q: JudgedQuery) => t.queries.get(q.query.toLowerCase().replace(/\s+/g, ' '))?.searches ?? 0;
    expect(count(shoppers.popular[0]!)).toBeGreaterThan(count(shoppers.popular[7]!) * 4);
    const noResult = sessions.filter((s) => s.judged === null);
    expect(noResult.every((s) => (NO_RESULT_QUERIES as readonly string[]).includes(s.text) && s.answer.totalHits === 0)).toBe(true);
    expect(noResult.length / sessions.length).toBeCloseTo(0.1, 1);
    expect(t.totals.zeroResults).toBe(noResult.length);
  });

  it('tally every search, click and conversion once, by query, item and pair, and the events a shop sends', async () => {
    const sessions = await new Shoppers({ queries: QUERIES, seed: 11, noResultShare: 0.05 }).run(fixed, 500);
    const t = tally(sessions);
    const sum = <T>(m: Map<string, T>, f: (v: T) => number) => [...m.values()].reduce((s, v) => s + f(v), 0);
    const clicks = sessions.reduce((s, x) => s + x.browse.clicks.length, 0);
    const conversions = sessions.filter((s) => s.browse.conversion).length;
    expect(t.totals).toEqual({
      searches: 500,
      zeroResults: sessions.filter((s) => s.answer.totalHits === 0).length,
      clicks,
      conversions,
    });
    expect(sum(t.queries, (q) => q.clicks)).toBe(clicks);
    expect(sum(t.items, (i) => i.clicks)).toBe(clicks);
    expect(sum(t.items, (i) => i.purchases)).toBe(conversions);
    expect([...t.pairs.values()].reduce((s, m) => s + sum(m, (p) => p.clicks), 0)).toBe(clicks);
    // A page never clicked adds 1 + 1/2 + … + 1/n of examination weight; a clicked one 1 per position down to its deepest click.
    const harmonic = (n: number) => Array.from({ length: n }, (_, i) => 1 / (i + 1)).reduce((a, b) => a + b, 0);
    const examined = [...t.pairs.values()].reduce((s, m) => s + sum(m, (p) => p.examined), 0);
    const weight = (x: (typeof sessions)[number]) =>
      x.browse.clicks.length === 0 ? harmonic(x.answer.ids.length) : Math.max(...x.browse.clicks.map((c) => c.position));
    expect(examined).toBeCloseTo(
      sessions.reduce((s, x) => s + weight(x), 0),
      9,
    );
    const events = sessions.flatMap(searchEvents);
    expect(events.filter((e) => e.type === 'click').length).toBe(clicks);
    expect(events.filter((e) => e.type === 'conversion').length).toBe(conversions);
    expect(events.every((e) => e.type !== 'click' || (e.position ?? 0) >= 1)).toBe(true);
  });
});
