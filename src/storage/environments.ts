import type { BucketingConfig } from '../model/bucketing-config';
import { ConflictError } from '../errors';

/**
 * An environment as stored: its account, its campaign configuration and a version counter.
 *
 * @example
 * ```ts
 * const record: EnvironmentRecord = await engine.load(bucketingFile, { environment: 'prod' });
 * console.log(record.id, record.version, record.config.campaigns.length);
 * ```
 */
export interface EnvironmentRecord {
  /** Environment id, unique across accounts (it appears alone in `/v2/{envId}/campaigns`). */
  readonly id: string;
  /** Account that owns the environment. */
  readonly accountId: string;
  /**
   * Hash (hex) of the environment's API key, or null when the environment needs none:
   * HMAC-SHA-256 keyed with the engine's `pepper`, else SHA-256 (which a key stored before the
   * pepper was set still is, until its first use).
   */
  readonly apiKeyHash: string | null;
  /** The validated campaign configuration. */
  readonly config: BucketingConfig;
  /** Starts at 1 and grows by one on every write; decision engines recompile when it changes. */
  readonly version: number;
  /** Time of the last write, in epoch milliseconds. */
  readonly updatedAt: number;
}

/**
 * What a write gives; the store assigns `version` and `updatedAt`.
 *
 * @example
 * ```ts
 * const write: EnvironmentWrite = { id: 'staging', accountId: 'acme', config: parseBucketingConfig(bucketingFile), apiKeyHash: null };
 * const record = await storage.environments.put(write, { expectedVersion: 0 }); // 0: must not exist yet
 * ```
 */
export interface EnvironmentWrite {
  readonly id: string;
  readonly accountId: string;
  readonly apiKeyHash?: string | null;
  readonly config: BucketingConfig;
}

/**
 * Port: campaign configurations per environment. Adapters must make `put` atomic and keep
 * `version` strictly increasing per environment.
 *
 * @example
 * ```ts
 * const environments: EnvironmentStore = storage.environments;
 * const current = await environments.get('prod');
 * if (current) await environments.put({ ...current, config: { ...current.config, panic: true } }, { expectedVersion: current.version });
 * engine.invalidate('prod'); // written around the engine: drop its compiled copy
 * ```
 */
export interface EnvironmentStore {
  /** The environment, or undefined. */
  get(id: string): Promise<EnvironmentRecord | undefined>;
  /** Only the version, so a decision engine can check freshness cheaply; undefined when absent. */
  version(id: string): Promise<number | undefined>;
  /** Every environment, or those of one account, ordered by id. */
  list(accountId?: string): Promise<EnvironmentRecord[]>;
  /**
   * Creates or replaces an environment and returns it with its new version.
   * Throws `ConflictError` when the id belongs to another account, or when `expectedVersion`
   * is given and the stored version differs (optimistic concurrency; 0 means "must not exist").
   * `apiKeyHash` left undefined keeps the stored one.
   */
  put(write: EnvironmentWrite, options?: { expectedVersion?: number; now?: number }): Promise<EnvironmentRecord>;
  /** Deletes the environment; false when it did not exist. */
  delete(id: string): Promise<boolean>;
  /**
   * A count of this store's writes (`put` and `delete`, of any environment), for a store that
   * answers from memory and sees every write made to it: while the count is the one read before
   * a version check, nothing changed since, and a decision engine serves its compiled
   * configuration without reading the clock. Optional; a store that others write to behind its
   * back (a database) leaves it out, and engines then check versions every `refreshIntervalMs`.
   */
  changes?(): number;
}

/**
 * Replaces an environment's API key hash `from` by `to` (a key stored before the pepper was set,
 * stored anew keyed with it), unless the environment changed since: its key, or its version
 * between the read and the write. True when it was replaced. A write like any other: the
 * version grows by one.
 */
export async function rehashApiKey(store: EnvironmentStore, id: string, from: string, to: string): Promise<boolean> {
  const record = await store.get(id);
  if (record?.apiKeyHash !== from) return false;
  try {
    await store.put({ id, accountId: record.accountId, config: record.config, apiKeyHash: to }, { expectedVersion: record.version });
    return true;
  } catch (error) {
    // Another writer was first: the key is re-hashed at its next use.
    if (error instanceof ConflictError) return false;
    throw error;
  }
}
