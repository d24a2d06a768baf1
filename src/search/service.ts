import type { Catalog } from '../catalog/catalog';
import { isStandardField } from '../catalog/typing';
import { ValidationError } from '../errors';
import type { CatalogItem } from '../storage/catalog';
import { parseWith } from '../validation';
import { Analyzer, PRICE_INTENT_WORDS, type Stemmer, type Synonyms } from './analysis';
import { gather, matchQuery, type Candidates, type MatchingStrategy } from './matching';
import {
  autocompleteQuerySchema,
  searchQuerySchema,
  type AutocompleteQueryInput,
  type Filter,
  type SearchQuery,
  type SearchQueryInput,
  type SortCriterion,
} from './query';
import type { SearchWork } from './work';
import { RANKING_RULES, Ranker, TIE_BREAK, type RankingRule, type RankingScoreDetails } from './ranking';
import { docsWith, lowerBound, type PathIndex } from './path-index';
import { perIndex } from './scratch';
import { fieldText, MAX_OBJECT_KEY_PATHS, SearchIndex } from './search-index';

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
 * A facet (interfaces.md, Search).
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
 * A hit: the item, with its ranking score, and what each rule counted when
 * `showRankingScoreDetails` is set.
 *
 * @example
 * ```ts
 * const { hits } = await search.search({ text: 'galaxy', showRankingScoreDetails: true });
 * const best: Hit | undefined = hits[0];
 * console.log(best?.id, best?.name, best?._rankingScore, best?._rankingScoreDetails?.words);
 * ```
 */
export type Hit = CatalogItem & { readonly _rankingScore: number; readonly _rankingScoreDetails?: RankingScoreDetails };

/**
 * The search response (interfaces.md, Search).
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
 * The autocomplete response (interfaces.md, Autocomplete).
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
   * The ranking rules, in order: each one orders the ties of the rules before it. An explicit
   * `sort` applies before them; `tieBreak`, then the document id, after them.
   * @defaultValue `['words', 'typo', 'exactness', 'subject', 'variant', 'priceIntent', 'proximity', 'attribute', 'customRanking', 'bm25']`
   * @example `['words', 'typo', 'proximity', 'attribute', 'exactness', 'customRanking', 'bm25']` (Meilisearch's order)
   */
  rankingRules?: readonly RankingRule[];
  /**
   * Criteria applied by the `customRanking` rule (and by placeholder searches after `sort`),
   * each `<field>:asc` or `<field>:desc`. @defaultValue none
   * @example `['popularity:desc']`
   */
  customRanking?: readonly string[];
  /**
   * The final order of text-search hits equal on every ranking rule (the same listing in another
   * colour or for another carrier), each `<field>:asc` or `<field>:desc`; the document id after
   * them. `[]` leaves those hits in id order.
   * @defaultValue `['price:asc', 'name:asc']` (the same thing for less, then variants in name order)
   * @example `['stock:desc', 'price:asc']`
   */
  tieBreak?: readonly string[];
  /** How many query terms a document must match. @defaultValue `'frequency'` */
  matchingStrategy?: MatchingStrategy;
  /**
   * Words that are optional in queries and never make a document a candidate.
   * @defaultValue {@link abkit/http!ENGLISH_STOP_WORDS} @example `[]` (none)
   */
  stopWords?: readonly string[];
  /** Synonyms, one-way and multi-way. @defaultValue none @example `{ multiWay: [['tv', 'television']] }` */
  synonyms?: Synonyms;
  /** Stems folded words, for documents and queries alike. @defaultValue Porter2 English (package `porter2`) for words of 3+ ASCII letters */
  stemmer?: Stemmer;
  /**
   * Price intent: a query word of `words` beside a word naming something ("cheap charger",
   * "budget phone") is not searched, and the `priceIntent` ranking rule puts the lower `field`
   * first among the items equal on the rules before it (what they are, the model typed). `false`
   * searches those words as any other.
   * @defaultValue `{ words: PRICE_INTENT_WORDS, field: 'price' }` ({@link abkit/http!PRICE_INTENT_WORDS}:
   * cheap, cheaper, cheapest, budget, affordable, inexpensive)
   * @example `{ words: ['cheap', 'bargain'], field: 'sale_price' }`
   */
  priceIntent?: { readonly words?: readonly string[]; readonly field?: string } | false;
  /**
   * How long an index is served before asking the catalog whether a newer version is visible,
   * in milliseconds. 0: every search asks (one cheap store read).
   * @defaultValue `0`
   */
  refreshIntervalMs?: number;
}

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

