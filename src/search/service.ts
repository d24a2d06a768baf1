import MiniSearch, { type Query, type SearchResult } from 'minisearch';
import type { Catalog } from '../catalog/catalog';
import { ValidationError } from '../errors';
import type { CatalogItem } from '../storage/catalog';
import { parseWith } from '../validation';
import { valueAt, valuesOf } from './fields';
import { autocompleteQuerySchema, searchQuerySchema, type AutocompleteQueryInput, type Filter, type SearchQuery, type SearchQueryInput, type SortCriterion } from './query';
import { rankingScore } from './scoring';
import { postingKey, SearchIndex, searchableText, type PathIndex } from './search-index';
import { allowedTypos, transpositions } from './typos';

/**
 * Turns texts into vectors for hybrid search. Vectors of the items are computed when a visible
 * version is indexed; the query's at search time.
 *
 * @example
 * ```ts
 * const embedder: Embedder = {
 *   embed: async (texts) => (await fetch('http://localhost:8080/embed', { method: 'POST', body: JSON.stringify({ inputs: texts }) })).json(),
 * };
 * const search = new SearchService({ catalog, embedder });
 * await search.search({ text: 'waterproof phone', semanticRatio: 0.5 });
 * ```
 */
export interface Embedder {
  /** One vector per text, all of the same dimension. */
  embed(texts: readonly string[]): Promise<number[][]>;
}

/**
 * A facet (SPEC 2.9).
 *
 * @example
 * ```ts
 * const { facets } = await search.search({ text: 'phone' });
 * const brand: Facet | undefined = facets.brand;
 * if (brand?.type === 'list') for (const [value, count] of brand.values) console.log(value, count);
 * ```
 */
export type Facet =
  | { readonly type: 'list'; readonly values: readonly (readonly [string | boolean, number])[] }
  | { readonly type: 'range'; readonly values: { readonly min: number; readonly max: number } };

/**
 * A hit: the item, with its ranking score.
 *
 * @example
 * ```ts
 * const { hits } = await search.search({ text: 'galaxy' });
 * const best: Hit | undefined = hits[0];
 * console.log(best?.id, best?.name, best?._rankingScore);
 * ```
 */
export type Hit = CatalogItem & { readonly _rankingScore: number };

/**
 * The search response (SPEC 2.9).
 *
 * @example
 * ```ts
 * const response: SearchResponse = await search.search({ text: 'galaxy', hitsPerPage: 10 });
 * console.log(`${response.totalHits} hits, page ${response.page + 1} of ${response.totalPages}`, response.hits[0]?._rankingScore);
 * ```
 */
export interface SearchResponse {
  readonly hits: readonly Hit[];
  readonly facets: Readonly<Record<string, Facet>>;
  readonly totalPages: number;
  readonly totalHits: number;
  readonly hitsPerPage: number;
  readonly page: number;
}

/**
 * The autocomplete response (SPEC 2.10).
 *
 * @example
 * ```ts
 * const response: AutocompleteResponse = await search.autocomplete({ query: 'gala', hitsPerPage: 5 });
 * console.log(response.suggestions.map((s) => s.text)); // e.g. ['Galaxy S24', 'Galaxy Tab A9']
 * ```
 */
export interface AutocompleteResponse {
  readonly suggestions: readonly { readonly text: string }[];
}

/**
 * Options of {@link SearchService}.
 *
 * @example
 * ```ts
 * const options: SearchServiceOptions = { catalog, searchableFields: ['name', 'brand'], boosts: { name: 2 }, facets: ['brand', 'price'] };
 * const search = new SearchService(options);
 * ```
 */
export interface SearchServiceOptions {
  /** The catalog whose visible version is searched. */
  catalog: Catalog;
  /**
   * Fields whose text is searched.
   * @defaultValue `name` and every custom field of type string
   */
  searchableFields?: readonly string[];
  /**
   * Relative weight per searchable field: a match in a field counts its boost over the largest
   * boost in the ranking score. @defaultValue 1 for every field
   * @example `{ name: 2, brand: 1 }`
   */
  boosts?: Readonly<Record<string, number>>;
  /**
   * Paths faceted in every response (`field` or `field.key`); number paths give range facets.
   * @defaultValue the string, string[] and boolean custom fields, `categories_ids`, and `price` (range)
   */
  facets?: readonly string[];
  /** Most values per list facet. @defaultValue `100` */
  maxFacetValues?: number;
  /** Enables hybrid ranking with `semanticRatio`. @defaultValue none: `semanticRatio` is validated and has no effect */
  embedder?: Embedder;
  /**
   * How long an index is served before asking the catalog whether a newer version is visible,
   * in milliseconds. 0: every search asks (one cheap store read).
   * @defaultValue `0`
   */
  refreshIntervalMs?: number;
}

