import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { fixtureText } from '../fixtures/relevance/judge';
import { describeWithBestBuy } from '../helpers/bestbuy-suite';
import { HOLDOUT, HOLDOUT_HEADER } from '../fixtures/relevance/judge-holdout';
import { readHoldoutQueries, readJudgedQueries } from './relevance-judgments';

const FILE = new URL('../fixtures/relevance/bestbuy-judgments.json', import.meta.url);

describe('the judged Best Buy query set', () => {
  const queries = readJudgedQueries();

  it('has at least 80 distinct queries, each with an ideal product and only grades 0 to 3 on product ids', () => {
    expect(queries.length).toBeGreaterThanOrEqual(80);
    expect(new Set(queries.map((q) => q.query)).size).toBe(queries.length);
    for (const q of queries) {
      expect([...q.judged.values()], q.query).toContain(3);
      for (const [id, grade] of q.judged) {
        expect(id, q.query).toMatch(/^bb-\d+$/);
        expect([0, 1, 2, 3], q.query).toContain(grade);
      }
    }
  });

  it('grades each product once per query', () => {
    const fixture = JSON.parse(readFileSync(FILE, 'utf8')) as { queries: { query: string; judgments: Record<string, string[]> }[] };
    for (const q of fixture.queries) {
      const ids = Object.values(q.judgments).flat();
      expect(new Set(ids).size, q.query).toBe(ids.length);
    }
  });

  it('states its grading rules and how it was judged', () => {
    const fixture = JSON.parse(readFileSync(FILE, 'utf8')) as { grades: Record<string, string>; howJudged: string[] };
    expect(Object.keys(fixture.grades).sort()).toEqual(['0', '1', '2', '3']);
    expect(fixture.howJudged.length).toBeGreaterThan(0);
  });
});

describeWithBestBuy('the judged query set against the products', () => {
  it('is exactly what the written criteria give (test/fixtures/relevance/judge.ts write)', () => {
    expect(readFileSync(FILE, 'utf8')).toBe(fixtureText());
  });
});

describe('the held-out judged query set', () => {
  const main = new Set(readJudgedQueries().map((q) => q.query));
  const held = readHoldoutQueries();

  it('has at least 20 queries of its own, each with an ideal product and grades 0 to 3', () => {
    expect(held.length).toBeGreaterThanOrEqual(20);
    expect(new Set(held.map((q) => q.query)).size).toBe(held.length);
    for (const q of held) {
      expect(main.has(q.query), q.query).toBe(false);
      expect([...q.judged.values()], q.query).toContain(3);
      for (const grade of q.judged.values()) expect([0, 1, 2, 3], q.query).toContain(grade);
    }
  });
});

describeWithBestBuy('the held-out query set against the products', () => {
  it('is exactly what its written criteria give (test/fixtures/relevance/judge-holdout.ts write)', () => {
    expect(readFileSync(new URL('../fixtures/relevance/bestbuy-holdout.json', import.meta.url), 'utf8')).toBe(
      fixtureText(HOLDOUT, HOLDOUT_HEADER),
    );
  });
});
