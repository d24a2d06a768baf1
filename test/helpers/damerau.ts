/**
 * The distance search's typo tolerance counts (src/search/typos.ts), kept here as the
 * reference the dictionary's automaton is checked against: the search itself never computes it.
 */

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
  // Three rolling rows in one reused buffer: brute-force references call it for every word and prefix.
  if (rows.length < 3 * (n + 1)) rows = new Int32Array(3 * (n + 1) * 2);
  let prev2 = 0;
  let prev = n + 1;
  let row = 2 * (n + 1);
  for (let j = 0; j <= n; j++) rows[prev + j] = j;
  for (let i = 1; i <= a.length; i++) {
    rows[row] = i;
    let best = i;
    const ai = a.charCodeAt(i - 1);
    for (let j = 1; j <= n; j++) {
      const bj = b.charCodeAt(j - 1);
      const cost = ai === bj ? 0 : 1;
      let d = Math.min(rows[prev + j]! + 1, rows[row + j - 1]! + 1, rows[prev + j - 1]! + cost);
      if (i > 1 && j > 1 && ai === b.charCodeAt(j - 2) && a.charCodeAt(i - 2) === bj) d = Math.min(d, rows[prev2 + j - 2]! + 1);
      rows[row + j] = d;
      if (d < best) best = d;
    }
    if (best > max) return max + 1;
    const t = prev2;
    prev2 = prev;
    prev = row;
    row = t;
  }
  return Math.min(rows[prev + n]!, max + 1);
}

let rows = new Int32Array(96);