interface Scored {
  doc: number;
  score: number;
}

const tokenize = MiniSearch.getDefault('tokenize') as (text: string) => string[];

/**
 * Query terms taken into account, as Meilisearch does: later ones are ignored, which also bounds
 * the work one query can cause.
 *
 * @example
 * ```ts
 * await search.search({ text: 'one two three four five six seven eight nine ten eleven' }); // "eleven" is ignored
 * ```
 */
export const MAX_QUERY_TERMS = 10;

function terms(text: string): string[] {
  return tokenize(text)
    .map((t) => t.toLowerCase())
    .filter((t) => t !== '')
    .slice(0, MAX_QUERY_TERMS);
}

// Most prefix spellings tried for a mistyped last term.
const MAX_PREFIX_VARIANTS = 20;

function termQuery(term: string, isLast: boolean, index: SearchIndex): Query {
  const typos = allowedTypos(term.length);
  const exact: Query = { queries: [term], fuzzy: typos > 0 ? typos : false, prefix: isLast };
  if (typos === 0) return exact;
  // A swap of two adjacent letters is one typo: search each swapped form with one typo less,
  // and, where two typos are allowed, each twice-swapped form exactly.
  const once = transpositions(term);
  const swapped = once.map((v): Query => ({ queries: [v], fuzzy: typos > 1 ? typos - 1 : false, prefix: isLast }));
  const twice = typos > 1 ? [...new Set(once.flatMap(transpositions))].filter((v) => v !== term && !once.includes(v)) : [];
  const swappedTwice = twice.map((v): Query => ({ queries: [v], prefix: isLast }));
  // MiniSearch applies fuzziness to whole words only: for the last term, also try the indexed
  // prefixes within the allowed typos, so "sansu" still reaches "samsung".
  const near = isLast ? index.nearPrefixes(term, typos, MAX_PREFIX_VARIANTS) : [];
  const prefixed = near.map((p): Query => ({ queries: [p], prefix: true }));
  return { combineWith: 'OR', queries: [exact, ...swapped, ...swappedTwice, ...prefixed] };
}

function compareValues(a: unknown, b: unknown): number {
  if (a === undefined || a === null) return b === undefined || b === null ? 0 : 1;
  if (b === undefined || b === null) return -1;
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  const x = String(a).toLowerCase();
  const y = String(b).toLowerCase();
  return x < y ? -1 : x > y ? 1 : 0;
}

