/**
 * A catalog's settings as the admin API keeps them: how often it synchronizes and how it is
 * searched.
 *
 * @example
 * ```ts
 * const settings: CatalogSettingsRecord | undefined = await storage.catalogSettings.get('acme');
 * console.log(settings?.syncIntervalMs ?? 'daily (the default)');
 * ```
 */
export interface CatalogSettingsRecord {
  readonly identifier: string;
  /** Milliseconds between scheduled synchronizations, or null for the default (daily). */
  readonly syncIntervalMs: number | null;
  /** Search settings (the options of a SearchService: ranking, synonyms, …), or null. At most 64 KiB of JSON. */
  readonly search: Readonly<Record<string, unknown>> | null;
  /** Epoch milliseconds of the last change. */
  readonly updatedAt: number;
}

/**
 * Port: catalog settings set through the admin API (a catalog without any has no record).
 *
 * @example
 * ```ts
 * const store: CatalogSettingsStore = storage.catalogSettings;
 * await store.put({ identifier: 'acme', syncIntervalMs: 3_600_000, search: null, updatedAt: Date.now() });
 * ```
 */
export interface CatalogSettingsStore {
  /** The catalog's settings, or undefined. */
  get(identifier: string): Promise<CatalogSettingsRecord | undefined>;
  /** Creates or replaces the catalog's settings. */
  put(record: CatalogSettingsRecord): Promise<void>;
  /** Every record, ordered by identifier. */
  list(): Promise<CatalogSettingsRecord[]>;
}
