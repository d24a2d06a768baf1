/**
 * The admin API (interfaces.md, Admin API) under `/admin/v1`: accounts, environments and their
 * keys, remote-control accesses, catalogs, the audit log; authorized by an admin credential.
 *
 * @module
 */
import { AdminKeys, type AdminKey } from '../access/admin-keys';
import type { AdminService } from '../admin/service';
import type { SearchAnalytics } from '../analytics/service';
import { DEFAULT_MAX_BODY_BYTES, maxBodyBytesOption } from '../body';
import { type AbkitError, AuthenticationError, formatPath, NotFoundError, PermissionError, ValidationError } from '../errors';
import { challengeHeaders, optionalBearerToken } from './bearer';
import { json } from './respond';
import { handlerOf, routeTable, type ErrorReporting, type Handler, type RouteContext, type Routes, type RouteSpec } from './router';

/**
 * Decides who makes an admin request: the actor's name (written to the audit log), or undefined
 * to refuse (401 when the request carries no `Authorization` header, 403 otherwise). It may
 * also throw an `AuthenticationError` or `PermissionError` of its own.
 *
 * @example
 * ```ts
 * const authorize: AdminAuthorizer = async (request) => (request.headers.get('x-user') === 'alice' ? 'alice' : undefined);
 * ```
 */
export type AdminAuthorizer = (request: Request) => string | undefined | Promise<string | undefined>;

/**
 * Options of {@link createAdminHandler}.
 *
 * @example
 * ```ts
 * const options: AdminHandlerOptions = { abkit, keys: [{ name: 'ops', key: process.env.ABKIT_ADMIN_KEY! }] };
 * const handler = createAdminHandler(options);
 * ```
 */
export interface AdminHandlerOptions extends ErrorReporting {
  /**
   * The instance whose `admin` service the routes call (`createAbkit()`'s, or any object holding
   * one), and its `searchAnalytics` for the analytics route (without it, that route is a 404).
   */
  abkit: { readonly admin: AdminService; readonly searchAnalytics?: SearchAnalytics };
  /**
   * Who makes a request: the host's own login (a session, SSO) naming the actor. Without it,
   * `keys` authorize: `Authorization: Bearer <key>`, the key's name being the actor.
   */
  authorize?: AdminAuthorizer;
  /** The admin keys the default `authorize` accepts, as `{ name, key }` (or an `AdminKeys` shared with a `TokenService`). */
  keys?: readonly AdminKey[] | AdminKeys;
  /** Path prefix the routes are mounted under. @defaultValue `''` (routes start at `/admin/v1`) */
  prefix?: string;
  /** Largest request body, in bytes (search settings are up to 64 KiB of JSON). @defaultValue `1048576` (1 MiB) */
  maxBodyBytes?: number;
}

const ACCOUNT = '/admin/v1/accounts/:account';
const CATALOG = '/admin/v1/catalogs/:identifier';

/**
 * The admin API's route table (paths under `/admin/v1`).
 *
 * @example
 * ```ts
 * for (const route of ADMIN_ROUTES) console.log(route.method, route.path); // GET /admin/v1/accounts, …
 * ```
 */
export const ADMIN_ROUTES = [
  { method: 'GET', path: '/admin/v1/accounts', name: 'listAccounts' },
  { method: 'POST', path: '/admin/v1/accounts', name: 'createAccount' },
  { method: 'POST', path: `${ACCOUNT}/environments`, name: 'createEnvironment' },
  { method: 'PUT', path: `${ACCOUNT}/environments/:env`, name: 'updateEnvironment' },
  { method: 'GET', path: `${ACCOUNT}/accesses`, name: 'listAccesses' },
  { method: 'POST', path: `${ACCOUNT}/accesses`, name: 'createAccess' },
  { method: 'DELETE', path: `${ACCOUNT}/accesses/:id`, name: 'revokeAccess' },
  { method: 'POST', path: `${ACCOUNT}/accesses/:id/rotate`, name: 'rotateAccess' },
  { method: 'GET', path: '/admin/v1/catalogs', name: 'listCatalogs' },
  { method: 'POST', path: '/admin/v1/catalogs', name: 'createCatalog' },
  { method: 'GET', path: `${CATALOG}/settings`, name: 'getCatalogSettings' },
  { method: 'PUT', path: `${CATALOG}/settings`, name: 'updateCatalogSettings' },
  { method: 'POST', path: `${CATALOG}/keys`, name: 'rotateCatalogKeys' },
  { method: 'POST', path: `${CATALOG}/sync`, name: 'syncCatalog' },
  { method: 'GET', path: `${CATALOG}/analytics`, name: 'catalogAnalytics' },
  { method: 'GET', path: '/admin/v1/audit', name: 'audit' },
] as const satisfies readonly RouteSpec[];

