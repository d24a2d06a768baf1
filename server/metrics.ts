/**
 * The Prometheus metrics of `abkit serve` (prom-client), and the instrumentation that feeds them
 * from the services' own calls.
 *
 * @module
 */
import { collectDefaultMetrics, Counter, Registry } from 'prom-client';
import type { TokenService } from '../src/access/token-service';
import type { Catalog } from '../src/catalog/catalog';
import type { CatalogRegistry } from '../src/catalog/registry';
import type { DecisionEngine } from '../src/decision/engine';
import type { ExperimentService } from '../src/results/experiments';
import type { SearchEvent } from '../src/http/search';
import { LatencyHistogram } from './histogram';

/** The metrics of one server, in their own registry. */
export interface ServerMetrics {
  readonly registry: Registry;
  readonly requestDuration: LatencyHistogram<'method' | 'route' | 'status'>;
  readonly decisions: Counter;
  readonly activations: Counter;
  readonly campaignsMatched: Counter;
  readonly tokenChecks: Counter<'result'>;
  readonly catalogOperations: Counter<'operation'>;
  readonly syncs: Counter<'result'>;
  readonly searchDuration: LatencyHistogram<'route'>;
  readonly zeroResultSearches: Counter<'route'>;
  /** Connections closed at once because their address held `ABKIT_MAX_CONNECTIONS_PER_IP` already. */
  readonly connectionsRefused: Counter;
  /** Log lines dropped because stdout did not take them (full, or closed by its reader). */
  readonly logLinesDropped: Counter;
}

const LATENCY_BUCKETS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5];

/**
 * Creates the server's metrics, with Node's process metrics (`abkit_process_…`, `abkit_nodejs_…`).
 *
 * @example
 * ```ts
 * const metrics = createMetrics();
 * const text = await metrics.registry.metrics();
 * ```
 */
export function createMetrics(): ServerMetrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry, prefix: 'abkit_' });
  const registers = [registry];
  return {
    registry,
    requestDuration: new LatencyHistogram({
      name: 'abkit_http_request_duration_seconds',
      help: 'HTTP request latency by route pattern and status',
      labelNames: ['method', 'route', 'status'],
      buckets: LATENCY_BUCKETS,
      registers,
    }),
    decisions: new Counter({ name: 'abkit_decisions_total', help: 'Decisions made (one per visitor request)', registers }),
    activations: new Counter({ name: 'abkit_activations_total', help: 'Activations recorded', registers }),
    campaignsMatched: new Counter({ name: 'abkit_campaigns_matched_total', help: 'Campaigns returned by decisions', registers }),
    tokenChecks: new Counter({
      name: 'abkit_token_checks_total',
      help: 'Access token checks by result',
      labelNames: ['result'],
      registers,
    }),
    catalogOperations: new Counter({
      name: 'abkit_catalog_operations_total',
      help: 'Catalog write operations by kind',
      labelNames: ['operation'],
      registers,
    }),
    syncs: new Counter({
      name: 'abkit_catalog_syncs_total',
      help: 'Catalog synchronizations by result',
      labelNames: ['result'],
      registers,
    }),
    searchDuration: new LatencyHistogram({
      name: 'abkit_search_duration_seconds',
      help: 'Search and autocomplete latency',
      labelNames: ['route'],
      buckets: LATENCY_BUCKETS,
      registers,
    }),
    zeroResultSearches: new Counter({
      name: 'abkit_search_zero_results_total',
      help: 'Searches that found nothing',
      labelNames: ['route'],
      registers,
    }),
    connectionsRefused: new Counter({
      name: 'abkit_connections_refused_total',
      help: 'Connections refused because their client address held its limit of open connections',
      registers,
    }),
    logLinesDropped: new Counter({
      name: 'abkit_log_lines_dropped_total',
      help: 'Log lines dropped because stdout did not take them (full, or closed by its reader)',
      registers,
    }),
  };
}

