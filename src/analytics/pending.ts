/**
 * What search analytics has counted but not written yet: increments summed per key, so a flush
 * writes one row per key however many searches and events hit it.
 *
 * @module
 */
import type { EpochDay, ItemCounts, QueryCounts, QueryItemCounts, SearchAnalyticsWrite, TrackedSearch } from '../storage/search-analytics';

type Mutable<T> = { -readonly [K in keyof T]: T[K] };

const ZERO_QUERY: QueryCounts = { searches: 0, tracked: 0, zeroResults: 0, clicks: 0, clickPositions: 0, conversions: 0, latencyMs: 0 };
const ZERO_ITEM: ItemCounts = { clicks: 0, conversions: 0, views: 0, purchases: 0, pageviews: 0 };
const ZERO_QUERY_ITEM: QueryItemCounts = { clicks: 0, examined: 0, conversions: 0 };

interface Row<C> {
  catalog: string;
  day: EpochDay;
  query: string;
  itemId: string;
  counts: Mutable<C>;
}

/** One list of increments keyed by catalog, day, query and item (`''` where the list has none). */
class Sums<C extends object> {
  readonly rows = new Map<string, Row<C>>();
  constructor(private readonly zero: C) {}

  /** The counts of the key, created at zero: the caller adds to them. */
  at(catalog: string, day: EpochDay, query: string, itemId: string): Mutable<C> {
    const key = `${catalog}\u0000${day}\u0000${query}\u0000${itemId}`;
    let row = this.rows.get(key);
    if (!row) this.rows.set(key, (row = { catalog, day, query, itemId, counts: { ...this.zero } }));
    return row.counts;
  }
}

/**
 * Query-item increments under their query's key, so that a search's page of hits costs one key
 * for the query and a lookup by item id per hit (not a long key per hit).
 */
class PairSums {
  readonly rows = new Map<string, { catalog: string; day: EpochDay; query: string; items: Map<string, Mutable<QueryItemCounts>> }>();
  #size = 0;

  /** The items of the query's key, each item's counts created at zero by {@link PairSums.at}. */
  of(catalog: string, day: EpochDay, query: string): Map<string, Mutable<QueryItemCounts>> {
    const key = `${catalog}\u0000${day}\u0000${query}`;
    let row = this.rows.get(key);
    if (!row) this.rows.set(key, (row = { catalog, day, query, items: new Map() }));
    return row.items;
  }

  /** The counts of one item under the query's items, created at zero. */
  at(items: Map<string, Mutable<QueryItemCounts>>, itemId: string): Mutable<QueryItemCounts> {
    let counts = items.get(itemId);
    if (!counts) {
      items.set(itemId, (counts = { ...ZERO_QUERY_ITEM }));
      this.#size++;
    }
    return counts;
  }

  get size(): number {
    return this.#size;
  }
}

/** Increments and tracked searches waiting for a flush. */
export class Pending {
  readonly queries = new Sums(ZERO_QUERY);
  readonly items = new Sums(ZERO_ITEM);
  readonly queryItems = new PairSums();
  /** Searches per filtered field, the field in the query slot. */
  readonly filters = new Sums({ searches: 0 });
  /** Tracked searches by query id, so an event can follow a search before it is written. */
  readonly searches = new Map<string, TrackedSearch>();

  /** Keys and searches held: what the flush size compares against. */
  get size(): number {
    return this.queries.rows.size + this.items.rows.size + this.queryItems.size + this.searches.size + this.filters.rows.size;
  }

  /** The increments as one store write. */
  toWrite(): SearchAnalyticsWrite {
    return {
      queries: [...this.queries.rows.values()].map(({ catalog, day, query, counts }) => ({ catalog, day, query, counts })),
      items: [...this.items.rows.values()].map(({ catalog, day, itemId, counts }) => ({ catalog, day, itemId, counts })),
      queryItems: [...this.queryItems.rows.values()].flatMap(({ catalog, day, query, items }) =>
        [...items].map(([itemId, counts]) => ({ catalog, day, query, itemId, counts })),
      ),
      searches: [...this.searches.values()],
      filters: [...this.filters.rows.values()].map(({ catalog, day, query, counts }) => ({
        catalog,
        day,
        field: query,
        searches: counts.searches,
      })),
    };
  }
}
