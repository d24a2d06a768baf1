/**
 * Search (v0.4, v0.3) and autocomplete (v0.2) over HTTP (docs/interfaces.md, Search and autocomplete).
 *
 * @module
 */
import { checkLinked, type RecordedInteraction, type SearchInteraction } from '../analytics/events';
import type { SearchAnalytics } from '../analytics/service';
import type { CatalogRegistry } from '../catalog/registry';
import {
  type AbkitError,
  AuthenticationError,
  formatPath,
  NotFoundError,
  PermissionError,
  ValidationError,
  type ErrorPath,
} from '../errors';
import { parseQueryString, type AutocompleteQueryInput, type SearchQueryInput } from '../search/query';
import { SearchService, type SearchServiceOptions } from '../search/service';
import type { SearchExperiments } from '../search-experiments/search-experiments';
import { searchVisitorOf } from '../search-experiments/visitor';
import { challengeHeaders, optionalBearerToken } from './bearer';
import { DEFAULT_MAX_BODY_BYTES } from '../body';
import { json, jsonText } from './respond';
import { elapsedMs, eventsOf, filterNames, requireAnalytics, trackingOf, withQueryId } from './search-tracking';
import {
  handlerOf,
  matchedRoute,
  reportToConsole,
  routeTable,
  type ErrorReporting,
  type Handler,
  type RouteContext,
  type Routes,
  type RouteSpec,
} from './router';

/**
 * Options of {@link createSearchHandler}.
 *
 * @example
 * ```ts
 * const options: SearchHandlerOptions = { registry, requireSearchKey: true, search: { boosts: { name: 3, brand: 1 }, refreshIntervalMs: 1000 } };
 * const handler = createSearchHandler(options);
 * ```
 */
export interface SearchHandlerOptions extends ErrorReporting {
  /** The catalogs searched. */
  registry: CatalogRegistry;
  /** Path prefix. @defaultValue `''` */
  prefix?: string;
  /** Serve this catalog only, whatever the request names. @defaultValue none */
  catalog?: string;
  /**
   * Options of every catalog's {@link SearchService}, or a function giving them per identifier,
   * asked at every request: when what it gives changes, that catalog's service is built anew.
   */
  search?: Omit<SearchServiceOptions, 'catalog'> | ((identifier: string) => Omit<SearchServiceOptions, 'catalog'>);
  /**
   * Require the catalog's search key (or catalog key) in `Authorization: Bearer` or `x-api-key`:
   * `true` for every catalog, or a list of identifiers. @defaultValue `false` (public, as browsers call it)
   */
  requireSearchKey?: boolean | readonly string[];
  /**
   * Called after every answered search and autocomplete, e.g. to count searches that found
   * nothing; an error it throws goes to `onError` and the client still gets its answer.
   */
  onSearch?: (event: SearchEvent) => void;
  /**
   * Where searches are recorded (every answered search, and autocomplete asked with
   * `clickAnalytics=true`); with it, an answer asked with `clickAnalytics=true` carries a
   * `queryID`, and `POST /search/events` takes the events that follow. `createAbkit`'s handler
   * gives `abkit.searchAnalytics`. @defaultValue none: nothing is recorded, no `queryID`, and
   * `POST /search/events` answers 404
   */
  analytics?: SearchAnalytics;
  /**
   * Called with the events of each `POST /search/events` once recorded (each with its search's
   * normalized query and visitor), e.g. to count them for experiments on search. Awaited; an
   * error it throws goes to `onError` and the client still gets its 204.
   */
  onSearchEvents?: (catalog: string, events: readonly RecordedInteraction[]) => void | Promise<void>;
  /**
   * Experiments on search: a request with a `visitorId` (and `context[key]=value`) searches
   * with the search settings its campaigns give the visitor, and records the exposure. Without
   * it, `visitorId` and `context` are ignored. @defaultValue none
   */
  experiments?: SearchExperiments;
}

