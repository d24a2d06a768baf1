/**
 * A recorded campaign activation: a visitor was exposed to a variation.
 *
 * @example
 * ```ts
 * const activations: Activation[] = await storage.activations.list({ environmentId: 'prod', visitorId: 'v1' });
 * for (const a of activations) console.log(a.campaignId, a.variationId, new Date(a.timestamp));
 * ```
 */
export interface Activation {
  readonly environmentId: string;
  readonly visitorId: string;
  /** The anonymous id given with the activation (`aid`), or null. */
  readonly anonymousId: string | null;
  readonly campaignId: string;
  readonly variationGroupId: string;
  readonly variationId: string;
  /** Epoch milliseconds. */
  readonly timestamp: number;
}

/**
 * A filter over recorded activations.
 *
 * @example
 * ```ts
 * const query: ActivationQuery = { environmentId: 'prod', since: Date.now() - 3_600_000, limit: 100 };
 * const lastHour = await storage.activations.list(query);
 * ```
 */
export interface ActivationQuery {
  readonly environmentId: string;
  /** Only this visitor's activations. */
  readonly visitorId?: string;
  /** Only activations at or after this time (epoch ms). */
  readonly since?: number;
  /** At most this many, oldest first. Default: all. */
  readonly limit?: number;
}

/**
 * Port: the activation log. `record` stores a whole list atomically, in order.
 *
 * @example
 * ```ts
 * const log: ActivationStore = storage.activations;
 * await log.record([
 *   { environmentId: 'prod', visitorId: 'v1', anonymousId: null, campaignId: 'c1', variationGroupId: 'vg1', variationId: 'var1', timestamp: Date.now() },
 * ]);
 * const mine = await log.list({ environmentId: 'prod', visitorId: 'v1' });
 * ```
 */
export interface ActivationStore {
  /** Appends activations. */
  record(activations: readonly Activation[]): Promise<void>;
  /** Activations matching the query, oldest first (recording order for equal timestamps). */
  list(query: ActivationQuery): Promise<Activation[]>;
}
