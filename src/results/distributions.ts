/**
 * The special functions the experiment statistics need: the log-gamma function, the regularized
 * incomplete beta and gamma functions, and the normal, Student t and chi-square distributions
 * built on them. Pure, dependency-free, and bounded: every iteration has a cap.
 *
 * @module
 */

// Lanczos approximation (g = 7, 9 terms): about 15 significant digits for x > 0.
const LANCZOS = [
  0.99999999999980993, 676.5203681218851, -1259.1392167224028, 771.32342877765313, -176.61502916214059, 12.507343278686905,
  -0.13857109526572012, 9.9843695780195716e-6, 1.5056327351493116e-7,
];
const LN_SQRT_2PI = 0.9189385332046728;
const EPSILON = 1e-15;
const TINY = 1e-300;
const MAX_ITERATIONS = 100_000;

/**
 * The natural logarithm of the gamma function, for x > 0.
 *
 * @example
 * ```ts
 * Math.exp(lnGamma(5)); // 24 (= 4!)
 * ```
 */
export function lnGamma(x: number): number {
  if (x < 0.5) return Math.log(Math.PI / Math.abs(Math.sin(Math.PI * x))) - lnGamma(1 - x);
  const z = x - 1;
  let sum = LANCZOS[0]!;
  for (let i = 1; i < LANCZOS.length; i++) sum += LANCZOS[i]! / (z + i);
  const t = z + 7.5;
  return LN_SQRT_2PI + (z + 0.5) * Math.log(t) - t + Math.log(sum);
}

/**
 * The logarithm of the beta function B(a, b).
 *
 * @example
 * ```ts
 * Math.exp(lnBeta(2, 3)); // 1/12
 * ```
 */
export function lnBeta(a: number, b: number): number {
  return lnGamma(a) + lnGamma(b) - lnGamma(a + b);
}

// Continued fraction of the incomplete beta function (modified Lentz); converges for x < (a+1)/(a+b+2).
function betaFraction(x: number, a: number, b: number): number {
  let c = 1;
  let d = 1 - ((a + b) * x) / (a + 1);
  if (Math.abs(d) < TINY) d = TINY;
  d = 1 / d;
  let h = d;
  for (let m = 1; m <= MAX_ITERATIONS; m++) {
    const m2 = 2 * m;
    // Even step.
    let aa = (m * (b - m) * x) / ((a + m2 - 1) * (a + m2));
    d = 1 + aa * d;
    if (Math.abs(d) < TINY) d = TINY;
    c = 1 + aa / c;
    if (Math.abs(c) < TINY) c = TINY;
    d = 1 / d;
    h *= d * c;
    // Odd step.
    aa = (-(a + m) * (a + b + m) * x) / ((a + m2) * (a + m2 + 1));
    d = 1 + aa * d;
    if (Math.abs(d) < TINY) d = TINY;
    c = 1 + aa / c;
    if (Math.abs(c) < TINY) c = TINY;
    d = 1 / d;
    const delta = d * c;
    h *= delta;
    if (Math.abs(delta - 1) < EPSILON) break;
  }
  return h;
}

/**
 * The regularized incomplete beta function I_x(a, b) = P(X ≤ x) for X ~ Beta(a, b).
 *
 * @example
 * ```ts
 * incompleteBeta(0.5, 2, 2); // 0.5
 * ```
 */
export function incompleteBeta(x: number, a: number, b: number): number {
  if (!(a > 0 && b > 0) || Number.isNaN(x)) return Number.NaN;
  if (x <= 0) return 0;
  if (x >= 1) return 1;
  const front = Math.exp(a * Math.log(x) + b * Math.log1p(-x) - lnBeta(a, b));
  return x < (a + 1) / (a + b + 2) ? (front * betaFraction(x, a, b)) / a : 1 - (front * betaFraction(1 - x, b, a)) / b;
}

/**
 * The regularized upper incomplete gamma function Q(a, x) = 1 − P(a, x).
 *
 * @example
 * ```ts
 * upperIncompleteGamma(1, 2); // e^-2 ≈ 0.1353
 * ```
 */
