import { ConflictError, NotFoundError, PayloadTooLargeError, ValidationError, type ErrorDetail } from '../errors';
import type { CatalogItem, CatalogOperation, FieldClaim, VisibleCatalog } from '../storage/catalog';
import type { Storage } from '../storage/storage';
import { frozenCopy } from '../freeze';
import { runAtOnce, runInSlices, SLICE_OPERATIONS } from '../slices';
import { checkItem, checkItemId, isStandardField, STANDARD_FIELDS, type ItemProblem, type SchemaLookup } from './typing';
import type { FieldType } from '../model/field-types';

/**
 * Most operations one batch may hold (interfaces.md, Limits).
 *
 * @example
 * ```ts
 * for (let i = 0; i < operations.length; i += MAX_BATCH_OPERATIONS) {
 *   await catalog.batch(operations.slice(i, i + MAX_BATCH_OPERATIONS)); // each chunk is atomic on its own
 * }
 * ```
 */
export const MAX_BATCH_OPERATIONS = 10_000;
/**
 * A batch payload must be smaller than this many bytes: 50 MB (interfaces.md, Limits).
 *
 * @example
 * ```ts
 * const body = JSON.stringify(operations);
 * if (new TextEncoder().encode(body).length >= MAX_BATCH_BYTES) throw new Error('split the batch: it must stay under 50 MB');
 * ```
 */
export const MAX_BATCH_BYTES = 50 * 1024 * 1024;
/**
 * Most custom fields a catalog's schema holds: 1,000 (interfaces.md, Limits). Search indexes
 * every field over every item, searches the text of every string field and facets every
 * string, list and boolean field: a few items with thousands of fields made each search of
 * their catalog answer a megabyte of facets and slowed every other catalog's. Real catalogs have
 * tens of fields (the sample catalogs of the tests at most 12); Meilisearch's hard limit,
 * 65,536 per document, is a storage format's, not a shop's. A field no longer used is deleted
 * with {@link Catalog.deleteSchemaField}.
 *
 * @example
 * ```ts
 * const { fields } = await catalog.schema();
 * const room = MAX_SCHEMA_FIELDS - fields.filter((f) => !f.standard).length; // new fields a batch may still create
 * ```
 */
export const MAX_SCHEMA_FIELDS = 1_000;
/**
 * Default interval of the synchronization scheduler: once a day (interfaces.md, Catalog synchronization).
 *
 * @example
 * ```ts
 * const schedule = catalog.startSync({ intervalMs: DEFAULT_SYNC_INTERVAL_MS / 24 }); // hourly instead of daily
 * process.on('SIGTERM', () => schedule.stop());
 * ```
 */
export const DEFAULT_SYNC_INTERVAL_MS = 86_400_000;

/**
 * One operation of a batch, as sent (interfaces.md, Catalog batches).
 *
 * @example
 * ```ts
 * const operations: BatchOperation[] = [
 *   { operation: 'create-replace', product: { id: 'sku-2', is_recommendable: true, name: 'Case', absolute_link: null, img_link: null, price: 19, categories_ids: [] } },
 *   { operation: 'delete', product: { id: 'sku-1' } },
 * ];
 * await catalog.batch(operations);
 * ```
 */
export interface BatchOperation {
  /** `create-replace` (the product is a whole item) or `delete` (the product carries `id`). */
  operation: 'create-replace' | 'delete';
  product: Record<string, unknown>;
}

/**
 * One failing operation of a batch.
 *
 * @example
 * ```ts
 * try {
 *   await catalog.batch(operations);
 * } catch (e) {
 *   if (e instanceof CatalogValidationError) e.problems.forEach((p: BatchProblem) => console.log(`#${p.index} ${p.field ?? ''}: ${p.reason}`));
 * }
 * ```
 */
export interface BatchProblem extends ItemProblem {
  /** Index of the operation in the batch. */
  readonly index: number;
}

