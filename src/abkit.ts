/**
 * The composition root: every service of abkit wired over one storage. The root entry
 * (src/index.ts) exports it as `createAbkit` with the storage defaulting to memory, so that no
 * module under src/ but the entry imports an adapter.
 *
 * @module
 */
import { AdminService, type AdminServiceOptions } from './admin/service';
import { AccessManager, type AccessManagerOptions } from './access/access-manager';
import { SearchAnalytics, type SearchAnalyticsOptions } from './analytics/service';
import { RemoteControl, type RemoteControlOptions } from './access/remote-control';
import { TokenService, type TokenServiceOptions } from './access/token-service';
import { CatalogRegistry, type CatalogRegistryOptions } from './catalog/registry';
import { DecisionEngine, type DecisionEngineOptions } from './decision/engine';
import { ExperimentService, type ExperimentServiceOptions } from './results/experiments';
import { createHandler, type AbkitHandlerOptions } from './http/handler';
import { SearchExperiments } from './search-experiments/search-experiments';
import type { Handler } from './http/router';
import { behaviourSourced } from './search/behaviour-ranking';
import type { Storage } from './storage/storage';

/** The settings of a catalog without stored ones: one object, so the search handler never rebuilds for it. */
const NO_SETTINGS = Object.freeze({});

/**
 * Options of `createAbkit`: the storage, and each service's own options (its storage and the
 * services it builds on are wired by `createAbkit`).
 *
 * @example
 * ```ts
 * const options: AbkitOptions = {
 *   storage: memoryStorage(),
 *   clock: Date.now,
 *   decision: { defaultEnvironment: 'prod' },
 *   tokens: { defaultLifetimeSeconds: 900 },
 * };
 * const abkit = createAbkit(options);
 * ```
 */
export interface AbkitOptions {
  /** Where every service keeps its data. @defaultValue `memoryStorage()` */
  storage?: Storage;
  /**
   * Current time in epoch milliseconds, for every service that stamps or expires anything (a
   * service's own `clock` option wins). @defaultValue `Date.now`
   */
  clock?: () => number;
  /** Options of the {@link DecisionEngine}. */
  decision?: Omit<DecisionEngineOptions, 'storage'>;
  /** Options of the {@link ExperimentService}. */
  experiments?: Omit<ExperimentServiceOptions, 'engine'>;
  /** Options of the {@link AccessManager}. */
  accesses?: Omit<AccessManagerOptions, 'storage'>;
  /** Options of the {@link TokenService}. */
  tokens?: Omit<TokenServiceOptions, 'storage' | 'accesses'>;
  /** Options of the {@link RemoteControl}. */
  remote?: Omit<RemoteControlOptions, 'engine'>;
  /** Options of the {@link CatalogRegistry}. */
  catalogs?: Omit<CatalogRegistryOptions, 'storage'>;
  /** Options of the {@link AdminService}. */
  admin?: Omit<AdminServiceOptions, 'storage' | 'engine' | 'accesses' | 'tokens' | 'catalogs' | 'remote'>;
  /** Options of the {@link SearchAnalytics}. */
  searchAnalytics?: Omit<SearchAnalyticsOptions, 'storage' | 'catalogs'>;
}

/**
 * Every service of abkit over one storage, as `createAbkit` returns it.
 *
 * @example
 * ```ts
 * const { engine, catalogs } = createAbkit();
 * await engine.load(bucketingConfig, { environment: 'prod', account: 'acme' });
 * const { catalog } = await catalogs.create({ identifier: 'acme' });
 * ```
 */
export interface Abkit {
  /** The storage every service below reads and writes. */
  readonly storage: Storage;
  /** Campaign decisions (the `/v2` interface). */
  readonly engine: DecisionEngine;
  /** Activations, conversion events and experiment results over {@link Abkit.engine}'s configurations. */
  readonly experiments: ExperimentService;
  /**
   * Experiments on search over {@link Abkit.engine} and {@link Abkit.experiments}, in the engine's
   * default environment: what `GET /search?visitorId=…` decides with, and what records search
   * clicks and conversions for the results.
   */
  readonly searchExperiments: SearchExperiments;
  /** Remote-control credentials. */
  readonly accesses: AccessManager;
  /** Access tokens issued for {@link Abkit.accesses}. */
  readonly tokens: TokenService;
  /** Campaign administration over {@link Abkit.engine}. */
  readonly remote: RemoteControl;
  /** Catalogs, which search reads. */
  readonly catalogs: CatalogRegistry;
  /** The account holder's operations (accounts, environments, accesses, catalogs), each written to the audit log. */
  readonly admin: AdminService;
  /** Search analytics over {@link Abkit.catalogs}: searches and their events rolled up per day, and the behaviour signals search ranks with. */
  readonly searchAnalytics: SearchAnalytics;
  /** One Web-standard handler serving every interface over these services. */
  handler(options?: AbkitHandlerOptions): Handler;
  /** Closes the storage; the services are unusable afterwards. */
  close(): Promise<void>;
}

/** Wires every service over `options.storage` (see `createAbkit`). @internal */
export function composeAbkit(options: AbkitOptions & { storage: Storage }): Abkit {
  const { storage, clock } = options;
  const withClock = <T extends { clock?: () => number }>(own: T | undefined): T => ({ ...(clock ? { clock } : {}), ...own }) as T;
  const engine = new DecisionEngine({ ...withClock(options.decision), storage });
  const experiments = new ExperimentService({ ...withClock(options.experiments), engine });
  const accesses = new AccessManager({ ...withClock(options.accesses), storage });
  const tokens = new TokenService({ ...withClock(options.tokens), storage, accesses });
  const remote = new RemoteControl({ ...options.remote, engine, experiments });
  const catalogs = new CatalogRegistry({ ...withClock(options.catalogs), storage });
  const admin = new AdminService({ ...withClock(options.admin), storage, engine, accesses, tokens, catalogs, remote });
  const searchAnalytics = new SearchAnalytics({ ...withClock(options.searchAnalytics), storage, catalogs });
  const searchExperiments = new SearchExperiments({ engine, experiments, behaviour: searchAnalytics.behaviour });
  return {
    storage,
    engine,
    experiments,
    searchExperiments,
    accesses,
    tokens,
    remote,
    catalogs,
    admin,
    searchAnalytics,
    handler(handlerOptions = {}) {
      const { search = {}, ...rest } = handlerOptions;
      // Search settings stored through the admin API apply where the handler gives none; those
      // turning behaviour ranking on read the host's behaviour source, by default the signals
      // search analytics records.
      const { analytics = true, behaviour = analytics ? searchAnalytics.behaviour : undefined, ...searchRest } = search;
      const sourced = behaviour ? behaviourSourced(behaviour) : <T>(settings: T) => settings;
      const searchOptions = search.options
        ? sourced(search.options)
        : (identifier: string) => sourced(admin.searchSettings(identifier) ?? NO_SETTINGS);
      return createHandler({
        ...rest,
        decision: engine,
        experiments,
        access: tokens,
        catalog: catalogs,
        search: {
          registry: catalogs,
          ...searchRest,
          options: searchOptions,
          analytics: analytics ? searchAnalytics : undefined,
          experiments: searchExperiments,
        },
      });
    },
    close: async () => {
      admin.stop();
      // What search analytics counted is written before the storage closes (which it does even if that write fails).
      try {
        await searchAnalytics.close();
      } finally {
        await storage.close();
      }
    },
  };
}
