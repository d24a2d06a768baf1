/**
 * One Web-standard handler for every interface of SPEC 4.
 *
 * @module
 */
import type { TokenService } from '../access/token-service';
import { RemoteControl } from '../access/remote-control';
import type { CatalogRegistry } from '../catalog/registry';
import type { DecisionEngine } from '../decision/engine';
import type { SearchServiceOptions } from '../search/service';
import { catalogRoutes } from './catalog';
import { decisionRoutes } from './decision';
import { openApiDocument } from './openapi';
import { remoteControlRoutes } from './remote';
import { json, normalizePrefix } from './respond';
import { handlerOf, reportToConsole, type ErrorReporting, type Handler, type Routes } from './router';
import { searchRoutes } from './search';
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
  /** Serves token issue and check; with `decision`, also the remote control API. */
  access?: TokenService;
  /** Serves the catalog interface (`/indexes/catalog/…`). */
  catalog?: CatalogRegistry;
  /** Serves search and autocomplete over these catalogs. */
  search?: CatalogRegistry | { registry: CatalogRegistry; options?: Omit<SearchServiceOptions, 'catalog'>; requireSearchKey?: boolean | readonly string[] };
  /** Path prefix for every route. @defaultValue `''` */
  prefix?: string;
  /**
   * Largest request body, in bytes, for every route but the catalog batch (which keeps the SPEC
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
}

const REQUEST_ID = /^[\x21-\x7e]{1,128}$/;

/**
 * Creates one handler serving every configured interface with its own error format
 * (SPEC 7 for decisions, RFC 6749 for tokens, `{ error, message }` elsewhere), plus:
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
  const { decision, access, catalog, prefix, maxBodyBytes = 1_048_576, requestIdHeader = 'x-request-id', serviceRoutes = true, onError = reportToConsole } = options;
  if (!Number.isInteger(maxBodyBytes) || maxBodyBytes < 1) throw new TypeError(`abkit: createHandler: maxBodyBytes must be a positive integer, got ${maxBodyBytes}`);
  if (requestIdHeader !== false && !/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(requestIdHeader)) {
    throw new TypeError(`abkit: createHandler: requestIdHeader must be a header name or false, got ${JSON.stringify(requestIdHeader)}`);
  }
  const base = normalizePrefix(prefix);
  const routes: Routes[] = [];
  if (decision) routes.push(decisionRoutes({ engine: decision, prefix, maxBodyBytes, onError }));
  if (access) routes.push(tokenRoutes({ tokens: access, prefix, maxBodyBytes, onError }));
  if (access && decision) routes.push(remoteControlRoutes({ remote: new RemoteControl({ engine: decision }), tokens: access, prefix, maxBodyBytes, onError }));
  if (catalog) routes.push(catalogRoutes({ registry: catalog, prefix, maxItemBytes: maxBodyBytes, onError }));
  if (options.search) {
    const s = 'registry' in options.search ? options.search : { registry: options.search };
    routes.push(searchRoutes({ registry: s.registry, search: 'options' in s ? s.options : undefined, requireSearchKey: 'requireSearchKey' in s ? s.requireSearchKey : undefined, prefix, onError }));
  }
  let document: unknown;
  const interfaces = { decision: !!decision, access: !!access, remote: !!(access && decision), catalog: !!catalog, search: !!options.search };
  if (serviceRoutes) {
    routes.push((request, url) => {
      const path = url.pathname.slice(base.length);
      if (path !== '/health' && path !== '/openapi.json') return undefined;
      if (request.method !== 'GET' && request.method !== 'HEAD') {
        return Promise.resolve(json({ message: `${request.method} is not allowed on ${url.pathname}; use GET` }, 405, { allow: 'GET, HEAD' }));
      }
      if (path === '/health') return Promise.resolve(json({ status: 'ok', interfaces }));
      document ??= openApiDocument({ ...interfaces, prefix: base });
      return Promise.resolve(json(document));
    });
  }

  const route = handlerOf(routes);

  return async (request) => {
    let response: Response;
    if (request.method === 'OPTIONS') {
      // Ask the routes with a method no route accepts: their 405 names what the path allows.
      const probe = await route(new Request(request.url, { method: 'PATCH', headers: request.headers }));
      const allow = probe.status === 405 ? probe.headers.get('allow') : probe.status === 404 || probe.status === 400 ? null : 'PATCH';
      response = allow === null ? probe : new Response(null, { status: 204, headers: { allow: `${allow}, OPTIONS` } });
    } else if (request.method === 'HEAD') {
      const get = await route(new Request(request.url, { method: 'GET', headers: request.headers }));
      response = new Response(null, { status: get.status, headers: get.headers });
    } else {
      response = await route(request);
    }
    if (requestIdHeader) {
      const incoming = request.headers.get(requestIdHeader);
      const id = incoming && REQUEST_ID.test(incoming) ? incoming : globalThis.crypto.randomUUID();
      response = withHeader(response, requestIdHeader, id);
    }
    return response;
  };
}

function withHeader(response: Response, name: string, value: string): Response {
  try {
    response.headers.set(name, value);
    return response;
  } catch {
    // Immutable headers (a fetched response): copy.
    const headers = new Headers(response.headers);
    headers.set(name, value);
    return new Response(response.body, { status: response.status, statusText: response.statusText, headers });
  }
}
