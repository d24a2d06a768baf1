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

/** A seeded pseudo-random generator (mulberry32): the same seed gives the same resamples on every run. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A mean difference and its bootstrap interval. */
export interface BootstrapInterval {
  /** Mean of a[i] − b[i] over all queries. */
  mean: number;
  /** Lower and upper bounds of the interval (2.5th and 97.5th percentiles for 95%). */
  low: number;
  high: number;
}

/**
 * Paired bootstrap interval of mean(a − b) over queries: `resamples` times, draw as many queries
 * as there are with replacement (the same draw for both engines, so the pairing holds) and take
 * the mean difference; the interval is the middle `level` of those means. Seeded, so a run is
 * reproducible.
 */
export function pairedBootstrap(
  a: readonly number[],
  b: readonly number[],
  { resamples = 10_000, seed = 26, level = 0.95 }: { resamples?: number; seed?: number; level?: number } = {},
): BootstrapInterval {
  if (a.length !== b.length) throw new Error(`pairedBootstrap: ${a.length} scores against ${b.length}`);
  const n = a.length;
  if (n === 0) return { mean: NaN, low: NaN, high: NaN };
  const diff = a.map((x, i) => x - b[i]!);
  const random = seededRandom(seed);
  const means = new Float64Array(resamples);
  for (let r = 0; r < resamples; r++) {
    let sum = 0;
    for (let i = 0; i < n; i++) sum += diff[Math.floor(random() * n)]!;
    means[r] = sum / n;
  }
  means.sort();
  const tail = (1 - level) / 2;
  const at = (q: number) => means[Math.min(resamples - 1, Math.max(0, Math.round(q * (resamples - 1))))]!;
  return { mean: diff.reduce((s, d) => s + d, 0) / n, low: at(tail), high: at(1 - tail) };
}
