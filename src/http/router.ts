/**
 * Route tables and their dispatch: every route is declared once as (method, pattern, name) with
 * `:named` parameters; 404, 405 with `Allow`, HEAD and OPTIONS are derived from the tables.
 * Matching is Hono's trie router.
 *
 * @module
 */
import { TrieRouter } from 'hono/router/trie-router';
import { AbkitError, StorageUnavailableError } from '../errors';
import { bodyReader, type BodyReader } from '../body';
import { PATH_AND_QUERY } from './lazy';
import { json } from './respond';

/**
 * A Web-standard request handler.
 *
 * @example
 * ```ts
 * import { serve } from '@hono/node-server';
 * const handler: Handler = createHandler({ decision: engine });
 * serve({ fetch: handler, port: 3000 });
 * ```
 */
export type Handler = (request: Request) => Promise<Response>;

/** The methods a route table declares; HEAD and OPTIONS are derived. */
export type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';

/**
 * One line of a route table: the method, the path pattern (`:name` for a parameter, one whole
 * segment) and the name of the operation that serves it.
 *
 * @example
 * ```ts
 * const route: RouteSpec = { method: 'POST', path: '/v2/:envId/campaigns', name: 'campaigns' };
 * ```
 */
export interface RouteSpec {
  /** The method served. */
  readonly method: Method;
  /** The path pattern under the table's prefix, with `:name` parameters. */
  readonly path: string;
  /** The operation serving it, a key of the table's handlers. */
  readonly name: string;
  /** Largest body this route reads, when not the table's limit. */
  readonly maxBodyBytes?: number;
}

/**
 * What a route's handler receives.
 *
 * @example
 * ```ts
 * const item: RouteHandler = async ({ params, body }) => json(await catalog.put((await body.json()) as CatalogItem));
 * ```
 */
export interface RouteContext {
  /** The request. */
  readonly request: Request;
  /** Its parsed URL (parsed on first read). */
  readonly url: URL;
  /**
   * The parameters of its query string, the same as `url.searchParams` but read without parsing
   * the whole URL (parsed on first read).
   */
  readonly query: URLSearchParams;
  /** The path parameters, percent-decoded. */
  readonly params: Readonly<Record<string, string>>;
  /** The body, read within the route's limit. */
  readonly body: BodyReader;
}

/** Serves one route. */
export type RouteHandler = (context: RouteContext) => Promise<Response>;

/**
 * What every module needs to report an unexpected error.
 *
 * @example
 * ```ts
 * const reporting: ErrorReporting = { onError: (error) => logger.error('abkit', error) };
 * const handler = createSearchHandler({ registry, ...reporting });
 * ```
 */
export interface ErrorReporting {
  /** Called with every unexpected error (the client sees a bare 500). @defaultValue `console.error` */
  onError?: (error: unknown) => void;
}

/** The default error reporter. */
export const reportToConsole = (error: unknown): void => console.error(error);

/**
 * The routes of one interface, mounted under a prefix, with the interface's error format.
 * Build one with an interface's `…Routes(options)`; combine several with {@link handlerOf}.
 *
 * @example
 * ```ts
 * const routes: Routes[] = [decisionRoutes({ engine }), searchRoutes({ registry })];
 * const handler = handlerOf(routes);
 * ```
 */
export interface Routes {
  /** The mount prefix: `''` or `/a/b`. */
  readonly prefix: string;
  /** The table. @internal */
  readonly routes: readonly BoundRoute[];
  /** Renders an error of one of these routes in the interface's format. @internal */
  render(error: AbkitError, route: RouteSpec): Response;
  /** Reports unexpected errors. */
  readonly onError: (error: unknown) => void;
}

/** A table line with its handler and body limit. */
export interface BoundRoute {
  /** The declaration. */
  readonly spec: RouteSpec;
  /** Its handler. */
  readonly handle: RouteHandler;
  /** Largest body it reads, in bytes. */
  readonly maxBodyBytes: number;
}

/** A method the path does not serve (HTTP 405); the dispatcher adds `Allow`. */
export class MethodNotAllowedError extends AbkitError {
  /** The methods the path serves. */
  readonly allow: readonly string[];

