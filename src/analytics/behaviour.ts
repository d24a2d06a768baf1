/**
 * The {@link BehaviourSource} search analytics gives behaviour ranking: per-catalog snapshots of
 * item signals and query feedback, read from the rollups in the background so that a search
 * only looks up maps.
 *
 * @module
 */
import type { BehaviourSource, QueryFeedback } from '../search/behaviour';
import type { ItemCounts, SearchAnalyticsStore } from '../storage/search-analytics';
import { SEARCH_ANALYTICS_LIMITS } from './limits';
import { dayOf } from './report';

/**
 * How much each kind of event adds to an item's behaviour signal (before time decay).
 *
 * @example
 * ```ts
 * const weights: SignalWeights = { clicks: 1, conversions: 5, purchases: 5, pageviews: 0.2 };
 * new SearchAnalytics({ storage, signalWeights: weights });
 * ```
 */
export interface SignalWeights {
  /** Per click from search. @defaultValue `1` */
  clicks?: number;
  /** Per conversion from search. @defaultValue `5` */
  conversions?: number;
  /** Per `purchase` event linked to the item. @defaultValue `5` */
  purchases?: number;
  /** Per `pageview` event linked to the item. @defaultValue `0.2` */
  pageviews?: number;
}

/** The default {@link SignalWeights}: a sale is worth five clicks, a page view a fifth of one. */
export const DEFAULT_SIGNAL_WEIGHTS: Required<SignalWeights> = { clicks: 1, conversions: 5, purchases: 5, pageviews: 0.2 };

const MAX_SNAPSHOT_ROWS = SEARCH_ANALYTICS_LIMITS.snapshotRows;

interface Snapshot {
  readonly items: ReadonlyMap<string, number>;
  readonly feedback: ReadonlyMap<string, ReadonlyMap<string, QueryFeedback>>;
  readonly at: number;
}

/** What {@link BehaviourSnapshots} needs of its owner. */
export interface SnapshotSettings {
  readonly store: SearchAnalyticsStore;
  /** Current time in epoch milliseconds. */
  readonly clock: () => number;
  readonly refreshMs: number;
  readonly halfLifeDays: number;
  readonly retentionDays: number;
  readonly weights: Required<SignalWeights>;
  /** Writes what is pending before a refresh reads. */
  readonly flush: () => Promise<void>;
  /** Receives errors of background reads. */
  readonly onError: (error: unknown) => void;
}

/**
 * Per-catalog snapshots answering {@link BehaviourSource} synchronously. A catalog gets one the
 * first time it is asked for (answering undefined until it is read), and a stale one is
 * refreshed in the background while the old one keeps answering.
 */
export class BehaviourSnapshots implements BehaviourSource {
  readonly #snapshots = new Map<string, Snapshot>();
  readonly #loading = new Map<string, Promise<void>>();

  constructor(private readonly settings: SnapshotSettings) {}

  itemSignals(catalog: string): ReadonlyMap<string, number> | undefined {
    return this.#current(catalog)?.items;
  }

  queryFeedback(catalog: string, query: string): ReadonlyMap<string, QueryFeedback> | undefined {
    return this.#current(catalog)?.feedback.get(query);
  }

  /** Reads the catalog's snapshot now (or every catalog's already snapshotted), after writing what is pending. */
  async refresh(catalog?: string): Promise<void> {
    const catalogs = catalog === undefined ? [...this.#snapshots.keys()] : [catalog];
    await Promise.all(catalogs.map((c) => this.#load(c)));
  }

  #current(catalog: string): Snapshot | undefined {
    const snapshot = this.#snapshots.get(catalog);
    if (!snapshot || this.settings.clock() - snapshot.at >= this.settings.refreshMs) {
      this.#load(catalog).catch(this.settings.onError);
    }
    return snapshot;
  }

  #load(catalog: string): Promise<void> {
    let loading = this.#loading.get(catalog);
    if (!loading) {
      loading = this.#read(catalog).finally(() => this.#loading.delete(catalog));
      this.#loading.set(catalog, loading);
    }
    return loading;
  }

  async #read(catalog: string): Promise<void> {
    const { store, clock, halfLifeDays, retentionDays, weights } = this.settings;
    await this.settings.flush();
    const now = clock();
    const today = dayOf(now);
    const range = { catalog, since: today - retentionDays + 1, until: today };
    const [itemDays, pairs] = await Promise.all([store.itemDays(range, MAX_SNAPSHOT_ROWS), store.queryItems(range, MAX_SNAPSHOT_ROWS)]);
    const items = new Map<string, number>();
    for (const row of itemDays) {
      const value = signal(row, weights) * 0.5 ** ((today - row.day) / halfLifeDays);
      if (value > 0) items.set(row.itemId, (items.get(row.itemId) ?? 0) + value);
    }
    const feedback = new Map<string, Map<string, QueryFeedback>>();
    for (const { query, itemId, clicks, examined } of pairs) {
      let perItem = feedback.get(query);
      if (!perItem) feedback.set(query, (perItem = new Map()));
      perItem.set(itemId, { clicks, examined });
    }
    this.#snapshots.set(catalog, { items, feedback, at: now });
  }
}

/** An item day's signal before decay. */
function signal(c: ItemCounts, w: Required<SignalWeights>): number {
  return c.clicks * w.clicks + c.conversions * w.conversions + c.purchases * w.purchases + c.pageviews * w.pageviews;
}