/**
 * What {@link SearchHandlerOptions.onSearch} hears of an answered query.
 *
 * @example
 * ```ts
 * const zeroResults = new Map<string, number>();
 * const onSearch = (event: SearchEvent) => { if (event.totalHits === 0) zeroResults.set(event.route, (zeroResults.get(event.route) ?? 0) + 1); };
 * const handler = createSearchHandler({ registry, onSearch });
 * ```
 */
export interface SearchEvent {
  /** `search` (any version) or `autocomplete`. */
  readonly kind: 'search' | 'autocomplete';
  /** The route pattern that served it, with its prefix (`/search`, `/v0.3/search`, `/autocomplete`…). */
  readonly route: string;
  /** The catalog searched. */
  readonly catalog: string;
  /** Items found (for autocomplete, suggestions returned). */
  readonly totalHits: number;
}

const SUFFIX = '_Catalog';

// A path in the query string's own notation: ['filters', 'price', 0, 'operator'] is
// `filters[price][0][operator]`.
function queryParameter([name, ...rest]: ErrorPath): string {
  return name === undefined ? '(query)' : `${name}${rest.map((p) => `[${p}]`).join('')}`;
}

/**
 * Each catalog's {@link SearchService}, built on first use with the settings `search` gives it
 * (the console's playground and the search routes share this). A function of settings is asked
 * at every call, and settings that changed (through the admin API, say) build the catalog's
 * service anew, whose index is built at its first search. The same object is taken as unchanged
 * at once; another one is compared by its JSON, so a function making a fresh object per call
 * costs a stringify, not a rebuild.
 *
 * @example
 * ```ts
 * const serviceOf = searchServices(registry, (identifier) => abkit.admin.searchSettings(identifier) ?? {});
 * const { hits } = await (await serviceOf('acme')).search({ text: 'galaxy' });
 * ```
 */
export function searchServices(
  registry: CatalogRegistry,
  search: SearchHandlerOptions['search'],
): (identifier: string) => Promise<SearchService> {
  const services = new Map<string, { service: SearchService; settings: unknown; json: string }>();
  return async (identifier) => {
    const extra = typeof search === 'function' ? search(identifier) : search;
    const cached = services.get(identifier);
    if (cached && cached.settings === extra) return cached.service;
    const json = JSON.stringify(extra ?? null);
    if (cached && cached.json === json) {
      cached.settings = extra;
      return cached.service;
    }
    const catalog = await registry.get(identifier);
    const s = new SearchService({ ...extra, catalog });
    services.set(identifier, { service: s, settings: extra, json });
    return s;
  };
}

/** The route table of search (v0.4, v0.3) and autocomplete (v0.2). */
export const SEARCH_ROUTES = [
  { method: 'GET', path: '/search', name: 'search' },
  { method: 'GET', path: '/v0.4/search', name: 'search' },
  { method: 'GET', path: '/v0.3/search', name: 'searchV03' },
  { method: 'GET', path: '/autocomplete', name: 'autocomplete' },
  { method: 'GET', path: '/v0.2/autocomplete', name: 'autocomplete' },
  { method: 'POST', path: '/search/events', name: 'searchEvents' },
] as const satisfies readonly RouteSpec[];

/**
 * The search and autocomplete routes, for composition with others (see {@link createSearchHandler}).
 *
 * @example
 * ```ts
 * const routes = searchRoutes({ registry, catalog: 'acme', search: { boosts: { name: 2 } } });
 * const handler = handlerOf([routes]); // GET /search?text=... always searches acme
 * ```
 */