/**
 * Search and autocomplete over a catalog's visible version, with per-field value indexes for
 * filters and facets.
 *
 * It follows the catalog: after `catalog.sync()`, the next search starts building the new index
 * in slices that yield to the event loop; searches keep using the previous index until it is
 * ready.
 *
 * Ranking: text is analysed (words, folding, stems, stop words, synonyms), every term is
 * optional (see `matchingStrategy`), and hits are ordered by `sort`, then the ranking rules
 * (`words`, `typo`, `exactness`, `subject`, `variant`, `priceIntent`, `proximity`, `attribute`,
 * `customRanking`, `bm25`), then `tieBreak` (lower price, then name), then id.
 * `_rankingScore` in [0, 1] reads the rules' ranks in order (1 = a field equal to the query).
 * With an embedder and `semanticRatio` r > 0, the score is `(1 − r) · keyword + r · semantic`
 * (semantic = max(0, cosine)), hits are ordered by it, and documents whose semantic score is at
 * least `1 − r` join the keyword matches.
 *
 * @example
 * ```ts
 * const search = new SearchService({ catalog, customRanking: ['popularity:desc'], synonyms: { multiWay: [['phone', 'cellphone']] } });
 * const page = await search.search({ text: 'galaxy case', filters: { brand: ['Samsung'] }, showRankingScoreDetails: true });
 * ```
 */
