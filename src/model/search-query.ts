/**
 * What a search query may say, as every layer reads it: the range operators of filters and the
 * longest text. Lower than search, so settings carried by configurations (merchandising rules'
 * filters and queries) are checked where those are loaded.
 *
 * @module
 */

/**
 * Range operators of interfaces.md, Search.
 *
 * @example
 * ```ts
 * const isRangeOperator = (text: string): text is RangeOperator => (RANGE_OPERATORS as readonly string[]).includes(text);
 * isRangeOperator('>='); // true
 * ```
 */
export const RANGE_OPERATORS = ['>', '<', '>=', '<=', '='] as const;
/**
 * A range operator.
 *
 * @example
 * ```ts
 * const operator: RangeOperator = '>=';
 * await search.search({ text: 'tv', filters: { price: [{ operator, value: 300 }] } });
 * ```
 */
export type RangeOperator = (typeof RANGE_OPERATORS)[number];

/**
 * Longest search text or autocomplete query, in characters (only the first 10 terms count).
 *
 * @example
 * ```ts
 * searchQuerySchema.safeParse({ text: 'x'.repeat(MAX_TEXT_LENGTH + 1) }).success; // false
 * ```
 */
export const MAX_TEXT_LENGTH = 512;
