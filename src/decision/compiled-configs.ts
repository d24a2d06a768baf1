/**
 * The engine's compiled configurations: one per environment, compiled once per stored version,
 * kept in an LRU and re-checked against the store's version at most every `refreshIntervalMs`
 * (or not at all while a store that counts its writes has had none).
 *
 * @module
 */
import { LRUCache } from 'lru-cache';
import { NotFoundError } from '../errors';
import type { EnvironmentStore } from '../storage/environments';
import type { Storage } from '../storage/storage';
import { compileConfig, type CompiledConfig } from './compile';

interface CacheEntry {
  config: CompiledConfig;
  checkedAt: number;
  /** The store's count of writes read before that check (`EnvironmentStore.changes`), if it keeps one. */
  changes: number | undefined;
}

/** Options of {@link CompiledConfigs}, checked by the engine's constructor. */
export interface CompiledConfigsOptions {
  defaultEnvironment: string;
  refreshIntervalMs: number;
  maxEnvironments: number;
  clock: () => number;
}

/** The compiled configurations of one engine. */
export class CompiledConfigs {
  readonly #storage: Storage;
  readonly #defaultEnvironment: string;
  readonly #refreshMs: number;
  readonly #clock: () => number;
  readonly #cache: LRUCache<string, CacheEntry>;
  // The last configuration served: while fresh, a decision reads it without touching the LRU.
  #last: { id: string; entry: CacheEntry } | undefined;

  /** Reads `storage.environments` at each use, as a wrapper may replace it. */
  constructor(storage: Storage, options: CompiledConfigsOptions) {
    this.#storage = storage;
    this.#defaultEnvironment = options.defaultEnvironment;
    this.#refreshMs = options.refreshIntervalMs;
    this.#clock = options.clock;
    this.#cache = new LRUCache({ max: options.maxEnvironments, ttl: 3_600_000, updateAgeOnGet: true });
  }

  /** Drops one environment's compiled configuration, or all, so the next request re-reads the store. */
  invalidate(environmentId?: string): void {
    if (environmentId === undefined || this.#last?.id === environmentId) this.#last = undefined;
    if (environmentId === undefined) this.#cache.clear();
    else this.#cache.delete(environmentId);
  }

  /**
   * The last configuration served, when it is the one asked for and needs no version check yet:
   * the store was not written since its last check (then the clock is not read), or that check
   * is more recent than `refreshIntervalMs`.
   */
  fresh(environment: string | undefined): CompiledConfig | undefined {
    const last = this.#last;
    if (last === undefined || last.id !== (environment ?? this.#defaultEnvironment)) return undefined;
    const entry = last.entry;
    if (entry.changes !== undefined && entry.changes === changeCount(this.#storage.environments)) return entry.config;
    return this.#clock() - entry.checkedAt < this.#refreshMs ? entry.config : undefined;
  }

  /** The environment's compiled configuration, re-checked or compiled as needed; {@link NotFoundError} when it does not exist. */
  async get(environment: string | undefined): Promise<CompiledConfig> {
    const id = environment ?? this.#defaultEnvironment;
    const now = this.#clock();
    let entry = this.#cache.get(id);
    if (entry && now - entry.checkedAt < this.#refreshMs) {
      this.#last = { id, entry };
      return entry.config;
    }
    const store = this.#storage.environments;
    // Read before the version: a write after this read changes the count.
    const changes = changeCount(store);
    const version = await store.version(id);
    if (version === undefined) {
      this.#cache.delete(id);
      if (this.#last?.id === id) this.#last = undefined;
      throw new NotFoundError(`environment "${id}" does not exist`);
    }
    if (entry && entry.config.version === version) {
      entry.checkedAt = now;
      entry.changes = changes;
    } else {
      const record = await store.get(id);
      if (!record) throw new NotFoundError(`environment "${id}" does not exist`);
      entry = { config: compileConfig(record), checkedAt: now, changes };
      this.#cache.set(id, entry);
    }
    this.#last = { id, entry };
    return entry.config;
  }
}

/**
 * The store's write count, or undefined when it keeps none. Wrapped stores (a proxy adding
 * metrics or an outage switch to every method) can answer `changes()` with a promise or throw:
 * such an answer counts as none, so the engine checks versions by the clock, and a rejected
 * promise is handled here rather than left to crash the process as an unhandled rejection.
 */
function changeCount(store: EnvironmentStore): number | undefined {
  if (store.changes === undefined) return undefined;
  let count: unknown;
  try {
    count = store.changes();
  } catch {
    return undefined;
  }
  if (typeof count === 'number') return count;
  if (count instanceof Promise) count.catch(() => undefined);
  return undefined;
}
