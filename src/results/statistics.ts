/**
 * The statistics of an A/B test, as pure functions of per-variation sufficient statistics
 * (counts, sums and sums of squares): two-proportion z-test, Welch's t-test, intervals for the
 * absolute and relative difference, Bayesian chance to beat the reference, and the
 * sample-ratio-mismatch chi-square. A result that is not defined for the data (an empty
 * variation, no variance, a reference rate of 0 for a relative uplift) is `null`, never NaN.
 *
 * @module
 */
import { chiSquareTail, lnBeta, normalCdf, normalQuantile, studentTQuantile, studentTTail } from './distributions';

/**
 * Conversions of one variation: `converted` of `exposed` visitors.
 *
 * @example
 * ```ts
 * const control: Proportion = { exposed: 1000, converted: 100 };
 * const treatment: Proportion = { exposed: 1000, converted: 130 };
 * twoProportionZTest(control, treatment).pValue; // ≈ 0.035
 * ```
 */
export interface Proportion {
  readonly exposed: number;
  readonly converted: number;
}

/**
 * A per-visitor value of one variation, summarized: `n` visitors, the sum and the sum of squares
 * of their values.
 *
 * @example
 * ```ts
 * const values = [0, 0, 12.5, 40];
 * const sample: SampleSums = { n: values.length, sum: 52.5, sumSquares: 12.5 ** 2 + 40 ** 2 };
 * ```
 */
export interface SampleSums {
  readonly n: number;
  readonly sum: number;
  readonly sumSquares: number;
}

/**
 * An estimate with its two-sided interval.
 *
 * @example
 * ```ts
 * const d: Estimate | null | undefined = results.groups[0]?.variations[1]?.comparison?.conversionRate.difference;
 * if (d) console.log(`${d.estimate} [${d.lower}, ${d.upper}]`);
 * ```
 */
export interface Estimate {
  readonly estimate: number;
  readonly lower: number;
  readonly upper: number;
}

/**
 * A test statistic and its two-sided p-value.
 *
 * @example
 * ```ts
 * const test: TestResult | null | undefined = results.groups[0]?.sampleRatio; // a chi-square test
 * if (test && test.pValue < 0.001) console.log('significant', test.statistic, test.degreesOfFreedom);
 * ```
 */
export interface TestResult {
  readonly statistic: number;
  readonly pValue: number;
  /** Degrees of freedom, for t and chi-square tests. */
  readonly degreesOfFreedom?: number;
}

/**
 * The sample-ratio-mismatch check of a variation group.
 *
 * @example
 * ```ts
 * const srm: SampleRatioCheck | null | undefined = results.groups[0]?.sampleRatio;
 * if (srm?.mismatch) console.warn(`exposures do not follow the allocation (p = ${srm.pValue})`);
 * ```
 */
export interface SampleRatioCheck extends TestResult {
  readonly degreesOfFreedom: number;
  /** `pValue` below 0.001 (`SRM_THRESHOLD`): exposures do not follow the allocations. */
  readonly mismatch: boolean;
}

/**
 * The p-value under which a sample ratio mismatch is flagged.
 *
 * @example
 * ```ts
 * const flagged = srm.pValue < SRM_THRESHOLD; // same as srm.mismatch
 * ```
 */
export const SRM_THRESHOLD = 0.001;

/** z of a two-sided 95% interval. */
const Z95 = normalQuantile(0.975);

// Past this many terms the exact Beta sum gives way to the normal approximation, which is
// accurate to well under 1e-3 at such counts.
const MAX_EXACT_TERMS = 50_000;

/**
 * The sample mean and variance (n − 1 denominator) of summed values; null for fewer than two.
 *
 * @example
 * ```ts
 * sampleMoments({ n: 3, sum: 6, sumSquares: 14 }); // { mean: 2, variance: 1 }
 * ```
 */
export function sampleMoments(s: SampleSums): { mean: number; variance: number } | null {
  if (!(s.n >= 2)) return null;
  const mean = s.sum / s.n;
  // Clamped: rounding can make a zero variance slightly negative.
  const variance = Math.max(0, (s.sumSquares - s.sum * mean) / (s.n - 1));
  return { mean, variance };
}

/**
 * Two-proportion z-test with the pooled proportion (equivalent to the 2×2 chi-square test
 * without continuity correction: z² = χ²). Null when a variation is empty or nobody (or
 * everybody) converted in both.
 *
 * @example
 * ```ts
 * twoProportionZTest({ exposed: 1000, converted: 100 }, { exposed: 1000, converted: 130 }); // { statistic: 2.10…, pValue: 0.035… }
 * ```
 */
