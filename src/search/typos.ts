/**
 * Typo tolerance as Meilisearch counts it: no typo for terms of up to 4 characters, one up to 8,
 * two beyond, none past {@link TYPO_MAX_LENGTH}; swapping two adjacent letters counts as one typo
 * (Damerau distance).
 *
 * @module
 */

/**
 * Longest term that tolerates typos: longer ones (no real word is) must match exactly.
 *
 * @example
 * ```ts
 * allowedTypos(TYPO_MAX_LENGTH + 1); // 0
 * ```
 */
export const TYPO_MAX_LENGTH = 64;

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
  return length <= 4 || length > TYPO_MAX_LENGTH ? 0 : length <= 8 ? 1 : 2;
}

/**
 * Whether `word` is within `typos` of `term` as a whole (optimal string alignment, as the
 * dictionary counts): a typo-tolerant prefix lookup also reaches longer words ("backpak" reaches
 * "backpacking" through "backpac"), which this tells from the word itself ("backpack"). Words
 * longer or shorter than the term by more than `typos` are not read.
 *
 * @example
 * ```ts
 * withinTypos('backpak', 'backpack', 1);    // true
 * withinTypos('backpak', 'backpacking', 1); // false
 * ```
 */
export function withinTypos(term: string, word: string, typos: number): boolean {
  const n = term.length;
  const m = word.length;
  if (Math.abs(n - m) > typos) return false;
  // Three rows of the distance table: the one before last, the last, the current.
  let before = new Int32Array(m + 1);
  let last = Int32Array.from({ length: m + 1 }, (_, j) => j);
  let row = new Int32Array(m + 1);
  for (let i = 1; i <= n; i++) {
    row[0] = i;
    let least = i;
    for (let j = 1; j <= m; j++) {
      const same = term.charCodeAt(i - 1) === word.charCodeAt(j - 1);
      let v = Math.min(last[j - 1]! + (same ? 0 : 1), last[j]! + 1, row[j - 1]! + 1);
      if (i > 1 && j > 1 && term.charCodeAt(i - 1) === word.charCodeAt(j - 2) && term.charCodeAt(i - 2) === word.charCodeAt(j - 1))
        v = Math.min(v, before[j - 2]! + 1);
      row[j] = v;
      if (v < least) least = v;
    }
    if (least > typos) return false;
    [before, last, row] = [last, row, before];
  }
  return last[m]! <= typos;
}
