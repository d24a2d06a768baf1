import type { FieldType } from '../model/field-types';

/**
 * A catalog item: a JSON object with the standard fields of interfaces.md, Catalog items and custom fields.
 *
 * @example
 * ```ts
 * const item: CatalogItem | undefined = await catalog.get('sku-1');
 * console.log(item?.id, item?.price);
 * ```
 */
export type CatalogItem = Readonly<Record<string, unknown>> & { readonly id: string };

/**
 * A catalog as stored: its identifier and the hashes of its two keys.
 *
 * @example
 * ```ts
 * const record: CatalogRecord | undefined = await storage.catalogs.getCatalog('acme');
 * if (record) console.log(record.identifier, new Date(record.createdAt));
 * ```
 */
export interface CatalogRecord {
  /** Customer identifier: a lower-case DNS label. */
  readonly identifier: string;
  /** Keyed SHA-256 (hex) of the catalog key, which manages the catalog. */
  readonly catalogKeyHash: string;
  /** Keyed SHA-256 (hex) of the search key, which only reads. */
  readonly searchKeyHash: string;
  /** Epoch milliseconds. */
  readonly createdAt: number;
}

/**
 * A custom field of the schema. `type` null: the field exists but only empty values were sent.
 *
 * @example
 * ```ts
 * const fields: SchemaField[] = await storage.catalogs.schema('acme');
 * for (const f of fields) console.log(f.name, f.type ?? '(untyped)');
 * ```
 */
export interface SchemaField {
  readonly name: string;
  readonly type: FieldType | null;
  /** Epoch milliseconds. */
  readonly createdAt: number;
}

/**
 * What an operation needs of a field: it exists, with this type when not null.
 *
 * @example
 * ```ts
 * // What Catalog.batch hands the store once the items are validated:
 * const claims: FieldClaim[] = [{ name: 'color', type: 'string' }, { name: 'sizes', type: null }];
 * await storage.catalogs.applyBatch('acme', claims, [{ op: 'put', item: { ...item, id: 'sku-1', color: 'red', sizes: [] } }], Date.now());
 * ```
 */
export interface FieldClaim {
  readonly name: string;
  readonly type: FieldType | null;
}

/**
 * An operation of a batch, already validated.
 *
 * @example
 * ```ts
 * // What Catalog.batch hands the store once the items are validated:
 * const operations: CatalogOperation[] = [{ op: 'put', item: { ...item, id: 'sku-2' } }, { op: 'delete', id: 'sku-1' }];
 * await storage.catalogs.applyBatch('acme', [], operations, Date.now());
 * ```
 */
export type CatalogOperation = { readonly op: 'put'; readonly item: CatalogItem } | { readonly op: 'delete'; readonly id: string };

/**
 * The published catalog: what search and recommendations see.
 *
 * @example
 * ```ts
 * const visible: VisibleCatalog = await catalog.visible();
 * console.log(`version ${visible.version}: ${visible.items.length} items, synced at ${visible.syncedAt}`);
 * ```
 */
export interface VisibleCatalog {
  /** 0 before the first synchronization, then grows by one at each. */
  readonly version: number;
  /** Epoch milliseconds of the synchronization, or null before the first. */
  readonly syncedAt: number | null;
  /** Every item, ordered by id. */
  readonly items: readonly CatalogItem[];
}

/**
 * Port: catalogs, their accepted items and schema, and their visible snapshots.
 *
 * `applyBatch` is the one atomic write: it claims fields (creating an absent one, typing an
 * untyped one, and refusing with a `ConflictError` of code `field_type_conflict` when a field
 * already has another type) and applies the operations in order, all or nothing. Two writers
 * racing to create one field with different types: exactly one wins.
 *
 * @example
 * ```ts
 * const store: CatalogStore = storage.catalogs;
 * const { version, syncedAt } = await store.visibleVersion('acme');
 * const pending = (await store.countItems('acme')) - (await store.visibleItems('acme')).items.length;
 * ```
 */
export interface CatalogStore {
  /** Creates a catalog; `ConflictError` when the identifier or a key hash is taken. */
  createCatalog(record: CatalogRecord): Promise<void>;
  /** Replaces a catalog's key hashes (rotation). */
  setKeys(identifier: string, keys: { catalogKeyHash: string; searchKeyHash: string }): Promise<void>;
  /** The catalog, or undefined. */
  getCatalog(identifier: string): Promise<CatalogRecord | undefined>;
  /** The catalog a key hash belongs to, and which key it is. */
  findByKeyHash(hash: string): Promise<{ catalog: CatalogRecord; role: 'catalog' | 'search' } | undefined>;
  /** Every catalog, ordered by identifier. */
  listCatalogs(): Promise<CatalogRecord[]>;

  /** The custom fields, ordered by name. */
  schema(identifier: string): Promise<SchemaField[]>;
  /** Atomically claims fields and applies operations in order (see the interface comment). */
  applyBatch(identifier: string, claims: readonly FieldClaim[], operations: readonly CatalogOperation[], now: number): Promise<void>;
  /** Deletes every accepted item; the schema is kept. Returns how many were deleted. */
  deleteAllItems(identifier: string): Promise<number>;
  /** Removes a custom field from the schema and from every accepted item; false when absent. */
  deleteField(identifier: string, name: string): Promise<boolean>;
  /** An accepted item, or undefined. */
  getItem(identifier: string, id: string): Promise<CatalogItem | undefined>;
  /** Number of accepted items. */
  countItems(identifier: string): Promise<number>;

  /**
   * Atomically publishes the accepted items as the next visible version; when nothing was
   * written since the last publication, keeps that one (same version) and returns it.
   */
  publish(identifier: string, now: number): Promise<{ version: number; syncedAt: number; count: number }>;
  /** The visible version and its time, cheaply, so readers can tell when to reload. */
  visibleVersion(identifier: string): Promise<{ version: number; syncedAt: number | null }>;
  /**
   * The visible snapshot, all of one version. `reuse`: the `items` of an earlier read from this
   * store, as returned; a store may return those whose stored row has not changed since, instead
   * of reading and parsing them again (the SQL stores do, for a list they returned themselves).
   */
  visibleItems(identifier: string, reuse?: readonly CatalogItem[]): Promise<VisibleCatalog>;
}
