/**
 * Search analytics: what shoppers searched, what they found, what they clicked and bought
 * afterwards, rolled up per catalog and UTC day; and the behaviour signals search ranks with.
 *
 * @module
 */
import type { AnalyticsEvent } from '../catalog/catalog';
import type { CatalogRegistry } from '../catalog/registry';
import { LRUCache } from 'lru-cache';
import { type RandomSource, secureRandom } from '../crypto';
import { type BehaviourSource, normalizeQuery } from '../search/behaviour';
import type { EpochDay, TrackedSearch } from '../storage/search-analytics';
import type { Storage } from '../storage/storage';
import { failWith } from '../validation';
import { BehaviourSnapshots, DEFAULT_SIGNAL_WEIGHTS, type SignalWeights } from './behaviour';
import { checkEvents, checkLinked, type RecordedInteraction, type SearchInteraction } from './events';
import { SEARCH_ANALYTICS_LIMITS } from './limits';
import { Pending } from './pending';
import { type AnalyticsRange, buildReport, DAY_MS, dayOf, resolveRange, type SearchAnalyticsReport } from './report';

const MAX_TRACKED_HITS = SEARCH_ANALYTICS_LIMITS.trackedHits;
/** Most filtered fields counted per search. */
const MAX_FILTER_FIELDS = 100;
/**
 * The key of the queries counted beyond `maxQueriesPerDay` distinct ones in a catalog's day (no
 * normalized query has parentheses, so none is counted under it).
 */
export const OTHER_QUERIES = '(other)';
/** Impressions and feedback are counted for the first 100 positions only. */
const MAX_EXAMINED_POSITION = 100;
/** Each byte as two hex digits. */
const HEX = Array.from({ length: 256 }, (_, b) => b.toString(16).padStart(2, '0'));
/** Between two purges of what the retention no longer covers. */
const PURGE_INTERVAL_MS = 3_600_000;

/**
 * One answered search, as {@link SearchAnalytics.recordSearch} takes it.
 *
 * @example
 * ```ts
 * const search: RecordedSearch = {
 *   catalog: 'shop', kind: 'search', text: 'Galaxy S7 case', totalHits: 42, filters: ['brand'], latencyMs: 3.2,
 *   hits: ['sku-1', 'sku-2'], page: 0, hitsPerPage: 20, visitorId: 'v1', clickAnalytics: true,
 * };
 * const queryID = abkit.searchAnalytics.recordSearch(search);
 * ```
 */
export interface RecordedSearch {
  readonly catalog: string;
  /** `search`, or `autocomplete` (counted only when `clickAnalytics` is on: a shopper's every keystroke would swamp the top queries). */
  readonly kind: 'search' | 'autocomplete';
  /** The query as typed; analytics keeps its {@link normalizeQuery} key only. */
  readonly text: string;
  /** How many items matched (0: a zero-result search). */
  readonly totalHits: number;
  /** Names of the fields the search filtered on (never their values). */
  readonly filters: readonly string[];
  /** Time to answer, in milliseconds. */
  readonly latencyMs: number;
  /** Ids of the page's hits, in order. */
  readonly hits: readonly string[];
  /** 0-based page. */
  readonly page: number;
  readonly hitsPerPage: number;
  /** The visitor, when the search named one; kept with the query id only. */
  readonly visitorId?: string;
  /** Whether the answer carries a query id that events can follow. */
  readonly clickAnalytics?: boolean;
}

/**
 * Options of {@link SearchAnalytics}.
 *
 * @example
 * ```ts
 * const options: SearchAnalyticsOptions = { storage, retentionDays: 30, halfLifeDays: 7 };
 * const analytics = new SearchAnalytics(options);
 * ```
 */