  /** Creates the error for `method` on `path`. */
  constructor(method: string, path: string, allow: readonly string[]) {
    super(`${method} is not allowed on ${path}; use ${allow.join(', ')}`, 'method_not_allowed', 405);
    this.allow = allow;
  }
}

/** What the client sees of an unexpected error: nothing of it. */
export class InternalError extends AbkitError {
  /** Creates the error; it never carries the cause's message. */
  constructor() {
    super('internal error', 'server_error', 500);
  }
}

/**
 * Binds a table's declarations to their handlers (every name needs one), under a prefix, with
 * the interface's error format.
 *
 * @example
 * ```ts
 * const PING = [{ method: 'GET', path: '/ping', name: 'ping' }] as const;
 * const routes = routeTable(PING, { ping: async () => json({ pong: true }) }, { render: (e) => json({ message: e.message }, e.status), maxBodyBytes: 1024 });
 * ```
 */
export function routeTable<S extends RouteSpec>(
  specs: readonly S[],
  handlers: { readonly [N in S['name']]: RouteHandler },
  format: { prefix?: string; maxBodyBytes: number; render: (error: AbkitError, route: S) => Response; onError?: (error: unknown) => void },
): Routes {
  const routes = specs.map((spec) => ({
    spec,
    handle: handlers[spec.name as S['name']],
    maxBodyBytes: spec.maxBodyBytes ?? format.maxBodyBytes,
  }));
  return {
    prefix: normalizePrefix(format.prefix),
    routes,
    render: (error, route) => format.render(error, route as S),
    onError: format.onError ?? reportToConsole,
  };
}

interface Entry {
  readonly route: BoundRoute;
  readonly table: Routes;
  /** The full pattern (prefix and path), built once: logs and metrics key on it. */
  readonly pattern: string;
  /** The answer to an error of this route (see {@link failed}), one closure per route. */
  readonly fail: (error: unknown) => Response;
}

/**
 * One handler over several route tables. A request is served by the first route (in table
 * order) whose pattern and method match; HEAD runs the GET route without sending its body;
 * OPTIONS answers 204 with `Allow`; a path some route matches with another method is a 405 with
 * `Allow` in that route's error format; any other path is a 404 `{ message }`.
 *
 * @example
 * ```ts
 * const handler = handlerOf([decisionRoutes({ engine }), catalogRoutes({ registry })]);
 * const res = await handler(new Request('http://localhost/nowhere')); // 404 { message: 'no route for GET /nowhere' }
 * ```
 */
export function handlerOf(tables: readonly Routes[]): Handler {
  const router = new TrieRouter<Entry>();
  for (const table of tables) {
    for (const route of table.routes) {
      const pattern = `${table.prefix}${route.spec.path}`;
      router.add('ALL', pattern, { route, table, pattern, fail: (error) => failed(table, route.spec, error) });
    }
  }

  // Route matches by path, for the paths requests keep asking for, with their parameters decoded
  // (frozen: every request for the path shares them; undefined when they do not decode); cleared
  // when full, so a client sending endless new paths costs the same as without it and memory
  // stays bounded.
  const matchesByPath = new Map<string, [Entry, Readonly<Record<string, string>> | undefined][]>();
  const match = (path: string) => {
    let matches = matchesByPath.get(path);
    if (!matches) {
      const found = router.match('ALL', path)[0] as unknown as [Entry, Record<string, string>][];
      matches = found.map(([entry, raw]) => [entry, decodeParams(raw)]);
      if (matchesByPath.size >= MATCH_CACHE_SIZE) matchesByPath.clear();
      matchesByPath.set(path, matches);
    }
    return matches;
  };

  const dispatch = (request: Request): Response | Promise<Response> => {
    const target = targetOf(request);
    if (!target) return json({ message: 'invalid request URL' }, 400);
    const { path } = target;
    if (target.dotSegment) return notFound(request, path);
    const matches = match(path);
    const method = request.method === 'HEAD' ? 'GET' : request.method;
    let found: [Entry, Readonly<Record<string, string>> | undefined] | undefined;
    for (const m of matches) {
      if (m[0].route.spec.method === method) {
        found = m;
        break;
      }
    }
    if (found) {
      const params = found[1];
      if (!params) return notFound(request, path);
      const response = run(found[0], request, target, params);
      return request.method === 'HEAD' ? response.then(withoutBody) : response;
    }
    if (matches.length === 0 || !matches[0]![1]) return notFound(request, path);
    const allow = allowed(matches.map((m) => m[0].route.spec.method));
    if (request.method === 'OPTIONS') return new Response(null, { status: 204, headers: { allow: [...allow, 'OPTIONS'].join(', ') } });
    const { table, route } = matches[0]![0];
    const response = render(table, route.spec, new MethodNotAllowedError(request.method, path, allow));
    response.headers.set('allow', allow.join(', '));
    return response;
  };
  // Not an async function: a routed request settles with its route's own promise, one link
  // fewer per request; anything thrown on the way still becomes a rejection.
  return (request) => {
    try {
      const response = dispatch(request);
      return response instanceof Promise ? response : Promise.resolve(response);
    } catch (error) {
      return Promise.reject(error);
    }
  };
}

