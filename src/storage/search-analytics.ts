/**
 * Port of search analytics: rolled-up counts per catalog and UTC day, and the registry of the
 * query ids answers carried, so an event's query id can be checked.
 *
 * A store keeps sums, never one row per search: a day's analytics reads as many rows as the day
 * had distinct queries (or items), however many searches there were. Writes are increments, so
 * several processes sharing one database add up.
 *
 * @module
 */

/**
 * A day as analytics keys it: whole days since 1970-01-01 UTC (`Math.floor(epochMs / 86_400_000)`).
 *
 * @example
 * ```ts
 * const today: EpochDay = Math.floor(Date.now() / 86_400_000);
 * ```
 */
export type EpochDay = number;

/**
 * Counts of one normalized query on one day (a write adds them; a read sums them over days).
 *
 * @example
 * ```ts
 * const delta: QueryCounts = { searches: 1, tracked: 1, zeroResults: 0, clicks: 0, clickPositions: 0, conversions: 0, latencyMs: 3 };
 * ```
 */
export interface QueryCounts {
  /** Searches answered. */
  readonly searches: number;
  /** Searches asked with `clickAnalytics` (their answers carried a query id, so events can follow). */
  readonly tracked: number;
  /** Searches that found nothing. */
  readonly zeroResults: number;
  /** Click events. */
  readonly clicks: number;
  /** Sum of the clicks' positions (1-based), for the mean click position. */
  readonly clickPositions: number;
  /** Conversion events. */
  readonly conversions: number;
  /** Sum of the searches' latencies in milliseconds. */
  readonly latencyMs: number;
}

/**
 * Counts of one item on one day, whatever the query.
 *
 * @example
 * ```ts
 * const delta: ItemCounts = { clicks: 1, conversions: 0, views: 0, purchases: 0, pageviews: 0 };
 * ```
 */
export interface ItemCounts {
  /** Click events on the item. */
  readonly clicks: number;
  /** Conversion events on the item. */
  readonly conversions: number;
  /** View events on the item. */
  readonly views: number;
  /** `purchase` analytics events linked to the item (through `item_purchase_key`). */
  readonly purchases: number;
  /** `pageview` analytics events linked to the item (through `item_pageview_key`). */
  readonly pageviews: number;
}

/**
 * Feedback of one item for one query on one day: what behaviour ranking re-ranks a query with.
 *
 * @example
 * ```ts
 * const delta: QueryItemCounts = { clicks: 0, examined: 1 / 3, conversions: 0 }; // shown at position 3
 * ```
 */
export interface QueryItemCounts {
  /** Click events on the item in answers to the query. */
  readonly clicks: number;
  /** The item's examinations in tracked answers to the query: per answer 1/position, or, once clicked, 1 down to its deepest click and 0 below (see `QueryFeedback`). */
  readonly examined: number;
  /** Conversion events on the item in answers to the query. */
  readonly conversions: number;
}

/**
 * One tracked search, as the query-id registry keeps it.
 *
 * @example
 * ```ts
 * const search: TrackedSearch = { queryId: '9f…', catalog: 'shop', query: 'usb c', hits: ['sku-1', 'sku-2'], offset: 0, visitorId: null, time: Date.now() };
 * ```
 */
export interface TrackedSearch {
  /** 32 lowercase hex digits. */
  readonly queryId: string;
  readonly catalog: string;
  /** The normalized query (see `normalizeQuery`). */
  readonly query: string;
  /** Ids of the page's hits in order: `hits[i]` was shown at position `offset + i + 1`. At most 1,000. */
  readonly hits: readonly string[];
  /** How many hits came before the page (page × hitsPerPage). */
  readonly offset: number;
  /** The visitor id the search came with, or null. */
  readonly visitorId: string | null;
  /** Epoch milliseconds. */
  readonly time: number;
}

