import { frozenCopy } from '../../src/freeze';
import type {
  DayRange,
  EpochDay,
  ItemCounts,
  QueryCounts,
  QueryItemCounts,
  SearchAnalyticsStore,
  SearchAnalyticsWrite,
  TrackedSearch,
} from '../../src/storage/search-analytics';

type Counts = Record<string, number>;
/** Per catalog, per day, per key: counts summed. */
type Rollup = Map<string, Map<EpochDay, Map<string, Counts>>>;

const byKey = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

function addTo(rollup: Rollup, catalog: string, day: EpochDay, key: string, delta: object): void {
  let days = rollup.get(catalog);
  if (!days) rollup.set(catalog, (days = new Map()));
  let keys = days.get(day);
  if (!keys) days.set(day, (keys = new Map()));
  const counts = keys.get(key);
  if (!counts) keys.set(key, { ...(delta as Counts) });
  else for (const [name, value] of Object.entries(delta as Counts)) counts[name] = (counts[name] ?? 0) + value;
}

/** The counts of the range's days, each key's summed over them (or per day when `perDay`). */
function sumRange(rollup: Rollup, range: DayRange, perDay: boolean): Map<string, Counts & { day?: number }> {
  const out = new Map<string, Counts & { day?: number }>();
  for (const [day, keys] of rollup.get(range.catalog) ?? []) {
    if (day < range.since || day > range.until) continue;
    for (const [key, counts] of keys) {
      const id = perDay ? `${day}\u0000${key}` : key;
      const sum = out.get(id);
      if (!sum) out.set(id, perDay ? { ...counts, day } : { ...counts });
      else for (const [name, value] of Object.entries(counts)) sum[name] = (sum[name] ?? 0) + value;
    }
  }
  return out;
}

const SEP = '\u0000';

/**
 * Search analytics in memory: rollups in nested maps (catalog → day → key), and the registry of
 * tracked searches per catalog in insertion order, so forgetting the oldest is deleting the first.
 */
export class MemorySearchAnalyticsStore implements SearchAnalyticsStore {
  readonly #queries: Rollup = new Map();
  readonly #items: Rollup = new Map();
  readonly #queryItems: Rollup = new Map();
  readonly #filters: Rollup = new Map();
  readonly #searches = new Map<string, Map<string, TrackedSearch>>();

  async write(write: SearchAnalyticsWrite): Promise<void> {
    for (const r of write.queries) addTo(this.#queries, r.catalog, r.day, r.query, r.counts);
    for (const r of write.items) addTo(this.#items, r.catalog, r.day, r.itemId, r.counts);
    for (const r of write.filters) addTo(this.#filters, r.catalog, r.day, r.field, { searches: r.searches });
    for (const r of write.queryItems) addTo(this.#queryItems, r.catalog, r.day, `${r.query}${SEP}${r.itemId}`, r.counts);
    for (const s of write.searches) {
      let registry = this.#searches.get(s.catalog);
      if (!registry) this.#searches.set(s.catalog, (registry = new Map()));
      if (!registry.has(s.queryId)) registry.set(s.queryId, frozenCopy(s));
    }
  }

  async lookup(catalog: string, queryIds: readonly string[]): Promise<Map<string, TrackedSearch>> {
    const out = new Map<string, TrackedSearch>();
    const registry = this.#searches.get(catalog);
    for (const id of queryIds) {
      const found = registry?.get(id);
      if (found) out.set(id, found);
    }
    return out;
  }

  async days(range: DayRange): Promise<(QueryCounts & { readonly day: EpochDay })[]> {
    const perDay = new Map<EpochDay, Counts>();
    for (const [day, keys] of this.#queries.get(range.catalog) ?? []) {
      if (day < range.since || day > range.until) continue;
      const sum: Counts = {};
      for (const counts of keys.values()) for (const [name, value] of Object.entries(counts)) sum[name] = (sum[name] ?? 0) + value;
      perDay.set(day, sum);
    }
    return [...perDay].sort(([a], [b]) => a - b).map(([day, counts]) => ({ ...(counts as unknown as QueryCounts), day }));
  }

  async queries(range: DayRange, order: 'searches' | 'zeroResults', limit: number): Promise<(QueryCounts & { readonly query: string })[]> {
    return [...sumRange(this.#queries, range, false)]
      .filter(([, c]) => order === 'searches' || (c.zeroResults ?? 0) > 0)
      .sort(([qa, a], [qb, b]) => (b[order] ?? 0) - (a[order] ?? 0) || byKey(qa, qb))
      .slice(0, limit)
      .map(([query, counts]) => ({ ...(counts as unknown as QueryCounts), query }));
  }

  async filters(range: DayRange, limit: number): Promise<{ readonly field: string; readonly searches: number }[]> {
    return [...sumRange(this.#filters, range, false)]
      .sort(([fa, a], [fb, b]) => (b.searches ?? 0) - (a.searches ?? 0) || byKey(fa, fb))
      .slice(0, limit)
      .map(([field, counts]) => ({ field, searches: counts.searches ?? 0 }));
  }

  async items(range: DayRange, limit: number): Promise<(ItemCounts & { readonly itemId: string })[]> {
    return [...sumRange(this.#items, range, false)]
      .filter(([, c]) => (c.clicks ?? 0) > 0 || (c.conversions ?? 0) > 0)
      .sort(([ia, a], [ib, b]) => (b.clicks ?? 0) - (a.clicks ?? 0) || (b.conversions ?? 0) - (a.conversions ?? 0) || byKey(ia, ib))
      .slice(0, limit)
      .map(([itemId, counts]) => ({ ...(counts as unknown as ItemCounts), itemId }));
  }

  async itemDays(range: DayRange, limit: number): Promise<(ItemCounts & { readonly day: EpochDay; readonly itemId: string })[]> {
    return [...sumRange(this.#items, range, true)]
      .map(([key, counts]) => ({ ...(counts as unknown as ItemCounts), day: counts.day!, itemId: key.slice(key.indexOf(SEP) + 1) }))
      .sort((a, b) => b.day - a.day || byKey(a.itemId, b.itemId))
      .slice(0, limit);
  }

  async queryItems(range: DayRange, limit: number): Promise<(QueryItemCounts & { readonly query: string; readonly itemId: string })[]> {
    return [...sumRange(this.#queryItems, range, false)]
      .sort(([ka, a], [kb, b]) => (b.examined ?? 0) - (a.examined ?? 0) || byKey(ka, kb))
      .slice(0, limit)
      .map(([key, counts]) => {
        const cut = key.indexOf(SEP);
        return { ...(counts as unknown as QueryItemCounts), query: key.slice(0, cut), itemId: key.slice(cut + 1) };
      });
  }

  async purge(options: { beforeDay: EpochDay; beforeTime: number; maxSearches: number }): Promise<void> {
    for (const rollup of [this.#queries, this.#items, this.#queryItems, this.#filters]) {
      for (const days of rollup.values()) for (const day of days.keys()) if (day < options.beforeDay) days.delete(day);
    }
    for (const registry of this.#searches.values()) {
      let excess = registry.size - options.maxSearches;
      for (const [id, search] of registry) {
        if (excess <= 0 && search.time >= options.beforeTime) break;
        registry.delete(id);
        excess--;
      }
    }
  }
}
