/**
 * One Web-standard handler for every interface of docs/interfaces.md.
 *
 * @module
 */
import type { TokenService } from '../access/token-service';
import { RemoteControl } from '../access/remote-control';
import type { CatalogRegistry } from '../catalog/registry';
import type { DecisionEngine } from '../decision/engine';
import { ExperimentService } from '../results/experiments';
import type { BehaviourSource } from '../search/behaviour';
import type { SearchServiceOptions } from '../search/service';
import { consoleRoutes, type ConsoleOptions } from '../console/routes';
import { adminRoutes, type AdminHandlerOptions } from './admin';
import { catalogRoutes } from './catalog';
import { decisionRoutes } from './decision';
import { openApiDocument } from './openapi';
import { remoteControlRoutes } from './remote';
import { DEFAULT_MAX_BODY_BYTES, maxBodyBytesOption } from '../body';
import { handlerOf, normalizePrefix, reportToConsole, type ErrorReporting, type Handler, type Routes } from './router';
import { serviceRoutes } from './service';
import { withHeader } from './respond';
import { searchRoutes, type SearchHandlerOptions } from './search';
import { SearchExperiments } from '../search-experiments/search-experiments';
import { tokenRoutes } from './token';

/**
 * Options of {@link createHandler}; every interface is optional.
 *
 * @example
 * ```ts
 * const options: HandlerOptions = { decision: engine, access: tokens, catalog: registry, search: { registry, requireSearchKey: ['acme'] }, prefix: '/api' };
 * const handler = createHandler(options);
 * ```
 */
export interface HandlerOptions extends ErrorReporting {
  /** Serves the decision interface (`/v2/…`). */
  decision?: DecisionEngine;
  /** Records activations and events and reads results, with `decision`. @defaultValue an `ExperimentService` over `decision` */
  experiments?: ExperimentService;
  /** Serves token issue and check; with `decision`, also the remote control API. */
  access?: TokenService;
  /** Serves the catalog interface (`/indexes/catalog/…`). */
  catalog?: CatalogRegistry;
  /** Serves search and autocomplete over these catalogs. */
  search?:
    | CatalogRegistry
    | {
        registry: CatalogRegistry;
        /** Search options of every catalog, or per catalog identifier (e.g. from the bootstrap file's `catalogs[].search`). */
        options?: Omit<SearchServiceOptions, 'catalog'> | ((identifier: string) => Omit<SearchServiceOptions, 'catalog'>);
        requireSearchKey?: boolean | readonly string[];
        /** Hears every answered search and autocomplete (see {@link SearchHandlerOptions.onSearch}). */
        onSearch?: SearchHandlerOptions['onSearch'];
        /** Records searches and serves `POST /search/events` (see {@link SearchHandlerOptions.analytics}). */
        analytics?: SearchHandlerOptions['analytics'];
        /** Hears recorded search events (see {@link SearchHandlerOptions.onSearchEvents}). */
        onSearchEvents?: SearchHandlerOptions['onSearchEvents'];
        /**
         * Experiments on search (see {@link SearchHandlerOptions.experiments}), or `false` for none.
         * @defaultValue with `decision`, a `SearchExperiments` over it and `experiments`, in the engine's default environment
         */
        experiments?: SearchExperiments | false;
      };
  /** Path prefix for every route. @defaultValue `''` */
  prefix?: string;
  /**
   * Largest request body, in bytes, for every route but the catalog batch (which keeps its
   * limit of 50 MB). @defaultValue `1048576` (1 MiB)
   */
  maxBodyBytes?: number;
  /**
   * Response header carrying the request id: the incoming value of that header when it is a
   * short visible token, else a new UUID. `false` turns it off. @defaultValue `'x-request-id'`
   */
  requestIdHeader?: string | false;
  /** Serves `GET /health` and `GET /openapi.json`. @defaultValue `true` */
  serviceRoutes?: boolean;
  /**
   * Serves the admin API (`/admin/v1/…`) with its service and who may use it; listed in
   * `/openapi.json` when given. @defaultValue none: no admin routes (404)
   */
  admin?: Omit<AdminHandlerOptions, 'prefix' | 'maxBodyBytes' | 'onError'> & {
    /**
     * The console (`/console`), served with the admin API when it has `keys` (one signs in with
     * an admin key): its session and login-limit options, or `false` to leave it out.
     * @defaultValue `{}` (on, with the defaults of each option)
     */
    console?: ConsoleMountOptions | false;
  };
}

/**
 * The console's own options, as {@link HandlerOptions.admin} takes them (the services are the handler's).
 *
 * @example
 * ```ts
 * const console: ConsoleMountOptions = { sessionLifetimeMs: 3_600_000, clientAddress: (request) => request.headers.get('x-real-ip') ?? undefined };
 * const handler = createHandler({ decision: engine, admin: { abkit, keys: [{ name: 'ops', key: process.env.ABKIT_ADMIN_KEY! }], console } });
 * ```
 */
export type ConsoleMountOptions = Omit<
  ConsoleOptions,
  'admin' | 'keys' | 'engine' | 'experiments' | 'catalogs' | 'search' | 'searchAnalytics' | 'prefix' | 'onError'
>;

/**
 * Options of {@link abkit!Abkit.handler}: those of `createHandler` but the services, which are the
 * instance's own.
 *
 * @example
 * ```ts
 * const options: AbkitHandlerOptions = { prefix: '/api', search: { requireSearchKey: ['acme'] } };
 * const handler = abkit.handler(options);
 * ```
 */
