/**
 * Remote control access over HTTP (interfaces.md, Tokens): `POST /{account_id}/token` (client-credentials
 * grant, RFC 6749 §4.4) and `GET /token?access_token=…` (token check, RFC 7662 style).
 *
 * @module
 */
import type { TokenService } from '../access/token-service';
import { type AbkitError, ValidationError } from '../errors';
import { jsonDepthExceeds, MAX_JSON_DEPTH, maxBodyBytesOption, type BodyReader } from '../body';
import { json } from './respond';
import { handlerOf, routeTable, type ErrorReporting, type Handler, type RouteContext, type Routes, type RouteSpec } from './router';

/**
 * Options of {@link createTokenHandler}.
 *
 * @example
 * ```ts
 * const options: TokenHandlerOptions = { tokens, prefix: '/auth', maxBodyBytes: 8192 };
 * const handler = createTokenHandler(options); // POST /auth/{account_id}/token
 * ```
 */
export interface TokenHandlerOptions extends ErrorReporting {
  /** The token service that answers. */
  tokens: TokenService;
  /** Path prefix the routes are mounted under. @defaultValue `''` */
  prefix?: string;
  /** Largest token request body, in bytes. @defaultValue `65536` */
  maxBodyBytes?: number;
}

// RFC 6749 §5.1: token responses must not be cached.
const NO_STORE = { 'cache-control': 'no-store', pragma: 'no-cache' };

function oauthError(error: string, description: string, status = 400, headers: Record<string, string> = {}): Response {
  return json({ error, error_description: description }, status, { ...NO_STORE, ...headers });
}

function invalidRequest(description: string): never {
  throw new ValidationError(`${description}`, [], 'invalid_request');
}

interface TokenRequestFields {
  grant_type?: string;
  scope?: string;
  client_id?: string;
  client_secret?: string;
  expires_in?: string;
}

/** The route table of remote control access (interfaces.md, Tokens). */
export const TOKEN_ROUTES = [
  { method: 'GET', path: '/token', name: 'check' },
  { method: 'POST', path: '/:account_id/token', name: 'issue' },
] as const satisfies readonly RouteSpec[];

const FIELDS = ['grant_type', 'scope', 'client_id', 'client_secret', 'expires_in'] as const;

async function readFields(request: Request, reader: BodyReader): Promise<TokenRequestFields> {
  const text = await reader.text();
  const type = request.headers.get('content-type') ?? '';
  const out: TokenRequestFields = {};
  if (type.includes('application/x-www-form-urlencoded')) {
    const form = new URLSearchParams(text);
    for (const name of FIELDS) {
      const values = form.getAll(name);
      if (values.length > 1) invalidRequest(`${name} is repeated`);
      if (values.length === 1) out[name] = values[0];
    }
    return out;
  }
  if (text.trim() === '') return out;
  if (jsonDepthExceeds(text, MAX_JSON_DEPTH))
    invalidRequest(`the body nests arrays and objects deeper than the limit of ${MAX_JSON_DEPTH} levels`);
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    invalidRequest('the body is neither JSON nor application/x-www-form-urlencoded');
  }
  if (body === null || typeof body !== 'object' || Array.isArray(body)) invalidRequest('the body must be a JSON object');
  for (const name of FIELDS) {
    const value = (body as Record<string, unknown>)[name];
    if (value === undefined || value === null) continue;
    // A JSON number: an integer of any size is a lifetime to clamp (1e30 too); a fraction or a
    // negative keeps its text and is refused with it.
    if (name === 'expires_in' && typeof value === 'number')
      out.expires_in = Number.isInteger(value) && value >= 0 ? String(Math.min(value, Number.MAX_SAFE_INTEGER)) : String(value);
    else if (typeof value !== 'string') invalidRequest(`${name} must be a string`);
    else out[name] = value;
  }
  return out;
}

/** Client credentials from HTTP Basic (RFC 6749 §2.3.1), or undefined when the header is absent. */
function basicCredentials(request: Request): { id: string; secret: string } | undefined {
  const header = request.headers.get('authorization');
  if (!header) return undefined;
  const m = /^Basic\s+([A-Za-z0-9+/=]+)\s*$/i.exec(header);
  if (!m) invalidRequest('the Authorization header must be HTTP Basic client credentials');
  let decoded: string;
  try {
    decoded = atob(m[1]!);
  } catch {
    invalidRequest('the Basic credentials are not valid base64');
  }
  const colon = decoded.indexOf(':');
  if (colon < 0) invalidRequest('the Basic credentials lack a colon');
  try {
    return { id: decodeURIComponent(decoded.slice(0, colon)), secret: decodeURIComponent(decoded.slice(colon + 1)) };
  } catch {
    invalidRequest('the Basic credentials are not valid form-encoding');
  }
}

/**
 * `expires_in` as a number of seconds. Any run of digits is a lifetime, however long: the token
 * service clamps it to its maximum, as documented. Past 15 significant digits (where a double
 * stops being exact) the value is far beyond any maximum, so it is read as
 * `Number.MAX_SAFE_INTEGER` rather than converted: the work is one scan of the text, whose length
 * the body or URL limit bounds.
 */
