/**
 * The remote control API: campaign administration under
 * `/v1/accounts/{account_id}/environments/{env_id}/`, authorized by bearer tokens (RFC 6750).
 *
 * @module
 */
import type { AccessAction } from '../access/actions';
import type { RemoteControl } from '../access/remote-control';
import type { TokenService } from '../access/token-service';
import { ConflictError, formatPath, ValidationError, type AbkitError } from '../errors';
import type { EnvironmentRecord } from '../storage/environments';
import { bearerToken, challengeHeaders } from './bearer';
import { maxBodyBytesOption } from '../body';
import { json } from './respond';
import {
  handlerOf,
  routeTable,
  type ErrorReporting,
  type Handler,
  type RouteContext,
  type RouteHandler,
  type Routes,
  type RouteSpec,
} from './router';

const ENVIRONMENT = '/v1/accounts/:account_id/environments/:env_id';

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

function view(record: EnvironmentRecord) {
  return {
    account: record.accountId,
    environment: record.id,
    version: record.version,
    updatedAt: record.updatedAt,
    configuration: record.config,
  };
}

function etag(record: EnvironmentRecord): Record<string, string> {
  return { etag: `"${record.version}"` };
}

/** `If-Match: "3"` → 3; absent → undefined; anything else is a 400. */
function ifMatch(request: Request): number | undefined {
  const raw = request.headers.get('if-match');
  if (raw === null) return undefined;
  const m = /^(?:W\/)?"(\d+)"$/.exec(raw.trim());
  if (!m)
    throw new ValidationError(
      'If-Match must be an ETag from a previous read, such as "3"',
      [{ path: ['if-match'], message: 'malformed' }],
      'invalid_request',
    );
  return Number(m[1]);
}

function integerParam(url: URL, name: string): number | undefined {
  const raw = url.searchParams.get(name);
  if (raw === null) return undefined;
  if (!/^\d{1,15}$/.test(raw))
    throw new ValidationError(`${name} must be a non-negative integer`, [{ path: [name], message: 'not a non-negative integer' }]);
  return Number(raw);
}

/** The remote control route table, each route with the action its token must hold. */
export const REMOTE_CONTROL_ROUTES = [
  { method: 'GET', path: `${ENVIRONMENT}/configuration`, name: 'getConfiguration', action: 'campaigns.read' },
  { method: 'PUT', path: `${ENVIRONMENT}/configuration`, name: 'replaceConfiguration', action: 'campaigns.write' },
  { method: 'GET', path: `${ENVIRONMENT}/campaigns`, name: 'listCampaigns', action: 'campaigns.read' },
  { method: 'GET', path: `${ENVIRONMENT}/campaigns/:campaign_id`, name: 'getCampaign', action: 'campaigns.read' },
  { method: 'PUT', path: `${ENVIRONMENT}/campaigns/:campaign_id`, name: 'putCampaign', action: 'campaigns.write' },
  { method: 'DELETE', path: `${ENVIRONMENT}/campaigns/:campaign_id`, name: 'deleteCampaign', action: 'campaigns.write' },
  { method: 'GET', path: `${ENVIRONMENT}/panic`, name: 'getPanic', action: 'campaigns.read' },
  { method: 'PUT', path: `${ENVIRONMENT}/panic`, name: 'setPanic', action: 'panic.write' },
  { method: 'GET', path: `${ENVIRONMENT}/activations`, name: 'listActivations', action: 'activations.read' },
  { method: 'GET', path: `${ENVIRONMENT}/campaigns/:campaign_id/results`, name: 'getResults', action: 'results.read' },
] as const satisfies readonly (RouteSpec & { action: AccessAction })[];