export interface SearchAnalyticsOptions {
  /** Where rollups and query ids are kept (`storage.searchAnalytics`). */
  storage: Storage;
  /**
   * Resolves a catalog for {@link SearchAnalytics.linkEvents} (purchases and page views linked
   * to items); `createAbkit` gives its registry.
   * @defaultValue none: linkEvents throws
   * @example `abkit.catalogs`
   */
  catalogs?: Pick<CatalogRegistry, 'get'>;
  /**
   * Days of counts kept: older days (and query ids older than this) are purged.
   * @defaultValue `90`
   * @example `30`
   */
  retentionDays?: number;
  /**
   * Most query ids kept per catalog (the newest); an event following a forgotten one is refused
   * as unknown. About 100 bytes plus the page's item ids each.
   * @defaultValue `100000`
   * @example `1_000_000`
   */
  maxQueryIds?: number;
  /**
   * Distinct queries counted per catalog and day (by this process); the searches of others are
   * counted under the query `(other)`, without behaviour feedback.
   * @defaultValue `50000`
   * @example `200_000`
   */
  maxQueriesPerDay?: number;
  /**
   * Keys (query, item, query-item of a day) and query ids held before a write starts at once.
   * @defaultValue `1000`
   * @example `5000`
   */
  flushSize?: number;
  /**
   * Longest wait, in milliseconds, before what was counted is written.
   * @defaultValue `1000`
   * @example `5000`
   */
  flushIntervalMs?: number;
  /**
   * Age, in milliseconds, at which a catalog's behaviour snapshot is read again (in the background).
   * @defaultValue `60000`
   * @example `300_000`
   */
  refreshMs?: number;
  /**
   * Days after which an event counts half in an item's behaviour signal.
   * @defaultValue `14`
   * @example `7`
   */
  halfLifeDays?: number;
  /**
   * Weight of each kind of event in an item's behaviour signal.
   * @defaultValue `{ clicks: 1, conversions: 5, purchases: 5, pageviews: 0.2 }`
   * @example `{ clicks: 1, conversions: 10, purchases: 10, pageviews: 0 }`
   */
  signalWeights?: SignalWeights;
  /**
   * Current time in epoch milliseconds.
   * @defaultValue `Date.now`
   * @example `() => Date.parse('2026-11-26T12:00:00Z')`
   */
  clock?: () => number;
  /**
   * Random bytes for query ids.
   * @defaultValue Web Crypto's
   * @example `(size) => new Uint8Array(size).fill(7)`
   */
  random?: RandomSource;
  /**
   * Receives errors of background writes and snapshot reads (a request never waits on them).
   * @defaultValue `console.error`
   * @example `(error) => logger.warn('search analytics', error)`
   */
  onError?: (error: unknown) => void;
}

const positiveInteger = (value: unknown) => Number.isInteger(value) && (value as number) > 0;
const positiveNumber = (value: unknown) => typeof value === 'number' && Number.isFinite(value) && value > 0;

/**
 * Search analytics over a storage: records searches (normalized query, hit count, latency,
 * zero results) and the events that follow an answer (views, clicks, conversions), rolls them up
 * per catalog and UTC day, reports them, and gives search its behaviour signals.
 *
 * Recording is synchronous and only adds to counters in memory; they are written in batches
 * (every `flushIntervalMs` or `flushSize` keys, and by {@link SearchAnalytics.flush}), so a search
 * never waits on storage. Counts are exact once flushed. `createAbkit` composes it as
 * `abkit.searchAnalytics`.
 *
 * @example
 * ```ts
 * import { memoryStorage } from 'abkit';
 * import { SearchAnalytics } from 'abkit/http';
 *
 * const analytics = new SearchAnalytics({ storage: memoryStorage() });
 * const queryID = analytics.recordSearch({
 *   catalog: 'shop', kind: 'search', text: 'USB-C cable', totalHits: 12, filters: [], latencyMs: 2,
 *   hits: ['sku-1', 'sku-2'], page: 0, hitsPerPage: 20, clickAnalytics: true,
 * })!;
 * await analytics.recordEvents('shop', [{ type: 'click', queryID, itemId: 'sku-2', position: 2 }]);
 * const report = await analytics.analytics('shop');
 * console.log(report.topQueries[0]); // { query: 'usb c cable', count: 1, clicks: 1, … }
 * await analytics.close();
 * ```
 */