// Instance methods are replaced by counting wrappers: the services stay free of metrics code,
// and only this server's instances are counted.
function around<T extends object, K extends keyof T>(
  target: T,
  name: K,
  after: (result: Awaited<ReturnType<Extract<T[K], (...a: never[]) => unknown>>>, args: unknown[]) => void,
  failed?: () => void,
): void {
  const original = target[name] as (...a: unknown[]) => Promise<never>;
  // A `then` on the method's own promise, not another async frame: decide runs per request.
  const onResult = (args: unknown[]) => (result: never) => {
    after(result, args);
    return result;
  };
  const onError = (error: unknown) => {
    failed?.();
    throw error;
  };
  (target as Record<K, unknown>)[name] = (...args: unknown[]) => {
    try {
      return original.apply(target, args).then(onResult(args), onError);
    } catch (error) {
      failed?.();
      return Promise.reject(error);
    }
  };
}

/**
 * Counts decisions, matched campaigns and activations of an engine.
 *
 * @example
 * ```ts
 * instrumentEngine(engine, metrics);
 * ```
 */
export function instrumentEngine(engine: DecisionEngine, metrics: ServerMetrics): void {
  around(engine, 'decide', (result) => {
    metrics.decisions.inc();
    metrics.campaignsMatched.inc(result.campaigns.length);
  });
  around(engine, 'decideFlags', (result) => {
    metrics.decisions.inc();
    metrics.campaignsMatched.inc(new Set(Object.values(result.flags).map((flag) => flag.metadata.campaignId)).size);
  });
  around(engine, 'decideCampaign', (result) => {
    metrics.decisions.inc();
    if (result) metrics.campaignsMatched.inc();
  });
}

/**
 * Counts the activations recorded through `/v2/activate` (decisions count theirs in
 * {@link instrumentEngine}'s decisions).
 *
 * @example
 * ```ts
 * instrumentExperiments(experiments, metrics);
 * ```
 */
export function instrumentExperiments(experiments: ExperimentService, metrics: ServerMetrics): void {
  around(experiments, 'activate', (_result, [input]) => metrics.activations.inc(Array.isArray(input) ? input.length : 1));
}

/**
 * The search hook (`onSearch` of the search handler) that counts searches and autocompletes that
 * found nothing, by route pattern.
 *
 * @example
 * ```ts
 * createHandler({ search: { registry, onSearch: countZeroResults(metrics) } });
 * ```
 */
export function countZeroResults(metrics: ServerMetrics): (event: SearchEvent) => void {
  return (event) => {
    if (event.totalHits === 0) metrics.zeroResultSearches.inc({ route: event.route });
  };
}

/**
 * Counts token checks (`GET /token` and remote-control authorizations) by result.
 *
 * @example
 * ```ts
 * instrumentTokens(tokens, metrics);
 * ```
 */
export function instrumentTokens(tokens: TokenService, metrics: ServerMetrics): void {
  around(tokens, 'introspect', (result) => metrics.tokenChecks.inc({ result: result.active ? 'active' : 'inactive' }));
  around(
    tokens,
    'authorize',
    () => metrics.tokenChecks.inc({ result: 'authorized' }),
    () => metrics.tokenChecks.inc({ result: 'refused' }),
  );
}

/**
 * Counts catalog writes and synchronizations of every catalog the registry hands out.
 *
 * @example
 * ```ts
 * instrumentCatalogs(registry, metrics);
 * ```
 */
export function instrumentCatalogs(registry: CatalogRegistry, metrics: ServerMetrics): void {
  const seen = new WeakSet<Catalog>();
  const instrument = (catalog: Catalog) => {
    if (seen.has(catalog)) return;
    seen.add(catalog);
    around(catalog, 'put', () => metrics.catalogOperations.inc({ operation: 'put' }));
    around(catalog, 'delete', () => metrics.catalogOperations.inc({ operation: 'delete' }));
    around(catalog, 'deleteAll', () => metrics.catalogOperations.inc({ operation: 'delete_all' }));
    around(catalog, 'deleteSchemaField', () => metrics.catalogOperations.inc({ operation: 'delete_field' }));
    around(catalog, 'batch', (_result, [operations]) =>
      metrics.catalogOperations.inc({ operation: 'batch' }, Array.isArray(operations) ? operations.length : 1),
    );
    around(
      catalog,
      'sync',
      () => metrics.syncs.inc({ result: 'ok' }),
      () => metrics.syncs.inc({ result: 'error' }),
    );
  };
  around(registry, 'get', (catalog) => instrument(catalog));
  around(registry, 'ensure', (result) => instrument(result.catalog));
}
