/** The judged Best Buy queries of test/fixtures/relevance/bestbuy-judgments.json, and the held-out ones of bestbuy-holdout.json. */
import { readFileSync } from 'node:fs';
import type { Judgments } from './relevance-metrics';

/** One judged query. */
export interface JudgedQuery {
  readonly query: string;
  readonly kind: string;
  readonly judged: Judgments;
}

interface Fixture {
  queries: { query: string; kind: string; judgments: Record<string, string[]> }[];
}

/** The judged queries of the main fixture (or of `file` beside it). */
export function readJudgedQueries(file = 'bestbuy-judgments.json'): JudgedQuery[] {
  const fixture = JSON.parse(readFileSync(new URL(`../fixtures/relevance/${file}`, import.meta.url), 'utf8')) as Fixture;
  return fixture.queries.map((q) => ({
    query: q.query,
    kind: q.kind,
    judged: new Map(Object.entries(q.judgments).flatMap(([grade, ids]) => ids.map((id) => [id, Number(grade)] as const))),
  }));
}

/** The held-out judged queries (never used to tune the ranking; see judge-holdout.ts). */
export function readHoldoutQueries(): JudgedQuery[] {
  return readJudgedQueries('bestbuy-holdout.json');
}

/** A judged set's half: the tuning half, or the held-out half never read while tuning. */
export type Half = 'tuning' | 'holdout';

interface CatalogFixture {
  queries: { query: string; kind: string; judgments: Record<string, number> }[];
}

/**
 * The judged queries of a shared catalog's half (test/fixtures/relevance/<catalog>-<half>.json,
 * written by judge-<catalog>.ts): every product not listed is graded 0.
 */
export function readCatalogQueries(catalog: string, half: Half): JudgedQuery[] {
  const fixture = JSON.parse(
    readFileSync(new URL(`../fixtures/relevance/${catalog}-${half}.json`, import.meta.url), 'utf8'),
  ) as CatalogFixture;
  return fixture.queries.map((q) => ({ query: q.query, kind: q.kind, judged: new Map(Object.entries(q.judgments)) }));
}
