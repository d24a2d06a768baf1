/**
 * The catalog interface v1 (SPEC 4.3) as Web-standard routes, authorized by the catalog key.
 *
 * @module
 */
import { CatalogValidationError, MAX_BATCH_BYTES, type BatchOperation, type BatchProblem } from '../catalog/catalog';
import type { CatalogRegistry } from '../catalog/registry';
import { checkItemId } from '../catalog/typing';
import { AbkitError, AuthenticationError, PermissionError, ValidationError } from '../errors';
import { parseJsonBody, readJson, readText } from './body';
import { json, methodNotAllowed, normalizePrefix, segments } from './respond';
import { guarded, handlerOf, reportToConsole, type ErrorReporting, type Handler, type Routes } from './router';

/**
 * Options of {@link createCatalogHandler}.
 *
 * @example
 * ```ts
 * const options: CatalogHandlerOptions = { registry, prefix: '/catalog/v1', maxItemBytes: 256 * 1024, onError: (e) => logger.error(e) };
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
   * Largest body of a single-item write, in bytes (batches have the SPEC limit of 50 MB).
   * @defaultValue `1048576` (1 MiB)
   */
  maxItemBytes?: number;
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

function render(error: AbkitError, batch: boolean): Response {
  const message = error.message.replace(/^abkit: /, '');
  if (error instanceof CatalogValidationError) {
    return json({ error: error.code, message, details: error.problems.map((p) => problemView(p, batch)) }, 400);
  }
  const headers: Record<string, string> = error.status === 401 ? { 'www-authenticate': 'Bearer realm="abkit"' } : {};
  const details = error.details.length > 0 ? { details: error.details.map((d) => ({ field: d.path, reason: d.message })) } : {};
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
  const { registry, maxItemBytes = 1_048_576, onError = reportToConsole } = options;
  if (!registry || typeof registry.authenticate !== 'function') throw new TypeError('abkit: createCatalogHandler: registry must be a CatalogRegistry');
  if (!Number.isInteger(maxItemBytes) || maxItemBytes < 1) throw new TypeError(`abkit: createCatalogHandler: maxItemBytes must be a positive integer, got ${maxItemBytes}`);
  const prefix = normalizePrefix(options.prefix);

  async function catalogFor(request: Request) {
    const header = request.headers.get('authorization');
    const m = header === null ? null : /^Bearer\s+(\S+)\s*$/i.exec(header);
    if (!m) throw new AuthenticationError('abkit: an authorization: Bearer <CATALOG_API_KEY> header is required');
    const grant = await registry.authenticate(m[1]!);
    if (!grant) throw new AuthenticationError('abkit: unknown catalog key');
    if (grant.role !== 'catalog') throw new PermissionError('abkit: this key cannot manage the catalog; use the catalog key');
    return grant.catalog;
  }

  function pathId(raw: string): string {
    const problem = checkItemId(raw);
    if (problem) throw new ValidationError(`abkit: itemID in the path: ${problem.reason}`, [{ path: 'itemID', message: problem.reason }]);
    return raw;
  }

  const routes: Record<string, (request: Request, params: string[]) => Promise<Response>> = {
    async 'PUT item'(request, [raw]) {
      const catalog = await catalogFor(request);
      const id = pathId(raw!);
      const body = await readJson(request, maxItemBytes);
      if (body !== null && typeof body === 'object' && !Array.isArray(body) && (body as { id?: unknown }).id !== id) {
        throw new ValidationError(`abkit: the body's id ${JSON.stringify((body as { id?: unknown }).id)} differs from ${JSON.stringify(id)} in the path`, [{ path: 'id', message: 'differs from the path' }], 'id_mismatch');
      }
      return json(await catalog.put(body as Record<string, unknown>));
    },
    async 'DELETE item'(request, [raw]) {
      const catalog = await catalogFor(request);
      const id = pathId(raw!);
      const body = await readJson(request, maxItemBytes);
      if (body !== undefined) {
        const bodyId = body !== null && typeof body === 'object' ? (body as { id?: unknown }).id : undefined;
        if (bodyId !== id) throw new ValidationError(`abkit: the body's id ${JSON.stringify(bodyId)} differs from ${JSON.stringify(id)} in the path`, [{ path: 'id', message: 'differs from the path' }], 'id_mismatch');
      }
      return json(await catalog.delete(id));
    },
    async 'DELETE all'(request) {
      const catalog = await catalogFor(request);
      return json(await catalog.deleteAll());
    },
    async 'DELETE field'(request, [field]) {
      const catalog = await catalogFor(request);
      await catalog.deleteSchemaField(field!);
      return json({ deleted: field });
    },
    async 'POST batch'(request) {
      const catalog = await catalogFor(request);
      // Read as text to know the size: 413 as soon as it reaches 50 MB, without buffering the rest.
      const text = await readText(request, MAX_BATCH_BYTES - 1);
      const operations = parseJsonBody(text);
      if (!Array.isArray(operations)) throw new ValidationError('abkit: the batch body must be a JSON array of { operation, product }', [{ path: '(body)', message: 'not an array' }]);
      return json(await catalog.batch(operations as BatchOperation[], { sizeBytes: new TextEncoder().encode(text).length }));
    },
  };

  function match(parts: string[]): { key: string; params: string[]; allow: string[] } | undefined {
    if (parts[0] !== 'indexes' || parts[1] !== 'catalog') return undefined;
    const rest = parts.slice(2);
    if (rest.length === 0) return { key: 'all', params: [], allow: ['DELETE'] };
    if (rest.length === 1 && rest[0] === 'batch') return { key: 'batch', params: [], allow: ['POST', 'PUT', 'DELETE'] };
    if (rest.length === 1) return { key: 'item', params: [rest[0]!], allow: ['PUT', 'DELETE'] };
    if (rest.length === 2 && rest[0] === 'schema') return { key: 'field', params: [rest[1]!], allow: ['DELETE'] };
    return undefined;
  }

  return (request, url) => {
    const parts = segments(url.pathname, prefix);
    const found = parts && match(parts);
    if (!found) return undefined;
    // `/indexes/catalog/batch` is also an item path: PUT and DELETE address the item "batch".
    const key = found.key === 'batch' && request.method !== 'POST' ? 'item' : found.key;
    const params = key === 'item' && found.key === 'batch' ? ['batch'] : found.params;
    const handle = routes[`${request.method} ${key}`];
    if (!handle) return Promise.resolve(methodNotAllowed(found.allow, { error: 'method_not_allowed', message: `${request.method} is not allowed on ${url.pathname}` }));
    return guarded(() => handle(request, params), (error) => render(error, key === 'batch'), onError, () => json({ error: 'internal_error', message: 'internal error' }, 500));
  };
}

/**
 * Creates the handler of the catalog interface v1: `PUT`/`DELETE /indexes/catalog/{itemID}`,
 * `DELETE /indexes/catalog`, `DELETE /indexes/catalog/schema/{fieldID}` and
 * `POST /indexes/catalog/batch`, each with `authorization: Bearer <catalog key>`.
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