async function withoutBody(response: Response): Promise<Response> {
  await response.body?.cancel();
  return new Response(null, { status: response.status, statusText: response.statusText, headers: response.headers });
}

const MATCH_CACHE_SIZE = 512;

// A query of visible ASCII characters only is read without the URL parser; any other (which the
// URL parser strips, trims or percent-encodes, and node's URLSearchParams decodes differently next
// to escapes) sends it through the URL parser.
const NOT_VISIBLE_ASCII = /[^\x21-\x7e]/;

// A path of these characters, without dot segments, is its own URL pathname: the common case
// is served without parsing the URL (which costs more than routing).
const PLAIN_PATH = /^\/[A-Za-z0-9\-_~./]*$/;

const NO_QUERY_TEXT = -1;

// A `.` or `..` segment, percent-encoded or not, as the URL parser reads one in an http(s) path:
// `\` separates segments too, and tabs and line breaks are dropped first.
const DOT_SEGMENT = /(?:^|[/\\])(?:\.|%2e){1,2}(?:[/\\]|$)/i;
const TAB_OR_NEWLINE = /[\t\n\r]/g;

/** The path of a request URL, and its URL object and query, parsed only when something asks for them. */
class Target {
  readonly path: string;
  readonly #href: string;
  // The query text is source.slice(#queryStart, #queryEnd) (from its '?'), or there is none
  // (NO_QUERY_TEXT); unused once #url is set.
  readonly #source: string;
  readonly #queryStart: number;
  readonly #queryEnd: number;
  #url: URL | undefined;
  #query: URLSearchParams | undefined;

  /** Whether the path, as received, has a dot segment (then no route serves it). */
  readonly dotSegment: boolean;

  constructor(href: string, path: string, source: string, queryStart: number, queryEnd: number, url?: URL, dotSegment = false) {
    this.dotSegment = dotSegment;
    this.#href = href;
    this.path = path;
    this.#source = source;
    this.#queryStart = queryStart;
    this.#queryEnd = queryEnd;
    this.#url = url;
  }

