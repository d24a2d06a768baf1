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
