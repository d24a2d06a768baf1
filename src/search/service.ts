import type { Catalog } from '../catalog/catalog';
import type { CatalogItem } from '../storage/catalog';
import { parseWith } from '../validation';
import { Analyzer, PRICE_INTENT_WORDS, type Stemmer, type Synonyms } from './analysis';
import { defaultFacetPaths, type Facet, facetsOf } from './facets';
import { checkQuery, filterMask } from './filters';
import { type Hit, hitOf, hitText } from './hits';
import { gather, matchQuery, type Candidates, type MatchingStrategy } from './matching';
import {
  autocompleteQuerySchema,
  searchQuerySchema,
  type AutocompleteQueryInput,
  type SearchQueryInput,
  type SortCriterion,
} from './query';
import type { SearchWork } from './work';
import { PROFILE_RANKING_RULES, PROFILE_TIE_BREAK, RANKING_RULES, Ranker, type RankingRule, type RankingScoreDetails } from './ranking';
import { fieldText, SearchIndex } from './search-index';
import { type NamingHabits, PROFILE_HABITS, SEARCH_PROFILES, type SearchProfile } from './naming';
import { dot, unit } from './vectors';

export type { Facet } from './facets';
export type { Hit } from './hits';

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
   * @defaultValue `['words', 'typo', 'exactness', 'subject', 'priceIntent', 'proximity', 'customRanking', 'bm25', 'attribute']`;
   * with `profile: 'retail'`, `['words', 'typo', 'exactness', 'subject', 'variant', 'priceIntent', 'proximity', 'attribute', 'customRanking', 'bm25']`
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
   * @defaultValue `['name:asc']`; with `profile: 'retail'`, `['price:asc', 'name:asc']` (the same thing for less, then variants in name order)
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
   * Which habits of product naming the ranking reads ({@link abkit/types!SearchProfile}):
   * `neutral` reads what held on every judged catalog; `retail` adds the naming habits of an
   * electronics retailer's listings ("Brand - Case for Galaxy S7 - Black": separated parts, model
   * variants, price words, the lower price among ties). Options given explicitly override the
   * profile's defaults.
   * @defaultValue `'neutral'`
   * @example `'retail'`
   */
  profile?: SearchProfile;
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
 * (`words`, `typo`, `exactness`, `subject`, `priceIntent`, `proximity`, `customRanking`, `bm25`,
 * `attribute`; the `retail` profile adds `variant` and puts `attribute` before `customRanking`), then `tieBreak` (the name; the
 * `retail` profile, the lower price first), then id.
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
  /** The naming habits of the profile, which the index is built with. */
  readonly #habits: NamingHabits;
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
      profile = 'neutral',
      rankingRules = PROFILE_RANKING_RULES[profile] ?? RANKING_RULES,
      customRanking = [],
      tieBreak = PROFILE_TIE_BREAK[profile] ?? [],
      matchingStrategy = 'frequency',
      stopWords,
      synonyms,
      stemmer,
      priceIntent = {},
    } = options;
    if (!SEARCH_PROFILES.includes(profile)) fail(`profile must be one of ${SEARCH_PROFILES.join(', ')}, got ${JSON.stringify(profile)}`);
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
    this.#habits = PROFILE_HABITS[profile];
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
    checkQuery(index, query);
    const allowed = filterMask(index, query.filters);
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
    const facets = facetsOf(index, docs, this.#facetPaths(index), this.#maxFacetValues);
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
    const index = await SearchIndex.build(
      visible.version,
      visible.items,
      { ...this.#options, habits: this.#habits },
      this.#analyzer,
      this.#current,
    );
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

  /** The paths faceted on an index: the same for every query, so found once per index. */
  #facetPaths(index: SearchIndex): readonly string[] {
    if (this.#facetsOf?.index !== index)
      this.#facetsOf = { index, paths: this.#options.facets?.filter((p) => index.paths.has(p)) ?? defaultFacetPaths(index) };
    return this.#facetsOf.paths;
  }

  #facetsOf: { readonly index: SearchIndex; readonly paths: readonly string[] } | undefined;
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
