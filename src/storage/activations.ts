/** A recorded campaign activation: a visitor was exposed to a variation. */
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

/** A filter over recorded activations. */
export interface ActivationQuery {
  readonly environmentId: string;
  /** Only this visitor's activations. */
  readonly visitorId?: string;
  /** Only activations at or after this time (epoch ms). */
  readonly since?: number;
  /** At most this many, oldest first. Default: all. */
  readonly limit?: number;
}

/** Port: the activation log. `record` stores a whole list atomically, in order. */
export interface ActivationStore {
  /** Appends activations. */
  record(activations: readonly Activation[]): Promise<void>;
  /** Activations matching the query, oldest first (recording order for equal timestamps). */
  list(query: ActivationQuery): Promise<Activation[]>;
}