function parseExpiresIn(raw: string | null | undefined): number | undefined {
  if (raw === null || raw === undefined || raw === '') return undefined;
  if (!/^\d+$/.test(raw)) {
    const shown = raw.length > 24 ? `${JSON.stringify(raw.slice(0, 24))}… (${raw.length} characters)` : JSON.stringify(raw);
    invalidRequest(`expires_in must be a non-negative integer number of seconds, got ${shown}`);
  }
  const digits = raw.replace(/^0+/, '');
  return digits.length > 15 ? Number.MAX_SAFE_INTEGER : Number(digits);
}

/**
 * The remote-control access routes, for composition with others (see {@link createTokenHandler}).
 *
 * @example
 * ```ts
 * const handler = handlerOf([tokenRoutes({ tokens, prefix: '/auth' })]);
 * const res = await handler(new Request(`http://localhost/auth/token?access_token=${accessToken}`)); // { active: true, ... }
 * ```
 */
export function tokenRoutes(options: TokenHandlerOptions): Routes {
  const { tokens, onError } = options;
  if (!tokens || typeof tokens.issue !== 'function') throw new TypeError('createTokenHandler: tokens must be a TokenService');
  const maxBodyBytes = maxBodyBytesOption(options.maxBodyBytes, 65_536, 'createTokenHandler');

  async function issue({ request, url, params, body }: RouteContext): Promise<Response> {
    const accountId = params.account_id!;
    const fields = await readFields(request, body);
    const basic = basicCredentials(request);
    if (basic && (fields.client_id !== undefined || fields.client_secret !== undefined)) {
      invalidRequest('give client credentials either in the Authorization header or in the body, not both');
    }
    if (fields.grant_type === undefined) invalidRequest('grant_type is required');
    if (fields.grant_type !== 'client_credentials') {
      throw new ValidationError(
        `grant_type ${JSON.stringify(fields.grant_type)} is not supported; use client_credentials`,
        [],
        'unsupported_grant_type',
      );
    }
    const clientId = basic?.id ?? fields.client_id;
    const clientSecret = basic?.secret ?? fields.client_secret;
    if (!clientId) invalidRequest('client_id is required');
    if (!clientSecret) invalidRequest('client_secret is required');
    // An empty query value defers to the body.
    const expiresIn = parseExpiresIn(url.searchParams.get('expires_in') || fields.expires_in);
    const issued = await tokens.issue({ accountId, clientId, clientSecret, scope: fields.scope, expiresIn });
    return json(
      { access_token: issued.accessToken, token_type: issued.tokenType, expires_in: issued.expiresIn, scope: issued.scope },
      200,
      NO_STORE,
    );
  }

  async function check({ query }: RouteContext): Promise<Response> {
    const values = query.getAll('access_token');
    if (values.length !== 1 || values[0] === '') invalidRequest('give exactly one access_token query parameter');
    const result = await tokens.introspect(values[0]!);
    if (!result.active) return json({ active: false }, 200, NO_STORE);
    return json(
      {
        active: true,
        token_type: 'Bearer',
        client_id: result.clientId,
        account_id: result.accountId,
        scope: result.scope,
        environments: result.environments,
        exp: result.exp,
        iat: result.iat,
      },
      200,
      NO_STORE,
    );
  }

  const render = (error: AbkitError): Response => {
    const description = error.message;
    if (error.status === 401) return oauthError('invalid_client', description, 401, { 'www-authenticate': 'Basic realm="abkit"' });
    if (error.status === 503) return oauthError('temporarily_unavailable', description, 503);
    if (error.status >= 500) return oauthError(error.code, description, error.status);
    if (error.status !== 400) return oauthError('invalid_request', description, error.status);
    const known = ['invalid_request', 'invalid_scope', 'unsupported_grant_type', 'invalid_grant', 'unauthorized_client'];
    return oauthError(known.includes(error.code) ? error.code : 'invalid_request', description, 400);
  };

  return routeTable(TOKEN_ROUTES, { check, issue }, { prefix: options.prefix, maxBodyBytes, onError, render });
}

/**
 * Creates the handler of remote control access: `POST /{account_id}/token` issues a bearer
 * token for client credentials (JSON or form-encoded body, or HTTP Basic; query `expires_in`);
 * `GET /token?access_token=…` checks one. Errors follow RFC 6749 §5.2
 * (`{ error, error_description }`, 400, or 401 `invalid_client`); every response carries
 * `Cache-Control: no-store`.
 *
 * @example
 * ```ts
 * const handler = createTokenHandler({ tokens });
 * const res = await handler(new Request('http://x/acme/token', {
 *   method: 'POST', headers: { 'content-type': 'application/json' },
 *   body: JSON.stringify({ grant_type: 'client_credentials', scope: '*', client_id: clientId, client_secret: clientSecret }),
 * }));
 * ```
 */
export function createTokenHandler(options: TokenHandlerOptions): Handler {
  return handlerOf([tokenRoutes(options)]);
}
