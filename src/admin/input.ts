/**
 * The limits of the admin operations and the checks of what they are given: ids that travel in
 * URL paths, members a request may hold, JSON objects.
 *
 * @module
 */
import { catalogSearchSchema, type CatalogSearchSettings } from '../bootstrap/schema';
import type { BatchOperation } from '../catalog/catalog';
import { ValidationError, type ErrorDetail } from '../errors';
import { parseWith } from '../validation';
import type { CatalogSettingsInput } from './views';

/**
 * Prefix of environment API keys the admin API generates.
 *
 * @example
 * ```ts
 * const { apiKey } = await abkit.admin.createEnvironment('ops', 'acme', { id: 'prod', apiKey: true });
 * apiKey?.startsWith(ENVIRONMENT_KEY_PREFIX); // true: 'abk_ek_...'
 * ```
 */
export const ENVIRONMENT_KEY_PREFIX = 'abk_ek_';

/**
 * Ceilings of the admin API.
 *
 * @example
 * ```ts
 * const { accounts } = await abkit.admin.listAccounts();
 * if (accounts.length >= ADMIN_LIMITS.accounts) console.warn('no more accounts can be created');
 * ```
 */
export const ADMIN_LIMITS = Object.freeze({
  /** Accounts (created here or holding environments). */
  accounts: 1000,
  /** Environments of one account. */
  environmentsPerAccount: 100,
  /** Characters of an account or environment id created here. */
  idLength: 128,
  /** Characters of a catalog's search settings as JSON. */
  searchSettingsBytes: 65_536,
  /** Longest scheduled synchronization interval: 30 days, in milliseconds. */
  maxSyncIntervalMs: 30 * 86_400_000,
});

// Ids travel in URL paths (`/{account}/token`, `/v2/{env}/campaigns`): letters, digits, `.`, `_`, `-`.
export const ID = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;

export function idProblem(value: unknown, path: string): ErrorDetail | undefined {
  if (typeof value !== 'string' || value.length < 1 || value.length > ADMIN_LIMITS.idLength || !ID.test(value))
    return {
      path: [path],
      message: `must be 1 to ${ADMIN_LIMITS.idLength} letters, digits, ".", "_" or "-", starting with a letter or digit`,
    };
  return undefined;
}

export function fail(what: string, details: readonly ErrorDetail[]): never {
  throw new ValidationError(`invalid ${what}: ${details.map((d) => `${d.path.join('.')} ${d.message}`).join('; ')}`, details);
}

/** Rejects members other than `known`, naming them. */
export function onlyKnown(input: object, known: readonly string[], what: string): void {
  const unknown = Object.keys(input).filter((k) => !known.includes(k));
  if (unknown.length > 0)
    fail(
      what,
      unknown.map((k) => ({ path: [k], message: `is not a member (known: ${known.join(', ')})` })),
    );
}

export function plainObject(value: unknown, what: string): Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) fail(what, [{ path: [], message: 'must be a JSON object' }]);
  return value as Record<string, unknown>;
}

/** Checks catalog settings (`syncIntervalMs`, `search`), naming every bad one. */
export function checkSettings(body: Record<string, unknown>, what: string): CatalogSettingsInput {
  const problems: ErrorDetail[] = [];
  const interval = body.syncIntervalMs;
  if (
    interval !== undefined &&
    interval !== null &&
    (!Number.isInteger(interval) || (interval as number) < 1000 || (interval as number) > ADMIN_LIMITS.maxSyncIntervalMs)
  )
    problems.push({
      path: ['syncIntervalMs'],
      message: `must be an integer from 1000 (1 s) to ${ADMIN_LIMITS.maxSyncIntervalMs} (30 days), or null`,
    });
  let search: CatalogSearchSettings | null | undefined;
  if (body.search === null) search = null;
  else if (body.search !== undefined) {
    if (JSON.stringify(body.search).length > ADMIN_LIMITS.searchSettingsBytes)
      problems.push({ path: ['search'], message: `is over ${ADMIN_LIMITS.searchSettingsBytes} characters of JSON` });
    else
      try {
        search = parseWith(catalogSearchSchema, body.search, 'search settings');
      } catch (error) {
        if (!(error instanceof ValidationError)) throw error;
        problems.push(...error.details.map((d) => ({ path: ['search', ...d.path], message: d.message })));
      }
  }
  if (problems.length > 0) fail(what, problems);
  return {
    ...(interval !== undefined ? { syncIntervalMs: interval as number | null } : {}),
    ...(search !== undefined ? { search } : {}),
  };
}

/** Which settings a change touched (not their values: search settings can be long). */
export function settingsDetail(input: unknown): Record<string, unknown> | null {
  if (typeof input !== 'object' || input === null) return null;
  const changed = ['syncIntervalMs', 'search'].filter((k) => k in input);
  const interval = (input as { syncIntervalMs?: unknown }).syncIntervalMs;
  return { changed, ...(typeof interval === 'number' || interval === null ? { syncIntervalMs: interval } : {}) };
}

/** Items as create-replace operations of one batch: a JSON array, each an object (`Catalog.batch` checks the rest). */
export function itemOperations(items: unknown): BatchOperation[] {
  if (!Array.isArray(items)) fail('items', [{ path: [], message: 'must be a JSON array of items' }]);
  const bad = items.findIndex((item) => typeof item !== 'object' || item === null || Array.isArray(item));
  if (bad >= 0) fail('items', [{ path: [bad], message: 'must be a JSON object (an item)' }]);
  return items.map((product) => ({ operation: 'create-replace', product }));
}
