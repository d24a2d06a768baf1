/**
 * The catalog interface v1 (interfaces.md, Catalog routes) as Web-standard routes, authorized by the catalog key.
 *
 * @module
 */
import { CatalogValidationError, MAX_BATCH_BYTES, type BatchOperation, type BatchProblem } from '../catalog/catalog';
import type { CatalogRegistry } from '../catalog/registry';
import { checkItemId } from '../catalog/typing';
import { type AbkitError, AuthenticationError, formatPath, PermissionError, ValidationError } from '../errors';
import { challengeHeaders, optionalBearerToken } from './bearer';
import { DEFAULT_MAX_BODY_BYTES, jsonBodySteps, maxBodyBytesOption } from '../body';
import { json } from './respond';
import { handlerOf, routeTable, type ErrorReporting, type Handler, type Routes, type RouteSpec } from './router';
import { runInSlices } from '../slices';

/**
 * Options of {@link createCatalogHandler}.
 *
 * @example
 * ```ts
 * const options: CatalogHandlerOptions = { registry, prefix: '/catalog/v1', maxBodyBytes: 256 * 1024, onError: (e) => logger.error(e) };
 * const handler = createCatalogHandler(options);
 * ```
 */
export interface CatalogHandlerOptions extends ErrorReporting {
  /** The catalogs; the catalog key of a request selects one. */
  registry: CatalogRegistry;
  /**
   * Path prefix the routes are mounted under.
   * @defaultValue `''` (routes start at `/indexes/catalog`)
   * @example `'/catalog/v1'`
   */
  prefix?: string;
  /**
   * Largest body of a single-item write, in bytes (batches have the batch limit of 50 MB).
   * @defaultValue `1048576` (1 MiB)
   */
  maxBodyBytes?: number;
}

function problemView(p: BatchProblem, batch: boolean) {
  return {
    ...(batch ? { index: p.index } : {}),
    ...(p.id === undefined ? {} : { id: p.id }),
    ...(p.field === undefined ? {} : { field: p.field }),
    ...(p.expected === undefined ? {} : { expected: p.expected }),
    ...(p.actual === undefined ? {} : { actual: p.actual }),
    reason: p.reason,
  };
}

/**
 * The catalog interface's route table (interfaces.md, Catalog routes). `/indexes/catalog/batch` is also an item path:
 * PUT and DELETE there address the item "batch".
 */
export const CATALOG_ROUTES = [
  { method: 'DELETE', path: '/indexes/catalog', name: 'deleteAll' },
  { method: 'POST', path: '/indexes/catalog/batch', name: 'batch', maxBodyBytes: MAX_BATCH_BYTES - 1 },
  { method: 'POST', path: '/indexes/catalog/sync', name: 'sync', maxBodyBytes: 1024 },
  { method: 'PUT', path: '/indexes/catalog/:itemID', name: 'put' },
  { method: 'DELETE', path: '/indexes/catalog/:itemID', name: 'delete' },
  { method: 'DELETE', path: '/indexes/catalog/schema/:fieldID', name: 'deleteField' },
] as const satisfies readonly RouteSpec[];

function render(error: AbkitError, route: RouteSpec): Response {
  const { message } = error;
  if (error instanceof CatalogValidationError) {
    const batch = route.name === 'batch';
    return json({ error: error.code, message, details: error.problems.map((p) => problemView(p, batch)) }, 400);
  }
  const headers = challengeHeaders(error);
  const details =
    error.details.length > 0 ? { details: error.details.map((d) => ({ field: formatPath(d.path, '(body)'), reason: d.message })) } : {};
  return json({ error: error.code, message, ...details }, error.status, headers);
}

/**
 * The catalog routes, for composition with others (see {@link createCatalogHandler}).
 *
 * @example
 * ```ts
 * const routes = catalogRoutes({ registry, prefix: '/catalog/v1' });
 * const handler = handlerOf([routes, searchRoutes({ registry })]);
 * ```
 */
