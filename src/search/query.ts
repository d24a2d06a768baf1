/**
 * Search and autocomplete queries: exported zod schemas (the typed library input), and the
 * parsing of query strings in bracket notation with `qs` under explicit limits.
 *
 * @module
 */
import qs from 'qs';
import { z } from 'zod';
import { ValidationError } from '../errors';
import { MAX_TEXT_LENGTH, RANGE_OPERATORS, type RangeOperator } from '../model/search-query';

export { MAX_TEXT_LENGTH, RANGE_OPERATORS, type RangeOperator };

/**
 * Largest `hitsPerPage`.
 *
 * @example
 * ```ts
 * const everything = await search.search({ text: '', hitsPerPage: MAX_HITS_PER_PAGE }); // 1000, the largest page
 * console.log(everything.totalPages);
 * ```
 */
export const MAX_HITS_PER_PAGE = 1000;

/**
 * Default `hitsPerPage`.
 *
 * @example
 * ```ts
 * const page = await search.search({ text: 'phone' });
 * page.hitsPerPage === DEFAULT_HITS_PER_PAGE; // true: 20 when the query sets none
 * ```
 */
export const DEFAULT_HITS_PER_PAGE = 20;
/**
 * Largest autocomplete `hits_per_page`.
 *
 * @example
 * ```ts
 * const { suggestions } = await search.autocomplete({ query: 'pho', hitsPerPage: MAX_SUGGESTIONS }); // 100, the most
 * console.log(suggestions.length);
 * ```
 */
export const MAX_SUGGESTIONS = 100;
/**
 * Default autocomplete `hits_per_page`.
 *
 * @example
 * ```ts
 * const { suggestions } = await search.autocomplete({ query: 'pho' });
 * suggestions.length <= DEFAULT_SUGGESTIONS; // true: at most 10 when the query sets none
 * ```
 */
export const DEFAULT_SUGGESTIONS = 10;

/**
 * A parsed filter: a list of exact values (any matches), or range conditions (all must hold).
 *
 * @example
 * ```ts
 * const { filters } = searchQuerySchema.parse({ text: '', filters: { price: [{ operator: '>=', value: '100' }] } });
 * const price: Filter | undefined = filters.price; // { kind: 'range', conditions: [{ operator: '>=', value: 100 }] }
 * ```
 */
export type Filter =
  | { readonly kind: 'list'; readonly values: readonly string[] }
  | { readonly kind: 'range'; readonly conditions: readonly { readonly operator: RangeOperator; readonly value: number }[] };

/**
 * One sort criterion.
 *
 * @example
 * ```ts
 * const query = searchQuerySchema.parse({ text: '', sort: ['price:desc'] });
 * const [first]: SortCriterion[] = query.sort; // { field: 'price', direction: 'desc' }
 * ```
 */
export interface SortCriterion {
  readonly field: string;
  readonly direction: 'asc' | 'desc';
}

function toNumber(value: unknown): number | undefined {
  if (typeof value === 'number') return Number.isFinite(value) ? value : undefined;
  if (typeof value !== 'string' || value.trim() === '' || !/^[\s+-]?[\d.eE+-]+\s*$/.test(value)) return undefined;
  const n = Number(value);
  return Number.isFinite(n) ? n : undefined;
}

const integer = (name: string, min: number, max: number) =>
  z.unknown().transform((value, ctx) => {
    const n = toNumber(value);
    if (n === undefined || !Number.isInteger(n) || n < min || n > max) {
      ctx.addIssue({ code: 'custom', message: `${name} must be an integer from ${min} to ${max}, got ${JSON.stringify(value)}` });
      return z.NEVER;
    }
    return n;
  });

const ratio = (name: string) =>
  z.unknown().transform((value, ctx) => {
    const n = toNumber(value);
    if (n === undefined || n < 0 || n > 1) {
      ctx.addIssue({ code: 'custom', message: `${name} must be a number from 0 to 1, got ${JSON.stringify(value)}` });
      return z.NEVER;
    }
    return n;
  });

