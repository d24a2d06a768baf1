/**
 * The console (interfaces.md, Console): server-rendered pages under `/console` for the account
 * holder, signed in with an admin key. One route table; every page but the login form and the
 * two static files needs a session, and every POST its session's CSRF token and, when the
 * browser sends one, a same-host `Origin`.
 *
 * @module
 */
import type { SearchAnalytics } from '../analytics/service';
import { analyticsPage } from './analytics';
import { AdminKeys, type AdminKey } from '../access/admin-keys';
import { RemoteControl } from '../access/remote-control';
import type { AdminService } from '../admin/service';
import { constantTimeEqual, secureRandom, type RandomSource } from '../crypto';
import type { CatalogRegistry } from '../catalog/registry';
import type { DecisionEngine } from '../decision/engine';
import { AbkitError, StorageUnavailableError } from '../errors';
import type { ExperimentService } from '../results/experiments';
import type { SearchServiceOptions } from '../search/service';
import { searchServices } from '../http/search';
import { normalizePrefix, routeTable, type ErrorReporting, type RouteContext, type Routes, type RouteSpec } from '../http/router';
import {
  accessesPage,
  accountPage,
  accountsPage,
  confirmAccessPage,
  createAccess,
  createAccount,
  createEnvironment,
  oncePage,
  revokeAccess,
  rotateAccess,
} from './accounts';
import { CONSOLE_CSS, CONSOLE_JS } from './assets';
import { auditPage } from './audit';
import { campaignPage, createCampaign, environmentPage, previewPage, saveAllocations, setPanic } from './campaigns';
import {
  ADD_ITEMS_LIMITS,
  addItems,
  catalogPage,
  catalogsPage,
  confirmDeleteField,
  confirmRotateKeys,
  createCatalog,
  deleteField,
  merchandisingAgain,
  playgroundPage,
  rotateKeys,
  syncCatalog,
} from './catalogs';
import { html } from './html';
import { removeMerchandising, saveBehaviour, saveMerchandising } from './merchandising';
import { htmlResponse, layout, redirect, SECURITY_HEADERS, type ConsoleServices, type PageContext } from './page';
import { resultsPage } from './results';
import { SessionStore } from './session';
import { AttemptLimiter } from './rate-limit';

/**
 * Options of the console. `createHandler` fills the services and the keys from its own options;
 * `HandlerOptions.admin.console` takes the rest.
 *
 * @example
 * ```ts
 * const options: ConsoleOptions = { admin: abkit.admin, keys: [{ name: 'ops', key: process.env.ABKIT_ADMIN_KEY! }], engine: abkit.engine };
 * ```
 */
export interface ConsoleOptions extends ErrorReporting {
  /** The account holder's operations; every change is audited with the signed-in key's name. */
  admin: AdminService;
  /** The admin keys one signs in with (the key's name is the actor). */
  keys: readonly AdminKey[] | AdminKeys;
  /** Turns on the environment, campaign, preview and results pages. */
  engine?: DecisionEngine;
  /** Where results are read. @defaultValue an `ExperimentService` over `engine` */
  experiments?: ExperimentService;
  /** Turns on the catalog pages and the search playground. */
  catalogs?: CatalogRegistry;
  /** Turns on each catalog's search analytics page (`abkit.searchAnalytics`). @defaultValue none */
  searchAnalytics?: SearchAnalytics;
  /** Search options of the playground, for every catalog or per catalog (those of the search handler). @defaultValue none */
  search?: Omit<SearchServiceOptions, 'catalog'> | ((identifier: string) => Omit<SearchServiceOptions, 'catalog'>);
  /** Path prefix; the console is at `{prefix}/console`. @defaultValue `''` */
  prefix?: string;
  /** How long a session lasts, in milliseconds: 1 minute to 7 days. @defaultValue `28800000` (8 hours) */
  sessionLifetimeMs?: number;
  /** Most sessions kept at once (the oldest is signed out first). @defaultValue `1000` */
  maxSessions?: number;
  /**
   * Login attempts allowed per window, per client address and in all; client addresses
   * remembered at most. @defaultValue `{ perAddress: 10, global: 100, windowMs: 60000, maxAddresses: 10000 }`
   */
  loginAttempts?: { perAddress?: number; global?: number; windowMs?: number; maxAddresses?: number };
  /**
   * The client address of a request, for the per-address login limit (a Web request carries
   * none: a host behind a proxy it trusts reads `X-Forwarded-For`). Undefined: only the global
   * limit applies. @defaultValue `() => undefined`
   */
  clientAddress?: (request: Request) => string | undefined;
  /** Current time in epoch milliseconds. @defaultValue `Date.now` */
  clock?: () => number;
  /** Random bytes for session ids and CSRF tokens. @defaultValue Web Crypto */
  random?: RandomSource;
}

