/**
 * Composition of the per-interface route tables into one Web-standard handler.
 *
 * @module
 */
import { AbkitError, StorageUnavailableError } from '../errors';
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

/**
 * The routes of one interface: a response for a request it owns (errors already mapped to the
 * interface's body format), or undefined to let another interface answer.
 *
 * @example
 * ```ts
 * const routes: Routes[] = [decisionRoutes({ engine }), searchRoutes({ registry })];
 * const handler = handlerOf(routes);
 * ```
 */
export type Routes = (request: Request, url: URL) => Promise<Response> | undefined;

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
 * One handler over several route tables, tried in order; 404 `{ message }` when none owns the
 * path.
 *
 * @example
 * ```ts
 * const handler = handlerOf([decisionRoutes({ engine }), catalogRoutes({ registry })]);
 * const res = await handler(new Request('http://localhost/nowhere')); // 404 { message: 'no route for GET /nowhere' }
 * ```
 */
export function handlerOf(routes: readonly Routes[]): Handler {
  return async (request) => {
    let url: URL;
    try {
      url = new URL(request.url);
    } catch {
      return json({ message: 'invalid request URL' }, 400);
    }
    for (const r of routes) {
      const response = r(request, url);
      if (response) return response;
    }
    return json({ message: `no route for ${request.method} ${url.pathname}` }, 404);
  };
}

/**
 * Runs a route, turning an {@link AbkitError} below 500 into the interface's error response
 * (`render`), a {@link StorageUnavailableError} into the interface's 503 with `Retry-After`
 * (reported too: operators want to know), and anything else into a bare 500 after reporting it.
 */
export async function guarded(
  handle: () => Promise<Response>,
  render: (error: AbkitError) => Response,
  onError: (error: unknown) => void,
  internal: () => Response = () => json({ message: 'internal error' }, 500),
): Promise<Response> {
  try {
    return await handle();
  } catch (error) {
    const outage = error instanceof StorageUnavailableError;
    if (outage) onError(error);
    if (error instanceof AbkitError && (error.status < 500 || outage)) {
      try {
        const response = render(error);
        if (outage) response.headers.set('retry-after', String(error.retryAfterSeconds));
        return response;
      } catch (renderError) {
        onError(renderError);
        return internal();
      }
    }
    onError(error);
    return internal();
  }
}