/**
 * A batch (or single write) that breaks the rules: every failing operation is listed, and
 * nothing was applied.
 *
 * @example
 * ```ts
 * try {
 *   await catalog.batch([{ operation: 'create-replace', product: { id: 'sku-1', price: 'cheap' } }]);
 * } catch (e) {
 *   if (e instanceof CatalogValidationError) for (const p of e.problems) console.log(p.index, p.field, p.reason);
 * }
 * ```
 */
export class CatalogValidationError extends ValidationError {
  /** Every failing operation, in batch order. */
  readonly problems: readonly BatchProblem[];

  /** Creates the error from the failing operations. */
  constructor(problems: readonly BatchProblem[], code = 'invalid_catalog_operation') {
    const details: ErrorDetail[] = problems.map((p) => ({ path: [p.index, ...problemPath(p.field)], message: p.reason }));
    const shown = problems.slice(0, 5).map((p) => `operation ${p.index}: ${p.reason}`);
    const more = problems.length > 5 ? `; and ${problems.length - 5} more` : '';
    const operations = new Set(problems.map((p) => p.index)).size;
    super(`${operations} invalid operation${operations === 1 ? '' : 's'}, nothing applied: ${shown.join('; ')}${more}`, details, code);
    this.problems = problems;
  }
}

// `operation` and `product` are members of the operation; any other field is in its product.
function problemPath(field: string | undefined): string[] {
  if (field === undefined) return [];
  return field === 'operation' || field === 'product' ? [field] : ['product', field];
}

/**
 * What a successful write applied.
 *
 * @example
 * ```ts
 * const result: BatchResult = await catalog.batch(operations);
 * console.log(`${result.accepted} applied: ${result.upserted} upserted, ${result.deleted} deleted`);
 * ```
 */
export interface BatchResult {
  /** Operations applied. */
  readonly accepted: number;
  /** Items added or replaced. */
  readonly upserted: number;
  /** Delete operations applied (deleting an absent item is accepted and counts). */
  readonly deleted: number;
}

/**
 * A field as {@link Catalog.schema} shows it.
 *
 * @example
 * ```ts
 * const { fields } = await catalog.schema();
 * const required: SchemaFieldView[] = fields.filter((f) => f.required);
 * console.log(required.map((f) => `${f.name}: ${f.type}`));
 * ```
 */
export interface SchemaFieldView {
  readonly name: string;
  /** The type, or null for a custom field that only ever received empty values. */
  readonly type: FieldType | null;
  readonly standard: boolean;
  /** Whether null is accepted (always, for custom fields: null is an empty value). */
  readonly nullable: boolean;
  /** Whether every item must carry it. */
  readonly required: boolean;
}

/**
 * The result of {@link Catalog.sync}.
 *
 * @example
 * ```ts
 * const result: SyncResult = await catalog.sync();
 * console.log(`published version ${result.version}: ${result.count} items`);
 * ```
 */
export interface SyncResult {
  readonly version: number;
  readonly syncedAt: number;
  readonly count: number;
}

/**
 * A running synchronization scheduler.
 *
 * @example
 * ```ts
 * const schedule: SyncSchedule = catalog.startSync({ intervalMs: 15 * 60_000 });
 * process.on('SIGTERM', () => schedule.stop());
 * ```
 */
export interface SyncSchedule {
  /** Stops it; a synchronization under way finishes. */
  stop(): void;
}

/**
 * An analytics event to link to items (interfaces.md, Analytics linking).
 *
 * @example
 * ```ts
 * const event: AnalyticsEvent = { name: 'purchase', properties: { order_id: 'o-981', sku: 'sku-1' } };
 * const items = await catalog.linkEvent(event);
 * ```
 */
export interface AnalyticsEvent {
  /** `purchase` links through `item_purchase_key`, `pageview` through `item_pageview_key`. */
  name: 'purchase' | 'pageview';
  /** Event properties; string and number values are matched against the items' keys. */
  properties: Readonly<Record<string, unknown>>;
}