export function catalogRoutes(options: CatalogHandlerOptions): Routes {
  const { registry, onError } = options;
  if (!registry || typeof registry.authenticate !== 'function')
    throw new TypeError('createCatalogHandler: registry must be a CatalogRegistry');
  const maxBodyBytes = maxBodyBytesOption(options.maxBodyBytes, DEFAULT_MAX_BODY_BYTES, 'createCatalogHandler');

  async function catalogFor(request: Request) {
    const key = optionalBearerToken(request);
    if (key === undefined) throw new AuthenticationError('an authorization: Bearer <CATALOG_API_KEY> header is required', 'missing_token');
    const grant = await registry.authenticate(key);
    if (!grant) throw new AuthenticationError('unknown catalog key');
    if (grant.role !== 'catalog') throw new PermissionError('this key cannot manage the catalog; use the catalog key');
    return grant.catalog;
  }

  function pathId(raw: string): string {
    const problem = checkItemId(raw);
    if (problem) throw new ValidationError(`itemID in the path: ${problem.reason}`, [{ path: ['itemID'], message: problem.reason }]);
    return raw;
  }

  function idMismatch(bodyId: unknown, id: string): ValidationError {
    return new ValidationError(
      `the body's id ${JSON.stringify(bodyId)} differs from ${JSON.stringify(id)} in the path`,
      [{ path: ['id'], message: 'differs from the path' }],
      'id_mismatch',
    );
  }

  return routeTable(
    CATALOG_ROUTES,
    {
      async put({ request, params, body }) {
        const catalog = await catalogFor(request);
        const id = pathId(params.itemID!);
        const item = await body.json();
        if (item !== null && typeof item === 'object' && !Array.isArray(item) && (item as { id?: unknown }).id !== id) {
          throw idMismatch((item as { id?: unknown }).id, id);
        }
        return json(await catalog.put(item as Record<string, unknown>));
      },
      async delete({ request, params, body }) {
        const catalog = await catalogFor(request);
        const id = pathId(params.itemID!);
        const item = await body.json();
        if (item !== undefined) {
          const bodyId = item !== null && typeof item === 'object' ? (item as { id?: unknown }).id : undefined;
          if (bodyId !== id) throw idMismatch(bodyId, id);
        }
        return json(await catalog.delete(id));
      },
      async deleteAll({ request }) {
        const catalog = await catalogFor(request);
        return json(await catalog.deleteAll());
      },
      async deleteField({ request, params }) {
        const catalog = await catalogFor(request);
        await catalog.deleteSchemaField(params.fieldID!);
        return json({ deleted: params.fieldID });
      },
      // An operator's trigger: what was accepted becomes searchable now, not at the next scheduled sync.
      async sync({ request }) {
        const catalog = await catalogFor(request);
        return json(await catalog.sync());
      },
      async batch({ request, body }) {
        const catalog = await catalogFor(request);
        // The size counts against the batch limit: 413 as soon as it reaches 50 MB.
        const bytes = await body.bytes();
        // Up to 50 MB: decoded and parsed in slices, so decisions keep being served meanwhile.
        const operations = await runInSlices(jsonBodySteps(bytes));
        if (!Array.isArray(operations))
          throw new ValidationError('the batch body must be a JSON array of { operation, product }', [
            { path: [], message: 'not an array' },
          ]);
        return json(await catalog.batch(operations as BatchOperation[], { sizeBytes: bytes.byteLength }));
      },
    },
    { prefix: options.prefix, maxBodyBytes, onError, render },
  );
}

/**
 * Creates the handler of the catalog interface v1: `PUT`/`DELETE /indexes/catalog/{itemID}`,
 * `DELETE /indexes/catalog`, `DELETE /indexes/catalog/schema/{fieldID}`,
 * `POST /indexes/catalog/batch` and `POST /indexes/catalog/sync` (publishes what was accepted
 * so far: `{ version, syncedAt, count }`), each with `authorization: Bearer <catalog key>`.
 *
 * Success is 200 with a JSON summary (`{ accepted, upserted, deleted }`, `{ deleted: n }` for
 * delete-all, `{ deleted: fieldID }`). Errors are `{ error, message, details? }`: 400 with every
 * failing operation (`index`, `id`, `field`, `expected`, `actual`, `reason`) and nothing applied;
 * 401 without a valid key; 403 with the search key; 404 for an unknown schema field; 413 for a
 * batch body of 50 MB or more (detected while reading).
 *
 * @example
 * ```ts
 * const handler = createCatalogHandler({ registry, prefix: '/catalog/v1' });
 * ```
 */
export function createCatalogHandler(options: CatalogHandlerOptions): Handler {
  return handlerOf([catalogRoutes(options)]);
}