export interface AbkitHandlerOptions extends Omit<HandlerOptions, 'decision' | 'experiments' | 'access' | 'catalog' | 'search'> {
  /**
   * Search options, which catalogs require their search key, whether searches are recorded in
   * `abkit.searchAnalytics` (`analytics`, default `true`), who hears recorded search events, and
   * where behaviour ranking reads signals and click feedback for the catalogs whose stored settings
   * turn it on (`behaviour`, default `abkit.searchAnalytics.behaviour` when `analytics` is on).
   */
  search?: {
    options?: Omit<SearchServiceOptions, 'catalog'>;
    requireSearchKey?: boolean | readonly string[];
    /** Whether searches are recorded in `abkit.searchAnalytics` (and `POST /search/events` served). @defaultValue `true` */
    analytics?: boolean;
    /** Hears recorded search events (see {@link SearchHandlerOptions.onSearchEvents}). */
    onSearchEvents?: SearchHandlerOptions['onSearchEvents'];
    behaviour?: BehaviourSource;
  };
}

const REQUEST_ID = /^[\x21-\x7e]{1,128}$/;

/**
 * The id of a request: the value of its `header` when that is a short visible token (a proxy's
 * id, kept for correlation), else a new one from `newId` (a random UUID).
 *
 * @example
 * ```ts
 * requestIdOf(new Request('http://x/', { headers: { 'x-request-id': 'r-1' } }), 'x-request-id'); // 'r-1'
 * ```
 */
export function requestIdOf(request: Request, header: string, newId: () => string = () => globalThis.crypto.randomUUID()): string {
  const incoming = request.headers.get(header);
  return incoming && REQUEST_ID.test(incoming) ? incoming : newId();
}

/**
 * Creates one handler serving every configured interface with its own error format
 * (`{ message }` for decisions, RFC 6749 for tokens, `{ error, message }` elsewhere), plus:
 * `HEAD` wherever `GET` is served, `OPTIONS` answering 204 with `Allow`, 405 with `Allow` for a
 * wrong method, 404 `{ message }` for unknown paths, a request-id header on every response, a
 * body size limit, `GET /health` and `GET /openapi.json`.
 *
 * @example
 * ```ts
 * const handler = createHandler({ decision: engine, access: tokens, catalog: catalogs, search: catalogs });
 * const response = await handler(new Request('http://localhost/health'));
 * ```
 */
export function createHandler(options: HandlerOptions): Handler {
  const { decision, access, catalog, prefix, requestIdHeader = 'x-request-id', onError = reportToConsole } = options;
  const maxBodyBytes = maxBodyBytesOption(options.maxBodyBytes, DEFAULT_MAX_BODY_BYTES, 'createHandler');
  if (requestIdHeader !== false && !/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(requestIdHeader)) {
    throw new TypeError(`createHandler: requestIdHeader must be a header name or false, got ${JSON.stringify(requestIdHeader)}`);
  }
  const tables: Routes[] = [];
  const experiments = decision && (options.experiments ?? new ExperimentService({ engine: decision }));
  if (decision) tables.push(decisionRoutes({ engine: decision, experiments, prefix, maxBodyBytes, onError }));
  if (access) tables.push(tokenRoutes({ tokens: access, prefix, maxBodyBytes, onError }));
  if (access && decision)
    tables.push(
      remoteControlRoutes({ remote: new RemoteControl({ engine: decision, experiments }), tokens: access, prefix, maxBodyBytes, onError }),
    );
  if (catalog) tables.push(catalogRoutes({ registry: catalog, prefix, maxBodyBytes, onError }));
  const searchExperimentsOf = (given: SearchExperiments | false | undefined) =>
    given === false ? undefined : (given ?? (decision && experiments && new SearchExperiments({ engine: decision, experiments })));
  if (options.search) {
    const s = 'registry' in options.search ? options.search : { registry: options.search };
    tables.push(
      searchRoutes({
        registry: s.registry,
        search: 'options' in s ? s.options : undefined,
        requireSearchKey: 'requireSearchKey' in s ? s.requireSearchKey : undefined,
        onSearch: 'onSearch' in s ? s.onSearch : undefined,
        analytics: 'analytics' in s ? s.analytics : undefined,
        onSearchEvents: 'onSearchEvents' in s ? s.onSearchEvents : undefined,
        experiments: searchExperimentsOf('experiments' in s ? s.experiments : undefined),
        prefix,
        onError,
      }),
    );
  }
  if (options.admin) {
    const { console: consoleOptions = {}, ...admin } = options.admin;
    tables.push(adminRoutes({ ...admin, prefix, maxBodyBytes, onError }));
    // The console signs in with an admin key: a host with only its own `authorize` has none to offer.
    if (consoleOptions !== false && admin.keys !== undefined) {
      const s = options.search && ('registry' in options.search ? options.search : { registry: options.search });
      tables.push(
        consoleRoutes({
          ...consoleOptions,
          admin: admin.abkit.admin,
          keys: admin.keys,
          engine: decision,
          experiments,
          catalogs: catalog ?? s?.registry,
          search: s && 'options' in s ? s.options : undefined,
          searchAnalytics: admin.abkit.searchAnalytics,
          prefix,
          onError,
        }),
      );
    }
  }
  if (options.serviceRoutes ?? true) {
    const interfaces = {
      decision: !!decision,
      access: !!access,
      remote: !!(access && decision),
      catalog: !!catalog,
      search: !!options.search,
      admin: !!options.admin,
    };
    tables.push(
      serviceRoutes({
        health: () => ({ status: 'ok', interfaces }),
        document: () => openApiDocument({ ...interfaces, prefix: normalizePrefix(prefix) }),
        prefix,
        onError,
      }),
    );
  }

  const route = handlerOf(tables);
  if (!requestIdHeader) return route;
  return async (request) => {
    const response = await route(request);
    return withHeader(response, requestIdHeader, requestIdOf(request, requestIdHeader));
  };
}