/**
 * Options of {@link Catalog}.
 *
 * @example
 * ```ts
 * const options: CatalogOptions = { identifier: 'acme', storage, onSyncError: (e) => logger.warn('catalog sync failed', e) };
 * const catalog = new Catalog(options);
 * ```
 */
export interface CatalogOptions {
  /** The customer identifier; the catalog must exist in the storage (see `CatalogRegistry`). */
  identifier: string;
  /** Where the catalog lives. */
  storage: Storage;
  /** Current time in epoch milliseconds. @defaultValue `Date.now` */
  clock?: () => number;
  /** Receives errors of scheduled synchronizations. @defaultValue `console.error` */
  onSyncError?: (error: unknown) => void;
}

interface KeyIndex {
  version: number;
  items: readonly CatalogItem[];
  purchase: Map<string, CatalogItem[]>;
  pageview: Map<string, CatalogItem[]>;
}

/** The analytics key index of one visible version, built in steps of {@link SLICE_OPERATIONS} items (100,000 items in one go held the event loop). */
function* keyIndexSteps(version: number, items: readonly CatalogItem[]): Generator<void, KeyIndex> {
  const purchase = new Map<string, CatalogItem[]>();
  const pageview = new Map<string, CatalogItem[]>();
  const add = (map: Map<string, CatalogItem[]>, item: CatalogItem, keys: unknown) => {
    if (!Array.isArray(keys)) return;
    for (const key of new Set(keys as string[])) {
      const list = map.get(key);
      if (list) list.push(item);
      else map.set(key, [item]);
    }
  };
  for (let i = 0; i < items.length; i++) {
    const item = items[i]!;
    add(purchase, item, item.item_purchase_key);
    add(pageview, item, item.item_pageview_key);
    if ((i + 1) % SLICE_OPERATIONS === 0) yield;
  }
  return { version, items, purchase, pageview };
}

/**
 * Validates a batch against a schema without writing anything: the operations as the store
 * applies them, and the field claims they make. Typing takes into account fields created by
 * earlier operations of the same batch. Throws {@link CatalogValidationError} listing every
 * failing operation. `schemaFields`: how many custom fields the schema holds, for
 * {@link MAX_SCHEMA_FIELDS}.
 *
 * @example
 * ```ts
 * const { prepared, claims } = prepareBatch([{ operation: 'create-replace', product: item }], () => undefined);
 * ```
 */
export function prepareBatch(
  operations: readonly BatchOperation[],
  schema: SchemaLookup,
  schemaFields = 0,
): { claims: FieldClaim[]; prepared: CatalogOperation[] } {
  return runAtOnce(prepareSteps(operations, schema, schemaFields));
}

/**
 * {@link prepareBatch} as sliced work: it yields every {@link SLICE_OPERATIONS} operations.
 * `schemaFields`: custom fields the schema holds already, for {@link MAX_SCHEMA_FIELDS}.
 */