/** Ceilings and defaults of the console. */
export const CONSOLE_LIMITS = Object.freeze({
  /** Largest form body, in bytes. */
  formBytes: 65_536,
  /** Shortest and longest session lifetime, in milliseconds. */
  minSessionMs: 60_000,
  maxSessionMs: 7 * 86_400_000,
  /** Longest admin key accepted in the login form. */
  keyLength: 1024,
});

const C = '/console';
const ACCOUNT = `${C}/accounts/:account`;
const ENV = `${ACCOUNT}/environments/:env`;
const CATALOG = `${C}/catalogs/:identifier`;

/**
 * The console's route table (paths under the prefix).
 *
 * @example
 * ```ts
 * for (const route of CONSOLE_ROUTES) console.log(route.method, route.path); // GET /console, …
 * ```
 */
export const CONSOLE_ROUTES = [
  { method: 'GET', path: C, name: 'home' },
  { method: 'GET', path: `${C}/login`, name: 'loginForm' },
  { method: 'POST', path: `${C}/login`, name: 'login' },
  { method: 'POST', path: `${C}/logout`, name: 'logout' },
  { method: 'GET', path: `${C}/assets/console.css`, name: 'css' },
  { method: 'GET', path: `${C}/assets/console.js`, name: 'js' },
  { method: 'GET', path: `${C}/once`, name: 'once' },
  { method: 'GET', path: `${C}/accounts`, name: 'accounts' },
  { method: 'POST', path: `${C}/accounts`, name: 'createAccount' },
  { method: 'GET', path: ACCOUNT, name: 'account' },
  { method: 'POST', path: `${ACCOUNT}/environments`, name: 'createEnvironment' },
  { method: 'GET', path: `${ACCOUNT}/accesses`, name: 'accesses' },
  { method: 'POST', path: `${ACCOUNT}/accesses`, name: 'createAccess' },
  { method: 'GET', path: `${ACCOUNT}/accesses/:id/revoke`, name: 'confirmRevoke' },
  { method: 'POST', path: `${ACCOUNT}/accesses/:id/revoke`, name: 'revoke' },
  { method: 'GET', path: `${ACCOUNT}/accesses/:id/rotate`, name: 'confirmRotate' },
  { method: 'POST', path: `${ACCOUNT}/accesses/:id/rotate`, name: 'rotate' },
  { method: 'GET', path: ENV, name: 'environment' },
  { method: 'POST', path: `${ENV}/panic`, name: 'panic' },
  { method: 'GET', path: `${ENV}/preview`, name: 'preview' },
  { method: 'POST', path: `${ENV}/campaigns`, name: 'createCampaign' },
  { method: 'GET', path: `${ENV}/campaigns/:id`, name: 'campaign' },
  { method: 'POST', path: `${ENV}/campaigns/:id/allocations`, name: 'allocations' },
  { method: 'GET', path: `${ENV}/campaigns/:id/results`, name: 'results' },
  { method: 'GET', path: `${C}/catalogs`, name: 'catalogs' },
  { method: 'POST', path: `${C}/catalogs`, name: 'createCatalog' },
  { method: 'GET', path: CATALOG, name: 'catalog' },
  { method: 'POST', path: `${CATALOG}/items`, name: 'addItems', maxBodyBytes: ADD_ITEMS_LIMITS.formBytes },
  { method: 'POST', path: `${CATALOG}/sync`, name: 'sync' },
  { method: 'GET', path: `${CATALOG}/keys`, name: 'confirmKeys' },
  { method: 'POST', path: `${CATALOG}/keys`, name: 'rotateKeys' },
  { method: 'GET', path: `${CATALOG}/fields/:field/delete`, name: 'confirmDeleteField' },
  { method: 'POST', path: `${CATALOG}/fields/:field/delete`, name: 'deleteField' },
  { method: 'GET', path: `${CATALOG}/search`, name: 'playground' },
  { method: 'POST', path: `${CATALOG}/merchandising`, name: 'saveMerchandising' },
  { method: 'POST', path: `${CATALOG}/merchandising/remove`, name: 'removeMerchandising' },
  { method: 'POST', path: `${CATALOG}/behaviour`, name: 'saveBehaviour' },
  { method: 'GET', path: `${CATALOG}/analytics`, name: 'analytics' },
  { method: 'GET', path: `${C}/audit`, name: 'audit' },
] as const satisfies readonly RouteSpec[];

