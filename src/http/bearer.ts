/**
 * The one parser of `Authorization: Bearer` (RFC 6750 §2.1) and the one builder of its
 * `WWW-Authenticate` challenge (§3).
 *
 * @module
 */
import { AuthenticationError, ValidationError, type AbkitError } from '../errors';

// RFC 7235: the scheme is case-insensitive; RFC 6750: one or more spaces, then the credentials.
// The credentials are one run of visible ASCII: quotes, backslashes and commas would make them an
// auth-param list, which Bearer does not take. (Catalog keys may hold any other visible ASCII.)
const BEARER = /^Bearer +([\x21\x23-\x2b\x2d-\x5b\x5d-\x7e]+)$/i;

/**
 * The bearer credentials of a request. No `Authorization` header is a 401
 * ({@link AuthenticationError} with code `missing_token`); a header that is not exactly
 * `Bearer <credentials>` (another scheme, no credentials, several words, quotes) is a 400
 * ({@link MalformedAuthorizationError}), as RFC 6750
 * §3.1 asks of a malformed request.
 *
 * @example
 * ```ts
 * const token = bearerToken(request); // 'abk_at_…'
 * ```
 */
export function bearerToken(request: Request): string {
  const token = optionalBearerToken(request);
  if (token === undefined) throw new AuthenticationError('an Authorization: Bearer <token> header is required', 'missing_token');
  return token;
}

/**
 * Like {@link bearerToken}, but undefined when there is no `Authorization` header.
 *
 * @example
 * ```ts
 * const key = optionalBearerToken(request) ?? request.headers.get('x-api-key');
 * ```
 */
export function optionalBearerToken(request: Request): string | undefined {
  const header = request.headers.get('authorization');
  if (header === null) return undefined;
  const m = BEARER.exec(header.trim());
  if (!m) throw new MalformedAuthorizationError();
  return m[1]!;
}

/**
 * An `Authorization` header that is not `Bearer <token>` (HTTP 400, code `invalid_request`).
 *
 * @example
 * ```ts
 * if (error instanceof MalformedAuthorizationError) headers['www-authenticate'] = challenge('invalid_request');
 * ```
 */
export class MalformedAuthorizationError extends ValidationError {
  /** Creates the error. */
  constructor() {
    super('the Authorization header must be "Bearer <token>"', [{ path: ['authorization'], message: 'malformed' }], 'invalid_request');
  }
}

/**
 * A `WWW-Authenticate: Bearer` challenge (RFC 6750 §3) for the realm `abkit`.
 *
 * @example
 * ```ts
 * challenge('insufficient_scope', 'this token lacks campaigns.write', 'campaigns.write');
 * // 'Bearer realm="abkit", error="insufficient_scope", error_description="…", scope="campaigns.write"'
 * ```
 */
export function challenge(error?: string, description?: string, scope?: string): string {
  let value = 'Bearer realm="abkit"';
  if (error) value += `, error="${error}"`;
  // RFC 6750 §3: error_description is visible ASCII without quote or backslash; ids from the URL
  // may hold anything, and an invalid header value must never break the response.
  if (description) value += `, error_description="${description.replace(/[^\x20-\x21\x23-\x5b\x5d-\x7e]/g, '?')}"`;
  if (scope) value += `, scope="${scope}"`;
  return value;
}

/**
 * The `WWW-Authenticate` header an error of a Bearer-protected route carries (RFC 6750 §3): a bare
 * challenge when credentials are missing, `invalid_request` for a malformed header,
 * `invalid_token` for credentials refused, and `insufficient_scope` (naming `scope`) for a 403.
 *
 * @example
 * ```ts
 * const headers = challengeHeaders(error, 'campaigns.write');
 * ```
 */
export function challengeHeaders(error: AbkitError, scope?: string): Record<string, string> {
  if (error instanceof MalformedAuthorizationError) return { 'www-authenticate': challenge('invalid_request', error.message) };
  if (error.status === 401)
    return { 'www-authenticate': error.code === 'missing_token' ? challenge() : challenge('invalid_token', error.message) };
  if (error.status === 403 && scope) return { 'www-authenticate': challenge('insufficient_scope', error.message, scope) };
  return {};
}