export function searchRoutes(options: SearchHandlerOptions): Routes {
  const { registry, onError = reportToConsole, requireSearchKey = false, onSearch, analytics, onSearchEvents } = options;
  if (!registry || typeof registry.get !== 'function') throw new TypeError('createSearchHandler: registry must be a CatalogRegistry');
  const service = searchServices(registry, options.search);

  /**
   * The service a request searches with: with experiments and a visitor, a view with the
   * settings of the visitor's variations (the same index). A failed decision is reported and
   * the catalog's own settings answer: search stays up when the experiment store is not.
   */
  async function decided(identifier: string, params: Record<string, unknown>): Promise<{ service: SearchService; semanticRatio?: number }> {
    const base = await service(identifier);
    const visitor = options.experiments && searchVisitorOf(params);
    if (!visitor) return { service: base };
    const decision = await options.experiments!.decide(identifier, visitor.visitorId, visitor.context).catch((error: unknown) => {
      onError(error);
      return undefined;
    });
    if (!decision) return { service: base };
    const own = Object.keys(decision.settings).length > 0;
    return { service: own ? base.withSettings(decision.settings) : base, semanticRatio: decision.semanticRatio };
  }

  async function tenant(request: Request, params: Record<string, unknown>, autocomplete: boolean): Promise<string> {
    if (options.catalog !== undefined) return options.catalog;
    const named = (name: string, value: unknown) => {
      if (typeof value !== 'string' || value === '')
        throw new ValidationError(`${name} must be a non-empty string`, [{ path: [name], message: 'empty' }]);
      return value;
    };
    if (params.index !== undefined) {
      const index = named('index', params.index);
      if (!index.endsWith(SUFFIX) || index.length === SUFFIX.length) {
        throw new ValidationError(`index must have the form <identifier>${SUFFIX}, got ${JSON.stringify(index)}`, [
          { path: ['index'], message: 'bad form' },
        ]);
      }
      return index.slice(0, -SUFFIX.length);
    }
    if (autocomplete && params.client_id !== undefined) return named('client_id', params.client_id);
    const host = (request.headers.get('host') ?? new URL(request.url).host).toLowerCase();
    const label = host.split('.')[0]!.split(':')[0]!;
    if (host.includes('.') && (await registry.has(label))) return label;
    const all = await registry.identifiers();
    if (all.length === 1) return all[0]!;
    throw new NotFoundError('no catalog named by index, client_id or the host name');
  }

  async function authorize(request: Request, identifier: string): Promise<void> {
    const required = requireSearchKey === true || (Array.isArray(requireSearchKey) && requireSearchKey.includes(identifier));
    if (!required) return;
    const key = optionalBearerToken(request) ?? request.headers.get('x-api-key');
    if (!key) throw new AuthenticationError('this catalog requires its search key (Authorization: Bearer or x-api-key)', 'missing_token');
    const grant = await registry.authenticate(key);
    if (!grant) throw new AuthenticationError('unknown search key');
    if (grant.catalog.identifier !== identifier) throw new PermissionError('this key belongs to another catalog');
  }

  function tell(request: Request, kind: SearchEvent['kind'], catalog: string, totalHits: number): void {
    if (!onSearch) return;
    try {
      onSearch({ kind, route: matchedRoute(request) ?? '', catalog, totalHits });
    } catch (error) {
      onError(error);
    }
  }

  async function search({ request, url }: RouteContext, version: '0.3' | '0.4'): Promise<Response> {
    const params = parseQueryString(url.search);
    if (version === '0.3' && params.sort !== undefined) {
      throw new ValidationError('sort is not supported by search v0.3; use /search (v0.4)', [{ path: ['sort'], message: 'not in v0.3' }]);
    }
    const identifier = await tenant(request, params, false);
    await authorize(request, identifier);
    const { text, filters, page, hitsPerPage, sort, rankingScoreThreshold, semanticRatio, showRankingScoreDetails } = params;
    // Raw query values: the service validates them with searchQuerySchema, naming each parameter.
    const query = {
      text,
      filters,
      page,
      hitsPerPage,
      sort,
      rankingScoreThreshold,
      semanticRatio,
      showRankingScoreDetails,
    } as SearchQueryInput;
    const tracking = trackingOf(params);
    const start = performance.now();
    const chosen = await decided(identifier, params);
    if (chosen.semanticRatio !== undefined) query.semanticRatio = chosen.semanticRatio;
    const answer = await chosen.service.searchText(query);
    const queryId = analytics?.recordSearch({
      catalog: identifier,
      kind: 'search',
      text: typeof text === 'string' ? text : '',
      totalHits: answer.totalHits,
      filters: filterNames(filters),
      latencyMs: elapsedMs(start),
      hits: answer.ids,
      page: answer.page,
      hitsPerPage: answer.hitsPerPage,
      ...tracking,
    });
    tell(request, 'search', identifier, answer.totalHits);
    return jsonText(withQueryId(answer.text, queryId));
  }

  async function autocomplete({ request, url }: RouteContext): Promise<Response> {
    const params = parseQueryString(url.search);
    const identifier = await tenant(request, params, true);
    await authorize(request, identifier);
    const query = { query: params.query, hitsPerPage: params.hits_per_page } as AutocompleteQueryInput;
    const tracking = trackingOf(params);
    const start = performance.now();
    const result = await (await decided(identifier, params)).service.autocomplete(query);
    // Suggestions are names, not items: a tracked autocomplete registers no hits.
    const queryID = analytics?.recordSearch({
      catalog: identifier,
      kind: 'autocomplete',
      text: typeof params.query === 'string' ? params.query : '',
      totalHits: result.suggestions.length,
      filters: [],
      latencyMs: elapsedMs(start),
      hits: [],
      page: 0,
      hitsPerPage: result.suggestions.length,
      ...tracking,
    });
    tell(request, 'autocomplete', identifier, result.suggestions.length);
    return json(queryID === undefined ? result : { ...result, queryID });
  }

  async function searchEvents({ request, url, body }: RouteContext): Promise<Response> {
    const recorder = requireAnalytics(analytics);
    const identifier = await tenant(request, parseQueryString(url.search), false);
    await authorize(request, identifier);
    const { events, linked } = await eventsOf(body);
    // Both lists are checked before either is recorded: all or nothing.
    const purchases = linked === undefined ? undefined : checkLinked(linked, 'linked');
    const recorded = events === undefined ? [] : await recorder.recordEvents(identifier, events as SearchInteraction[]);
    if (purchases) await recorder.linkEvents(identifier, purchases);
    // Clicks and conversions of visitors in a search experiment count for its results; a failure
    // there is reported, and the events stay recorded.
    for (const hear of [
      options.experiments && ((c: string, e: readonly RecordedInteraction[]) => options.experiments!.track(c, e)),
      onSearchEvents,
    ]) {
      if (!hear) continue;
      try {
        await hear(identifier, recorded);
      } catch (error) {
        onError(error);
      }
    }
    return new Response(null, { status: 204 });
  }

  const render = (error: AbkitError, route: RouteSpec): Response => {
    // Events are a body: their problems name a field of it, not a query parameter.
    const details = error.details.map((d) =>
      route.name === 'searchEvents' && (d.path[0] === 'events' || d.path[0] === 'linked')
        ? { field: formatPath(d.path), message: d.message }
        : { parameter: queryParameter(d.path), message: d.message },
    );
    return json(
      { error: error.code, message: error.message, ...(details.length > 0 ? { details } : {}) },
      error.status,
      challengeHeaders(error),
    );
  };

  return routeTable(
    SEARCH_ROUTES,
    { search: (c) => search(c, '0.4'), searchV03: (c) => search(c, '0.3'), autocomplete, searchEvents },
    { prefix: options.prefix, maxBodyBytes: DEFAULT_MAX_BODY_BYTES, onError, render },
  );
}

/**
 * Creates the handler of search and autocomplete: `GET /search` and `/v0.4/search` (v0.4),
 * `GET /v0.3/search` (no `sort`), `GET /autocomplete` (v0.2). Parameters use bracket notation
 * (`filters[brand][]=Apple`, `filters[price][0][operator]=%3E%3D&filters[price][0][value]=100`).
 *
 * The catalog is named by `index=<identifier>_Catalog`, or for autocomplete `client_id`, or the
 * leading label of the Host header when it names a catalog, or is the only catalog; else 404.
 * Errors are `{ error, message }` naming the parameter: 400 for bad parameters, 401/403 when
 * a search key is required, 404 for an unknown catalog.
 *
 * @example
 * ```ts
 * const handler = createSearchHandler({ registry });
 * await handler(new Request('http://acme.search.example/search?text=galaxy&filters[brand][]=Samsung'));
 * ```
 */
export function createSearchHandler(options: SearchHandlerOptions): Handler {
  return handlerOf([searchRoutes(options)]);
}