function lowerBound(values: Float64Array, x: number, strict: boolean): number {
  let lo = 0;
  let hi = values.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (strict ? values[mid]! <= x : values[mid]! < x) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * Search and autocomplete over a catalog's visible version, backed by MiniSearch, with
 * per-field value indexes for filters and facets.
 *
 * It follows the catalog: after `catalog.sync()`, the next search builds and uses the new
 * index; searches arriving while it is built keep using the previous one.
 *
 * Ranking: every hit has an absolute `_rankingScore` in [0, 1] (see `scoring.ts` for the
 * formula; 1 = every query term matched exactly). Hits are ordered by `sort` criteria when
 * given, then by score, then by id. With an embedder and `semanticRatio` r > 0, the score is
 * `(1 − r) · keyword + r · semantic` (semantic = max(0, cosine)), and documents whose semantic
 * score is at least `1 − r` join the keyword matches.
 *
 * @example
 * ```ts
 * const search = new SearchService({ catalog });
 * const page = await search.search({ text: 'galaxy', filters: { brand: ['Samsung'] }, sort: ['price:asc'] });
 * ```
 */
export class SearchService {
  /** The catalog searched. */
  readonly catalog: Catalog;
  readonly #options: SearchServiceOptions;
  readonly #maxFacetValues: number;
  readonly #refreshMs: number;
  #current: SearchIndex | undefined;
  #building: Promise<SearchIndex> | undefined;
  #checkedAt = -Infinity;

  /** Creates the service; a bad option throws a `TypeError` prefixed `abkit: SearchService:`. */
  constructor(options: SearchServiceOptions) {
    if (!options?.catalog || typeof options.catalog.visible !== 'function') throw new TypeError('abkit: SearchService: catalog must be a Catalog');
    const { maxFacetValues = 100, refreshIntervalMs = 0, boosts = {}, embedder } = options;
    if (!Number.isInteger(maxFacetValues) || maxFacetValues < 1) throw new TypeError(`abkit: SearchService: maxFacetValues must be a positive integer, got ${maxFacetValues}`);
    if (!Number.isFinite(refreshIntervalMs) || refreshIntervalMs < 0) throw new TypeError(`abkit: SearchService: refreshIntervalMs must be a number >= 0, got ${refreshIntervalMs}`);
    for (const [field, boost] of Object.entries(boosts)) {
      if (!(typeof boost === 'number' && boost > 0 && Number.isFinite(boost))) throw new TypeError(`abkit: SearchService: boosts.${field} must be a positive number, got ${boost}`);
    }
    if (embedder !== undefined && typeof embedder.embed !== 'function') throw new TypeError('abkit: SearchService: embedder must have an embed(texts) method');
    for (const name of ['searchableFields', 'facets'] as const) {
      const list = options[name];
      if (list !== undefined && !(Array.isArray(list) && list.every((f) => typeof f === 'string' && f !== ''))) {
        throw new TypeError(`abkit: SearchService: ${name} must be an array of field names, got ${JSON.stringify(list)}`);
      }
    }
    this.catalog = options.catalog;
    this.#options = options;
    this.#maxFacetValues = maxFacetValues;
    this.#refreshMs = refreshIntervalMs;
  }

  /** Runs a search (SPEC 4.4); {@link ValidationError} names the offending parameter. */
  async search(input: SearchQueryInput): Promise<SearchResponse> {
    const query = parseWith(searchQuerySchema, input, 'search query');
    const index = await this.#index();
    this.#validate(index, query);
    const allowed = this.#filter(index, query.filters);
    let scored = await this.#candidates(index, query, allowed);
    if (allowed) scored = scored.filter((s) => allowed.has(s.doc));
    // Scores are shown rounded: compare the shown value, so a returned score works as a threshold.
    for (const s of scored) s.score = round(s.score);
    if (query.rankingScoreThreshold !== undefined) {
      const threshold = query.rankingScoreThreshold;
      scored = scored.filter((s) => s.score >= threshold);
    }
    this.#order(index, scored, query.sort);
    const facets = this.#facets(index, scored);
    const { page, hitsPerPage } = query;
    const hits = scored.slice(page * hitsPerPage, (page + 1) * hitsPerPage).map((s) => ({ ...index.items[s.doc]!, _rankingScore: s.score }) as Hit);
    return { hits, facets, totalPages: Math.ceil(scored.length / hitsPerPage), totalHits: scored.length, hitsPerPage, page };
  }

  /**
   * Suggestions for a partial input (SPEC 4.5): the names of the best-matching visible items
   * (prefix and typo tolerant), best first, without duplicates (case-insensitive).
   */
  async autocomplete(input: AutocompleteQueryInput): Promise<AutocompleteResponse> {
    const { query, hitsPerPage } = parseWith(autocompleteQuerySchema, input, 'autocomplete query');
    if (terms(query).length === 0) return { suggestions: [] };
    const index = await this.#index();
    const scored = this.#keyword(index, terms(query));
    this.#order(index, scored, []);
    const seen = new Set<string>();
    const suggestions: { text: string }[] = [];
    for (const { doc } of scored) {
      const name = index.items[doc]!.name;
      if (typeof name !== 'string' || name === '') continue;
      const key = name.toLowerCase();
      if (seen.has(key)) continue;
      seen.add(key);
      suggestions.push({ text: name });
      if (suggestions.length >= hitsPerPage) break;
    }
    return { suggestions };
  }

  /** The index of the current visible version (built on first use). */
  async #index(): Promise<SearchIndex> {
    const now = Date.now();
    const current = this.#current;
    if (current && now - this.#checkedAt < this.#refreshMs) return current;
    const version = await this.catalog.visibleVersion();
    this.#checkedAt = now;
    if (current && current.version === version) return current;
    // One build at a time; while it runs, other searches keep the previous index.
    if (this.#building) return current ?? this.#building;
    const building = this.#build().finally(() => {
      this.#building = undefined;
    });
    this.#building = building;
    return building;
  }

  async #build(): Promise<SearchIndex> {
    const visible = await this.catalog.visible();
    const index = new SearchIndex(visible.version, visible.items, this.#options);
    const { embedder } = this.#options;
    if (embedder) {
      const vectors: Float32Array[] = [];
      for (let start = 0; start < index.items.length; start += 256) {
        const texts = index.items.slice(start, start + 256).map((item) => index.searchable.map((f) => searchableText(Object.hasOwn(item, f) ? item[f] : undefined)).join(' '));
        for (const v of await embedder.embed(texts)) vectors.push(unit(v));
      }
      index.vectors = vectors;
    }
    if (!this.#current || this.#current.version <= index.version) this.#current = index;
    return index;
  }

  #validate(index: SearchIndex, query: SearchQuery): void {
    const details = [];
    for (const [field, filter] of Object.entries(query.filters)) {
      const path = index.paths.get(field);
      if (!path) details.push({ path: `filters[${field}]`, message: `filters[${field}]: unknown field ${field}` });
      else if (filter.kind === 'range' && path.info.kind !== 'number') {
        details.push({ path: `filters[${field}]`, message: `filters[${field}]: a range filter needs a number field; ${field} is ${path.info.kind}` });
      } else if (filter.kind === 'list') {
        const bad = filter.values.filter((v) => (path.info.kind === 'number' ? v.trim() === '' || !Number.isFinite(Number(v)) : path.info.kind === 'boolean' ? v !== 'true' && v !== 'false' : false));
        if (bad.length > 0) {
          details.push({ path: `filters[${field}]`, message: `filters[${field}]: ${field} is ${path.info.kind}; ${bad.map((v) => JSON.stringify(v)).join(', ')} can never match` });
        }
      }
    }
    for (const { field } of query.sort) {
      if (!index.paths.has(field) && field !== 'id') details.push({ path: 'sort', message: `sort: unknown field ${field}` });
    }
    if (details.length > 0) throw new ValidationError(`abkit: ${details.map((d) => d.message).join('; ')}`, details);
  }

  async #candidates(index: SearchIndex, query: SearchQuery, allowed: Set<number> | undefined): Promise<Scored[]> {
    const words = terms(query.text);
    // A placeholder search starts from the filtered set when there is one, not from every item.
    const all = (): Scored[] => (allowed ? [...allowed].sort((a, b) => a - b).map((doc) => ({ doc, score: 1 })) : index.items.map((_, doc) => ({ doc, score: 1 })));
    const keyword = words.length === 0 ? all() : this.#keyword(index, words);
    const ratio = query.semanticRatio ?? 0;
    const { embedder } = this.#options;
    if (ratio === 0 || !embedder || !index.vectors || words.length === 0) return keyword;
    const [raw] = await embedder.embed([query.text]);
    const q = unit(raw ?? []);
    const byDoc = new Map(keyword.map((s) => [s.doc, s.score]));
    const out: Scored[] = [];
    index.vectors.forEach((v, doc) => {
      const semantic = Math.max(0, dot(q, v));
      const kw = byDoc.get(doc);
      if (kw === undefined && semantic < 1 - ratio) return;
      out.push({ doc, score: (1 - ratio) * (kw ?? 0) + ratio * semantic });
    });
    return out;
  }

  #keyword(index: SearchIndex, words: string[]): Scored[] {
    const run = (n: number): SearchResult[] =>
      index.mini.search({ combineWith: 'AND', queries: words.slice(0, n).map((t, i) => termQuery(t, i === n - 1, index)) });
    // Like Meilisearch's "last" matching strategy: drop trailing terms until something matches.
    let results: SearchResult[] = [];
    for (let n = words.length; n > 0 && results.length === 0; n--) results = run(n);
    return results.map((r) => {
      const weights = new Map<string, number>();
      for (const [word, fields] of Object.entries(r.match)) {
        weights.set(word, Math.max(...fields.map((f) => index.weights.get(f) ?? 1)));
      }
      return { doc: r.id as number, score: rankingScore(words, weights) };
    });
  }

  /** Documents passing every filter, or undefined without filters. */
  #filter(index: SearchIndex, filters: Readonly<Record<string, Filter>>): Set<number> | undefined {
    let allowed: Set<number> | undefined;
    for (const [field, filter] of Object.entries(filters)) {
      const docs = matching(index.paths.get(field)!, filter);
      allowed = allowed === undefined ? docs : new Set([...docs].filter((d) => allowed!.has(d)));
      if (allowed.size === 0) break;
    }
    return allowed;
  }

  #order(index: SearchIndex, scored: Scored[], sort: readonly SortCriterion[]): void {
    // Items are sorted by id, so the document number breaks ties by id.
    const criteria = sort.map((c) => {
      const info = index.paths.get(c.field)?.info;
      const sign = c.direction === 'asc' ? 1 : -1;
      return (a: Scored, b: Scored) => {
        const x = c.field === 'id' ? index.items[a.doc]!.id : first(valueAt(index.items[a.doc]!, c.field, info?.objectField));
        const y = c.field === 'id' ? index.items[b.doc]!.id : first(valueAt(index.items[b.doc]!, c.field, info?.objectField));
        // Missing values go last whatever the direction.
        if (x == null || y == null) return compareValues(x, y);
        return sign * compareValues(x, y);
      };
    });
    scored.sort((a, b) => {
      for (const c of criteria) {
        const d = c(a, b);
        if (d !== 0) return d;
      }
      return b.score - a.score || a.doc - b.doc;
    });
  }

  #facets(index: SearchIndex, scored: readonly Scored[]): Record<string, Facet> {
    const out: Record<string, Facet> = {};
    // defineProperty: a field named `__proto__` becomes a key, not the object's prototype.
    const set = (path: string, facet: Facet) => Object.defineProperty(out, path, { value: facet, enumerable: true, writable: true, configurable: true });
    for (const path of this.#facetPaths(index)) {
      const info = index.paths.get(path)!.info;
      if (info.kind === 'number') {
        let min = Infinity;
        let max = -Infinity;
        for (const { doc } of scored) {
          for (const v of valuesOf(valueAt(index.items[doc]!, path, info.objectField))) {
            if (typeof v !== 'number') continue;
            if (v < min) min = v;
            if (v > max) max = v;
          }
        }
        if (min <= max) set(path, { type: 'range', values: { min, max } });
        continue;
      }
      const counts = new Map<string | boolean, number>();
      for (const { doc } of scored) {
        for (const v of new Set(valuesOf(valueAt(index.items[doc]!, path, info.objectField)))) counts.set(v as string | boolean, (counts.get(v as string | boolean) ?? 0) + 1);
      }
      const values = [...counts].sort((a, b) => b[1] - a[1] || compareValues(a[0], b[0]) || (String(a[0]) < String(b[0]) ? -1 : 1)).slice(0, this.#maxFacetValues);
      set(path, { type: 'list', values });
    }
    return out;
  }

  #facetPaths(index: SearchIndex): string[] {
    if (this.#options.facets) return this.#options.facets.filter((p) => index.paths.has(p));
    const defaults: string[] = [];
    for (const [path, p] of index.paths) {
      if (p.info.objectField !== undefined) continue;
      if (path === 'categories_ids' || path === 'price') defaults.push(path);
      else if (!STANDARD.has(path) && p.info.kind !== 'number') defaults.push(path);
    }
    return defaults;
  }
}

