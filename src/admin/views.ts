/**
 * What the admin operations take and answer: accounts, environments, catalogs and their keys and
 * settings, as the admin API writes them.
 *
 * @module
 */
import type { CatalogSearchSettings } from '../bootstrap/schema';
import type { CatalogSettingsRecord } from '../storage/catalog-settings';
import type { EnvironmentRecord } from '../storage/environments';

/**
 * An account as listed: its environments (id, version, whether a key is required, whether it
 * is the default), never a key.
 *
 * @example
 * ```ts
 * const { accounts }: { accounts: AccountView[] } = await abkit.admin.listAccounts();
 * for (const a of accounts) console.log(a.id, a.environments.map((e) => e.id));
 * ```
 */
export interface AccountView {
  readonly id: string;
  /** Epoch milliseconds; null for an account that exists only through its environments. */
  readonly createdAt: number | null;
  readonly defaultEnvironment: string | null;
  readonly environments: readonly EnvironmentView[];
}

/**
 * An environment as the admin API shows it.
 *
 * @example
 * ```ts
 * const env: EnvironmentView = await abkit.admin.updateEnvironment('ops', 'acme', 'prod', { default: true });
 * console.log(env.id, env.version, env.apiKeyRequired, env.default);
 * ```
 */
export interface EnvironmentView {
  readonly id: string;
  readonly version: number;
  readonly updatedAt: number;
  /** Whether decisions need an `x-api-key`. */
  readonly apiKeyRequired: boolean;
  /** Whether it is its account's default environment. */
  readonly default: boolean;
  /** A new API key: present only in the answer that generated it. */
  readonly apiKey?: string;
}

/**
 * What {@link abkit!AdminService.createEnvironment} takes.
 *
 * @example
 * ```ts
 * const input: CreateEnvironmentInput = { id: 'prod', default: true, apiKey: true };
 * const { apiKey } = await abkit.admin.createEnvironment('ops', 'acme', input); // shown only now
 * ```
 */
export interface CreateEnvironmentInput {
  /** Environment id, unique across accounts: 1–128 letters, digits, `.`, `_`, `-`. */
  id: string;
  /** Make it the account's default environment. @defaultValue `false` */
  default?: boolean;
  /** Generate an API key that decisions then require (shown once). @defaultValue `false` */
  apiKey?: boolean;
}

/**
 * What {@link abkit!AdminService.updateEnvironment} takes: each member present is one change.
 *
 * @example
 * ```ts
 * const change: UpdateEnvironmentInput = { apiKey: 'rotate' };
 * const { apiKey } = await abkit.admin.updateEnvironment('ops', 'acme', 'prod', change); // the new key, once
 * ```
 */
export interface UpdateEnvironmentInput {
  /** `true`: make it the account's default; `false`: the account has no default any more (when it was this one). */
  default?: boolean;
  /** `rotate`: a new key (shown once), the old one stops; `remove`: decisions need no key. */
  apiKey?: 'rotate' | 'remove';
}

/**
 * What {@link abkit!AdminService.createCatalog} takes.
 *
 * @example
 * ```ts
 * const input: CreateCatalogSettings = { identifier: 'shop', syncIntervalMs: 3_600_000, search: { customRanking: ['popularity:desc'] } };
 * const { catalogApiKey, searchApiKey } = await abkit.admin.createCatalog('ops', input);
 * ```
 */
export interface CreateCatalogSettings extends CatalogSettingsInput {
  /** A lower-case DNS label. */
  identifier: string;
}

/**
 * A catalog's settings as given: each member present replaces the stored one (null: back to the default).
 *
 * @example
 * ```ts
 * const settings: CatalogSettingsInput = { syncIntervalMs: 900_000 };
 * await abkit.admin.updateCatalogSettings('ops', 'shop', settings);
 * ```
 */
export interface CatalogSettingsInput {
  /** Milliseconds between scheduled synchronizations, 1,000 to 30 days; null: daily. */
  syncIntervalMs?: number | null;
  /** The catalog's search settings (the bootstrap file's `catalogs[].search`); null: none. */
  search?: CatalogSearchSettings | null;
}

/**
 * A catalog's settings as the admin API shows them.
 *
 * @example
 * ```ts
 * const view: CatalogSettingsView = await abkit.admin.catalogSettings('shop');
 * console.log(view.syncIntervalMs ?? 'daily', view.search);
 * ```
 */
export interface CatalogSettingsView {
  readonly identifier: string;
  readonly syncIntervalMs: number | null;
  readonly search: Readonly<Record<string, unknown>> | null;
}

/**
 * A catalog's new keys, the only time they are shown.
 *
 * @example
 * ```ts
 * const keys: CatalogKeys = await abkit.admin.rotateCatalogKeys('ops', 'shop', { search: false });
 * console.log(keys.catalogApiKey, keys.searchApiKey ?? '(search key unchanged)');
 * ```
 */
export interface CatalogKeys {
  readonly identifier: string;
  readonly catalogApiKey: string;
  /** Absent when the search key was kept. */
  readonly searchApiKey?: string;
}

/** An environment as the admin API answers it. */
export function view(record: EnvironmentRecord, defaultEnvironment: string | null): EnvironmentView {
  return {
    id: record.id,
    version: record.version,
    updatedAt: record.updatedAt,
    apiKeyRequired: record.apiKeyHash !== null,
    default: record.id === defaultEnvironment,
  };
}

/** A catalog's settings as the admin API answers them. */
export function settingsView(record: Pick<CatalogSettingsRecord, 'identifier' | 'syncIntervalMs' | 'search'>): CatalogSettingsView {
  return { identifier: record.identifier, syncIntervalMs: record.syncIntervalMs, search: record.search };
}