export function upperIncompleteGamma(a: number, x: number): number {
  if (!(a > 0) || Number.isNaN(x)) return Number.NaN;
  if (x <= 0) return 1;
  const front = Math.exp(-x + a * Math.log(x) - lnGamma(a));
  if (x < a + 1) {
    // Series for P(a, x).
    let term = 1 / a;
    let sum = term;
    for (let n = 1; n <= MAX_ITERATIONS; n++) {
      term *= x / (a + n);
      sum += term;
      if (Math.abs(term) < Math.abs(sum) * EPSILON) break;
    }
    return 1 - sum * front;
  }
  // Continued fraction for Q(a, x) (modified Lentz).
  let b = x + 1 - a;
  let c = 1 / TINY;
  let d = 1 / b;
  let h = d;
  for (let i = 1; i <= MAX_ITERATIONS; i++) {
    const an = -i * (i - a);
    b += 2;
    d = an * d + b;
    if (Math.abs(d) < TINY) d = TINY;
    c = b + an / c;
    if (Math.abs(c) < TINY) c = TINY;
    d = 1 / d;
    const delta = d * c;
    h *= delta;
    if (Math.abs(delta - 1) < EPSILON) break;
  }
  return front * h;
}

/**
 * The standard normal cumulative distribution function Φ(z), accurate in both tails
 * (Φ(z) = ½·Q(½, z²/2) for z < 0).
 *
 * @example
 * ```ts
 * normalCdf(1.959963984540054); // 0.975
 * ```
 */
export function normalCdf(z: number): number {
  if (Number.isNaN(z)) return Number.NaN;
  const tail = 0.5 * upperIncompleteGamma(0.5, (z * z) / 2);
  return z < 0 ? tail : 1 - tail;
}

/**
 * The standard normal quantile Φ⁻¹(p), by Newton's method from 0 (monotone: Φ is convex left of
 * 0 and concave right of it).
 *
 * @example
 * ```ts
 * normalQuantile(0.975); // 1.959963984540054
 * ```
 */
export function normalQuantile(p: number): number {
  if (!(p > 0 && p < 1)) return p === 0 ? -Infinity : p === 1 ? Infinity : Number.NaN;
  let z = 0;
  for (let i = 0; i < 200; i++) {
    const step = (normalCdf(z) - p) / Math.exp(-0.5 * z * z - LN_SQRT_2PI);
    z -= step;
    if (Math.abs(step) < 1e-12 * Math.max(1, Math.abs(z))) break;
  }
  return z;
}

/**
 * The upper tail P(T > |t|) of Student's t distribution with `df` degrees of freedom
 * (½·I_{df/(df+t²)}(df/2, ½)); the normal tail when `df` is infinite.
 *
 * @example
 * ```ts
 * 2 * studentTTail(2.228, 10); // ≈ 0.05, the two-sided p-value
 * ```
 */
export function studentTTail(t: number, df: number): number {
  if (Number.isNaN(t) || !(df > 0)) return Number.NaN;
  if (df === Infinity) return normalCdf(-Math.abs(t));
  return 0.5 * incompleteBeta(df / (df + t * t), df / 2, 0.5);
}

/**
 * The quantile of Student's t distribution with `df` degrees of freedom, for p in (0.5, 1), by
 * bisection (bounded: 200 halvings).
 *
 * @example
 * ```ts
 * studentTQuantile(0.975, 10); // ≈ 2.228
 * ```
 */
export function studentTQuantile(p: number, df: number): number {
  if (!(p > 0.5 && p < 1) || !(df > 0)) return Number.NaN;
  if (df === Infinity) return normalQuantile(p);
  let lo = 0;
  let hi = 1;
  while (studentTTail(hi, df) > 1 - p && hi < 1e12) hi *= 2;
  for (let i = 0; i < 200 && hi - lo > 1e-13 * hi; i++) {
    const mid = (lo + hi) / 2;
    if (studentTTail(mid, df) > 1 - p) lo = mid;
    else hi = mid;
  }
  return (lo + hi) / 2;
}

/**
 * The upper tail P(X > x) of the chi-square distribution with `df` degrees of freedom
 * (Q(df/2, x/2)).
 *
 * @example
 * ```ts
 * chiSquareTail(3.841458820694124, 1); // 0.05
 * ```
 */
export function chiSquareTail(x: number, df: number): number {
  return upperIncompleteGamma(df / 2, x / 2);
}
