/**
 * A recorded conversion event: something a visitor did (a purchase, a sign-up), with an
 * optional numeric value such as revenue.
 *
 * @example
 * ```ts
 * const events: ConversionEvent[] = await storage.events.list({ environmentId: 'prod', visitorId: 'v1' });
 * for (const e of events) console.log(e.event, e.value, new Date(e.timestamp));
 * ```
 */
export interface ConversionEvent {
  readonly environmentId: string;
  readonly visitorId: string;
  /** The event (metric) name, e.g. `purchase`. */
  readonly event: string;
  /** A finite number (revenue, quantity), or null. */
  readonly value: number | null;
  /** Epoch milliseconds. */
  readonly timestamp: number;
}

/**
 * A filter over recorded conversion events.
 *
 * @example
 * ```ts
 * const query: EventQuery = { environmentId: 'prod', event: 'purchase', since: Date.now() - 86_400_000, limit: 100 };
 * const purchases = await storage.events.list(query);
 * ```
 */
export interface EventQuery {
  readonly environmentId: string;
  /** Only this visitor's events. */
  readonly visitorId?: string;
  /** Only events of this name. */
  readonly event?: string;
  /** Only events at or after this time (epoch ms). */
  readonly since?: number;
  /** Only events before this time (epoch ms). */
  readonly until?: number;
  /** At most this many, oldest first. Default: all. */
  readonly limit?: number;
}

/**
 * What {@link EventStore.aggregate} summarizes: one campaign's exposures (from the activation
 * log) joined with one event's conversions.
 *
 * @example
 * ```ts
 * const query: ExposureQuery = { environmentId: 'prod', campaignId: 'checkout', event: 'purchase', since: Date.parse('2026-11-01') };
 * const rows = await storage.events.aggregate(query);
 * ```
 */
export interface ExposureQuery {
  readonly environmentId: string;
  readonly campaignId: string;
  /** The conversion event (metric) name. */
  readonly event: string;
  /** Only exposures at or after this time (epoch ms). */
  readonly since?: number;
  /** Only exposures and events before this time (epoch ms). */
  readonly until?: number;
}

/**
 * The sufficient statistics of one variation for one metric, as the store computes them.
 *
 * A visitor is exposed from its first activation of the campaign in the window; visitors whose
 * activations name more than one variation are not attributed to any (they are counted in the
 * row whose `variationId` is null). A visitor converts when it has at least one event of the
 * metric at or after its first exposure (and before `until`); its value is the sum of those
 * events' values (0 when none).
 *
 * @example
 * ```ts
 * const [row]: VariationAggregate[] = await storage.events.aggregate({ environmentId: 'prod', campaignId: 'c1', event: 'purchase' });
 * const rate = row ? row.converted / row.exposed : 0;
 * ```
 */
export interface VariationAggregate {
  /** The variation group, or null for the row of visitors exposed to several variations. */
  readonly variationGroupId: string | null;
  /** The variation, or null for the row of visitors exposed to several variations. */
  readonly variationId: string | null;
  /** Unique exposed visitors. */
  readonly exposed: number;
  /** Exposed visitors with at least one event of the metric after their first exposure. */
  readonly converted: number;
  /** Events with a value counted for these visitors. */
  readonly valued: number;
  /** Sum over exposed visitors of their summed event values. */
  readonly valueSum: number;
  /** Sum over exposed visitors of the square of their summed event values. */
  readonly valueSumSquares: number;
}

/**
 * Port: the conversion event log. `record` stores a whole list atomically; `aggregate` runs
 * in the store (one SQL statement with GROUP BY, or one pass in memory) and returns one row per
 * variation, never the events themselves.
 *
 * @example
 * ```ts
 * const log: EventStore = storage.events;
 * await log.record([{ environmentId: 'prod', visitorId: 'v1', event: 'purchase', value: 42.5, timestamp: Date.now() }]);
 * const rows = await log.aggregate({ environmentId: 'prod', campaignId: 'c1', event: 'purchase' });
 * ```
 */
export interface EventStore {
  /** Appends events. */
  record(events: readonly ConversionEvent[]): Promise<void>;
  /** Events matching the query, oldest first (recording order for equal timestamps). */
  list(query: EventQuery): Promise<ConversionEvent[]>;
  /** Per-variation sufficient statistics of a campaign for one metric (see {@link VariationAggregate}). */
  aggregate(query: ExposureQuery): Promise<VariationAggregate[]>;
}