function parseFilter(field: string, raw: unknown, ctx: z.RefinementCtx): Filter | undefined {
  const fail = (message: string) => {
    ctx.addIssue({ code: 'custom', path: [field], message: `filters[${field}]: ${message}` });
    return undefined;
  };
  // `filters[f][operator]=…&filters[f][value]=…` (no index) is one condition, not two values.
  const single = raw !== null && typeof raw === 'object' && !Array.isArray(raw) && ('operator' in raw || 'value' in raw);
  const list: unknown[] = Array.isArray(raw)
    ? raw
    : single
      ? [raw]
      : raw !== null && typeof raw === 'object'
        ? Object.values(raw as object)
        : [raw];
  if (list.length === 0) return fail('give at least one value');
  if (list.every((v) => typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean')) {
    return { kind: 'list', values: list.map(String) };
  }
  const conditions: { operator: RangeOperator; value: number }[] = [];
  for (const [i, c] of list.entries()) {
    if (c === null || typeof c !== 'object' || Array.isArray(c))
      return fail(`condition ${i} must be { operator, value }, or every value a string`);
    const { operator, value } = c as { operator?: unknown; value?: unknown };
    if (!RANGE_OPERATORS.includes(operator as RangeOperator)) {
      return fail(`unknown operator ${JSON.stringify(operator)} in condition ${i}; use one of ${RANGE_OPERATORS.join(' ')}`);
    }
    const n = toNumber(value);
    if (n === undefined) return fail(`the value of condition ${i} must be a number, got ${JSON.stringify(value)}`);
    conditions.push({ operator: operator as RangeOperator, value: n });
  }
  return { kind: 'range', conditions };
}

const filtersSchema = z
  .unknown()
  .optional()
  .transform((raw, ctx) => {
    const out: Record<string, Filter> = Object.create(null);
    if (raw === undefined) return out;
    if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) {
      ctx.addIssue({ code: 'custom', message: 'filters must map field names to values, e.g. filters[brand][]=Apple' });
      return z.NEVER;
    }
    for (const field of Object.keys(raw)) {
      const filter = parseFilter(field, (raw as Record<string, unknown>)[field], ctx);
      if (filter) Object.defineProperty(out, field, { value: filter, enumerable: true });
    }
    return out;
  });

const sortSchema = z
  .unknown()
  .optional()
  .transform((raw, ctx) => {
    if (raw === undefined) return [] as SortCriterion[];
    const list = Array.isArray(raw) ? raw : raw !== null && typeof raw === 'object' ? Object.values(raw) : [raw];
    const out: SortCriterion[] = [];
    for (const entry of list) {
      const m = typeof entry === 'string' ? /^(.+):(asc|desc)$/.exec(entry) : null;
      if (!m) {
        ctx.addIssue({ code: 'custom', message: `sort: ${JSON.stringify(entry)} must have the form <field>:asc or <field>:desc` });
        return z.NEVER;
      }
      out.push({ field: m[1]!, direction: m[2] as 'asc' | 'desc' });
    }
    return out;
  });

/**
 * Schema of a search query (interfaces.md, Search). Accepts numbers as numbers or numeric strings (query
 * strings carry text); list filters as arrays of strings, range filters as arrays of
 * `{ operator, value }`.
 *
 * @example
 * ```ts
 * const query = searchQuerySchema.parse({ text: 'galaxy', filters: { brand: ['Samsung'], price: [{ operator: '<', value: 500 }] }, sort: ['price:asc'] });
 * ```
 */
export const searchQuerySchema = z.object({
  text: z
    .string({ error: 'text is required (use text= for a placeholder search over all items)' })
    .max(MAX_TEXT_LENGTH, `text must be at most ${MAX_TEXT_LENGTH} characters`),
  filters: filtersSchema,
  page: integer('page', 0, 1_000_000)
    .optional()
    .transform((v) => v ?? 0),
  hitsPerPage: integer('hitsPerPage', 1, MAX_HITS_PER_PAGE)
    .optional()
    .transform((v) => v ?? DEFAULT_HITS_PER_PAGE),
  sort: sortSchema,
  rankingScoreThreshold: ratio('rankingScoreThreshold').optional(),
  semanticRatio: ratio('semanticRatio').optional(),
  showRankingScoreDetails: z
    .unknown()
    .optional()
    .transform((value, ctx) => {
      if (value === undefined || value === false || value === 'false') return false;
      if (value === true || value === 'true') return true;
      ctx.addIssue({ code: 'custom', message: `showRankingScoreDetails must be true or false, got ${JSON.stringify(value)}` });
      return z.NEVER;
    }),
});

/**
 * A search query as the library takes it (before defaults).
 *
 * @example
 * ```ts
 * const input: SearchQueryInput = { text: 'galaxy', filters: { brand: ['Samsung'] }, hitsPerPage: 10, sort: ['price:asc'] };
 * const page = await search.search(input);
 * ```
 */
