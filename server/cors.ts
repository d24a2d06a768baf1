/**
 * CORS for the browser-facing routes (decisions, search, autocomplete): the configured origins
 * get `Access-Control-Allow-Origin`; a preflight is answered before routing. Other routes
 * (catalog writes, tokens, remote control) are server-to-server and get no CORS headers.
 *
 * @module
 */

const BROWSER_FACING = /^\/(v2\/|search$|v0\.[34]\/search$|autocomplete$)/;
const ALLOW_HEADERS = 'content-type, x-api-key, authorization, x-request-id';

// A browser-facing answer differs with the request's Origin (allowed or not, present or not), so
// every one of them says so: a shared cache must not serve the answer to one origin, or to a
// request without one, to another origin.
const VARY: Readonly<Record<string, string>> = Object.freeze({ vary: 'Origin' });
const NONE: Readonly<Record<string, string>> = Object.freeze({});

/**
 * The CORS policy of a list of origins (`*` allows any).
 *
 * @example
 * ```ts
 * const policy = corsPolicy(['https://shop.example']);
 * policy.allowed('/search', 'https://shop.example'); // true
 * policy.answerHeaders('/search', null); // { vary: 'Origin' }
 * ```
 */
export function corsPolicy(origins: readonly string[]) {
  const any = origins.includes('*');
  const set = new Set(origins);
  const anyHeaders = Object.freeze({ 'access-control-allow-origin': '*', vary: 'Origin', 'access-control-expose-headers': 'x-request-id' });
  return {
    /** Whether `origin` may read `path`. */
    allowed(path: string, origin: string | null): origin is string {
      return origin !== null && (any || set.has(origin)) && BROWSER_FACING.test(path);
    },
    /** The headers of an allowed response. */
    headers(origin: string): Readonly<Record<string, string>> {
      return any ? anyHeaders : { 'access-control-allow-origin': origin, vary: 'Origin', 'access-control-expose-headers': 'x-request-id' };
    },
    /**
     * The CORS headers of an answer (not a preflight) to `path` for a request from `origin`: those
     * of {@link headers} when the origin is allowed, else `Vary: Origin` alone on a browser-facing
     * route while CORS is on, else none.
     */
    answerHeaders(path: string, origin: string | null): Readonly<Record<string, string>> {
      if (set.size === 0 || !BROWSER_FACING.test(path)) return NONE;
      return this.allowed(path, origin) ? this.headers(origin) : VARY;
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