  get url(): URL {
    return (this.#url ??= new URL(this.#href));
  }

  get query(): URLSearchParams {
    return (this.#query ??= this.#read());
  }

  /** Whether the URL has a query string (`?`, even empty). */
  get hasQuery(): boolean {
    return this.#url ? this.#href.includes('?') : this.#queryStart !== NO_QUERY_TEXT;
  }

  // A query of visible ASCII is left as it is by the URL parser (but for characters it
  // percent-encodes, which the form decoding reads back the same): read alone, it gives the
  // same entries (a property test compares them).
  #read(): URLSearchParams {
    if (this.#url) return this.#url.searchParams;
    if (this.#queryStart === NO_QUERY_TEXT) return new URLSearchParams();
    // From the '?' on: URLSearchParams drops one leading '?', as the URL parser does.
    const text = this.#source.slice(this.#queryStart, this.#queryEnd);
    return NOT_VISIBLE_ASCII.test(text) ? this.url.searchParams : new URLSearchParams(text);
  }
}

// The last path found plain: a server is asked for the same path again and again. That string
// stands for the request's own copy, so the lookups keyed by the path (route matches, the
// server's own routes) find its hash already computed.
let lastPlainPath = '';

/** `path` when it is plain (else undefined), as the string last found plain when they are equal. */
function plainPath(path: string): string | undefined {
  if (path === lastPlainPath) return lastPlainPath;
  if (!PLAIN_PATH.test(path) || path.includes('/.')) return undefined;
  lastPlainPath = path;
  return path;
}

/**
 * The target of `href`; `pathAndQuery` is its part from the path on when the caller knows it
 * (a node request's own target), which spares scanning the origin.
 */
function requestTarget(href: string, pathAndQuery?: string): Target | undefined {
  // A node request's own target starts with its path; a URL's path starts after its origin.
  // biome-ignore lint/complexity/useOptionalChain: this form narrows pathAndQuery to a string where `known` is tested
  const known = pathAndQuery !== undefined && pathAndQuery.startsWith('/');
  const source = known ? pathAndQuery : href;
  const start = known ? 0 : href.startsWith('http://') ? href.indexOf('/', 7) : href.startsWith('https://') ? href.indexOf('/', 8) : -1;
  if (start >= 0) {
    let end = source.indexOf('?', start);
    const hash = source.indexOf('#', start);
    if (end < 0 || (hash >= 0 && hash < end)) end = hash < 0 ? source.length : hash;
    const raw = source.slice(start, end);
    const path = plainPath(raw);
    if (path !== undefined) {
      return source.charCodeAt(end) === 0x3f
        ? new Target(href, path, source, end, hash < 0 ? source.length : hash)
        : new Target(href, path, source, NO_QUERY_TEXT, NO_QUERY_TEXT);
    }
    // A node request's target is as the client sent it (a Request's URL has none left), where the
    // URL parser would resolve a dot segment into another route (`/v2/../metrics` is `/metrics`,
    // past a proxy rule that allows by path prefix): such a path is kept as it came, and no
    // route serves it.
    if (DOT_SEGMENT.test(raw.replace(TAB_OR_NEWLINE, '')))
      return new Target(href, raw, source, NO_QUERY_TEXT, NO_QUERY_TEXT, undefined, true);
  }
  let url: URL;
  try {
    url = new URL(href);
  } catch {
    return undefined;
  }
  return new Target(href, url.pathname, href, NO_QUERY_TEXT, NO_QUERY_TEXT, url);
}

const TARGET = Symbol.for('abkit.request.target');

// Worked out once per request: a server's edge (logs, CORS) and the router both need the path.
function targetOf(request: Request): Target | undefined {
  const holder = request as { [TARGET]?: Target | null };
  const known = holder[TARGET];
  if (known !== undefined) return known ?? undefined;
  const target = requestTarget(request.url, (request as { [PATH_AND_QUERY]?: string })[PATH_AND_QUERY]);
  holder[TARGET] = target ?? null;
  return target;
}

/**
 * Whether a request's URL has a query string, known without parsing it.
 * @internal
 */
export function requestHasQuery(request: Request): boolean {
  return targetOf(request)?.hasQuery ?? false;
}

/**
 * The path of a request's URL as routing reads it (its percent-encoded pathname), worked out once
 * per request; `undefined` for a URL that does not parse.
 *
 * @example
 * ```ts
 * requestPath(new Request('http://localhost/v2/campaigns?mode=simple')); // '/v2/campaigns'
 * ```
 */
export function requestPath(request: Request): string | undefined {
  return targetOf(request)?.path;
}

function notFound(request: Request, path: string): Response {
  return json({ message: `no route for ${request.method} ${path}` }, 404);
}

// HEAD follows GET, as the dispatcher serves it.
function allowed(methods: readonly Method[]): string[] {
  const out: string[] = [];
  for (const m of methods) {
    if (!out.includes(m)) out.push(m);
    if (m === 'GET' && !out.includes('HEAD')) out.push('HEAD');
  }
  return out;
}

const NO_PARAMS: Readonly<Record<string, string>> = Object.freeze({});

function decodeParams(raw: Record<string, string>): Readonly<Record<string, string>> | undefined {
  const names = Object.keys(raw);
  if (names.length === 0) return NO_PARAMS;
  const out: Record<string, string> = {};
  try {
    for (const name of names) out[name] = decodeURIComponent(raw[name]!);
  } catch {
    return undefined;
  }
  return Object.freeze(out);
}

const MATCHED_ROUTE = Symbol.for('abkit.request.route');

/**
 * The pattern of the route that served `request` (`/v2/:envId/campaigns`), for logs and metrics;
 * `undefined` when none did (404, 405, OPTIONS).
 *
 * @example
 * ```ts
 * await handler(request);
 * matchedRoute(request); // '/v2/campaigns'
 * ```
 */
export function matchedRoute(request: Request): string | undefined {
  return (request as { [MATCHED_ROUTE]?: string })[MATCHED_ROUTE];
}

/** A route's context; the URL is parsed on first read (most routes never read it). */
class Context implements RouteContext {
  readonly request: Request;
  readonly params: Readonly<Record<string, string>>;
  readonly body: BodyReader;
  readonly #target: Target;

  constructor(request: Request, target: Target, params: Readonly<Record<string, string>>, limit: number) {
    this.request = request;
    this.params = params;
    this.body = bodyReader(request, limit);
    this.#target = target;
  }

  get url(): URL {
    return this.#target.url;
  }

  get query(): URLSearchParams {
    return this.#target.query;
  }
}

function run(entry: Entry, request: Request, target: Target, params: Readonly<Record<string, string>>): Promise<Response> {
  const { route } = entry;
  (request as { [MATCHED_ROUTE]?: string })[MATCHED_ROUTE] = entry.pattern;
  let response: Promise<Response>;
  try {
    response = route.handle(new Context(request, target, params, route.maxBodyBytes));
  } catch (error) {
    return Promise.resolve(entry.fail(error));
  }
  return response.then(undefined, entry.fail);
}

/** The answer to a route's error: its interface's format; 500 or 503 for the unexpected. */
function failed(table: Routes, spec: RouteSpec, error: unknown): Response {
  if (error instanceof AbkitError && error.status < 500) return render(table, spec, error);
  table.onError(error);
  // A storage outage is the interface's 503 with Retry-After (reported too: operators want to
  // know); anything else is the one 500, which says nothing of its cause.
  if (!(error instanceof StorageUnavailableError)) return render(table, spec, new InternalError());
  const response = render(table, spec, error);
  if (response.status === 503) response.headers.set('retry-after', String(error.retryAfterSeconds));
  return response;
}

// The one error hook: a renderer that throws is reported, and the client gets the bare 500.
function render(table: Routes, spec: RouteSpec, error: AbkitError): Response {
  try {
    return table.render(error, spec);
  } catch (renderError) {
    table.onError(renderError);
    return json({ message: 'internal error' }, 500);
  }
}

const PREFIX_SEGMENT = /^[A-Za-z0-9\-._~!$&'()+,;=@%]+$/;

/**
 * Normalises a mount prefix: `''`, or `/x/y` without a trailing slash; a segment that the route
 * patterns would read as a parameter or wildcard (`:`, `*`, braces) is refused.
 */
export function normalizePrefix(prefix: string | undefined): string {
  if (prefix === undefined || prefix === '' || prefix === '/') return '';
  if (typeof prefix !== 'string') throw new TypeError(`prefix must be a string, got ${typeof prefix}`);
  const parts = prefix.split('/').filter((p) => p !== '');
  for (const part of parts) {
    if (!PREFIX_SEGMENT.test(part)) throw new TypeError(`prefix must be a path of plain segments, got ${JSON.stringify(prefix)}`);
  }
  return parts.length === 0 ? '' : `/${parts.join('/')}`;
}