type AdminRoute = (typeof ADMIN_ROUTES)[number];

function render(error: AbkitError): Response {
  const details =
    error.details.length > 0 ? { details: error.details.map((d) => ({ field: formatPath(d.path, '(body)'), reason: d.message })) } : {};
  return json({ error: error.code, message: error.message, ...details }, error.status, challengeHeaders(error));
}

/** The default authorizer: a Bearer admin key, the key's name being the actor. */
function keyAuthorizer(keys: AdminKeys): AdminAuthorizer {
  return async (request) => {
    const key = optionalBearerToken(request);
    return key === undefined ? undefined : keys.actorOf(key);
  };
}

/** `?name=` as a positive integer, or undefined; anything else is a 400 naming it. */
function integerQuery(query: URLSearchParams, name: string): number | undefined {
  const raw = query.get(name);
  if (raw === null) return undefined;
  if (!/^\d{1,15}$/.test(raw))
    throw new ValidationError(`${name} must be a positive integer`, [{ path: [name], message: 'not a positive integer' }]);
  return Number(raw);
}

/**
 * The admin routes, for composition with others (see {@link createAdminHandler}).
 *
 * @example
 * ```ts
 * const handler = handlerOf([adminRoutes({ abkit, keys: [{ name: 'ops', key: key }] })]);
 * ```
 */
export function adminRoutes(options: AdminHandlerOptions): Routes {
  const { abkit, onError } = options ?? ({} as AdminHandlerOptions);
  const admin = abkit?.admin;
  if (typeof admin?.createAccess !== 'function')
    throw new TypeError('createAdminHandler: abkit must hold an AdminService as `admin` (createAbkit())');
  if (options.authorize !== undefined && typeof options.authorize !== 'function')
    throw new TypeError('createAdminHandler: authorize must be a function (request) => actor name | undefined');
  if (options.authorize === undefined && options.keys === undefined)
    throw new TypeError('createAdminHandler: give authorize (your own login) or keys (admin keys as { name, key })');
  const authorize =
    options.authorize ??
    keyAuthorizer(options.keys instanceof AdminKeys ? options.keys : new AdminKeys(options.keys as readonly AdminKey[]));
  const maxBodyBytes = maxBodyBytesOption(options.maxBodyBytes, DEFAULT_MAX_BODY_BYTES, 'createAdminHandler');

  async function actorOf(request: Request): Promise<string> {
    const actor = await authorize(request);
    if (actor !== undefined) return actor;
    if (request.headers.get('authorization') === null)
      throw new AuthenticationError('an Authorization: Bearer <ABKIT_ADMIN_KEY> header is required', 'missing_token');
    throw new PermissionError('this credential may not use the admin API');
  }

  /** The body (an empty one is `{}`); the service checks it is an object, so that a wrong one is audited too. */
  async function bodyOf(c: RouteContext): Promise<Record<string, unknown>> {
    return ((await c.body.json()) ?? {}) as Record<string, unknown>;
  }

  type Run = (c: RouteContext, actor: string) => Promise<Response>;
  const runs: { [N in AdminRoute['name']]: Run } = {
    listAccounts: async () => json(await admin.listAccounts()),
    createAccount: async (c, actor) => json(await admin.createAccount(actor, (await bodyOf(c)) as { id: string }), 201),
    createEnvironment: async (c, actor) => json(await admin.createEnvironment(actor, c.params.account!, (await bodyOf(c)) as never), 201),
    updateEnvironment: async (c, actor) =>
      json(await admin.updateEnvironment(actor, c.params.account!, c.params.env!, (await bodyOf(c)) as never)),
    listAccesses: async (c) => json(await admin.listAccesses(c.params.account!)),
    createAccess: async (c, actor) => json(await admin.createAccess(actor, c.params.account!, (await bodyOf(c)) as never), 201),
    revokeAccess: async (c, actor) => json(await admin.revokeAccess(actor, c.params.account!, c.params.id!)),
    rotateAccess: async (c, actor) => json(await admin.rotateAccess(actor, c.params.account!, c.params.id!)),
    listCatalogs: async () => json(await admin.listCatalogs()),
    createCatalog: async (c, actor) => json(await admin.createCatalog(actor, (await bodyOf(c)) as never), 201),
    getCatalogSettings: async (c) => json(await admin.catalogSettings(c.params.identifier!)),
    updateCatalogSettings: async (c, actor) =>
      json(await admin.updateCatalogSettings(actor, c.params.identifier!, (await bodyOf(c)) as never)),
    rotateCatalogKeys: async (c, actor) => json(await admin.rotateCatalogKeys(actor, c.params.identifier!, (await bodyOf(c)) as never)),
    syncCatalog: async (c, actor) => json(await admin.syncCatalog(actor, c.params.identifier!)),
    catalogAnalytics: async (c) => {
      if (!abkit.searchAnalytics) throw new NotFoundError('search analytics is not enabled on this server');
      await admin.catalogSettings(c.params.identifier!); // 404 for an unknown catalog
      const range = { since: c.query.get('since') ?? undefined, until: c.query.get('until') ?? undefined };
      return json(await abkit.searchAnalytics.analytics(c.params.identifier!, range));
    },
    audit: async (c) => json(await admin.audit({ limit: integerQuery(c.query, 'limit'), before: integerQuery(c.query, 'before') })),
  };

  // Every route first names its actor: nothing is read or changed for an unknown caller.
  const handlers = Object.fromEntries(
    ADMIN_ROUTES.map((route) => [route.name, async (c: RouteContext) => runs[route.name](c, await actorOf(c.request))]),
  ) as Record<AdminRoute['name'], (c: RouteContext) => Promise<Response>>;

  return routeTable(ADMIN_ROUTES, handlers, { prefix: options.prefix, maxBodyBytes, onError, render });
}