type ConsoleRoute = (typeof CONSOLE_ROUTES)[number];
type Page = (ctx: PageContext) => Promise<Response>;

const COOKIE = 'abkit_console';

function positive(value: number, name: string, min = 1, max = Number.MAX_SAFE_INTEGER): number {
  if (!Number.isInteger(value) || value < min || value > max)
    throw new TypeError(`consoleRoutes: ${name} must be an integer from ${min} to ${max}, got ${value}`);
  return value;
}

function cookieOf(request: Request): string | undefined {
  const header = request.headers.get('cookie');
  if (!header) return undefined;
  for (const part of header.split(';')) {
    const [name, ...value] = part.trim().split('=');
    if (name === COOKIE) return value.join('=');
  }
  return undefined;
}

/** A browser's `Origin`, when sent, names this host: a form posted from another site is refused. */
function sameOrigin(request: Request): boolean {
  const origin = request.headers.get('origin');
  if (origin === null) return true;
  try {
    return new URL(origin).host === new URL(request.url).host;
  } catch {
    return false;
  }
}

/**
 * The console's routes, for composition with the others (`createHandler` mounts them with the
 * admin API when it is given admin keys).
 *
 * @example
 * ```ts
 * const handler = handlerOf([consoleRoutes({ admin: abkit.admin, keys: [{ name: 'ops', key: adminKey }], engine: abkit.engine })]);
 * const res = await handler(new Request('http://localhost/console')); // 303 to /console/login
 * ```
 */
