/**
 * CORS for the browser-facing routes (decisions, search, autocomplete): the configured origins
 * get `Access-Control-Allow-Origin`; a preflight is answered before routing. Other routes
 * (catalog writes, tokens, remote control) are server-to-server and get no CORS headers.
 *
 * @module
 */

const BROWSER_FACING = /^\/(v2\/|search$|v0\.[34]\/search$|autocomplete$)/;
const ALLOW_HEADERS = 'content-type, x-api-key, authorization, x-request-id';

/**
 * The CORS policy of a list of origins (`*` allows any).
 *
 * @example
 * ```ts
 * const policy = corsPolicy(['https://shop.example']);
 * policy.allowed('/search', 'https://shop.example'); // true
 * ```
 */
export function corsPolicy(origins: readonly string[]) {
  const any = origins.includes('*');
  const set = new Set(origins);
  return {
    /** Whether `origin` may read `path`. */
    allowed(path: string, origin: string | null): origin is string {
      return origin !== null && (any || set.has(origin)) && BROWSER_FACING.test(path);
    },
    /** The headers of an allowed response. */
    headers(origin: string): Record<string, string> {
      return any
        ? { 'access-control-allow-origin': '*', 'access-control-expose-headers': 'x-request-id' }
        : { 'access-control-allow-origin': origin, vary: 'Origin', 'access-control-expose-headers': 'x-request-id' };
    },
    /** The answer to an allowed preflight. */
    preflight(origin: string): Response {
      return new Response(null, {
        status: 204,
        headers: {
          ...this.headers(origin),
          'access-control-allow-methods': 'GET, HEAD, POST, OPTIONS',
          'access-control-allow-headers': ALLOW_HEADERS,
          'access-control-max-age': '600',
        },
      });
    },
  };
}

/** A CORS policy. */
export type CorsPolicy = ReturnType<typeof corsPolicy>;