function* prepareSteps(
  operations: readonly BatchOperation[],
  schema: SchemaLookup,
  schemaFields: number,
): Generator<void, { claims: FieldClaim[]; prepared: CatalogOperation[] }> {
  // Fields as this batch leaves them: earlier operations may create or type a field.
  const local = new Map<string, FieldType | null>();
  const lookup = (name: string) => (local.has(name) ? local.get(name) : schema(name));
  // Custom fields once the operations prepared so far are applied.
  let fieldCount = schemaFields;
  const problems: BatchProblem[] = [];
  const prepared: CatalogOperation[] = [];
  const prepareOne = (op: BatchOperation, index: number): void => {
    if (op === null || typeof op !== 'object' || Array.isArray(op)) {
      problems.push({ index, reason: 'an operation must be an object { operation, product }' });
      return;
    }
    const { operation, product } = op as unknown as Record<string, unknown>;
    if (operation !== 'create-replace' && operation !== 'delete') {
      problems.push({ index, field: 'operation', reason: `unknown operation ${JSON.stringify(operation)}; use create-replace or delete` });
      return;
    }
    if (product === null || typeof product !== 'object' || Array.isArray(product)) {
      problems.push({ index, field: 'product', reason: 'product must be an object' });
      return;
    }
    if (operation === 'delete') {
      const problem = checkItemId((product as Record<string, unknown>).id);
      if (problem) problems.push({ index, ...problem });
      else prepared.push({ op: 'delete', id: (product as { id: string }).id });
      return;
    }
    const check = checkItem(product, lookup);
    if (check.problems.length > 0) {
      for (const p of check.problems) problems.push({ index, ...p });
      return;
    }
    let created = 0;
    let first: string | undefined;
    for (const name of check.fields.keys()) {
      if (lookup(name) === undefined) {
        created++;
        first ??= name;
      }
    }
    if (fieldCount + created > MAX_SCHEMA_FIELDS) {
      const id = (product as { id: string }).id;
      problems.push({
        index,
        id,
        field: first,
        reason: `item ${JSON.stringify(id)} would create ${created} field${created === 1 ? '' : 's'} (${first}…) where the schema holds ${fieldCount} custom fields; the limit is ${MAX_SCHEMA_FIELDS} (delete unused fields with DELETE /indexes/catalog/schema/{fieldID})`,
      });
      return;
    }
    fieldCount += created;
    for (const [name, type] of check.fields) {
      const current = lookup(name);
      if (current === undefined || (current === null && type !== null)) local.set(name, type);
    }
    // Copied here, a slice at a time, rather than all at once by the store that keeps it.
    prepared.push({ op: 'put', item: frozenCopy(product) as CatalogItem });
  };
  for (let index = 0; index < operations.length; index++) {
    prepareOne(operations[index]!, index);
    if ((index + 1) % SLICE_OPERATIONS === 0) yield;
  }
  if (problems.length > 0) throw new CatalogValidationError(problems);
  // Claim every custom field the batch uses, so the store catches a concurrent retyping.
  const used = new Set<string>();
  for (const op of prepared) if (op.op === 'put') for (const name of Object.keys(op.item)) if (!isStandardField(name)) used.add(name);
  const claims = [...used].map((name) => ({ name, type: lookup(name) ?? null }));
  return { claims, prepared };
}

/**
 * One customer's product catalog (interfaces.md, Catalog): items added, replaced and deleted singly or
 * in batches, a dynamically typed schema, and a synchronization that publishes what search and
 * recommendations see. Writes change the accepted catalog only; {@link Catalog.visible} changes
 * at {@link Catalog.sync}.
 *
 * @example
 * ```ts
 * const { catalog } = await registry.create({ identifier: 'acme' });
 * await catalog.put({ id: 'sku-1', is_recommendable: true, name: 'Phone', absolute_link: null,
 *   img_link: null, price: 199, categories_ids: ['phones'], color: 'black' });
 * await catalog.sync();
 * ```
 */
export class Catalog {
  /** The customer identifier. */
  readonly identifier: string;
  readonly #storage: Storage;
  readonly #clock: () => number;
  readonly #onSyncError: (error: unknown) => void;
  #keys: KeyIndex | undefined;

  /** Binds a catalog; a bad option throws a `TypeError` prefixed `Catalog:`. */
  constructor(options: CatalogOptions) {
    const { identifier, storage, clock = Date.now, onSyncError = (e: unknown) => console.error(e) } = options ?? ({} as CatalogOptions);
    if (typeof identifier !== 'string' || identifier === '') throw new TypeError('Catalog: identifier must be a non-empty string');
    if (typeof storage?.catalogs?.getCatalog !== 'function')
      throw new TypeError('Catalog: storage must be a Storage (memoryStorage(), sqliteStorage() or postgresStorage())');
    if (typeof clock !== 'function') throw new TypeError('Catalog: clock must be a function');
    this.identifier = identifier;
    this.#storage = storage;
    this.#clock = clock;
    this.#onSyncError = onSyncError;
  }