export type SearchQueryInput = z.input<typeof searchQuerySchema>;
/**
 * A validated search query.
 *
 * @example
 * ```ts
 * const query: SearchQuery = searchQuerySchema.parse({ text: 'galaxy', page: '2' });
 * console.log(query.page, query.hitsPerPage, query.sort); // 2 20 []
 * ```
 */
export type SearchQuery = z.output<typeof searchQuerySchema>;

/**
 * Schema of an autocomplete query (interfaces.md, Autocomplete).
 *
 * @example
 * ```ts
 * autocompleteQuerySchema.parse({ query: 'gala', hitsPerPage: 5 });
 * ```
 */
export const autocompleteQuerySchema = z.object({
  query: z.string({ error: 'query is required' }).max(MAX_TEXT_LENGTH, `query must be at most ${MAX_TEXT_LENGTH} characters`),
  hitsPerPage: integer('hits_per_page', 1, MAX_SUGGESTIONS)
    .optional()
    .transform((v) => v ?? DEFAULT_SUGGESTIONS),
});

/**
 * An autocomplete query as the library takes it.
 *
 * @example
 * ```ts
 * const input: AutocompleteQueryInput = { query: 'gala', hitsPerPage: '5' }; // numeric strings are accepted
 * const { suggestions } = await search.autocomplete(input);
 * ```
 */
export type AutocompleteQueryInput = z.input<typeof autocompleteQuerySchema>;
/**
 * A validated autocomplete query.
 *
 * @example
 * ```ts
 * const query: AutocompleteQuery = autocompleteQuerySchema.parse({ query: 'gal' });
 * console.log(query.hitsPerPage); // 10, the default
 * ```
 */
export type AutocompleteQuery = z.output<typeof autocompleteQuerySchema>;

/**
 * Limits of the query-string parser: deep enough for `filters[f][0][operator]`, lists up to 1,000 values.
 *
 * @example
 * ```ts
 * import qs from 'qs';
 * const params = qs.parse('filters[brand][]=Apple&page=2', QS_OPTIONS); // the limits parseQueryString applies
 * ```
 */
export const QS_OPTIONS: qs.IParseOptions = {
  depth: 4,
  arrayLimit: 1000,
  parameterLimit: 2000,
  plainObjects: true,
  allowPrototypes: true,
  strictDepth: true,
  throwOnLimitExceeded: true,
};

/**
 * Parses a query string in bracket notation. `__proto__` cannot be a key of a parsed object,
 * so it is refused by name rather than dropped; `constructor` and `toString` work as any name.
 *
 * @example
 * ```ts
 * parseQueryString('?text=tv&filters[brand][]=LG&filters[price][0][operator]=%3E%3D&filters[price][0][value]=300');
 * // { text: 'tv', filters: { brand: ['LG'], price: [{ operator: '>=', value: '300' }] } }
 * ```
 */
export function parseQueryString(search: string): Record<string, unknown> {
  const raw = search.startsWith('?') ? search.slice(1) : search;
  for (const pair of raw.split('&')) {
    // Where qs ends a key: at "]=" when present (a bracket may hold "="), else at the first "=".
    const close = pair.indexOf(']=');
    const end = close >= 0 ? close + 1 : pair.indexOf('=');
    let key: string;
    try {
      key = decodeURIComponent((end >= 0 ? pair.slice(0, end) : pair).replace(/\+/g, ' '));
    } catch {
      throw new ValidationError('the query string is not valid percent-encoding', [{ path: [], message: 'bad encoding' }]);
    }
    // Only a key holding the name can have it as a segment: the others skip splitting.
    if (!key.includes('__proto__')) continue;
    const segments = [key.split('[')[0], ...[...key.matchAll(/\[([^\]]*)\]/g)].map((m) => m[1])];
    if (segments.includes('__proto__')) {
      throw new ValidationError(`${key}: the name __proto__ is not supported in query parameters`, [
        { path: segments.filter((s) => s !== undefined), message: '__proto__ is not supported' },
      ]);
    }
  }
  try {
    return qs.parse(raw, QS_OPTIONS) as Record<string, unknown>;
  } catch (error) {
    throw new ValidationError(`the query string is too large or too deep: ${(error as Error).message}`, [
      { path: [], message: 'over the parser limits' },
    ]);
  }
}