export function twoProportionZTest(reference: Proportion, treatment: Proportion): TestResult | null {
  const { exposed: n1, converted: x1 } = reference;
  const { exposed: n2, converted: x2 } = treatment;
  if (n1 <= 0 || n2 <= 0) return null;
  const pooled = (x1 + x2) / (n1 + n2);
  const se = Math.sqrt(pooled * (1 - pooled) * (1 / n1 + 1 / n2));
  if (!(se > 0)) return null;
  const z = (x2 / n2 - x1 / n1) / se;
  return { statistic: z, pValue: Math.min(1, 2 * normalCdf(-Math.abs(z))) };
}

/**
 * The difference of conversion rates (treatment − reference) with its 95% Wald interval
 * (unpooled variance). Null when a variation is empty.
 *
 * @example
 * ```ts
 * proportionDifference({ exposed: 1000, converted: 100 }, { exposed: 1000, converted: 130 }); // { estimate: 0.03, lower: 0.002…, upper: 0.057… }
 * ```
 */
export function proportionDifference(reference: Proportion, treatment: Proportion): Estimate | null {
  if (reference.exposed <= 0 || treatment.exposed <= 0) return null;
  const p1 = reference.converted / reference.exposed;
  const p2 = treatment.converted / treatment.exposed;
  const se = Math.sqrt((p1 * (1 - p1)) / reference.exposed + (p2 * (1 - p2)) / treatment.exposed);
  const d = p2 - p1;
  return { estimate: d, lower: d - Z95 * se, upper: d + Z95 * se };
}

/**
 * The relative uplift m₂/m₁ − 1 of two independent means, with a 95% interval by the delta
 * method: Var ≈ v₂/m₁² + m₂²·v₁/m₁⁴, where v is the variance of each mean. Null when the
 * reference mean is 0 or a variance is not finite.
 *
 * @example
 * ```ts
 * relativeUplift(0.10, 0.10 * 0.9 / 1000, 0.13, 0.13 * 0.87 / 1000); // { estimate: 0.3, lower: …, upper: … }
 * ```
 */
export function relativeUplift(
  referenceMean: number,
  referenceVariance: number,
  treatmentMean: number,
  treatmentVariance: number,
): Estimate | null {
  if (referenceMean === 0 || !Number.isFinite(referenceVariance) || !Number.isFinite(treatmentVariance)) return null;
  const m1 = referenceMean;
  const m2 = treatmentMean;
  const variance = treatmentVariance / (m1 * m1) + (m2 * m2 * referenceVariance) / (m1 * m1 * m1 * m1);
  const estimate = m2 / m1 - 1;
  const half = Z95 * Math.sqrt(variance);
  return { estimate, lower: estimate - half, upper: estimate + half };
}

/**
 * Welch's unequal-variances t-test of two means (Welch–Satterthwaite degrees of freedom). Null
 * when a variation has fewer than two visitors or both variances are 0.
 *
 * @example
 * ```ts
 * welchTTest({ n: 500, sum: 5000, sumSquares: 260000 }, { n: 500, sum: 5600, sumSquares: 300000 });
 * ```
 */
export function welchTTest(reference: SampleSums, treatment: SampleSums): TestResult | null {
  const w = welch(reference, treatment);
  if (!w) return null;
  const t = w.difference / w.se;
  return { statistic: t, pValue: Math.min(1, 2 * studentTTail(t, w.df)), degreesOfFreedom: w.df };
}

/**
 * The difference of means (treatment − reference) with its 95% Welch interval (t quantile with
 * the Welch–Satterthwaite degrees of freedom). Null under the conditions of {@link welchTTest}.
 *
 * @example
 * ```ts
 * meanDifference({ n: 500, sum: 5000, sumSquares: 260000 }, { n: 500, sum: 5600, sumSquares: 300000 }); // { estimate: 1.2, lower, upper }
 * ```
 */
export function meanDifference(reference: SampleSums, treatment: SampleSums): Estimate | null {
  const w = welch(reference, treatment);
  if (!w) return null;
  const half = studentTQuantile(0.975, w.df) * w.se;
  return { estimate: w.difference, lower: w.difference - half, upper: w.difference + half };
}

function welch(reference: SampleSums, treatment: SampleSums): { difference: number; se: number; df: number } | null {
  const a = sampleMoments(reference);
  const b = sampleMoments(treatment);
  if (!a || !b) return null;
  const va = a.variance / reference.n;
  const vb = b.variance / treatment.n;
  const se2 = va + vb;
  if (!(se2 > 0 && Number.isFinite(se2))) return null;
  // Welch–Satterthwaite in shares of se², which neither underflows nor overflows.
  const ra = va / se2;
  const rb = vb / se2;
  const df = 1 / ((ra * ra) / (reference.n - 1) + (rb * rb) / (treatment.n - 1));
  return { difference: b.mean - a.mean, se: Math.sqrt(se2), df };
}

