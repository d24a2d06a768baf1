/**
 * The remote control API: campaign administration under
 * `/v1/accounts/{account_id}/environments/{env_id}/`, authorized by bearer tokens (RFC 6750).
 *
 * @module
 */
import type { AccessAction } from '../access/actions';
import type { RemoteControl } from '../access/remote-control';
import type { TokenService } from '../access/token-service';
import { AbkitError, AuthenticationError, ConflictError, ValidationError } from '../errors';
import type { EnvironmentRecord } from '../storage/environments';
import { readJson } from './body';
import { json, methodNotAllowed, normalizePrefix, segments } from './respond';
import { guarded, handlerOf, reportToConsole, type ErrorReporting, type Handler, type Routes } from './router';

/**
 * Options of {@link createRemoteControlHandler}.
 *
 * @example
 * ```ts
 * const options: RemoteControlHandlerOptions = { remote: new RemoteControl({ engine }), tokens, maxBodyBytes: 10 * 1024 * 1024 };
 * const handler = createRemoteControlHandler(options);
 * ```
 */
export interface RemoteControlHandlerOptions extends ErrorReporting {
  /** The campaign administration service. */
  remote: RemoteControl;
  /** The token service that authorizes calls. */
  tokens: TokenService;
  /** Path prefix the routes are mounted under. @defaultValue `''` (routes start at `/v1/accounts`) */
  prefix?: string;
  /** Largest request body (a whole configuration), in bytes. @defaultValue `5242880` (5 MiB) */
  maxBodyBytes?: number;
}

const REALM = 'Bearer realm="abkit"';

function challenge(error?: string, description?: string, scope?: string): string {
  let value = REALM;
  if (error) value += `, error="${error}"`;
  // RFC 6750 §3: error_description is visible ASCII without quote or backslash; ids from the URL
  // may hold anything, and an invalid header value must never break the response.
  if (description) value += `, error_description="${description.replace(/[^\x20-\x21\x23-\x5b\x5d-\x7e]/g, '?')}"`;
  if (scope) value += `, scope="${scope}"`;
  return value;
}

/** The bearer token of a request; throws for a missing (401) or malformed (400) header. */
function bearer(request: Request): string {
  const header = request.headers.get('authorization');
  if (header === null) throw new AuthenticationError('abkit: an Authorization: Bearer <token> header is required', 'missing_token');
  // RFC 7235: the scheme is case-insensitive; RFC 6750: one or more spaces before the token.
  const m = /^Bearer +([A-Za-z0-9\-._~+/]+=*)$/i.exec(header.trim());
  if (!m) throw new ValidationError('abkit: the Authorization header must be "Bearer <token>"', [{ path: 'authorization', message: 'malformed' }], 'invalid_request');
  return m[1]!;
}

function view(record: EnvironmentRecord) {
  return { account: record.accountId, environment: record.id, version: record.version, updatedAt: record.updatedAt, configuration: record.config };
}

function etag(record: EnvironmentRecord): Record<string, string> {
  return { etag: `"${record.version}"` };
}

/** `If-Match: "3"` → 3; absent → undefined; anything else is a 400. */
function ifMatch(request: Request): number | undefined {
  const raw = request.headers.get('if-match');
  if (raw === null) return undefined;
  const m = /^(?:W\/)?"(\d+)"$/.exec(raw.trim());
  if (!m) throw new ValidationError('abkit: If-Match must be an ETag from a previous read, such as "3"', [{ path: 'if-match', message: 'malformed' }], 'invalid_request');
  return Number(m[1]);
}

function integerParam(url: URL, name: string): number | undefined {
  const raw = url.searchParams.get(name);
  if (raw === null) return undefined;
  if (!/^\d{1,15}$/.test(raw)) throw new ValidationError(`abkit: ${name} must be a non-negative integer`, [{ path: name, message: 'not a non-negative integer' }]);
  return Number(raw);
}

interface Endpoint {
  action: AccessAction;
  run: () => Promise<Response>;
}

/**
 * The remote control routes, for composition with others (see {@link createRemoteControlHandler}).
 *
 * @example
 * ```ts
 * const remote = new RemoteControl({ engine });
 * const handler = handlerOf([decisionRoutes({ engine }), tokenRoutes({ tokens }), remoteControlRoutes({ remote, tokens })]);
 * ```
 */
