/**
 * The default stop words: the short English list most full-text engines ship (Lucene's), small
 * on purpose, since in product names words like "case" or "top" carry meaning.
 *
 * @module
 */

/**
 * English stop words: optional in queries, never enough to make a document a candidate.
 *
 * @example
 * ```ts
 * new SearchService({ catalog, stopWords: [...ENGLISH_STOP_WORDS, 'new'] });
 * ```
 */
export const ENGLISH_STOP_WORDS: readonly string[] = Object.freeze([
  'a',
  'an',
  'and',
  'are',
  'as',
  'at',
  'be',
  'but',
  'by',
  'for',
  'if',
  'in',
  'into',
  'is',
  'it',
  'no',
  'not',
  'of',
  'on',
  'or',
  'such',
  'that',
  'the',
  'their',
  'then',
  'there',
  'these',
  'they',
  'this',
  'to',
  'was',
  'will',
  'with',
]);
