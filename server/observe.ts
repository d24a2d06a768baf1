/**
 * The server's edge around abkit's handler: request ids, the service routes (`/metrics`,
 * `/health/live`, `/health/ready`), CORS, one JSON log line and one latency observation per
 * request. (Searches that found nothing are counted by the search handler's `onSearch` hook,
 * see `countZeroResults`.)
 *
 * @module
 */
import { randomUUID } from 'node:crypto';
// Imported: the global `performance` is an accessor on globalThis, looked up on every read.
import { performance } from 'node:perf_hooks';
import type { Logger } from 'pino';
import { CLIENT_CLOSED_REQUEST } from '../src/body';
import { requestIdOf } from '../src/http/handler';
import { json, respond, withHeader } from '../src/http/respond';
import { handlerOf, matchedRoute, requestPath, routeTable, type Handler } from '../src/http/router';
import type { Storage } from '../src/storage/storage';
import type { CorsPolicy } from './cors';
import type { ServerMetrics } from './metrics';

/** How long `/health/ready` waits for the storage. */
export const READY_TIMEOUT_MS = 1_000;

const SERVICE_ROUTES = [
  { method: 'GET', path: '/metrics', name: 'metrics' },
  { method: 'GET', path: '/health/live', name: 'live' },
  { method: 'GET', path: '/health/ready', name: 'ready' },
] as const;
const SERVICE_PATHS = new Set<string>(SERVICE_ROUTES.map((r) => r.path));
const SEARCH_ROUTES = new Set(['/search', '/v0.4/search', '/v0.3/search', '/autocomplete']);

/** What {@link observe} needs. */
export interface EdgeOptions {
  handler: Handler;
  storage: Storage;
  logger: Logger;
  metrics: ServerMetrics;
  cors: CorsPolicy;
  /** Whether the server is draining (readiness then fails, so a balancer stops sending). */
  draining: () => boolean;
}

/** Whether the storage answers within {@link READY_TIMEOUT_MS}. */
async function storageAnswers(storage: Storage): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), READY_TIMEOUT_MS)));
  try {
    return await Promise.race([
      storage.environments.version('abkit-readiness-probe').then(
        () => true,
        () => false,
      ),
      timeout,
    ]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * New request ids: a random prefix drawn once per process and a counter, in the layout of a UUID
 * (unique across instances by the prefix, ordered within one), for a fraction of the cost of a
 * random UUID per request. The counter's last three hex digits come from a table, the rest is
 * written out once per 4,096 ids.
 */
export function requestIds(prefix = randomUUID().slice(0, 24)): () => string {
  let next = 0;
  let high = '';
  return () => {
    const low = next & 0xfff;
    if (low === 0)
      high =
        prefix +
        Math.floor(next / 0x1000)
          .toString(16)
          .padStart(9, '0');
    next++;
    return high + LOW_DIGITS[low]!;
  };
}

const LOW_DIGITS = Array.from({ length: 0x1000 }, (_, i) => i.toString(16).padStart(3, '0'));

/**
 * The server's handler: service routes, CORS, request ids, logs and metrics around `handler`.
 *
 * @example
 * ```ts
 * const edge = observe({ handler, storage, logger, metrics: createMetrics(), cors: corsPolicy([]), draining: () => false });
 * ```
 */
export function observe(options: EdgeOptions): Handler {
  const { handler, storage, logger, metrics, cors, draining } = options;
  const service = handlerOf([
    routeTable(
      SERVICE_ROUTES,
      {
        metrics: async () => respond(await metrics.registry.metrics(), 200, { 'content-type': metrics.registry.contentType }),
        live: async () => json({ status: 'ok' }),
        ready: async () => {
          if (draining()) return json({ status: 'draining' }, 503);
          return (await storageAnswers(storage))
            ? json({ status: 'ok' })
            : json({ status: 'unavailable', message: `storage did not answer within ${READY_TIMEOUT_MS} ms` }, 503);
        },
      },
      { maxBodyBytes: 1024, render: (error) => json({ message: error.message }, error.status) },
    ),
  ]);

  const newId = requestIds();
  return async (request) => {
    const started = performance.now();
    const id = requestIdOf(request, 'x-request-id', newId);
    const path = requestPath(request) ?? '';
    const origin = request.headers.get('origin');
    const corsAllowed = cors.allowed(path, origin);
    let response: Response;
    let route: string | undefined;
    if (corsAllowed && request.method === 'OPTIONS' && request.headers.has('access-control-request-method')) {
      response = cors.preflight(origin);
      route = 'preflight';
    } else if (SERVICE_PATHS.has(path)) {
      response = await service(request);
      route = matchedRoute(request);
    } else {
      response = await handler(request);
      route = matchedRoute(request);
    }
    response = withHeader(response, 'x-request-id', id);
    if (route !== 'preflight') {
      const headers = cors.answerHeaders(path, origin);
      for (const name in headers) response = withHeader(response, name, headers[name]!);
    }
    const seconds = (performance.now() - started) / 1000;
    const status = response.status;
    metrics.requestDuration.observeValues([request.method, route ?? 'unmatched', status], seconds);
    if (route && SEARCH_ROUTES.has(route)) metrics.searchDuration.observeValues([route], seconds);
    // Never the URL (a token check carries the token in its query), a header or a body. A client
    // that went away before its body was complete (499) is an info line of its own, no error.
    if (logger.isLevelEnabled('info'))
      logger.info(
        { reqId: id, method: request.method, route: route ?? null, status, ms: Math.round(seconds * 1e5) / 100 },
        status === CLIENT_CLOSED_REQUEST ? 'request aborted' : 'request',
      );
    return response;
  };
}
