import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { fixtureText, fixtureUrl, halfOf, type JudgeSet } from '../fixtures/relevance/judge-kit';
import { DECATHLON } from '../fixtures/relevance/judge-decathlon';
import { MRPORTER } from '../fixtures/relevance/judge-mrporter';
import { RETAILDEMO } from '../fixtures/relevance/judge-retaildemo';
import { CATALOG_NAMES, catalogNeed, readViews } from '../helpers/catalogs';
import { describeIf } from '../helpers/skip';
import { readCatalogQueries } from './relevance-judgments';

const SETS: Record<(typeof CATALOG_NAMES)[number], JudgeSet> = { decathlon: DECATHLON, mrporter: MRPORTER, retaildemo: RETAILDEMO };

for (const name of CATALOG_NAMES) {
  const set = SETS[name];

  describe(`the judged ${name} query set`, () => {
    const tuning = readCatalogQueries(name, 'tuning');
    const holdout = readCatalogQueries(name, 'holdout');

    it('has at least 80 distinct queries split into two halves by writing order, none in both', () => {
      expect(tuning.length + holdout.length).toBeGreaterThanOrEqual(80);
      expect(tuning.map((q) => q.query)).toEqual(set.specs.filter((_, i) => halfOf(i) === 'tuning').map((s) => s.q));
      expect(holdout.map((q) => q.query)).toEqual(set.specs.filter((_, i) => halfOf(i) === 'holdout').map((s) => s.q));
      const all = [...tuning, ...holdout].map((q) => q.query);
      expect(new Set(all).size).toBe(all.length);
    });

    it('grades 1 to 3 only, every query some product, an ideal product unless it says it has no exact answer', () => {
      for (const q of [...tuning, ...holdout]) {
        const grades = [...q.judged.values()];
        expect(grades.length, q.query).toBeGreaterThan(0);
        for (const g of grades) expect([1, 2, 3], q.query).toContain(g);
        if (q.kind !== 'no exact answer') expect(grades, q.query).toContain(3);
      }
    });

    it('states its grading rules, how it was judged and how it was split', () => {
      for (const half of ['tuning', 'holdout'] as const) {
        const fixture = JSON.parse(readFileSync(fixtureUrl(name, half), 'utf8')) as {
          grades: object;
          howJudged: string[];
          split: string;
          half: string;
        };
        expect(Object.keys(fixture.grades).sort()).toEqual(['0', '1', '2', '3']);
        expect(fixture.howJudged.length).toBeGreaterThan(0);
        expect(fixture.split).toMatch(/alternate/);
        expect(fixture.half).toMatch(half === 'tuning' ? /^tuning/ : /^held-out/);
      }
    });
  });

  describeIf(catalogNeed(name), `the judged ${name} query set against the products`, () => {
    it('is exactly what the written rules give over every product (judge-<catalog>.ts write)', () => {
      for (const half of ['tuning', 'holdout'] as const) expect(readFileSync(fixtureUrl(name, half), 'utf8')).toBe(fixtureText(set, half));
    });

    it('names only products of the catalog', () => {
      const ids = new Set(readViews(name).map((v) => v.id));
      for (const half of ['tuning', 'holdout'] as const)
        for (const q of readCatalogQueries(name, half))
          for (const id of q.judged.keys()) expect(ids.has(id), `${q.query}: ${id}`).toBe(true);
    });
  });
}
