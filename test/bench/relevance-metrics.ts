/**
 * Ranking quality metrics over graded judgments (0 irrelevant … 3 exact). A result without a
 * judgment counts as grade 0, so an engine gains nothing from results nobody looked at.
 */

/** Grades of one query's judged products, by product id. */
export type Judgments = ReadonlyMap<string, number>;

/** A result counts as relevant for MRR and precision from this grade on. */
export const RELEVANT_GRADE = 2;

/** Gain of a grade in nDCG: exponential, so an exact match outweighs several marginal ones. */
export function gain(grade: number): number {
  return 2 ** grade - 1;
}

function gradesOf(ranked: readonly string[], judged: Judgments, k: number): number[] {
  return ranked.slice(0, k).map((id) => judged.get(id) ?? 0);
}

function dcg(grades: readonly number[]): number {
  return grades.reduce((sum, g, i) => sum + gain(g) / Math.log2(i + 2), 0);
}

/**
 * Normalized discounted cumulative gain at `k`: the DCG of the ranking over the DCG of the best
 * possible ranking of every judged product (0 when nothing is judged relevant).
 */
export function ndcgAt(ranked: readonly string[], judged: Judgments, k: number): number {
  const ideal = dcg([...judged.values()].sort((a, b) => b - a).slice(0, k));
  return ideal === 0 ? 0 : dcg(gradesOf(ranked, judged, k)) / ideal;
}

/** Reciprocal rank of the first relevant result within the first `k` (0 when there is none). */
export function reciprocalRankAt(ranked: readonly string[], judged: Judgments, k: number): number {
  const first = gradesOf(ranked, judged, k).findIndex((g) => g >= RELEVANT_GRADE);
  return first < 0 ? 0 : 1 / (first + 1);
}

/** Share of the first `k` positions holding a relevant result (missing results count as not relevant). */
export function precisionAt(ranked: readonly string[], judged: Judgments, k: number): number {
  return gradesOf(ranked, judged, k).filter((g) => g >= RELEVANT_GRADE).length / k;
}

/** How many of the first `k` results have no judgment. */
export function unjudgedAt(ranked: readonly string[], judged: Judgments, k: number): number {
  return ranked.slice(0, k).filter((id) => !judged.has(id)).length;
}

/** The `p`-th percentile (0–100) of values sorted ascending, by the nearest-rank method. */
export function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;
}

/** The median of unsorted values. */
export function median(values: readonly number[]): number {
  return percentile(
    [...values].sort((a, b) => a - b),
    50,
  );
}