type RemoteRoute = (typeof REMOTE_CONTROL_ROUTES)[number];

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
  const { remote, tokens, onError } = options;
  if (!remote || typeof remote.getConfiguration !== 'function')
    throw new TypeError('createRemoteControlHandler: remote must be a RemoteControl');
  if (!tokens || typeof tokens.authorize !== 'function') throw new TypeError('createRemoteControlHandler: tokens must be a TokenService');
  const maxBodyBytes = maxBodyBytesOption(options.maxBodyBytes, 5 * 1024 * 1024, 'createRemoteControlHandler');

  type Run = (c: RouteContext, account: string, env: string) => Promise<Response>;
  const runs: { [N in RemoteRoute['name']]: Run } = {
    async getConfiguration(_, account, env) {
      const r = await remote.getConfiguration(account, env);
      return json(view(r), 200, etag(r));
    },
    async replaceConfiguration({ request, body }, account, env) {
      const expected = ifMatch(request);
      try {
        const r = await remote.replaceConfiguration(account, env, await body.json(), { expectedVersion: expected });
        return json(view(r), 200, etag(r));
      } catch (error) {
        if (error instanceof ConflictError && expected !== undefined) {
          return json({ error: 'precondition_failed', message: `the configuration is no longer at version ${expected}` }, 412);
        }
        throw error;
      }
    },
    async listCampaigns(_, account, env) {
      return json({ campaigns: await remote.listCampaigns(account, env) });
    },
    async getCampaign({ params }, account, env) {
      return json(await remote.getCampaign(account, env, params.campaign_id!));
    },
    async putCampaign({ params, body }, account, env) {
      const id = params.campaign_id!;
      const r = await remote.putCampaign(account, env, id, await body.json());
      return json({ environment: r.id, version: r.version, campaign: r.config.campaigns.find((c) => c.id === id) }, 200, etag(r));
    },
    async deleteCampaign({ params }, account, env) {
      const r = await remote.deleteCampaign(account, env, params.campaign_id!);
      return json({ environment: r.id, version: r.version }, 200, etag(r));
    },
    async getPanic(_, account, env) {
      const r = await remote.getConfiguration(account, env);
      return json({ panic: r.config.panic ?? false, version: r.version });
    },
    async setPanic({ body }, account, env) {
      const input = await body.json();
      const panic = input !== null && typeof input === 'object' ? (input as { panic?: unknown }).panic : undefined;
      if (typeof panic !== 'boolean')
        throw new ValidationError('the body must be { "panic": true | false }', [{ path: ['panic'], message: 'must be a boolean' }]);
      const r = await remote.setPanic(account, env, panic);
      return json({ panic: r.config.panic ?? false, version: r.version }, 200, etag(r));
    },
    async listActivations({ url }, account, env) {
      const visitorId = url.searchParams.get('visitor_id') ?? undefined;
      const limit = Math.min(integerParam(url, 'limit') ?? 1000, 10_000);
      const activations = await remote.listActivations(account, env, { visitorId, since: integerParam(url, 'since'), limit });
      return json({ activations });
    },
    async getResults({ url, params }, account, env) {
      const metric = url.searchParams.get('metric');
      if (metric === null)
        throw new ValidationError('the metric query parameter is required', [{ path: ['metric'], message: 'is required' }]);
      return json(
        await remote.results(account, env, {
          campaignId: params.campaign_id!,
          metric,
          since: integerParam(url, 'since'),
          until: integerParam(url, 'until'),
        }),
      );
    },
  };

  // Every route first checks the token holds its action for the account and environment.
  const handlers = Object.fromEntries(
    REMOTE_CONTROL_ROUTES.map((route): [string, RouteHandler] => [
      route.name,
      async (c) => {
        const account = c.params.account_id!;
        const environment = c.params.env_id!;
        await tokens.authorize(bearerToken(c.request), { account, action: route.action, environment });
        return runs[route.name](c, account, environment);
      },
    ]),
  ) as Record<RemoteRoute['name'], RouteHandler>;

  // RFC 6750 §3: a 403 names the scope the endpoint needs.
  const render = (error: AbkitError, route: RemoteRoute): Response => {
    const { message } = error;
    const body = {
      error: error.code === 'missing_token' ? 'invalid_token' : error.code,
      message,
      ...(error.details.length > 0
        ? { details: error.details.map((d) => ({ path: formatPath(d.path, '(body)'), message: d.message })) }
        : {}),
    };
    return json(body, error.status, challengeHeaders(error, route.action));
  };

  return routeTable(REMOTE_CONTROL_ROUTES, handlers, { prefix: options.prefix, maxBodyBytes, onError, render });
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
 * | `GET /campaigns/{id}/results?metric&since&until` | `results.read` |
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
