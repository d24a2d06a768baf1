import type { AccessStore } from './accesses';
import type { ActivationStore } from './activations';
import type { AssignmentStore } from './assignments';
import type { CatalogStore } from './catalog';
import type { EnvironmentStore } from './environments';
import type { EventStore } from './events';
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
  /** Releases connections or files; the storage is unusable afterwards. */
  close(): Promise<void>;
}
