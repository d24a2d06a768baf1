/**
 * Typo tolerance as Meilisearch counts it: no typo for terms of up to 4 characters, one up to 8,
 * two beyond; swapping two adjacent letters counts as one typo (Damerau distance).
 *
 * @module
 */

/**
 * Typos allowed for a query term of `length` characters.
 *
 * @example
 * ```ts
 * allowedTypos('shoe'.length);       // 0
 * allowedTypos('sneaker'.length);    // 1
 * allowedTypos('trampoline'.length); // 2
 * ```
 */
export function allowedTypos(length: number): number {
  return length <= 4 ? 0 : length <= 8 ? 1 : 2;
}

/**
 * Optimal-string-alignment distance (Levenshtein plus adjacent transposition), giving up past
 * `max` (returns `max + 1`).
 *
 * @example
 * ```ts
 * damerau('galaxy', 'galxay'); // 1: one adjacent transposition
 * damerau('galaxy', 'gal', 2); // 3: gave up past max
 * ```
 */
export function damerau(a: string, b: string, max = Infinity): number {
  if (a === b) return 0;
  if (Math.abs(a.length - b.length) > max) return max + 1;
  const n = b.length;
  let prev2 = new Array<number>(n + 1).fill(0);
  let prev = Array.from({ length: n + 1 }, (_, j) => j);
  let row = new Array<number>(n + 1).fill(0);
  for (let i = 1; i <= a.length; i++) {
    row[0] = i;
    let best = row[0];
    for (let j = 1; j <= n; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let d = Math.min(prev[j]! + 1, row[j - 1]! + 1, prev[j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d = Math.min(d, prev2[j - 2]! + 1);
      row[j] = d;
      if (d < best) best = d;
    }
    if (best > max) return max + 1;
    [prev2, prev, row] = [prev, row, prev2];
  }
  return Math.min(prev[n]!, max + 1);
}

/**
 * The distinct terms made by swapping two adjacent characters of `term`.
 *
 * @example
 * ```ts
 * transpositions('abc');  // ['bac', 'acb']
 * transpositions('book'); // ['obok', 'boko']: swapping the two o's gives nothing new
 * ```
 */
export function transpositions(term: string): string[] {
  const out = new Set<string>();
  for (let i = 0; i + 1 < term.length; i++) {
    if (term[i] === term[i + 1]) continue;
    out.add(term.slice(0, i) + term[i + 1] + term[i] + term.slice(i + 2));
  }
  return [...out];
}
