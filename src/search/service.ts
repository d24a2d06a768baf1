import { LRUCache } from 'lru-cache';
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
  DEFAULT_HITS_PER_PAGE,
  searchQuerySchema,
  type AutocompleteQueryInput,
  type SearchQuery,
  type SearchQueryInput,
  type SortCriterion,
} from './query';
import { addWork, type SearchWork } from './work';
import { PROFILE_RANKING_RULES, PROFILE_TIE_BREAK, RANKING_RULES, Ranker, type RankingRule, type RankingScoreDetails } from './ranking';
import { fieldText, SearchIndex } from './search-index';
import { type NamingHabits, PROFILE_HABITS, SEARCH_PROFILES, type SearchProfile } from './naming';
import { substituteWords } from './substitutes';
import { KEYBOARD_LAYOUTS, type KeyboardLayout } from './typos';
import { readsWord } from './slips';
import { dot, unit } from './vectors';
import { normalizeQuery, type QueryFeedback } from './behaviour';
import { type Behaviour, type BehaviourOptions, behaviourOf, type RerankOptions, reranked } from './behaviour-ranking';
import { Merchandiser, type Merchandising, type MerchandisingRule, placePins } from './merchandising';
import { BEHAVIOUR_FIELD } from './rules/custom-ranking';

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
  /**
   * Merchandising rules (docs/ranking.md, Merchandising): for a query (`equals`: the same
   * {@link normalizeQuery} key; `contains`: every listed word among the query's words; `equals: ''`
   * is the placeholder search), inside `from`/`until` when given, `hide` removes items from the
   * hits, totals and facets; `boost`/`bury` (filters in the syntax of search filters) put the items
   * they select before/after the others, after `sort` and before the ranking rules, relevance order
   * kept inside each group; `pin` puts an item at a 1-based position of the whole result list, whether
   * or not it matches the text, if it passes the query's filters and is not hidden (past the end of the
   * list: after it). Search only; autocomplete is unaffected. Affected hits show
   * `_rankingScoreDetails.merchandising: { rule, pinned | boosted | buried }`.
   * At most 100 rules, 50 pins and 50 hidden items per rule, ids of 1 to 256 characters.
   * @defaultValue none
   * @example `[{ id: 'tv-week', query: { contains: ['tv'] }, pin: [{ itemId: 'lg-oled-55', position: 1 }], hide: ['old-tv'], bury: { refurbished: [true] }, until: '2026-12-01T00:00:00Z' }]`
   */
  merchandising?: readonly MerchandisingRule[];
  /**
   * Behaviour ranking (docs/ranking.md, Behaviour ranking), opt-in: the `_behaviour` criterion of
   * `customRanking` reads each item's signal from `source.itemSignals`, and (unless `rerank: false`)
   * the first hits of a query with click feedback are reordered by it within guardrails (see
   * {@link RerankOptions}); `_rankingScoreDetails.behaviour` shows `{ clicks, examined, estimate, moved }`.
   * A query without feedback is answered exactly as without behaviour ranking.
   * @defaultValue off
   * @example `{ source: searchAnalytics.behaviour, rerank: { maxShift: 2, minExamined: 20 } }` (the source from the host)
   */
  behaviour?: boolean | BehaviourOptions;
  /** Current time in epoch milliseconds: merchandising rules' `from`/`until` are read against it. @defaultValue `Date.now` */
  clock?: () => number;
  /**
   * Substitutes: a keyword search matching fewer items than its page holds, or than 20 (with
   * `frequency` or `last` matching, no `sort`, no `rankingScoreThreshold`, no `semanticRatio`),
   * fills that many, after every match, with the best items for the words its matches' names
   * (the first searched field) share and the query does not reach (pseudo-relevance feedback:
   * "cookbook" matching four "… Cuisine Cookbook" also shows the other "Cuisine" items). They
   * count in totals and facets, score below every match and show
   * `_rankingScoreDetails.substitute: { words }`. `false`: only matches.
   * @defaultValue `false`
   */
  substitutes?: boolean;
  /**
   * The keyboard layout shoppers type on ({@link abkit/types!KeyboardLayout}): a wrong first letter
   * whose key does not touch the right one on it costs a typo more ("qatch" reaches a watch, not
   * a latch, on `qwerty`), unless that is the term's only reading. `none` assumes no layout: a
   * wrong first letter costs one typo, as any other.
   * @defaultValue `'qwerty'`
   * @example `'azerty'` (a French store: "zpple" is a slip for "apple" there)
   */
  keyboard?: KeyboardLayout;
}