export function remoteControlRoutes(options: RemoteControlHandlerOptions): Routes {
  const { remote, tokens, maxBodyBytes = 5 * 1024 * 1024, onError = reportToConsole } = options;
  if (!remote || typeof remote.getConfiguration !== 'function') throw new TypeError('abkit: createRemoteControlHandler: remote must be a RemoteControl');
  if (!tokens || typeof tokens.authorize !== 'function') throw new TypeError('abkit: createRemoteControlHandler: tokens must be a TokenService');
  const prefix = normalizePrefix(options.prefix);

  function endpoints(request: Request, url: URL, account: string, env: string, rest: string[]): Record<string, Endpoint> | undefined {
    const body = () => readJson(request, maxBodyBytes);
    const [resource, id, ...more] = rest;
    if (more.length > 0) return undefined;
    if (resource === 'configuration' && id === undefined) {
      return {
        GET: { action: 'campaigns.read', run: async () => { const r = await remote.getConfiguration(account, env); return json(view(r), 200, etag(r)); } },
        PUT: {
          action: 'campaigns.write',
          run: async () => {
            const expected = ifMatch(request);
            try {
              const r = await remote.replaceConfiguration(account, env, await body(), { expectedVersion: expected });
              return json(view(r), 200, etag(r));
            } catch (error) {
              if (error instanceof ConflictError && expected !== undefined) {
                return json({ error: 'precondition_failed', message: `the configuration is no longer at version ${expected}` }, 412);
              }
              throw error;
            }
          },
        },
      };
    }
    if (resource === 'campaigns' && id !== undefined) {
      return {
        GET: { action: 'campaigns.read', run: async () => json(await remote.getCampaign(account, env, id)) },
        PUT: {
          action: 'campaigns.write',
          run: async () => {
            const r = await remote.putCampaign(account, env, id, await body());
            return json({ environment: r.id, version: r.version, campaign: r.config.campaigns.find((c) => c.id === id) }, 200, etag(r));
          },
        },
        DELETE: { action: 'campaigns.write', run: async () => { const r = await remote.deleteCampaign(account, env, id); return json({ environment: r.id, version: r.version }, 200, etag(r)); } },
      };
    }
    if (resource === 'panic' && id === undefined) {
      return {
        GET: { action: 'campaigns.read', run: async () => { const r = await remote.getConfiguration(account, env); return json({ panic: r.config.panic ?? false, version: r.version }); } },
        PUT: {
          action: 'panic.write',
          run: async () => {
            const input = await body();
            const panic = input !== null && typeof input === 'object' ? (input as { panic?: unknown }).panic : undefined;
            if (typeof panic !== 'boolean') throw new ValidationError('abkit: the body must be { "panic": true | false }', [{ path: 'panic', message: 'must be a boolean' }]);
            const r = await remote.setPanic(account, env, panic);
            return json({ panic: r.config.panic ?? false, version: r.version }, 200, etag(r));
          },
        },
      };
    }
    if (resource === 'activations' && id === undefined) {
      return {
        GET: {
          action: 'activations.read',
          run: async () => {
            const visitorId = url.searchParams.get('visitor_id') ?? undefined;
            const limit = Math.min(integerParam(url, 'limit') ?? 1000, 10_000);
            const activations = await remote.listActivations(account, env, { visitorId, since: integerParam(url, 'since'), limit });
            return json({ activations });
          },
        },
      };
    }
    return undefined;
  }

  // RFC 6750 §3: a 403 names the scope the endpoint needs.
  const render = (error: AbkitError, scope: AccessAction): Response => {
    const message = error.message.replace(/^abkit: /, '');
    const body = { error: error.code, message, ...(error.details.length > 0 ? { details: error.details } : {}) };
    if (error.code === 'missing_token') return json({ ...body, error: 'invalid_token' }, 401, { 'www-authenticate': challenge() });
    if (error.status === 401) return json(body, 401, { 'www-authenticate': challenge('invalid_token', message) });
    if (error.status === 403) return json(body, 403, { 'www-authenticate': challenge('insufficient_scope', message, scope) });
    if (error.code === 'invalid_request' && error.details[0]?.path === 'authorization') {
      return json(body, 400, { 'www-authenticate': challenge('invalid_request', message) });
    }
    return json(body, error.status);
  };

  return (request, url) => {
    const parts = segments(url.pathname, prefix);
    if (!parts || parts[0] !== 'v1' || parts[1] !== 'accounts' || parts[3] !== 'environments' || parts.length < 6) return undefined;
    const account = parts[2]!;
    const env = parts[4]!;
    const table = endpoints(request, url, account, env, parts.slice(5));
    if (!table) return undefined;
    const endpoint = table[request.method];
    if (!endpoint) {
      const allow = Object.keys(table);
      return Promise.resolve(methodNotAllowed(allow, { error: 'method_not_allowed', message: `${request.method} is not allowed here; use ${allow.join(', ')}` }));
    }
    return guarded(
      async () => {
        await tokens.authorize(bearer(request), { account, action: endpoint.action, environment: env });
        return endpoint.run();
      },
      (error) => render(error, endpoint.action),
      onError,
      () => json({ error: 'server_error', message: 'internal error' }, 500),
    );
  };
}

/**
 * Creates the handler of the remote control API. Every call needs `Authorization: Bearer <token>`
 * whose access holds the endpoint's action and environment:
 *
 * | Route (under `/v1/accounts/{account_id}/environments/{env_id}`) | Action |
 * |---|---|
 * | `GET /configuration` (ETag) | `campaigns.read` |
 * | `PUT /configuration` (optional `If-Match`) | `campaigns.write` |
 * | `GET /campaigns/{id}` | `campaigns.read` |
 * | `PUT /campaigns/{id}`, `DELETE /campaigns/{id}` | `campaigns.write` |
 * | `GET /panic` | `campaigns.read` |
 * | `PUT /panic` `{ "panic": boolean }` | `panic.write` |
 * | `GET /activations?visitor_id&since&limit` | `activations.read` |
 *
 * Errors are `{ error, message, details? }`: 401 with `WWW-Authenticate: Bearer` (missing, unknown,
 * expired or revoked token), 403 `insufficient_scope` (other account, action or environment not
 * held), 400 (malformed header or body; the configuration is validated as a whole), 404 (unknown
 * environment or campaign), 412 (stale `If-Match`).
 *
 * @example
 * ```ts
 * const handler = createRemoteControlHandler({ remote: new RemoteControl({ engine }), tokens });
 * ```
 */
export function createRemoteControlHandler(options: RemoteControlHandlerOptions): Handler {
  return handlerOf([remoteControlRoutes(options)]);
}