export class SearchService {
  /** The catalog searched. */
  readonly catalog: Catalog;
  readonly #options: SearchServiceOptions;
  readonly #maxFacetValues: number;
  readonly #refreshMs: number;
  readonly #analyzer: Analyzer;
  readonly #rules: readonly RankingRule[];
  readonly #customRanking: readonly SortCriterion[];
  readonly #tieBreak: readonly SortCriterion[];
  readonly #strategy: MatchingStrategy;
  /** The field the `priceIntent` rule orders by (undefined: price intent off). */
  readonly #priceField: string | undefined;
  #current: SearchIndex | undefined;
  #building: Promise<SearchIndex> | undefined;
  #checkedAt = -Infinity;
  #work: SearchWork = {
    dictionaryNodes: 0,
    wordsReached: 0,
    postingsRead: 0,
    candidates: 0,
    documentsRead: 0,
    fieldStartsRead: 0,
    positionsRead: 0,
    variantWordsRead: 0,
  };

  /** Work done by the latest search or autocomplete (see {@link SearchWork}). */
  get work(): SearchWork {
    return this.#work;
  }

  /** Creates the service; a bad option throws a `TypeError` prefixed `SearchService:` naming it. */
  constructor(options: SearchServiceOptions) {
    const fail = (message: string): never => {
      throw new TypeError(`SearchService: ${message}`);
    };
    if (!options?.catalog || typeof options.catalog.visible !== 'function') fail('catalog must be a Catalog');
    const {
      maxFacetValues = 100,
      refreshIntervalMs = 0,
      boosts = {},
      embedder,
      rankingRules = RANKING_RULES,
      customRanking = [],
      tieBreak = TIE_BREAK,
      matchingStrategy = 'frequency',
      stopWords,
      synonyms,
      stemmer,
      priceIntent = {},
    } = options;
    if (!Number.isInteger(maxFacetValues) || maxFacetValues < 1) fail(`maxFacetValues must be a positive integer, got ${maxFacetValues}`);
    if (!Number.isFinite(refreshIntervalMs) || refreshIntervalMs < 0)
      fail(`refreshIntervalMs must be a number >= 0, got ${refreshIntervalMs}`);
    for (const [field, boost] of Object.entries(boosts)) {
      if (!(typeof boost === 'number' && boost > 0 && Number.isFinite(boost)))
        fail(`boosts.${field} must be a positive number, got ${boost}`);
    }
    if (embedder !== undefined && typeof embedder.embed !== 'function') fail('embedder must have an embed(texts) method');
    for (const name of ['searchableFields', 'facets'] as const) {
      const list = options[name];
      if (list !== undefined && !(Array.isArray(list) && list.every((f) => typeof f === 'string' && f !== '')))
        fail(`${name} must be an array of field names, got ${JSON.stringify(list)}`);
    }
    if (!Array.isArray(rankingRules))
      fail(`rankingRules must be an array of rule names (${RANKING_RULES.join(', ')}), got ${JSON.stringify(rankingRules)}`);
    rankingRules.forEach((rule, i) => {
      if (!(RANKING_RULES as readonly string[]).includes(rule))
        fail(`rankingRules[${i}]: unknown rule ${JSON.stringify(rule)}; use ${RANKING_RULES.join(', ')}`);
      if (rankingRules.indexOf(rule) !== i) fail(`rankingRules[${i}]: ${rule} is listed twice`);
    });
    const criteriaOf = (name: string, list: readonly string[], example: string): SortCriterion[] => {
      if (!Array.isArray(list)) fail(`${name} must be an array like ${example}, got ${JSON.stringify(list)}`);
      return list.map((c, i) => {
        const m = typeof c === 'string' ? /^(.+):(asc|desc)$/.exec(c) : null;
        if (!m) return fail(`${name}[${i}] must have the form <field>:asc or <field>:desc, got ${JSON.stringify(c)}`);
        return { field: m[1]!, direction: m[2] as 'asc' | 'desc' };
      });
    };
    const criteria = criteriaOf('customRanking', customRanking, '["popularity:desc"]');
    const finalOrder = criteriaOf('tieBreak', tieBreak, '["price:asc", "name:asc"]');
    if (!['last', 'all', 'frequency'].includes(matchingStrategy))
      fail(`matchingStrategy must be last, all or frequency, got ${JSON.stringify(matchingStrategy)}`);
    if (stopWords !== undefined && !(Array.isArray(stopWords) && stopWords.every((w) => typeof w === 'string')))
      fail(`stopWords must be an array of words, got ${JSON.stringify(stopWords)}`);
    if (stemmer !== undefined && typeof stemmer !== 'function') fail('stemmer must be a function (word) => stem');
    validateSynonyms(synonyms, fail);
    if (priceIntent !== false) {
      if (priceIntent === null || typeof priceIntent !== 'object')
        fail(`priceIntent must be false or { words, field }, got ${JSON.stringify(priceIntent)}`);
      const { words, field } = priceIntent;
      if (words !== undefined && !(Array.isArray(words) && words.every((w) => typeof w === 'string')))
        fail(`priceIntent.words must be an array of words, got ${JSON.stringify(words)}`);
      if (field !== undefined && !(typeof field === 'string' && field !== ''))
        fail(`priceIntent.field must be a field name, got ${JSON.stringify(field)}`);
    }
    // Price words are dropped from queries only when a rule orders by price in their place.
    const intent = priceIntent !== false && rankingRules.includes('priceIntent') ? priceIntent : undefined;
    this.catalog = options.catalog;
    this.#options = options;
    this.#maxFacetValues = maxFacetValues;
    this.#refreshMs = refreshIntervalMs;
    this.#analyzer = new Analyzer({ stopWords, synonyms, stemmer, priceWords: intent ? (intent.words ?? PRICE_INTENT_WORDS) : [] });
    this.#priceField = intent ? (intent.field ?? 'price') : undefined;
    this.#rules = [...rankingRules];
    this.#customRanking = criteria;
    this.#tieBreak = finalOrder;
    this.#strategy = matchingStrategy;
  }

  /** Runs a search (interfaces.md, Search); {@link ValidationError} names the offending parameter. */
  async search(input: SearchQueryInput): Promise<SearchResponse> {
    const { items, shown, facets, totalPages, totalHits, hitsPerPage, page } = await this.#answer(input);
    // Scores are returned unrounded (JSON keeps every double), so a returned score works as a threshold.
    const hits = shown.map(({ doc, score, details }) => hitOf(items[doc]!, score, details));
    return { hits, facets, totalPages, totalHits, hitsPerPage, page };
  }

  /**
   * `JSON.stringify` of {@link SearchService.search}'s answer, the same text, and its total: each
   * hit's item is serialized once while it stays in the index (items are deep-frozen copies, see
   * frozenCopy), then only its score per answer, and no hit object is made. Serializing the
   * hits was a tenth of the time of `GET /search` through `abkit serve`.
   * @internal
   */
  async searchText(input: SearchQueryInput): Promise<{ text: string; totalHits: number }> {
    const { items, shown, facets, totalPages, totalHits, hitsPerPage, page } = await this.#answer(input);
    let text = '{"hits":[';
    for (let k = 0; k < shown.length; k++) {
      const { doc, score, details } = shown[k]!;
      text += (k === 0 ? '' : ',') + hitText(items[doc]!, score, details);
    }
    // The keys in the order of search()'s answer.
    text += `],${JSON.stringify({ facets, totalPages, totalHits, hitsPerPage, page }).slice(1)}`;
    return { text, totalHits };
  }

  /** A search's page of documents, its facets and totals (see {@link SearchService.search}). */
  async #answer(input: SearchQueryInput): Promise<{
    items: readonly CatalogItem[];
    shown: readonly { doc: number; score: number; details?: RankingScoreDetails }[];
    facets: Record<string, Facet>;
    totalPages: number;
    totalHits: number;
    hitsPerPage: number;
    page: number;
  }> {
    const query = parseWith(searchQuerySchema, input, 'search query');
    const index = await this.#index();
    this.#validate(index, query);
    const allowed = this.#filter(index, query.filters);
    const analyzed = this.#analyzer.query(query.text, MAX_QUERY_TERMS);
    const { page, hitsPerPage } = query;
    const ratio = query.semanticRatio ?? 0;
    const semantic = ratio > 0 && this.#options.embedder !== undefined && index.vectors !== undefined && analyzed.terms.length > 0;
    const ranker = this.#ranker(index, analyzed, allowed, query.sort);
    const first = page * hitsPerPage;
    const shown: { doc: number; score: number; details?: RankingScoreDetails }[] = [];
    // The documents counted in totals and facets.
    let docs: readonly number[];
    try {
      if (semantic) {
        // Every keyword score is blended: every candidate is read.
        const order = ranker.eagerOrder();
        const blended = await this.#blend(
          index,
          query.text,
          ratio,
          Array.from(order, (c) => ranker.doc(c)),
          Array.from(order, (c) => ranker.score(c)),
        );
        const threshold = query.rankingScoreThreshold;
        const kept =
          threshold === undefined
            ? blended.docs.map((_, k) => k)
            : blended.docs.flatMap((_, k) => (blended.scores[k]! >= threshold ? [k] : []));
        docs = kept.map((k) => blended.docs[k]!);
        for (const k of kept.slice(first, first + hitsPerPage))
          shown.push({ doc: blended.docs[k]!, score: blended.scores[k]!, details: query.showRankingScoreDetails ? {} : undefined });
      } else {
        // Only the candidates whose bounds reach the page are read (see Ranker.ordered); a
        // threshold reads those its bounds cannot decide (see Ranker.passing).
        const keep = query.rankingScoreThreshold === undefined ? undefined : ranker.passing(query.rankingScoreThreshold);
        const ordered = ranker.ordered(keep);
        for (let k = 0; k < first && ordered.next() >= 0; k++);
        for (let k = 0; k < hitsPerPage; k++) {
          const c = ordered.next();
          if (c < 0) break;
          shown.push({
            doc: ranker.doc(c),
            score: ranker.score(c),
            details: query.showRankingScoreDetails ? ranker.details(c) : undefined,
          });
        }
        const all: number[] = [];
        for (let c = 0; c < ranker.size; c++) if (!keep || keep[c] === 1) all.push(ranker.doc(c));
        docs = all;
      }
    } finally {
      this.#done(ranker);
    }
    const facets = this.#facets(index, docs);
    return {
      items: index.items,
      shown,
      facets,
      totalPages: Math.ceil(docs.length / hitsPerPage),
      totalHits: docs.length,
      hitsPerPage,
      page,
    };
  }

  /**
   * Suggestions for a partial input (interfaces.md, Autocomplete): the names of the best-matching visible items,
   * analysed and ranked like a search (stems, prefixes, typos, synonyms, the ranking rules and
   * `customRanking`), best first, without duplicates (case-insensitive).
   */
  async autocomplete(input: AutocompleteQueryInput): Promise<AutocompleteResponse> {
    const { query, hitsPerPage } = parseWith(autocompleteQuerySchema, input, 'autocomplete query');
    const analyzed = this.#analyzer.query(query, MAX_QUERY_TERMS);
    if (analyzed.terms.length === 0) return { suggestions: [] };
    const index = await this.#index();
    const ranker = this.#ranker(index, analyzed, undefined, []);
    const seen = new Set<string>();
    const suggestions: { text: string }[] = [];
    try {
      // Names repeat: candidates are ranked (and read) only until enough distinct names are found.
      const ordered = ranker.ordered();
      for (let c = ordered.next(); c >= 0; c = suggestions.length < hitsPerPage ? ordered.next() : -1) {
        const name = index.items[ranker.doc(c)]!.name;
        if (typeof name !== 'string' || name === '') continue;
        const key = name.toLowerCase();
        if (seen.has(key)) continue;
        seen.add(key);
        suggestions.push({ text: name });
      }
    } finally {
      this.#done(ranker);
    }
    return { suggestions };
  }

  /** Releases a ranker and records the work of its query. */
  #done(ranker: Ranker): void {
    ranker.release();
    this.#work = ranker.work;
  }

  /** A ranker of the query's candidates (every allowed document for a placeholder search). */
  #ranker(
    index: SearchIndex,
    analyzed: ReturnType<Analyzer['query']>,
    allowed: Uint8Array | undefined,
    sort: readonly SortCriterion[],
  ): Ranker {
    const options = {
      rules: this.#rules,
      customRanking: this.#customRanking,
      tieBreak: this.#tieBreak,
      stopWords: this.#analyzer.stopWords,
      strategy: this.#strategy,
      sort,
      priceField: this.#priceField,
    };
    if (analyzed.terms.length === 0) {
      const docs: number[] = [];
      for (let d = 0; d < index.items.length; d++) if (!allowed || allowed[d] === 1) docs.push(d);
      const cands: Candidates = { docs: new Int32Array(docs), codes: new Uint8Array(0), df: new Float64Array(0), postingsRead: 0 };
      return new Ranker(index, undefined, cands, options);
    }
    const match = matchQuery(index, this.#analyzer, analyzed);
    return new Ranker(index, match, gather(index, match, this.#strategy, allowed), options);
  }

  /** Blends keyword scores with vector similarity (see the class comment). */
  async #blend(
    index: SearchIndex,
    text: string,
    ratio: number,
    docs: number[],
    scores: number[],
  ): Promise<{ docs: number[]; scores: number[] }> {
    const [raw] = await this.#options.embedder!.embed([text]);
    const q = unit(raw ?? []);
    const byDoc = new Map(docs.map((d, k) => [d, scores[k]!]));
    const out: { doc: number; score: number }[] = [];
    index.vectors!.forEach((v, doc) => {
      const semantic = Math.max(0, dot(q, v));
      const kw = byDoc.get(doc);
      if (kw === undefined && semantic < 1 - ratio) return;
      out.push({ doc, score: (1 - ratio) * (kw ?? 0) + ratio * semantic });
    });
    out.sort((a, b) => b.score - a.score || a.doc - b.doc);
    return { docs: out.map((o) => o.doc), scores: out.map((o) => o.score) };
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
    // The search that noticed the new version waits for it; the others meanwhile keep the previous.
    return building;
  }

  async #build(): Promise<SearchIndex> {
    // Items that did not change come back as the same objects, which the build copies from the previous index.
    const visible = await this.catalog.visible({ reuse: this.#current?.items });
    const index = await SearchIndex.build(visible.version, visible.items, this.#options, this.#analyzer, this.#current);
    const { embedder } = this.#options;
    if (embedder) {
      const vectors: Float32Array[] = [];
      for (let start = 0; start < index.items.length; start += 256) {
        const texts = index.items.slice(start, start + 256).map((item) => index.searchable.map((f) => fieldText(item, f)).join(' '));
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
      if (!path) details.push({ path: ['filters', field], message: `filters[${field}]: unknown field ${field}${this.#skipped(index)}` });
      else if (filter.kind === 'range' && path.info.kind !== 'number') {
        details.push({
          path: ['filters', field],
          message: `filters[${field}]: a range filter needs a number field; ${field} is ${path.info.kind}`,
        });
      } else if (filter.kind === 'list') {
        const bad = filter.values.filter((v) =>
          path.info.kind === 'number'
            ? v.trim() === '' || !Number.isFinite(Number(v))
            : path.info.kind === 'boolean'
              ? v !== 'true' && v !== 'false'
              : false,
        );
        if (bad.length > 0) {
          details.push({
            path: ['filters', field],
            message: `filters[${field}]: ${field} is ${path.info.kind}; ${bad.map((v) => JSON.stringify(v)).join(', ')} can never match`,
          });
        }
      }
    }
    for (const { field } of query.sort) {
      if (!index.paths.has(field) && field !== 'id')
        details.push({ path: ['sort'], message: `sort: unknown field ${field}${this.#skipped(index)}` });
    }
    if (details.length > 0) throw new ValidationError(`${details.map((d) => d.message).join('; ')}`, details);
  }

  /** What an unknown path may be when the index left object keys out. */
  #skipped(index: SearchIndex): string {
    return index.skippedKeys === 0
      ? ''
      : ` (the catalog's object fields hold ${index.skippedKeys + MAX_OBJECT_KEY_PATHS} keys; search indexes the ${MAX_OBJECT_KEY_PATHS} the most items hold)`;
  }

  /**
   * Documents passing every filter (1 in the mask), or undefined without filters. The mask is
   * scratch of the index, valid until the next call: the caller reads it before any await.
   */
  #filter(index: SearchIndex, filters: Readonly<Record<string, Filter>>): Uint8Array | undefined {
    let allowed: Uint8Array | undefined;
    let k = 0;
    for (const [field, filter] of Object.entries(filters)) {
      // Two masks in turn, each filter's from the one before: allocating one per filter cost as much as marking it.
      const mask = maskScratch(index, k++ % 2).fill(0);
      for (const docs of matching(index.paths.get(field)!, filter)) {
        // Two loops, not one testing `allowed` per document: a range window may hold most of the catalog.
        if (!allowed) for (let i = 0; i < docs.length; i++) mask[docs[i]!] = 1;
        else for (let i = 0; i < docs.length; i++) if (allowed[docs[i]!] === 1) mask[docs[i]!] = 1;
      }
      allowed = mask;
    }
    return allowed;
  }

  /**
   * The facets of the matching documents: a field none of them has a value of has none (its
   * facet would say nothing, and a catalog of many sparse fields answered a megabyte of them).
   * Each path is counted from whichever is shorter, the matching documents or its postings,
   * so a path few items have costs what it holds, not the catalog's size.
   */
  #facets(index: SearchIndex, docs: readonly number[]): Record<string, Facet> {
    const out: Record<string, Facet> = {};
    // A field named `__proto__` becomes a key, not the object's prototype.
    const set = (path: string, facet: Facet) => {
      if (path === '__proto__') Object.defineProperty(out, path, { value: facet, enumerable: true, writable: true, configurable: true });
      else out[path] = facet;
    };
    let matched: Uint8Array | undefined;
    const mask = (): Uint8Array => {
      if (!matched) {
        matched = maskScratch(index, 2).fill(0);
        for (const doc of docs) matched[doc] = 1;
      }
      return matched;
    };
    for (const path of this.#facetPaths(index)) {
      const p = index.paths.get(path)!;
      const { postingDocs } = p;
      if (postingDocs.length === 0 || docs.length === 0) continue;
      const byPostings = postingDocs.length < docs.length;
      if (p.info.kind === 'number') {
        const range = p.min && p.max && !byPostings ? rangeOfDocs(p, docs) : rangeOfPostings(p, mask());
        if (range) set(path, { type: 'range', values: range });
        continue;
      }
      const values = p.values!;
      const counts = new Uint32Array(values.length);
      const hit: number[] = [];
      if (p.offsets && p.ids && !byPostings) {
        const { offsets, ids } = p;
        for (const doc of docs) for (let k = offsets[doc]!; k < offsets[doc + 1]!; k++) counts[ids[k]!]!++;
        for (let id = 0; id < counts.length; id++) if (counts[id]! > 0) hit.push(id);
      } else {
        const m = mask();
        const { postingStart } = p;
        for (let id = 0; id < values.length; id++) {
          let count = 0;
          for (let k = postingStart[id]!; k < postingStart[id + 1]!; k++) count += m[postingDocs[k]!]!;
          if (count > 0) {
            counts[id] = count;
            hit.push(id);
          }
        }
      }
      if (hit.length === 0) continue;
      // Count, then value case-insensitively, then as is; the lowercased texts are computed once per index.
      const lower = p.lower!;
      hit.sort(
        (a, b) =>
          counts[b]! - counts[a]! ||
          (lower[a]! < lower[b]! ? -1 : lower[a]! > lower[b]! ? 1 : 0) ||
          (String(values[a]) < String(values[b]) ? -1 : 1),
      );
      set(path, {
        type: 'list',
        values: hit.slice(0, this.#maxFacetValues).map((id) => [values[id]!, counts[id]!] as [string | boolean, number]),
      });
    }
    return out;
  }

  /** The paths faceted on an index: the same for every query, so found once per index. */
  #facetPaths(index: SearchIndex): readonly string[] {
    if (this.#facetsOf?.index !== index) this.#facetsOf = { index, paths: this.#findFacetPaths(index) };
    return this.#facetsOf.paths;
  }

  #facetsOf: { readonly index: SearchIndex; readonly paths: readonly string[] } | undefined;

  #findFacetPaths(index: SearchIndex): string[] {
    if (this.#options.facets) return this.#options.facets.filter((p) => index.paths.has(p));
    const defaults: string[] = [];
    for (const [path, p] of index.paths) {
      if (p.info.objectField !== undefined) continue;
      if (path === 'categories_ids' || path === 'price') defaults.push(path);
      else if (!isStandardField(path) && p.info.kind !== 'number') defaults.push(path);
    }
    return defaults;
  }
}

// Per index: the filters' two masks in turn (0, 1), and the facets' mask of the matching documents (2).
const masks = perIndex<SearchIndex, (Uint8Array | undefined)[]>(() => []);
function maskScratch(index: SearchIndex, k: number): Uint8Array {
  return (masks(index)[k] ??= new Uint8Array(index.items.length));
}

/** The least and greatest value of a number path over documents, from its per-document arrays. */
function rangeOfDocs(p: PathIndex, docs: readonly number[]): { min: number; max: number } | undefined {
  const { min: least, max: most } = p as Required<PathIndex>;
  let min = Infinity;
  let max = -Infinity;
  for (const doc of docs) {
    // NaN (no value) fails both comparisons.
    if (least[doc]! < min) min = least[doc]!;
    if (most[doc]! > max) max = most[doc]!;
  }
  return min <= max ? { min, max } : undefined;
}

/** The same from the postings, which are in value order: the first and last one a matching document has. */
function rangeOfPostings(p: PathIndex, matched: Uint8Array): { min: number; max: number } | undefined {
  const { postingDocs } = p;
  const values = p.sortedValues!;
  let lo = 0;
  while (lo < postingDocs.length && matched[postingDocs[lo]!] !== 1) lo++;
  if (lo === postingDocs.length) return undefined;
  let hi = postingDocs.length - 1;
  while (matched[postingDocs[hi]!] !== 1) hi--;
  return { min: values[lo]!, max: values[hi]! };
}

function hitOf(item: CatalogItem, score: number, details: RankingScoreDetails | undefined): Hit {
  const hit: Record<string, unknown> = { ...item, _rankingScore: score };
  if (details) hit._rankingScoreDetails = details;
  return hit as Hit;
}

/** The JSON text of a frozen item without its closing brace, and a comma unless it has no key. */
const ITEM_HEADS = new WeakMap<CatalogItem, string>();

/** `JSON.stringify(hitOf(item, score, details))`. */
function hitText(item: CatalogItem, score: number, details: RankingScoreDetails | undefined): string {
  // A field of the item named as a hit's own key keeps the item's place for it: serialized whole.
  if (!Object.isFrozen(item) || Object.hasOwn(item, '_rankingScore') || Object.hasOwn(item, '_rankingScoreDetails'))
    return JSON.stringify(hitOf(item, score, details));
  let head = ITEM_HEADS.get(item);
  if (head === undefined) {
    const whole = JSON.stringify(item);
    head = whole === '{}' ? '{' : `${whole.slice(0, -1)},`;
    ITEM_HEADS.set(item, head);
  }
  return `${head}"_rankingScore":${JSON.stringify(score)}${details ? `,"_rankingScoreDetails":${JSON.stringify(details)}` : ''}}`;
}

function validateSynonyms(synonyms: Synonyms | undefined, fail: (message: string) => never): void {
  if (synonyms === undefined) return;
  if (synonyms === null || typeof synonyms !== 'object') fail(`synonyms must be { multiWay?, oneWay? }, got ${JSON.stringify(synonyms)}`);
  const { multiWay = [], oneWay = {} } = synonyms;
  if (!Array.isArray(multiWay)) fail('synonyms.multiWay must be an array of groups, e.g. [["tv", "television"]]');
  multiWay.forEach((group, i) => {
    if (!Array.isArray(group) || !group.every((w) => typeof w === 'string' && w.trim() !== ''))
      fail(`synonyms.multiWay[${i}] must be an array of words or phrases, got ${JSON.stringify(group)}`);
  });
  if (oneWay === null || typeof oneWay !== 'object' || Array.isArray(oneWay))
    fail('synonyms.oneWay must map a word or phrase to its alternatives, e.g. { "iphone": ["apple phone"] }');
  for (const [key, list] of Object.entries(oneWay)) {
    if (!Array.isArray(list) || !list.every((w) => typeof w === 'string' && w.trim() !== ''))
      fail(`synonyms.oneWay[${JSON.stringify(key)}] must be an array of words or phrases, got ${JSON.stringify(list)}`);
  }
}

/**
 * The windows of the path's posting list holding the documents that pass `filter` (a document
 * may be in several: a list filter's values are ORed). Windows, not a set: a range over most of
 * the catalog is then a subarray, and the caller marks its mask from it without hashing.
 */
function matching(path: PathIndex, filter: Filter): Uint32Array[] {
  if (filter.kind === 'list') {
    const out: Uint32Array[] = [];
    for (const raw of filter.values) {
      let key: string | number | boolean;
      if (path.info.kind === 'number') {
        const n = Number(raw);
        if (raw.trim() === '' || !Number.isFinite(n)) continue;
        key = n;
      } else if (path.info.kind === 'boolean') {
        if (raw !== 'true' && raw !== 'false') continue;
        key = raw === 'true';
      } else key = raw;
      out.push(docsWith(path, key));
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
      if (equal !== undefined && equal !== value) return [];
      equal = value;
      lo = Math.max(lo, lowerBound(values, value, false));
      hi = Math.min(hi, lowerBound(values, value, true));
    }
  }
  return lo < hi ? [path.postingDocs.subarray(lo, hi)] : [];
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
