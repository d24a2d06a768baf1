/**
 * The service routes of the combined handler: health and the OpenAPI document.
 *
 * @module
 */
import { json } from './respond';
import { routeTable, type Routes, type RouteSpec } from './router';

/** The route table of the service routes. */
export const SERVICE_ROUTES = [
  { method: 'GET', path: '/health', name: 'health' },
  { method: 'GET', path: '/openapi.json', name: 'openapi' },
] as const satisfies readonly RouteSpec[];

/**
 * The service routes: `GET /health` answers `health()`, `GET /openapi.json` answers `document()`
 * (built on first use); errors are `{ message }`.
 *
 * @example
 * ```ts
 * const routes = serviceRoutes({ health: () => ({ status: 'ok' }), document: () => openApiDocument(scope) });
 * ```
 */
export function serviceRoutes(options: {
  health: () => unknown;
  document: () => unknown;
  prefix?: string;
  onError?: (error: unknown) => void;
}): Routes {
  let document: unknown;
  return routeTable(
    SERVICE_ROUTES,
    {
      health: async () => json(options.health()),
      openapi: async () => json((document ??= options.document())),
    },
    {
      prefix: options.prefix,
      maxBodyBytes: 1,
      onError: options.onError,
      render: (error) => json({ message: error.message }, error.status),
    },
  );
}