  /** Adds an item, or wholly replaces the item with its id. */
  async put(item: Record<string, unknown>): Promise<BatchResult> {
    return this.batch([{ operation: 'create-replace', product: item }]);
  }

  /** Deletes an item (an absent one is fine). */
  async delete(id: string): Promise<BatchResult> {
    return this.batch([{ operation: 'delete', product: { id } }]);
  }

  /** Deletes every accepted item; the schema is kept. Returns how many were deleted. */
  async deleteAll(): Promise<{ deleted: number }> {
    return { deleted: await this.#storage.catalogs.deleteAllItems(this.identifier) };
  }

  /**
   * Deletes a custom field from the schema and from every accepted item, so it can be created
   * again with another type. Standard fields cannot be deleted ({@link ValidationError});
   * an unknown field is a {@link NotFoundError}.
   */
  async deleteSchemaField(name: string): Promise<void> {
    if (typeof name !== 'string' || name === '')
      throw new ValidationError('the field name must be a non-empty string', [{ path: ['fieldID'], message: 'empty' }]);
    if (isStandardField(name))
      throw new ValidationError(
        `${name} is a standard field and cannot be deleted`,
        [{ path: ['fieldID'], message: 'standard field' }],
        'standard_field',
      );
    if (!(await this.#storage.catalogs.deleteField(this.identifier, name))) throw new NotFoundError(`the schema has no field ${name}`);
  }

  /**
   * Applies a batch: at most {@link MAX_BATCH_OPERATIONS} operations, validated as a whole (typing
   * takes into account fields created by earlier operations of the same batch), then applied
   * atomically and in order. Any invalid operation throws {@link CatalogValidationError} listing
   * every failing operation, and nothing is applied.
   *
   * @param options - `sizeBytes`: size of the payload as received, checked against {@link MAX_BATCH_BYTES}.
   */
  async batch(operations: readonly BatchOperation[], options: { sizeBytes?: number } = {}): Promise<BatchResult> {
    if (!Array.isArray(operations))
      throw new ValidationError('a batch must be an array of operations', [{ path: [], message: 'not an array' }]);
    if (operations.length > MAX_BATCH_OPERATIONS) {
      throw new ValidationError(
        `a batch holds at most ${MAX_BATCH_OPERATIONS} operations, got ${operations.length}`,
        [{ path: [], message: 'too many operations' }],
        'too_many_operations',
      );
    }
    if (options.sizeBytes !== undefined && options.sizeBytes >= MAX_BATCH_BYTES) {
      throw new PayloadTooLargeError(`a batch must be smaller than ${MAX_BATCH_BYTES} bytes`);
    }
    for (let attempt = 0; ; attempt++) {
      const { claims, prepared } = await this.#prepare(operations);
      try {
        await this.#storage.catalogs.applyBatch(this.identifier, claims, prepared, this.#clock());
      } catch (error) {
        // Another writer typed a field first: validate again against the schema it left.
        if (error instanceof ConflictError && error.code === 'field_type_conflict' && attempt < 3) continue;
        throw error;
      }
      const deleted = prepared.filter((o) => o.op === 'delete').length;
      return { accepted: prepared.length, upserted: prepared.length - deleted, deleted };
    }
  }

  async #prepare(operations: readonly BatchOperation[]): Promise<{ claims: FieldClaim[]; prepared: CatalogOperation[] }> {
    const schema = new Map((await this.#storage.catalogs.schema(this.identifier)).map((f) => [f.name, f.type]));
    // A 10,000-operation batch takes long enough to delay every other request: yield in slices.
    // The field ceiling is checked against the schema as read here: a batch adds at most the room
    // it saw, so writers racing may together pass the ceiling by that much each, and no further.
    return runInSlices(prepareSteps(operations, (name) => schema.get(name), schema.size));
  }

  /** The schema: the standard fields with their fixed types, then the custom fields by name. */
  async schema(): Promise<{ fields: SchemaFieldView[] }> {
    const standard = Object.entries(STANDARD_FIELDS).map(([name, f]) => ({
      name,
      type: f.type,
      standard: true,
      nullable: f.nullable,
      required: f.required,
    }));
    const custom = (await this.#storage.catalogs.schema(this.identifier)).map((f) => ({
      name: f.name,
      type: f.type,
      standard: false,
      nullable: true,
      required: false,
    }));
    return { fields: [...standard, ...custom] };
  }

  /** An accepted item (visible or not yet), or undefined. */
  async get(id: string): Promise<CatalogItem | undefined> {
    return this.#storage.catalogs.getItem(this.identifier, id);
  }

  /** Number of accepted items. */
  async count(): Promise<number> {
    return this.#storage.catalogs.countItems(this.identifier);
  }

  /** Publishes every accepted operation so far as the next visible version. */
  async sync(): Promise<SyncResult> {
    return this.#storage.catalogs.publish(this.identifier, this.#clock());
  }

  /**
   * The published items and their version (0, with no item, before the first sync). Pass the
   * `items` of an earlier `visible()` (the list as returned) as `reuse` when reading a new version: with SQL storage,
   * items whose row did not change are returned as they were (the same objects), neither
   * fetched nor parsed again.
   */
  async visible(options: { reuse?: readonly CatalogItem[] } = {}): Promise<VisibleCatalog> {
    return this.#storage.catalogs.visibleItems(this.identifier, options.reuse);
  }

  /** The visible version, cheaply: readers reload when it changes. */
  async visibleVersion(): Promise<number> {
    return (await this.#storage.catalogs.visibleVersion(this.identifier)).version;
  }

  /**
   * Runs {@link Catalog.sync} every `intervalMs` (default once a day) until stopped. The timer
   * does not keep the process alive.
   */
  startSync(options: { intervalMs?: number } = {}): SyncSchedule {
    const { intervalMs = DEFAULT_SYNC_INTERVAL_MS } = options;
    if (!Number.isInteger(intervalMs) || intervalMs < 1000)
      throw new TypeError(`Catalog: intervalMs must be an integer >= 1000, got ${intervalMs}`);
    let running = false;
    const timer = setInterval(() => {
      if (running) return;
      running = true;
      this.sync()
        .catch(this.#onSyncError)
        .finally(() => {
          running = false;
        });
    }, intervalMs);
    (timer as { unref?: () => void }).unref?.();
    return { stop: () => clearInterval(timer) };
  }

  /**
   * The visible items an analytics event refers to: a `purchase` through `item_purchase_key`, a
   * `pageview` through `item_pageview_key`, matching any string (or number, as text) property
   * value exactly. The keys are indexed once per visible version, not scanned per event.
   */
  async linkEvent(event: AnalyticsEvent): Promise<CatalogItem[]> {
    if (event?.name !== 'purchase' && event?.name !== 'pageview') {
      throw new ValidationError('event name must be purchase or pageview', [{ path: ['name'], message: 'unknown event' }]);
    }
    if (event.properties === null || typeof event.properties !== 'object') {
      throw new ValidationError('event properties must be an object', [{ path: ['properties'], message: 'not an object' }]);
    }
    const index = (await this.#keyIndex())[event.name];
    const found = new Map<string, CatalogItem>();
    for (const value of Object.values(event.properties)) {
      const values = Array.isArray(value) ? value : [value];
      for (const v of values) {
        if (typeof v !== 'string' && typeof v !== 'number') continue;
        for (const item of index.get(String(v)) ?? []) found.set(item.id, item);
      }
    }
    return [...found.values()];
  }

  async #keyIndex(): Promise<KeyIndex> {
    const version = await this.visibleVersion();
    if (this.#keys?.version === version) return this.#keys;
    // Unchanged items come back as the objects of the previous read (SQL stores skip fetching them).
    const { items, version: v } = await this.visible({ reuse: this.#keys?.items });
    this.#keys = await runInSlices(keyIndexSteps(v, items));
    return this.#keys;
  }
}