const STANDARD = new Set(['id', 'is_recommendable', 'name', 'absolute_link', 'img_link', 'price', 'categories_ids', 'item_purchase_key', 'item_pageview_key']);

function first(value: unknown): unknown {
  return Array.isArray(value) ? value[0] : value;
}

function matching(path: PathIndex, filter: Filter): Set<number> {
  const out = new Set<number>();
  if (filter.kind === 'list') {
    for (const raw of filter.values) {
      let key: string;
      if (path.info.kind === 'number') {
        const n = Number(raw);
        if (raw.trim() === '' || !Number.isFinite(n)) continue;
        key = postingKey(n);
      } else if (path.info.kind === 'boolean') {
        if (raw !== 'true' && raw !== 'false') continue;
        key = postingKey(raw === 'true');
      } else key = postingKey(raw);
      for (const doc of path.postings.get(key) ?? []) out.add(doc);
    }
    return out;
  }
  // Range conditions are ANDed: intersect the index windows of a sorted array.
  const values = path.sortedValues!;
  let lo = 0;
  let hi = values.length;
  let equal: number | undefined;
  for (const { operator, value } of filter.conditions) {
    if (operator === '>') lo = Math.max(lo, lowerBound(values, value, true));
    else if (operator === '>=') lo = Math.max(lo, lowerBound(values, value, false));
    else if (operator === '<') hi = Math.min(hi, lowerBound(values, value, false));
    else if (operator === '<=') hi = Math.min(hi, lowerBound(values, value, true));
    else {
      if (equal !== undefined && equal !== value) return out;
      equal = value;
      lo = Math.max(lo, lowerBound(values, value, false));
      hi = Math.min(hi, lowerBound(values, value, true));
    }
  }
  const docs = path.sortedDocs!;
  for (let i = lo; i < hi; i++) out.add(docs[i]!);
  return out;
}

function unit(v: readonly number[]): Float32Array {
  const out = Float32Array.from(v);
  let norm = 0;
  for (const x of out) norm += x * x;
  norm = Math.sqrt(norm);
  if (norm > 0) for (let i = 0; i < out.length; i++) out[i]! /= norm;
  return out;
}

function dot(a: Float32Array, b: Float32Array): number {
  let s = 0;
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) s += a[i]! * b[i]!;
  return s;
}

function round(score: number): number {
  return Math.round(score * 1e6) / 1e6;
}