export function consoleRoutes(options: ConsoleOptions): Routes {
  const {
    admin,
    engine,
    catalogs,
    onError,
    clock = Date.now,
    random = secureRandom,
    clientAddress = () => undefined,
  } = options ?? ({} as ConsoleOptions);
  if (typeof admin?.createAccess !== 'function') throw new TypeError('consoleRoutes: admin must be an AdminService (abkit.admin)');
  if (options.keys === undefined) throw new TypeError('consoleRoutes: keys must be the admin keys one signs in with, as { name, key }');
  const keys = options.keys instanceof AdminKeys ? options.keys : new AdminKeys(options.keys);
  if (typeof clock !== 'function') throw new TypeError('consoleRoutes: clock must be a function returning epoch milliseconds');
  if (typeof random !== 'function') throw new TypeError('consoleRoutes: random must be a function returning random bytes');
  if (typeof clientAddress !== 'function')
    throw new TypeError('consoleRoutes: clientAddress must be a function (request) => string | undefined');
  const lifetimeMs = positive(
    options.sessionLifetimeMs ?? 8 * 3_600_000,
    'sessionLifetimeMs',
    CONSOLE_LIMITS.minSessionMs,
    CONSOLE_LIMITS.maxSessionMs,
  );
  const sessions = new SessionStore({ maxSessions: positive(options.maxSessions ?? 1000, 'maxSessions'), lifetimeMs, clock, random });
  const attempts = options.loginAttempts ?? {};
  const limiter = new AttemptLimiter({
    perAddress: positive(attempts.perAddress ?? 10, 'loginAttempts.perAddress'),
    global: positive(attempts.global ?? 100, 'loginAttempts.global'),
    windowMs: positive(attempts.windowMs ?? 60_000, 'loginAttempts.windowMs', 1000),
    maxAddresses: positive(attempts.maxAddresses ?? 10_000, 'loginAttempts.maxAddresses'),
    clock,
  });
  const experiments = options.experiments;
  const remote = engine ? new RemoteControl({ engine, ...(experiments ? { experiments } : {}) }) : undefined;
  // One search service per catalog, as the search handler keeps (bounded by the catalogs), built
  // anew when the catalog's settings change: a pin saved on the catalog page shows at once.
  const search = catalogs ? searchServices(catalogs, options.search) : undefined;
  const { searchAnalytics } = options;
  const services: ConsoleServices = { admin, engine, experiments, remote, catalogs, search, searchAnalytics, sessions, clock };
  const prefix = normalizePrefix(options.prefix);
  const base = `${prefix}${C}`;

  const cookie = (request: Request, value: string, maxAgeSeconds: number) =>
    `${COOKIE}=${value}; Path=${base}; HttpOnly; SameSite=Strict; Max-Age=${maxAgeSeconds}${request.url.startsWith('https:') ? '; Secure' : ''}`;

  const problemPage = (ctx: { base: string }, status: number, title: string, message: string, headers: Record<string, string> = {}) =>
    htmlResponse(
      layout(ctx, title, html`<p class="error" role="alert">${message}</p><p><a href="${base}">Back to the console</a></p>`),
      status,
      headers,
    );

  function loginPage(status: number, message?: string, headers: Record<string, string> = {}): Response {
    return htmlResponse(
      layout(
        { base },
        'Sign in',
        html`<form method="post" action="${base}/login" class="card">${message && html`<p class="error" role="alert" id="login-error">${message}</p>`}
<label class="block" for="admin-key">Admin key</label><input type="password" id="admin-key" name="key" required autocomplete="current-password" maxlength="${CONSOLE_LIMITS.keyLength}"${message ? html` aria-describedby="login-error"` : ''}>
<p class="muted">One of the keys given in <code>ABKIT_ADMIN_KEY</code> (<code>abkit admin-key</code> makes one).</p><button type="submit">Sign in</button></form>`,
      ),
      status,
      headers,
    );
  }

  /** A page that needs a session; a POST also its CSRF token and a same-host Origin. */
  const signedIn =
    (page: Page) =>
    async (c: RouteContext): Promise<Response> => {
      const session = sessions.get(cookieOf(c.request));
      if (!session) return redirect(`${base}/login`);
      let form = new URLSearchParams();
      if (c.request.method === 'POST') {
        if (!sameOrigin(c.request)) return problemPage({ base }, 403, 'Refused', 'This form was sent from another site.');
        form = new URLSearchParams(await c.body.text());
        if (!constantTimeEqual(form.get('_csrf') ?? '', session.csrf))
          return problemPage(
            { base },
            403,
            'Refused',
            'The form is out of date or was not sent by this console: reload the page and try again.',
          );
      }
      const ctx: PageContext = { c, session, base, services, form };
      try {
        return await page(ctx);
      } catch (error) {
        if (!(error instanceof AbkitError)) throw error;
        const headers: Record<string, string> = error instanceof StorageUnavailableError ? { 'retry-after': '1' } : {};
        return problemPage(ctx, error.status, error.status === 404 ? 'Not found' : 'Refused', error.message, headers);
      }
    };

  const asset = (body: string, type: string) => async () =>
    new Response(body, { headers: { 'content-type': type, 'cache-control': 'public, max-age=300', ...SECURITY_HEADERS } });

  const handlers: Record<ConsoleRoute['name'], (c: RouteContext) => Promise<Response>> = {
    home: async (c) => redirect(sessions.get(cookieOf(c.request)) ? `${base}/accounts` : `${base}/login`),
    loginForm: async (c) => (sessions.get(cookieOf(c.request)) ? redirect(`${base}/accounts`) : loginPage(200)),
    login: async (c) => {
      if (!sameOrigin(c.request)) return problemPage({ base }, 403, 'Refused', 'This form was sent from another site.');
      const wait = limiter.attempt(clientAddress(c.request));
      if (wait > 0) return loginPage(429, `Too many sign-in attempts: try again in ${wait} s.`, { 'retry-after': String(wait) });
      const key = new URLSearchParams(await c.body.text()).get('key') ?? '';
      const actor = key.length <= CONSOLE_LIMITS.keyLength ? await keys.actorOf(key) : undefined;
      if (actor === undefined) return loginPage(401, 'This is not an admin key of this server.');
      const session = sessions.create(actor);
      return redirect(`${base}/accounts`, { 'set-cookie': cookie(c.request, session.id, Math.floor(lifetimeMs / 1000)) });
    },
    logout: signedIn(async (ctx) => {
      sessions.delete(ctx.session.id);
      return redirect(`${base}/login`, { 'set-cookie': cookie(ctx.c.request, '', 0) });
    }),
    css: asset(CONSOLE_CSS, 'text/css; charset=utf-8'),
    js: asset(CONSOLE_JS, 'text/javascript; charset=utf-8'),
    once: signedIn(oncePage),
    accounts: signedIn((ctx) => accountsPage(ctx)),
    createAccount: signedIn(createAccount),
    account: signedIn((ctx) => accountPage(ctx)),
    createEnvironment: signedIn(createEnvironment),
    accesses: signedIn((ctx) => accessesPage(ctx)),
    createAccess: signedIn(createAccess),
    confirmRevoke: signedIn((ctx) => confirmAccessPage(ctx, 'revoke')),
    revoke: signedIn(revokeAccess),
    confirmRotate: signedIn((ctx) => confirmAccessPage(ctx, 'rotate')),
    rotate: signedIn(rotateAccess),
    environment: signedIn((ctx) => environmentPage(ctx)),
    createCampaign: signedIn(createCampaign),
    panic: signedIn(setPanic),
    preview: signedIn(previewPage),
    campaign: signedIn((ctx) => campaignPage(ctx)),
    allocations: signedIn(saveAllocations),
    results: signedIn(resultsPage),
    catalogs: signedIn((ctx) => catalogsPage(ctx)),
    createCatalog: signedIn(createCatalog),
    catalog: signedIn((ctx) => catalogPage(ctx)),
    addItems: signedIn(addItems),
    sync: signedIn(syncCatalog),
    confirmKeys: signedIn(confirmRotateKeys),
    rotateKeys: signedIn(rotateKeys),
    confirmDeleteField: signedIn(confirmDeleteField),
    deleteField: signedIn(deleteField),
    playground: signedIn(playgroundPage),
    saveMerchandising: signedIn((ctx) => saveMerchandising(ctx, merchandisingAgain(ctx))),
    removeMerchandising: signedIn((ctx) => removeMerchandising(ctx, merchandisingAgain(ctx))),
    saveBehaviour: signedIn((ctx) => saveBehaviour(ctx, merchandisingAgain(ctx))),
    analytics: signedIn(analyticsPage),
    audit: signedIn(auditPage),
  };

  return routeTable(CONSOLE_ROUTES, handlers, {
    prefix,
    maxBodyBytes: CONSOLE_LIMITS.formBytes,
    onError,
    render: (error) =>
      problemPage(
        { base },
        error.status,
        error.status >= 500 ? 'Something went wrong' : 'Refused',
        error.message,
        error instanceof StorageUnavailableError ? { 'retry-after': '1' } : {},
      ),
  });
}