export class SearchAnalytics {
  /** The behaviour signals of each catalog, for behaviour ranking (a SearchService's `behaviour`). */
  readonly behaviour: BehaviourSource;
  readonly #snapshots: BehaviourSnapshots;
  readonly #storage: Storage;
  readonly #catalogs: SearchAnalyticsOptions['catalogs'];
  readonly #clock: () => number;
  readonly #random: RandomSource;
  readonly #onError: (error: unknown) => void;
  readonly #retentionDays: number;
  readonly #maxQueryIds: number;
  readonly #flushSize: number;
  readonly #flushIntervalMs: number;
  #pending = new Pending();
  /**
   * The deepest clicked position of each tracked answer clicked lately (see `#examine`): the
   * newest ones, as many as the query ids kept; one forgotten counts its next click as its first.
   */
  #deepest: LRUCache<string, number>;
  /** The write in progress (flushes run one after the other). */
  #writing: Promise<void> = Promise.resolve();
  #timer: ReturnType<typeof setTimeout> | undefined;
  #purgedAt = Number.NEGATIVE_INFINITY;
  #registeredSincePurge = 0;
  readonly #maxQueriesPerDay: number;
  readonly #queriesSeen = new Map<string, { day: EpochDay; queries: Set<string> }>();
  #closed = false;
  #pool: Uint8Array = new Uint8Array(0);
  #poolAt = 0;