/**
 * P(p_B > p_A) for conversion rates with uniform Beta(1, 1) priors, so posteriors
 * Beta(1 + converted, 1 + exposed − converted). Exact (a finite sum of Beta-function ratios,
 * summed over the smallest of the four posterior parameters) up to 50,000 terms, then the
 * normal approximation of the two posteriors.
 *
 * @example
 * ```ts
 * chanceToBeatBeta({ exposed: 1000, converted: 100 }, { exposed: 1000, converted: 130 }); // ≈ 0.98
 * ```
 */
export function chanceToBeatBeta(reference: Proportion, treatment: Proportion): number {
  const a1 = 1 + reference.converted;
  const b1 = 1 + reference.exposed - reference.converted;
  const a2 = 1 + treatment.converted;
  const b2 = 1 + treatment.exposed - treatment.converted;
  const terms = Math.min(a1, a2, b1, b2);
  if (terms > MAX_EXACT_TERMS) {
    const moments = (a: number, b: number) => ({ mean: a / (a + b), variance: (a * b) / ((a + b) ** 2 * (a + b + 1)) });
    const m1 = moments(a1, b1);
    const m2 = moments(a2, b2);
    return normalCdf((m2.mean - m1.mean) / Math.sqrt(m1.variance + m2.variance));
  }
  // P(X₂ > X₁) summed over a₂; the other three forms follow from P(X₂ > X₁) = 1 − P(X₁ > X₂)
  // and X ~ Beta(a, b) ⇔ 1 − X ~ Beta(b, a).
  if (terms === a2) return beatSum(a1, b1, a2, b2);
  if (terms === a1) return 1 - beatSum(a2, b2, a1, b1);
  if (terms === b1) return beatSum(b2, a2, b1, a1);
  return 1 - beatSum(b1, a1, b2, a2);
}

/** P(X₂ > X₁), X₁ ~ Beta(a1, b1), X₂ ~ Beta(a2, b2), a2 an integer: Σ_{i<a2} B(a1+i, b1+b2) / ((b2+i)·B(1+i, b2)·B(a1, b1)). */
function beatSum(a1: number, b1: number, a2: number, b2: number): number {
  const base = lnBeta(a1, b1);
  let total = 0;
  for (let i = 0; i < a2; i++) total += Math.exp(lnBeta(a1 + i, b1 + b2) - Math.log(b2 + i) - lnBeta(1 + i, b2) - base);
  return Math.min(1, Math.max(0, total));
}

/**
 * P(μ_B > μ_A) for means under the normal approximation of each mean (flat prior):
 * Φ((m_B − m_A) / √(se_A² + se_B²)). Null when a variation has fewer than two visitors;
 * 0.5, 0 or 1 when both standard errors are 0.
 *
 * @example
 * ```ts
 * chanceToBeatNormal({ n: 500, sum: 5000, sumSquares: 260000 }, { n: 500, sum: 5600, sumSquares: 300000 }); // ≈ 0.97
 * ```
 */
export function chanceToBeatNormal(reference: SampleSums, treatment: SampleSums): number | null {
  const a = sampleMoments(reference);
  const b = sampleMoments(treatment);
  if (!a || !b) return null;
  const se = Math.sqrt(a.variance / reference.n + b.variance / treatment.n);
  if (se === 0) return b.mean > a.mean ? 1 : b.mean < a.mean ? 0 : 0.5;
  return normalCdf((b.mean - a.mean) / se);
}

/**
 * Sample-ratio-mismatch check: Pearson's chi-square goodness of fit of the observed exposure
 * counts against the counts the allocation weights expect, with k − 1 degrees of freedom;
 * `mismatch` when p < {@link SRM_THRESHOLD}. Null with fewer than two variations of positive
 * weight or no exposure; only variations of positive weight take part.
 *
 * @example
 * ```ts
 * sampleRatioMismatch([5000, 4700], [50, 50]); // { statistic: 9.27…, pValue: 0.0023…, degreesOfFreedom: 1, mismatch: false }
 * ```
 */
export function sampleRatioMismatch(observed: readonly number[], weights: readonly number[]): SampleRatioCheck | null {
  const kept = observed.map((o, i) => [o, weights[i] ?? 0] as const).filter(([, w]) => w > 0);
  const total = kept.reduce((s, [o]) => s + o, 0);
  const weight = kept.reduce((s, [, w]) => s + w, 0);
  if (kept.length < 2 || total <= 0) return null;
  let statistic = 0;
  for (const [o, w] of kept) {
    const expected = (total * w) / weight;
    statistic += ((o - expected) * (o - expected)) / expected;
  }
  const degreesOfFreedom = kept.length - 1;
  const pValue = chiSquareTail(statistic, degreesOfFreedom);
  return { statistic, pValue, degreesOfFreedom, mismatch: pValue < SRM_THRESHOLD };
}