/**
 * Creates the handler of the admin API. Every route needs an admin credential (by default
 * `Authorization: Bearer <admin key>`); each change is written to the audit log with its actor.
 *
 * | Route (under `/admin/v1`) | Does |
 * |---|---|
 * | `GET`, `POST /accounts` `{ id }` | list, create an account |
 * | `POST /accounts/{account}/environments` `{ id, default?, apiKey? }` | create an environment (its key shown once) |
 * | `PUT /accounts/{account}/environments/{env}` `{ default?, apiKey?: "rotate" \| "remove" }` | set the default, rotate or remove the key |
 * | `GET`, `POST /accounts/{account}/accesses` `{ name, environments, actions }` | preview, create an access (its secret shown once) |
 * | `DELETE /accounts/{account}/accesses/{id}`, `POST …/{id}/rotate` | revoke, rotate the secret |
 * | `GET`, `POST /catalogs` `{ identifier, syncIntervalMs?, search? }` | list, create a catalog (its keys shown once) |
 * | `GET`, `PUT /catalogs/{identifier}/settings`; `POST …/keys` `{ search? }`; `POST …/sync` | settings, key rotation, sync now |
 * | `GET /catalogs/{identifier}/analytics?since&until` (UTC days, `YYYY-MM-DD`) | its search analytics |
 * | `GET /audit?limit&before` | the audit log, newest first: `{ entries, next }` |
 *
 * Errors are `{ error, message, details? }` (`details`: `{ field, reason }`): 401 without a
 * credential, 403 for one refused, 400 naming the field, 404, 409.
 *
 * @example
 * ```ts
 * const handler = createAdminHandler({ abkit, keys: [{ name: 'ops', key: process.env.ABKIT_ADMIN_KEY! }] });
 * const res = await handler(new Request('http://localhost/admin/v1/accounts', { headers: { authorization: `Bearer ${process.env.ABKIT_ADMIN_KEY}` } }));
 * ```
 */
export function createAdminHandler(options: AdminHandlerOptions): Handler {
  return handlerOf([adminRoutes(options)]);
}
