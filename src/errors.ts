/**
 * Typed errors. Every error abkit throws on purpose is an {@link AbkitError}
 * carrying a stable `code` and the HTTP `status` an interface answers with,
 * so a host can map them without parsing messages.
 *
 * @module
 */

/**
 * Where a problem is in the input: object keys and array indexes, outermost first, as zod gives
 * them (`['batch', 3, 'product', 'price']`); empty for the input as a whole.
 *
 * @example
 * ```ts
 * const path: ErrorPath = ['campaigns', 0, 'variationGroups', 1, 'id'];
 * ```
 */
export type ErrorPath = readonly (string | number)[];

/**
 * One problem found while validating input: where it is and what is wrong.
 *
 * @example
 * ```ts
 * try {
 *   await engine.load({ campaigns: [{ id: '' }] });
 * } catch (e) {
 *   if (e instanceof ValidationError) e.details.forEach((d: ErrorDetail) => console.log(formatPath(d.path), d.message));
 * }
 * ```
 */
export interface ErrorDetail {
  /** Where the offending value is, e.g. `['campaigns', 0, 'variationGroups', 1, 'id']`. */
  path: ErrorPath;
  /** What is wrong with it. */
  message: string;
}

/**
 * An {@link ErrorPath} as a JSON path for messages: `campaigns[0].variationGroups[1].id`, or
 * `root` for the empty path.
 *
 * @example
 * ```ts
 * formatPath(['campaigns', 0, 'id']); // 'campaigns[0].id'
 * formatPath([]); // '(root)'
 * ```
 */
export function formatPath(path: ErrorPath, root = '(root)'): string {
  let out = '';
  for (const p of path) {
    if (typeof p === 'number') out += `[${p}]`;
    else out += out === '' ? p : `.${p}`;
  }
  return out === '' ? root : out;
}

/**
 * Base class of every error abkit throws on purpose.
 *
 * @example
 * ```ts
 * try { await engine.decide({ visitorId: '' }); }
 * catch (e) { if (e instanceof AbkitError) console.log(e.status, e.code, e.message); }
 * ```
 */
export class AbkitError extends Error {
  /** Stable machine-readable code, e.g. `validation_error`. */
  readonly code: string;
  /** HTTP status an interface answers with for this error. */
  readonly status: number;
  /** Individual problems, when the error gathers several (validation). */
  readonly details: readonly ErrorDetail[];

  /**
   * Creates the error.
   *
   * @param message - What went wrong, as a plain sentence (the class and `code` say it is abkit's).
   * @param code - Stable machine-readable code.
   * @param status - HTTP status.
   * @param details - Individual problems, when there are several.
   */
  constructor(message: string, code: string, status: number, details: readonly ErrorDetail[] = []) {
    super(message);
    this.name = new.target.name;
    this.code = code;
    this.status = status;
    this.details = details;
  }
}

/**
 * Input that breaks a rule (HTTP 400). `details` lists every problem with its JSON path.
 *
 * @example
 * ```ts
 * throw new ValidationError('visitor_id must be a non-empty string', [{ path: ['visitor_id'], message: 'required' }]);
 * ```
 */
export class ValidationError extends AbkitError {
  /** Creates the error; `code` defaults to `validation_error`. */
  constructor(message: string, details: readonly ErrorDetail[] = [], code = 'validation_error') {
    super(message, code, 400, details);
  }
}

/**
 * Missing or invalid credentials (HTTP 401).
 *
 * @example
 * ```ts
 * throw new AuthenticationError('x-api-key is missing');
 * ```
 */
export class AuthenticationError extends AbkitError {
  /** Creates the error; `code` defaults to `unauthorized`. */
  constructor(message: string, code = 'unauthorized') {
    super(message, code, 401);
  }
}

/**
 * Valid credentials that do not allow the operation (HTTP 403).
 *
 * @example
 * ```ts
 * throw new PermissionError('this key cannot manage the catalog');
 * ```
 */
export class PermissionError extends AbkitError {
  /** Creates the error; `code` defaults to `forbidden`. */
  constructor(message: string, code = 'forbidden') {
    super(message, code, 403);
  }
}

/**
 * The named resource does not exist (HTTP 404).
 *
 * @example
 * ```ts
 * throw new NotFoundError('environment "prod" does not exist');
 * ```
 */
export class NotFoundError extends AbkitError {
  /** Creates the error; `code` defaults to `not_found`. */
  constructor(message: string, code = 'not_found') {
    super(message, code, 404);
  }
}

/**
 * A request body over the configured limit (HTTP 413).
 *
 * @example
 * ```ts
 * throw new PayloadTooLargeError('body exceeds 52428800 bytes');
 * ```
 */
export class PayloadTooLargeError extends AbkitError {
  /** Creates the error; `code` defaults to `payload_too_large`. */
  constructor(message: string, code = 'payload_too_large') {
    super(message, code, 413);
  }
}

/**
 * A write that lost a race or contradicts the current state (HTTP 409).
 *
 * @example
 * ```ts
 * throw new ConflictError('environment "prod" changed since version 3');
 * ```
 */
export class ConflictError extends AbkitError {
  /** Creates the error; `code` defaults to `conflict`. */
  constructor(message: string, code = 'conflict', details: readonly ErrorDetail[] = []) {
    super(message, code, 409, details);
  }
}

/**
 * The store cannot be reached or cannot do its work right now (HTTP 503): a lost PostgreSQL
 * connection, a SQLite database locked or failing I/O. Interfaces answer 503 `{ message }` with
 * `Retry-After`; the next request after the store returns succeeds, no restart needed.
 *
 * @example
 * ```ts
 * try { await engine.decide({ visitorId: 'v1' }); }
 * catch (e) { if (e instanceof StorageUnavailableError) await new Promise((wake) => setTimeout(wake, e.retryAfterSeconds * 1000)); }
 * ```
 */
export class StorageUnavailableError extends AbkitError {
  /** Seconds a client should wait before trying again (the `Retry-After` header). */
  readonly retryAfterSeconds: number;

  /** Creates the error; `cause` keeps the driver's error for logs. */
  constructor(message: string, options: { cause?: unknown; retryAfterSeconds?: number } = {}) {
    super(message, 'storage_unavailable', 503);
    this.retryAfterSeconds = options.retryAfterSeconds ?? 1;
    if (options.cause !== undefined) Object.defineProperty(this, 'cause', { value: options.cause, enumerable: false });
  }
}