/**
 * The settings {@link SearchService.withSettings} may change: they act on queries and ranking,
 * not on what the index holds.
 *
 * @example
 * ```ts
 * const names = VIEW_SETTINGS.join(', '); // rankingRules, customRanking, …
 * ```
 */
export const VIEW_SETTINGS = [
  'rankingRules',
  'customRanking',
  'tieBreak',
  'matchingStrategy',
  'synonyms',
  'stopWords',
  'priceIntent',
  'facets',
  'maxFacetValues',
  'merchandising',
  'behaviour',
  'substitutes',
  'keyboard',
] as const;

/**
 * Settings of a view of a {@link SearchService} (see {@link SearchService.withSettings}).
 *
 * @example
 * ```ts
 * const settings: SearchViewSettings = { customRanking: ['popularity:desc'], synonyms: { multiWay: [['tv', 'television']] } };
 * const view = search.withSettings(settings);
 * ```
 */
export type SearchViewSettings = Pick<SearchServiceOptions, (typeof VIEW_SETTINGS)[number]>;

/** A service's index and its build in progress, shared with its views. */
interface SharedIndex {
  current: SearchIndex | undefined;
  building: Promise<SearchIndex> | undefined;
  checkedAt: number;
  /** Builds the current visible version with the settings of the service that made this. */
  readonly build: () => Promise<SearchIndex>;
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

/** A hit of a page: its document, score and details. */
interface Shown {
  readonly doc: number;
  readonly score: number;
  readonly details?: RankingScoreDetails | undefined;
}

/** The candidate holding `doc` (candidates are in document order), or undefined. */
function candidateOf(ranker: Ranker, doc: number): number | undefined {
  let lo = 0;
  let hi = ranker.size;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (ranker.doc(mid) < doc) lo = mid + 1;
    else hi = mid;
  }
  return lo < ranker.size && ranker.doc(lo) === doc ? lo : undefined;
}

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
  readonly #merchandiser: Merchandiser;
  readonly #behaviour: Behaviour | undefined;
  readonly #clock: () => number;
  readonly #substitutes: boolean;
  /** The index, shared with the views of {@link SearchService.withSettings}; built by the service that made it. */
  #shared: SharedIndex = { current: undefined, building: undefined, checkedAt: -Infinity, build: () => this.#build() };
  #views: LRUCache<string, SearchService> | undefined;
  /** The naming habits of the profile, which the index is built with. */
  readonly #habits: NamingHabits;
  /** The work of the substitutes' ranking of the search under way, added to its matches' by `#done`. */
  #lentWork: SearchWork | undefined;
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
      keyboard = 'qwerty',
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
    const merchandiser = new Merchandiser(options.merchandising ?? [], fail);
    const behaviour = behaviourOf(options.behaviour, fail);
    if (options.clock !== undefined && typeof options.clock !== 'function') fail('clock must be a function returning epoch milliseconds');
    if (!(KEYBOARD_LAYOUTS as readonly string[]).includes(keyboard))
      fail(`keyboard must be one of ${KEYBOARD_LAYOUTS.join(', ')}, got ${JSON.stringify(keyboard)}`);
    if (options.substitutes !== undefined && typeof options.substitutes !== 'boolean')
      fail(`substitutes must be true or false, got ${JSON.stringify(options.substitutes)}`);
    // Price words are dropped from queries only when a rule orders by price in their place.
    const intent = priceIntent !== false && rankingRules.includes('priceIntent') ? priceIntent : undefined;
    this.catalog = options.catalog;
    this.#options = options;
    this.#maxFacetValues = maxFacetValues;
    this.#refreshMs = refreshIntervalMs;
    this.#analyzer = new Analyzer({
      stopWords,
      synonyms,
      stemmer,
      priceWords: intent ? (intent.words ?? PRICE_INTENT_WORDS) : [],
      keyboard,
    });
    this.#priceField = intent ? (intent.field ?? 'price') : undefined;
    this.#rules = [...rankingRules];
    this.#customRanking = criteria;
    this.#tieBreak = finalOrder;
    this.#strategy = matchingStrategy;
    this.#habits = PROFILE_HABITS[profile];
    this.#merchandiser = merchandiser;
    this.#behaviour = behaviour;
    this.#clock = options.clock ?? Date.now;
    this.#substitutes = options.substitutes ?? false;
  }

  /**
   * A page of a search: pins laid out over the organic order (from `next`, pinned items skipped
   * in it), its head re-ranked by the query's click feedback when it has some, with what
   * merchandising and behaviour did in the details. `list` reads an organic entry `h`.
   */
  #page<H>(
    index: SearchIndex,
    merch: Merchandising | undefined,
    query: SearchQuery,
    next: () => H | undefined,
    list: { doc(h: H): number; of(doc: number): H | undefined; entry(h: H): Shown },
  ): Shown[] {
    const pins = merch?.pins ?? [];
    const pinned = pins.length > 0 ? new Set(pins.map((p) => p.doc)) : undefined;
    let organic = pinned
      ? () => {
          for (;;) {
            const h = next();
            if (h === undefined || !pinned.has(list.doc(h))) return h;
          }
        }
      : next;
    // An explicit sort is the shopper's order: clicks do not reorder it.
    const feedback = query.sort.length === 0 ? this.#feedback(query.text) : undefined;
    // The layout of the positions before P reads only the first P + maxShift hits (no hit moves
    // further): a page re-ranks those, not the whole `depth`, and pages still agree.
    const guard = this.#behaviour?.rerank;
    // Boosted and buried hits stay in their group.
    const group = merch?.group;
    const re =
      feedback &&
      guard &&
      reranked(
        organic,
        (h) => index.items[list.doc(h)]!.id,
        feedback,
        { ...guard, depth: Math.min(guard.depth, (query.page + 1) * query.hitsPerPage + guard.maxShift) },
        this.#rules.length + 1,
        group && ((h) => group[list.doc(h)]!),
      );
    if (re) organic = re.next;
    const slots = placePins<{ h: H } | { pin: number }>(
      pins,
      () => {
        const h = organic();
        return h === undefined ? undefined : { h };
      },
      (pin) => ({ pin }),
      query.page * query.hitsPerPage,
      query.hitsPerPage,
    );
    return slots.map((slot) => {
      const h = 'h' in slot ? slot.h : list.of(pins[slot.pin]!.doc);
      const shown: Shown =
        h === undefined
          ? { doc: pins[(slot as { pin: number }).pin]!.doc, score: 0, details: query.showRankingScoreDetails ? {} : undefined }
          : list.entry(h);
      if (shown.details) {
        const details = shown.details as Record<string, unknown>;
        const m = merch?.detail(shown.doc);
        if (m) details.merchandising = m;
        const b = 'h' in slot ? re?.detail(slot.h) : undefined;
        if (b) details.behaviour = b;
      }
      return shown;
    });
  }

  /** The click feedback of a query's items when behaviour ranking re-ranks and the query has some. */
  #feedback(text: string): ReadonlyMap<string, QueryFeedback> | undefined {
    const b = this.#behaviour;
    if (!b?.rerank || !b.source) return undefined;
    const feedback = b.source.queryFeedback(this.catalog.identifier, normalizeQuery(text));
    return feedback && feedback.size > 0 ? feedback : undefined;
  }

  /**
   * A view of this service searching with other query-time settings (see {@link SearchViewSettings}),
   * over the same index: an A/B test of ranking builds no second index. Views are kept per JSON
   * of their settings, the 64 most recently used; a bad setting throws a `TypeError` naming it,
   * as the constructor does, and a setting that shapes the index (`searchableFields`, `boosts`,
   * `stemmer`, `embedder`, …) is refused.
   *
   * @example
   * ```ts
   * const byPopularity = search.withSettings({ rankingRules: ['words', 'customRanking', 'bm25'], customRanking: ['popularity:desc'] });
   * const page = await byPopularity.search({ text: 'phone' }); // the same index as search's
   * ```
   */
  withSettings(settings: SearchViewSettings): SearchService {
    if (settings === null || typeof settings !== 'object' || Array.isArray(settings))
      throw new TypeError(`SearchService.withSettings: settings must be an object, got ${JSON.stringify(settings)}`);
    // A behaviour source is a service, not a setting: it is left out of the key (one per host).
    const key = JSON.stringify(settings, (name, value) => (name === 'source' ? undefined : value));
    this.#views ??= new LRUCache({ max: 64 });
    const cached = this.#views.get(key);
    if (cached) return cached;
    const own: Record<string, unknown> = {};
    for (const [name, value] of Object.entries(settings)) {
      if (!(VIEW_SETTINGS as readonly string[]).includes(name))
        throw new TypeError(`SearchService.withSettings: ${name} is not a query-time setting (${VIEW_SETTINGS.join(', ')})`);
      // An absent setting keeps this service's, not the default.
      if (value !== undefined) own[name] = value;
    }
    // Behaviour ranking turned on by the view reads the service's source unless it brings one.
    const b = own.behaviour as SearchServiceOptions['behaviour'];
    const source = typeof this.#options.behaviour === 'object' ? this.#options.behaviour.source : undefined;
    if (source && (b === true || (typeof b === 'object' && b !== null && b.source === undefined)))
      own.behaviour = { ...(b === true ? {} : b), source };
    const view = new SearchService({ ...this.#options, ...own });
    view.#shared = this.#shared;
    this.#views.set(key, view);
    return view;
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
   * hits was a tenth of the time of `GET /search` through `abkit serve`. With the page's item ids
   * in order, and its page and size.
   * @internal
   */
  async searchText(
    input: SearchQueryInput,
  ): Promise<{ text: string; totalHits: number; ids: string[]; page: number; hitsPerPage: number }> {
    const { items, shown, facets, totalPages, totalHits, hitsPerPage, page } = await this.#answer(input);
    let text = '{"hits":[';
    // The page's item ids, in order, for search analytics (what a click's position refers to).
    const ids: string[] = new Array(shown.length);
    for (let k = 0; k < shown.length; k++) {
      const { doc, score, details } = shown[k]!;
      ids[k] = items[doc]!.id;
      text += (k === 0 ? '' : ',') + hitText(items[doc]!, score, details);
    }
    // The keys in the order of search()'s answer.
    text += `],${JSON.stringify({ facets, totalPages, totalHits, hitsPerPage, page }).slice(1)}`;
    return { text, totalHits, ids, page, hitsPerPage };
  }

  /** A search's page of documents, its facets and totals (see {@link SearchService.search}). */
  async #answer(input: SearchQueryInput): Promise<{
    items: readonly CatalogItem[];
    shown: readonly Shown[];
    facets: Record<string, Facet>;
    totalPages: number;
    totalHits: number;
    hitsPerPage: number;
    page: number;
  }> {
    const query = parseWith(searchQuerySchema, input, 'search query');
    const index = await this.#index();
    checkQuery(index, query);
    let allowed = filterMask(index, query.filters);
    const merch = this.#merchandiser.forQuery(index, query.text, this.#clock(), allowed);
    if (merch && merch.hidden.length > 0) {
      // Hidden items leave the candidates, so hits, totals and facets alike.
      allowed ??= new Uint8Array(index.items.length).fill(1);
      for (const doc of merch.hidden) allowed[doc] = 0;
    }
    const analyzed = this.#analyzer.query(query.text, MAX_QUERY_TERMS, readsWord(index, this.#analyzer));
    const ratio = query.semanticRatio ?? 0;
    const semantic = ratio > 0 && this.#options.embedder !== undefined && index.vectors !== undefined && analyzed.terms.length > 0;
    const ranker = this.#ranker(index, analyzed, allowed, query.sort, merch?.group);
    const show = query.showRankingScoreDetails;
    let shown: Shown[];
    // The documents counted in totals and facets.
    let docs: ArrayLike<number>;
    try {
      if (semantic) {
        // Every keyword score is blended: every candidate is read. The mask is scratch: copied before the await.
        const order = ranker.eagerOrder();
        const mask = allowed?.slice();
        const blended = await this.#blend(
          index,
          query.text,
          ratio,
          Array.from(order, (c) => ranker.doc(c)),
          Array.from(order, (c) => ranker.score(c)),
          mask,
        );
        const threshold = query.rankingScoreThreshold;
        const kept =
          threshold === undefined
            ? blended.docs.map((_, k) => k)
            : blended.docs.flatMap((_, k) => (blended.scores[k]! >= threshold ? [k] : []));
        const group = merch?.group;
        // Boosted first, buried last (a stable sort keeps the blended order inside each group).
        if (group) kept.sort((a, b) => group[blended.docs[b]!]! - group[blended.docs[a]!]!);
        docs = withPins(
          kept.map((k) => blended.docs[k]!),
          merch,
        );
        // Where a pinned document sits in the blended list (only pins ask).
        let at: Map<number, number> | undefined;
        let next = 0;
        shown = this.#page(index, merch, query, () => (next < kept.length ? kept[next++] : undefined), {
          doc: (k) => blended.docs[k]!,
          of: (doc) => (at ??= new Map(blended.docs.map((d, k) => [d, k]))).get(doc),
          entry: (k) => ({ doc: blended.docs[k]!, score: blended.scores[k]!, details: show ? {} : undefined }),
        });
      } else {
        // Only the candidates whose bounds reach the page are read (see Ranker.ordered); a
        // threshold reads those its bounds cannot decide (see Ranker.passing).
        const keep = query.rankingScoreThreshold === undefined ? undefined : ranker.passing(query.rankingScoreThreshold);
        const filled = keep === undefined ? this.#filled(index, ranker, allowed, query, merch?.group) : undefined;
        if (filled) {
          let next = 0;
          let at: Map<number, number> | undefined;
          shown = this.#page(index, merch, query, () => (next < filled.length ? next++ : undefined), {
            doc: (k) => filled[k]!.doc,
            of: (doc) => (at ??= new Map(filled.map((e, k) => [e.doc, k]))).get(doc),
            entry: (k) => filled[k]!,
          });
          return this.#response(
            index,
            withPins(
              filled.map((e) => e.doc),
              merch,
            ),
            shown,
            query,
          );
        }
        const ordered = ranker.ordered(keep);
        shown = this.#page(
          index,
          merch,
          query,
          () => {
            const c = ordered.next();
            return c < 0 ? undefined : c;
          },
          {
            doc: (c) => ranker.doc(c),
            of: (doc) => candidateOf(ranker, doc),
            entry: (c) => ({ doc: ranker.doc(c), score: ranker.score(c), details: show ? ranker.details(c) : undefined }),
          },
        );
        const pins = merch?.pins ?? [];
        if (!keep && pins.length === 0) docs = ranker.docs;
        else {
          const all: number[] = [];
          for (let c = 0; c < ranker.size; c++) if (!keep || keep[c] === 1) all.push(ranker.doc(c));
          // Pinned items the text or the threshold left out count in totals and facets too.
          for (const { doc } of pins) {
            const c = candidateOf(ranker, doc);
            if (c === undefined || (keep && keep[c] !== 1)) all.push(doc);
          }
          docs = all;
        }
      }
    } finally {
      this.#done(ranker);
    }
    return this.#response(index, docs, shown, query);
  }

  /** A search's answer: its page, and the totals and facets of `docs`. */
  #response(index: SearchIndex, docs: ArrayLike<number>, shown: readonly Shown[], query: SearchQuery) {
    const facets = facetsOf(index, docs, this.#facetPaths(index), this.#maxFacetValues);
    return {
      items: index.items,
      shown,
      facets,
      totalPages: Math.ceil(docs.length / query.hitsPerPage),
      totalHits: docs.length,
      hitsPerPage: query.hitsPerPage,
      page: query.page,
    };
  }

  /**
   * Every match of a text search that has fewer than a page, then its substitutes up to a page
   * (see {@link SearchServiceOptions.substitutes}), or undefined when it takes none. Reads
   * the matches, and releases `ranker` before ranking the substitutes (rankers share scratch).
   */
  #filled(
    index: SearchIndex,
    ranker: Ranker,
    allowed: Uint8Array | undefined,
    query: SearchQuery,
    group: Int8Array | undefined,
  ): Shown[] | undefined {
    const match = ranker.match;
    if (!this.#substitutes || !match || this.#strategy === 'all' || query.sort.length > 0) return undefined;
    // A page of a thousand is a listing, not a page to fill: substitutes fill a default page at most.
    const room = Math.min(query.hitsPerPage, DEFAULT_HITS_PER_PAGE);
    if (ranker.size === 0 || ranker.size >= room) return undefined;
    const show = query.showRankingScoreDetails;
    const found: Shown[] = [];
    const ordered = ranker.ordered();
    for (let c = ordered.next(); c >= 0; c = ordered.next())
      found.push({ doc: ranker.doc(c), score: ranker.score(c), details: show ? ranker.details(c) : undefined });
    const words = substituteWords(
      index,
      match,
      found.map((e) => e.doc),
      this.#analyzer.stopWords,
    );
    if (words.length === 0) return found;
    ranker.release();
    const others = allowed ? allowed.slice() : new Uint8Array(index.items.length).fill(1);
    for (const { doc } of found) others[doc] = 0;
    const lent = this.#analyzer.query(words.join(' '), MAX_QUERY_TERMS);
    // The words are the catalog's own: as written, no prefix or typo ("shirt" is no "skirt").
    const substitutes = this.#ranker(index, { ...lent, priceIntent: false, asWritten: true }, others, [], group);
    try {
      // Below the least match: a substitute matches no word of the query.
      const floor = Math.min(...found.map((e) => e.score));
      const order = this.#rules.length;
      const next = substitutes.ordered();
      for (let c = next.next(); c >= 0 && found.length < room; c = next.next()) {
        const details = show ? { ...substitutes.details(c), substitute: { order, words } } : undefined;
        found.push({ doc: substitutes.doc(c), score: floor * substitutes.score(c), details });
      }
    } finally {
      substitutes.release();
      this.#lentWork = substitutes.work;
    }
    return found;
  }

  /**
   * Suggestions for a partial input (interfaces.md, Autocomplete): the names of the best-matching visible items,
   * analysed and ranked like a search (stems, prefixes, typos, synonyms, the ranking rules and
   * `customRanking`), best first, without duplicates (case-insensitive).
   */
  async autocomplete(input: AutocompleteQueryInput): Promise<AutocompleteResponse> {
    const { query, hitsPerPage } = parseWith(autocompleteQuerySchema, input, 'autocomplete query');
    if (this.#analyzer.query(query, MAX_QUERY_TERMS).terms.length === 0) return { suggestions: [] };
    const index = await this.#index();
    // Read as a search reads it: a price word's slip asks for a low price here too ("cheapp charger").
    const analyzed = this.#analyzer.query(query, MAX_QUERY_TERMS, readsWord(index, this.#analyzer));
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
    this.#work = this.#lentWork ? addWork(ranker.work, this.#lentWork) : ranker.work;
    this.#lentWork = undefined;
  }

  /** A ranker of the query's candidates (every allowed document for a placeholder search). */
  #ranker(
    index: SearchIndex,
    analyzed: ReturnType<Analyzer['query']>,
    allowed: Uint8Array | undefined,
    sort: readonly SortCriterion[],
    group?: Int8Array,
  ): Ranker {
    const options = {
      group,
      signal: this.#signal(index),
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
      const cands: Candidates = {
        docs: new Int32Array(docs),
        codes: new Uint8Array(0),
        df: new Float64Array(0),
        postingsRead: 0,
        partial: false,
      };
      return new Ranker(index, undefined, cands, options);
    }
    const match = matchQuery(index, this.#analyzer, analyzed);
    return new Ranker(index, match, gather(index, match, this.#strategy, allowed), options);
  }

  /**
   * Each document's behaviour signal when `customRanking` reads `_behaviour` (undefined: 0 for all):
   * the source's snapshot of this catalog, read once per query.
   */
  #signal(index: SearchIndex): ((doc: number) => number) | undefined {
    const source = this.#behaviour?.source;
    if (!source || !this.#customRanking.some((c) => c.field === BEHAVIOUR_FIELD)) return undefined;
    const signals = source.itemSignals(this.catalog.identifier);
    if (!signals || signals.size === 0) return undefined;
    // Read into an array once per snapshot and index: a query may rank every item.
    let cached = this.#signals;
    if (cached?.index !== index || cached.signals !== signals) {
      const values = Float64Array.from(index.items, (item) => signals.get(item.id) ?? 0);
      this.#signals = cached = { index, signals, read: (doc) => values[doc]! };
    }
    return cached.read;
  }

  #signals:
    | { readonly index: SearchIndex; readonly signals: ReadonlyMap<string, number>; readonly read: (doc: number) => number }
    | undefined;

  /** Blends keyword scores with vector similarity (see the class comment); documents outside `allowed` (filters, hidden items) never join. */
  async #blend(
    index: SearchIndex,
    text: string,
    ratio: number,
    docs: number[],
    scores: number[],
    allowed: Uint8Array | undefined,
  ): Promise<{ docs: number[]; scores: number[] }> {
    const [raw] = await this.#options.embedder!.embed([text]);
    const q = unit(raw ?? []);
    const byDoc = new Map(docs.map((d, k) => [d, scores[k]!]));
    const out: { doc: number; score: number }[] = [];
    index.vectors!.forEach((v, doc) => {
      if (allowed && allowed[doc] !== 1) return;
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
    const shared = this.#shared;
    const current = shared.current;
    if (current && now - shared.checkedAt < this.#refreshMs) return current;
    const version = await this.catalog.visibleVersion();
    shared.checkedAt = now;
    if (current && current.version === version) return current;
    // One build at a time; while it runs, other searches keep the previous index.
    if (shared.building) return current ?? shared.building;
    const building = shared.build().finally(() => {
      shared.building = undefined;
    });
    shared.building = building;
    // The search that noticed the new version waits for it; the others meanwhile keep the previous.
    return building;
  }

  async #build(): Promise<SearchIndex> {
    // Items that did not change come back as the same objects, which the build copies from the previous index.
    const shared = this.#shared;
    const visible = await this.catalog.visible({ reuse: shared.current?.items });
    const index = await SearchIndex.build(
      visible.version,
      visible.items,
      { ...this.#options, habits: this.#habits },
      this.#analyzer,
      shared.current,
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
    if (!shared.current || shared.current.version <= index.version) shared.current = index;
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

/** `docs` and the pinned documents not among them: what totals and facets count (a pin shows whatever the text matched). */
function withPins(docs: number[], merch: { readonly pins: readonly { readonly doc: number }[] } | undefined): number[] {
  if (!merch || merch.pins.length === 0) return docs;
  const counted = new Set(docs);
  for (const { doc } of merch.pins) if (!counted.has(doc)) docs.push(doc);
  return docs;
}
