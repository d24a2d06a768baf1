import type { AccessStore } from './accesses';
import type { AccountStore } from './accounts';
import type { Activation, ActivationStore } from './activations';
import type { Assignments, AssignmentStore } from './assignments';
import type { AuditStore } from './audit';
import type { CatalogStore } from './catalog';
import type { CatalogSettingsStore } from './catalog-settings';
import type { EnvironmentStore } from './environments';
import type { EventStore } from './events';
import type { SearchAnalyticsStore } from './search-analytics';
import type { TokenStore } from './tokens';

/**
 * The bundle of storage ports an abkit instance runs on. Adapters (memory, SQLite,
 * PostgreSQL) each return one; several abkit instances sharing one bundle's backing store
 * see each other's writes.
 *
 * @example
 * ```ts
 * const storage: Storage = process.env.DATABASE_URL ? await postgresStorage({ connectionString: process.env.DATABASE_URL }) : memoryStorage();
 * const engine = new DecisionEngine({ storage });
 * process.on('SIGTERM', () => void storage.close());
 * ```
 */
export interface Storage {
  /** Campaign configurations per environment. */
  readonly environments: EnvironmentStore;
  /** Sticky variation assignments. */
  readonly assignments: AssignmentStore;
  /** The activation log. */
  readonly activations: ActivationStore;
  /** Conversion events, and their aggregation against the activation log. */
  readonly events: EventStore;
  /** Remote-control accesses. */
  readonly accesses: AccessStore;
  /** Issued bearer tokens. */
  readonly tokens: TokenStore;
  /** Catalogs: items, schema, visible snapshots, keys. */
  readonly catalogs: CatalogStore;
  /** Accounts created through the admin API, and their default environment. */
  readonly accounts: AccountStore;
  /** Catalog settings set through the admin API (synchronization interval, search settings). */
  readonly catalogSettings: CatalogSettingsStore;
  /** The audit log of admin actions. */
  readonly audit: AuditStore;
  /** Search analytics: counts rolled up per catalog and day, and the registry of tracked searches' query ids. */
  readonly searchAnalytics: SearchAnalyticsStore;
  /**
   * Writes what one decision produced, at once: the visitor's new sticky assignments (merged
   * like {@link AssignmentStore.save}) and its activations (appended like
   * {@link ActivationStore.record}). PostgreSQL does it in one statement, so a decision costs two
   * round trips (read, write). Optional: without it the engine calls the two stores.
   */
  writeDecision?(write: DecisionWrite): Promise<void>;
  /**
   * {@link writeDecision}, synchronously, for a storage that writes to memory: a decision then
   * waits for nothing. It takes the decided campaigns as they are, so that a decision builds no
   * assignment record and no activation object for a store that keeps neither. Optional;
   * storages that do I/O leave it out.
   */
  writeDecisionNow?(write: DecidedWrite): void;
  /** Releases connections or files; the storage is unusable afterwards. */
  close(): Promise<void>;
}

/**
 * What one decision writes (see {@link Storage.writeDecision}).
 *
 * @example
 * ```ts
 * const write: DecisionWrite = { environmentId: 'prod', visitorId: 'v1', assignments: { vg1: 'var2' }, activations: [] };
 * await storage.writeDecision?.(write);
 * ```
 */
export interface DecisionWrite {
  readonly environmentId: string;
  readonly visitorId: string;
  /** New or changed assignments of the visitor; none to write when absent or empty. */
  readonly assignments?: Assignments;
  /** Activations to append; none when absent or empty. */
  readonly activations?: readonly Activation[];
}

/**
 * One campaign a decision served, as {@link DecidedWrite} lists it: the ids an assignment and an
 * activation are made of.
 *
 * @example
 * ```ts
 * const decided: DecidedCampaign = { campaignId: 'c1', variationGroupId: 'vg1', variationId: 'var2' };
 * ```
 */
export interface DecidedCampaign {
  readonly campaignId: string;
  readonly variationGroupId: string;
  readonly variationId: string;
}

/**
 * What one decision writes, in the form {@link Storage.writeDecisionNow} takes: the same content
 * as a {@link DecisionWrite}, without building its records. The assignments are those of
 * `decided` that `assign` selects (variation group id → variation id); the activations are
 * one per entry of `decided`, stamped `activatedAt`, when it is not null.
 *
 * @example
 * ```ts
 * const write: DecidedWrite = {
 *   environmentId: 'prod',
 *   visitorId: 'v1',
 *   anonymousId: null,
 *   decided: [{ campaignId: 'c1', variationGroupId: 'vg1', variationId: 'var2' }],
 *   assign: true,
 *   activatedAt: Date.now(),
 * };
 * storage.writeDecisionNow?.(write);
 * ```
 */
export interface DecidedWrite {
  readonly environmentId: string;
  readonly visitorId: string;
  /** The anonymous id the activations carry, or null. */
  readonly anonymousId: string | null;
  /**
   * The campaigns served, in order. The entries are the engine's own objects, which reach a whole
   * compiled configuration: a store copies their ids rather than keeping them. The array too is
   * the engine's: once {@link Storage.writeDecisionNow} has returned (other than a promise), the
   * engine reuses it.
   */
  readonly decided: readonly DecidedCampaign[];
  /** Which entries become sticky assignments: all (`true`), none (`false`), or per entry. */
  readonly assign: boolean | readonly boolean[];
  /** The activations' timestamp (epoch ms), or null when none are recorded. */
  readonly activatedAt: number | null;
}