  /** Creates the service; a bad option throws a `TypeError` prefixed `SearchAnalytics:` that names it. */
  constructor(options: SearchAnalyticsOptions) {
    const {
      storage,
      catalogs,
      retentionDays = 90,
      maxQueryIds = 100_000,
      maxQueriesPerDay = 50_000,
      flushSize = 1000,
      flushIntervalMs = 1000,
      refreshMs = 60_000,
      halfLifeDays = 14,
      signalWeights = {},
      clock = Date.now,
      random = secureRandom,
      onError = console.error,
    } = options ?? ({} as SearchAnalyticsOptions);
    const fail = (message: string): never => {
      throw new TypeError(`SearchAnalytics: ${message}`);
    };
    if (typeof storage?.searchAnalytics?.write !== 'function') fail('storage must be a Storage with a searchAnalytics store');
    if (catalogs !== undefined && typeof catalogs?.get !== 'function') fail('catalogs must have a get(identifier) method');
    if (!positiveInteger(retentionDays) || retentionDays > 3650)
      fail(`retentionDays must be an integer from 1 to 3650, got ${retentionDays}`);
    if (!positiveInteger(maxQueryIds)) fail(`maxQueryIds must be a positive integer, got ${maxQueryIds}`);
    if (!positiveInteger(maxQueriesPerDay)) fail(`maxQueriesPerDay must be a positive integer, got ${maxQueriesPerDay}`);
    if (!positiveInteger(flushSize)) fail(`flushSize must be a positive integer, got ${flushSize}`);
    if (!positiveInteger(flushIntervalMs)) fail(`flushIntervalMs must be a positive integer of milliseconds, got ${flushIntervalMs}`);
    if (!positiveInteger(refreshMs)) fail(`refreshMs must be a positive integer of milliseconds, got ${refreshMs}`);
    if (!positiveNumber(halfLifeDays)) fail(`halfLifeDays must be a positive number, got ${halfLifeDays}`);
    const weights = { ...DEFAULT_SIGNAL_WEIGHTS, ...signalWeights };
    for (const [name, weight] of Object.entries(weights))
      if (typeof weight !== 'number' || !Number.isFinite(weight) || weight < 0)
        fail(`signalWeights.${name} must be a number ≥ 0, got ${weight}`);
    if (typeof clock !== 'function') fail('clock must be a function returning epoch milliseconds');
    if (typeof random !== 'function') fail('random must be a function returning random bytes');
    if (typeof onError !== 'function') fail('onError must be a function');
    this.#storage = storage;
    this.#catalogs = catalogs;
    this.#clock = clock;
    this.#random = random;
    this.#onError = onError;
    this.#retentionDays = retentionDays;
    this.#maxQueryIds = maxQueryIds;
    this.#deepest = new LRUCache({ max: maxQueryIds });
    this.#maxQueriesPerDay = maxQueriesPerDay;
    this.#flushSize = flushSize;
    this.#flushIntervalMs = flushIntervalMs;
    this.#snapshots = new BehaviourSnapshots({
      store: storage.searchAnalytics,
      clock,
      refreshMs,
      halfLifeDays,
      retentionDays,
      weights,
      flush: () => this.flush(),
      onError,
    });
    this.behaviour = this.#snapshots;
  }

  /**
   * Counts one answered search; returns its query id (32 hex digits) when `clickAnalytics` is on,
   * registering the page's hits so events can follow (and counting their impressions, each
   * weighted 1/position, for behaviour ranking). Synchronous: it only adds to counters.
   *
   * @example
   * ```ts
   * const queryID = abkit.searchAnalytics.recordSearch({ catalog: 'shop', kind: 'search', text: 'tv', totalHits: 0, filters: [], latencyMs: 1, hits: [], page: 0, hitsPerPage: 20 });
   * // undefined: no clickAnalytics; the search still counts, as a zero-result one
   * ```
   */
  recordSearch(search: RecordedSearch): string | undefined {
    const tracked = search.clickAnalytics === true;
    if (search.kind === 'autocomplete' && !tracked) return undefined;
    const now = this.#clock();
    const day = dayOf(now);
    const query = this.#queryKey(search.catalog, day, normalizeQuery(search.text));
    const counts = this.#pending.queries.at(search.catalog, day, query, '');
    counts.searches++;
    if (search.totalHits === 0) counts.zeroResults++;
    counts.latencyMs += search.latencyMs;
    for (const field of new Set(search.filters.slice(0, MAX_FILTER_FIELDS)))
      this.#pending.filters.at(search.catalog, day, field, '').searches++;
    let queryId: string | undefined;
    if (tracked) {
      counts.tracked++;
      queryId = this.#queryId();
      const hits = search.hits.slice(0, MAX_TRACKED_HITS);
      const offset = search.page * search.hitsPerPage;
      this.#pending.searches.set(queryId, {
        queryId,
        catalog: search.catalog,
        query,
        hits,
        offset,
        visitorId: search.visitorId ?? null,
        time: now,
      });
      // Behaviour feedback of the first positions only: one of the 100th is examined 1 % of the time.
      if (query !== OTHER_QUERIES) {
        const pairs = this.#pending.queryItems;
        const items = pairs.of(search.catalog, day, query);
        const shown = Math.min(hits.length, MAX_EXAMINED_POSITION - offset);
        for (let i = 0; i < shown; i++) pairs.at(items, hits[i]!).examined += 1 / (offset + i + 1);
      }
    }
    this.#scheduleFlush();
    return queryId;
  }

  /**
   * Records events following tracked answers (all or none): views, clicks and conversions per
   * query and item, on the day of the search they follow. Each is checked (at most 1,000 per
   * call; a click needs its position, 1 to 1,000; ids of at most 256 characters) and must follow
   * a query id of this catalog the service still knows and name one of that answer's hits, else a
   * `ValidationError` names `events[i].<field>`. Behaviour feedback counts the first 100 positions. Returns the events with their search's normalized query and visitor.
   *
   * @example
   * ```ts
   * const queryID = new URL(request.url).searchParams.get('queryID') ?? '';
   * await abkit.searchAnalytics.recordEvents('shop', [{ type: 'conversion', queryID, itemId: 'sku-2', visitorId: 'v1' }]);
   * ```
   */
  async recordEvents(catalog: string, events: readonly SearchInteraction[]): Promise<RecordedInteraction[]> {
    const list = checkEvents(events);
    const searches = await this.#lookup(
      catalog,
      list.map((e) => e.queryID),
    );
    // An event names an item of the answer it follows: what it counts is bounded by the catalog.
    const problems = list.flatMap((e, i) => {
      const search = searches.get(e.queryID);
      if (!search)
        return [{ path: ['events', i, 'queryID'], message: `"${e.queryID}" is not a query id this catalog answered with (or it expired)` }];
      return search.hits.includes(e.itemId) ? [] : [{ path: ['events', i, 'itemId'], message: 'is not among the hits of that answer' }];
    });
    if (problems.length > 0) failWith(problems, 'invalid search events');
    return list.map((event) => {
      const search = searches.get(event.queryID)!;
      const day = dayOf(search.time);
      const item = this.#pending.items.at(catalog, day, '', event.itemId);
      const shownAt = search.offset + search.hits.indexOf(event.itemId) + 1;
      // Feedback only where impressions were counted (see recordSearch).
      const feedback = search.query !== OTHER_QUERIES && shownAt <= MAX_EXAMINED_POSITION;
      if (event.type === 'view') item.views++;
      else {
        const query = this.#pending.queries.at(catalog, day, search.query, '');
        const pairs = this.#pending.queryItems;
        const pair = feedback ? pairs.at(pairs.of(catalog, day, search.query), event.itemId) : undefined;
        if (event.type === 'click') {
          query.clicks++;
          query.clickPositions += event.position!;
          item.clicks++;
          if (pair) {
            pair.clicks++;
            this.#examine(catalog, day, search, shownAt);
          }
        } else {
          query.conversions++;
          item.conversions++;
          if (pair) pair.conversions++;
        }
      }
      this.#scheduleFlush();
      return { ...event, query: search.query, visitorId: event.visitorId ?? search.visitorId };
    });
  }

  /**
   * A click at `shownAt` says how far its shopper read the answer (the cascade model: shoppers read
   * down the list and stop after what they click). So a clicked answer counts each of its items
   * down to the deepest click as examined once, and those below as not examined, in place of the
   * 1/position every tracked answer counts at first (which stays for answers never clicked): items
   * below a good first hit are not marked down for clicks their shoppers never had a chance to give.
   */
  #examine(catalog: string, day: EpochDay, search: TrackedSearch, shownAt: number): void {
    const before = this.#deepest.get(search.queryId) ?? 0;
    if (shownAt <= before) return;
    this.#deepest.set(search.queryId, shownAt);
    const pairs = this.#pending.queryItems;
    const items = pairs.of(catalog, day, search.query);
    const shown = Math.min(search.hits.length, MAX_EXAMINED_POSITION - search.offset);
    for (let i = 0; i < shown; i++) {
      const position = search.offset + i + 1;
      // First click: 1/position becomes 1 above it and 0 below; a deeper one: 0 becomes 1 down to it.
      const change =
        before === 0 ? (position <= shownAt ? 1 - 1 / position : -1 / position) : position > before && position <= shownAt ? 1 : 0;
      if (change !== 0) pairs.at(items, search.hits[i]!).examined += change;
    }
  }

  /**
   * Counts `purchase` and `pageview` analytics events for the items they link to (through the
   * items' `item_purchase_key` and `item_pageview_key`, see `Catalog.linkEvent`), today: the
   * behaviour signal's purchases and page views. At most 1,000 events per call, each with at most
   * 50 properties (strings of at most 256 characters, numbers, or lists of at most 100). Returns how
   * many item counts were added.
   *
   * @example
   * ```ts
   * await abkit.searchAnalytics.linkEvents('shop', [{ name: 'purchase', properties: { sku: 'SKU-42' } }]);
   * ```
   */
  async linkEvents(catalog: string, events: readonly AnalyticsEvent[]): Promise<number> {
    if (!this.#catalogs) throw new TypeError('SearchAnalytics: linkEvents needs the catalogs option');
    checkLinked(events, 'events');
    const source = await this.#catalogs.get(catalog);
    const linked = await Promise.all(events.map((e) => source.linkEvent(e)));
    const day = dayOf(this.#clock());
    let added = 0;
    linked.forEach((items, i) => {
      for (const item of items) {
        const counts = this.#pending.items.at(catalog, day, '', item.id);
        if (events[i]!.name === 'purchase') counts.purchases++;
        else counts.pageviews++;
        added++;
      }
    });
    this.#scheduleFlush();
    return added;
  }

  /**
   * The catalog's search analytics over a range of UTC days (30 days to today by default, at most
   * 366), after writing what is pending. Its cost is that of the range's rollup rows, not of the
   * searches they count.
   *
   * @example
   * ```ts
   * const report = await abkit.searchAnalytics.analytics('shop', { since: '2026-11-01', until: '2026-11-26' });
   * console.log(report.totals.zeroResultRate, report.noResultQueries.slice(0, 5));
   * ```
   */
  async analytics(catalog: string, range: AnalyticsRange = {}): Promise<SearchAnalyticsReport> {
    const days = resolveRange(catalog, range, dayOf(this.#clock()));
    await this.flush();
    return buildReport(this.#storage.searchAnalytics, days);
  }

  /** Reads the behaviour snapshot of `catalog` (or of every catalog that has one) now, after writing what is pending. */
  refresh(catalog?: string): Promise<void> {
    return this.#snapshots.refresh(catalog);
  }

  /**
   * Writes everything counted so far (and purges what the retention no longer covers, at most
   * hourly); resolves once written, rejects when the write failed (those counts are lost).
   *
   * @example
   * ```ts
   * abkit.searchAnalytics.recordSearch({ catalog: 'shop', kind: 'search', text: 'tv', totalHits: 3, filters: [], latencyMs: 1, hits: ['a', 'b', 'c'], page: 0, hitsPerPage: 20 });
   * await abkit.searchAnalytics.flush(); // the search is in storage
   * ```
   */
  flush(): Promise<void> {
    if (this.#timer !== undefined) clearTimeout(this.#timer);
    this.#timer = undefined;
    const pending = this.#pending;
    this.#pending = new Pending();
    const write = this.#writing.catch(() => {}).then(() => this.#write(pending));
    this.#writing = write;
    return write;
  }

  /** Writes what is pending and stops the timer; the service records nothing afterwards (the storage stays open). */
  async close(): Promise<void> {
    this.#closed = true;
    await this.flush();
  }

  async #write(pending: Pending): Promise<void> {
    const store = this.#storage.searchAnalytics;
    if (pending.size > 0) await store.write(pending.toWrite());
    const now = this.#clock();
    this.#registeredSincePurge += pending.searches.size;
    // Hourly, or sooner when a tenth of the query-id cap was registered since: the registry then
    // stays within 1.1 × maxQueryIds per catalog (plus one batch) however fast searches come.
    if (now - this.#purgedAt >= PURGE_INTERVAL_MS || this.#registeredSincePurge >= this.#maxQueryIds / 10) {
      this.#purgedAt = now;
      this.#registeredSincePurge = 0;
      await store.purge({
        beforeDay: dayOf(now) - this.#retentionDays + 1,
        beforeTime: now - this.#retentionDays * DAY_MS,
        maxSearches: this.#maxQueryIds,
      });
    }
  }

  /** Starts a write when enough is pending, else makes sure one comes within the interval. */
  #scheduleFlush(): void {
    if (this.#closed) return;
    if (this.#pending.size >= this.#flushSize) {
      this.flush().catch(this.#onError);
    } else if (this.#timer === undefined) {
      this.#timer = setTimeout(() => this.flush().catch(this.#onError), this.#flushIntervalMs);
      // A pending write alone does not keep a process alive (close() writes it).
      (this.#timer as { unref?: () => void }).unref?.();
    }
  }

  async #lookup(catalog: string, queryIds: readonly string[]): Promise<Map<string, TrackedSearch>> {
    const found = new Map<string, TrackedSearch>();
    const missing: string[] = [];
    for (const id of new Set(queryIds)) {
      const pending = this.#pending.searches.get(id);
      if (pending?.catalog === catalog) found.set(id, pending);
      else if (!pending) missing.push(id);
    }
    // Those being written right now are in the store once the write ends.
    if (missing.length > 0) {
      await this.#writing.catch(() => {});
      for (const [id, search] of await this.#storage.searchAnalytics.lookup(catalog, missing)) found.set(id, search);
    }
    return found;
  }

  /**
   * The key a day's query is counted under: itself while the catalog's day has fewer than
   * `maxQueriesPerDay` distinct queries (in this process), {@link OTHER_QUERIES} beyond, so that
   * random queries cannot grow the rollups without bound.
   */
  #queryKey(catalog: string, day: EpochDay, query: string): string {
    let seen = this.#queriesSeen.get(catalog);
    if (seen?.day !== day) this.#queriesSeen.set(catalog, (seen = { day, queries: new Set() }));
    if (seen.queries.has(query)) return query;
    if (seen.queries.size >= this.#maxQueriesPerDay) return OTHER_QUERIES;
    seen.queries.add(query);
    return query;
  }

  /** 32 hex digits from a pool of random bytes drawn 4 KiB at a time (one draw per id cost more than the rest of recording). */
  #queryId(): string {
    if (this.#poolAt + 16 > this.#pool.length) {
      this.#pool = this.#random(4096);
      this.#poolAt = 0;
    }
    let hex = '';
    for (let i = this.#poolAt; i < this.#poolAt + 16; i++) hex += HEX[this.#pool[i]!];
    this.#poolAt += 16;
    return hex;
  }
}