/**
 * What one flush writes: increments keyed by catalog, day and query and/or item, and tracked
 * searches to register. Each key appears once per list (the writer sums first).
 *
 * @example
 * ```ts
 * await storage.searchAnalytics.write({
 *   queries: [{ catalog: 'shop', day: 20_000, query: 'usb c', counts: { searches: 1, tracked: 0, zeroResults: 1, clicks: 0, clickPositions: 0, conversions: 0, latencyMs: 2 } }],
 *   items: [],
 *   queryItems: [],
 *   searches: [],
 *   filters: [],
 * });
 * ```
 */
export interface SearchAnalyticsWrite {
  readonly queries: readonly { readonly catalog: string; readonly day: EpochDay; readonly query: string; readonly counts: QueryCounts }[];
  readonly items: readonly { readonly catalog: string; readonly day: EpochDay; readonly itemId: string; readonly counts: ItemCounts }[];
  readonly queryItems: readonly {
    readonly catalog: string;
    readonly day: EpochDay;
    readonly query: string;
    readonly itemId: string;
    readonly counts: QueryItemCounts;
  }[];
  readonly searches: readonly TrackedSearch[];
  /** Searches per field they filtered on (the field's name, never its values). */
  readonly filters: readonly { readonly catalog: string; readonly day: EpochDay; readonly field: string; readonly searches: number }[];
}

/**
 * Days `since` to `until` (both included) of one catalog.
 *
 * @example
 * ```ts
 * const range: DayRange = { catalog: 'shop', since: 20_000, until: 20_006 }; // one week
 * ```
 */
export interface DayRange {
  readonly catalog: string;
  readonly since: EpochDay;
  readonly until: EpochDay;
}

/**
 * Port: search analytics rollups and the query-id registry.
 *
 * @example
 * ```ts
 * const store: SearchAnalyticsStore = storage.searchAnalytics;
 * const days = await store.days({ catalog: 'shop', since: 20_000, until: 20_006 });
 * ```
 */
export interface SearchAnalyticsStore {
  /** Adds the increments and registers the searches (a query id registered twice keeps its first record). */
  write(write: SearchAnalyticsWrite): Promise<void>;
  /** The registered searches of the catalog among `queryIds` (unknown ids are absent from the map). */
  lookup(catalog: string, queryIds: readonly string[]): Promise<Map<string, TrackedSearch>>;
  /** The range's days that have counts, each with its queries' counts summed, in day order. */
  days(range: DayRange): Promise<(QueryCounts & { readonly day: EpochDay })[]>;
  /**
   * The range's queries with their counts summed over its days, the `limit` first by `order`
   * descending (`zeroResults` lists only queries with zero-result searches), ties by query.
   */
  queries(range: DayRange, order: 'searches' | 'zeroResults', limit: number): Promise<(QueryCounts & { readonly query: string })[]>;
  /** The fields the range's searches filtered on, with how many searches did, the `limit` first by count descending, ties by name. */
  filters(range: DayRange, limit: number): Promise<{ readonly field: string; readonly searches: number }[]>;
  /** The range's items with their counts summed, the `limit` first by clicks then conversions descending, ties by id; items without clicks or conversions are left out. */
  items(range: DayRange, limit: number): Promise<(ItemCounts & { readonly itemId: string })[]>;
  /** Per day and item, the counts of the range: the rows behaviour signals decay, at most `limit`, newest days first. */
  itemDays(range: DayRange, limit: number): Promise<(ItemCounts & { readonly day: EpochDay; readonly itemId: string })[]>;
  /** Per query and item, the feedback summed over the range, at most `limit` rows, most examined first. */
  queryItems(range: DayRange, limit: number): Promise<(QueryItemCounts & { readonly query: string; readonly itemId: string })[]>;
  /**
   * Forgets every count of a day before `beforeDay` and every search registered before
   * `beforeTime`, and keeps at most `maxSearches` registered searches per catalog (the newest).
   */
  purge(options: { beforeDay: EpochDay; beforeTime: number; maxSearches: number }): Promise<void>;
}
