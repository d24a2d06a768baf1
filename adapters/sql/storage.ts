import type { Storage } from '../../src/storage/storage';
import { SqlAccessStore, SqlTokenStore } from './access-stores';
import { SqlAccountStore, SqlAuditStore, SqlCatalogSettingsStore } from './admin-stores';
import { SqlCatalogStore } from './catalog-store';
import { SqlActivationStore, SqlAssignmentStore, SqlEnvironmentStore, writeDecision } from './decision-stores';
import type { SqlDriver } from './driver';
import { SqlEventStore } from './event-store';
import { migrate } from './migrations';
import { SqlSearchAnalyticsStore } from './search-analytics-store';

/**
 * A SQL-backed {@link Storage}, with its driver and an explicit `migrate()`.
 *
 * @example
 * ```ts
 * const storage: SqlStorage = await sqliteStorage({ filename: '.abkit/abkit.db', migrate: false });
 * const applied = await storage.migrate(); // e.g. [1] on a new database, [] afterwards
 * const engine = new DecisionEngine({ storage });
 * ```
 */
export interface SqlStorage extends Storage {
  /** The driver, for advanced use (raw queries in tests, health checks). */
  readonly driver: SqlDriver;
  /** Applies pending schema migrations; returns the versions applied. Safe to run concurrently. */
  migrate(): Promise<number[]>;
}

/** Every store over one driver. Migrations run first unless `migrate` is false. */
export async function sqlStorage(driver: SqlDriver, options: { migrate?: boolean } = {}): Promise<SqlStorage> {
  if (options.migrate !== false) await migrate(driver);
  const assignments = new SqlAssignmentStore(driver);
  const activations = new SqlActivationStore(driver);
  return {
    driver,
    environments: new SqlEnvironmentStore(driver),
    assignments,
    activations,
    writeDecision: (write) => writeDecision(driver, assignments, activations, write),
    events: new SqlEventStore(driver),
    accesses: new SqlAccessStore(driver),
    tokens: new SqlTokenStore(driver),
    catalogs: new SqlCatalogStore(driver),
    accounts: new SqlAccountStore(driver),
    catalogSettings: new SqlCatalogSettingsStore(driver),
    audit: new SqlAuditStore(driver),
    searchAnalytics: new SqlSearchAnalyticsStore(driver),
    migrate: () => migrate(driver),
    close: () => driver.close(),
  };
}
