import { credentialHash, randomCredential, secureRandom, type RandomSource } from '../crypto';
import { formatPath, NotFoundError, ValidationError, type ErrorDetail } from '../errors';
import type { CatalogRecord } from '../storage/catalog';
import type { Storage } from '../storage/storage';
import { Catalog } from './catalog';

/**
 * Prefix of generated catalog keys (they manage a catalog).
 *
 * @example
 * ```ts
 * const { catalogApiKey } = await registry.create({ identifier: 'acme' });
 * catalogApiKey.startsWith(CATALOG_KEY_PREFIX); // true: 'abk_ck_...'
 * ```
 */
export const CATALOG_KEY_PREFIX = 'abk_ck_';
/**
 * Prefix of generated search keys (they only read).
 *
 * @example
 * ```ts
 * const { searchApiKey } = await registry.create({ identifier: 'acme' });
 * searchApiKey.startsWith(SEARCH_KEY_PREFIX); // true: 'abk_sk_...', a read-only key
 * ```
 */
export const SEARCH_KEY_PREFIX = 'abk_sk_';

/** A catalog identifier: a lower-case DNS label (the bootstrap schema checks it too). */
export const IDENTIFIER = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;

/**
 * Options of {@link CatalogRegistry}.
 *
 * @example
 * ```ts
 * const options: CatalogRegistryOptions = { storage, pepper: process.env.ABKIT_PEPPER };
 * const registry = new CatalogRegistry(options);
 * ```
 */
export interface CatalogRegistryOptions {
  /** Where catalogs live ({@link createAbkit} defaults it to `memoryStorage()`). */
  storage: Storage;
  /** Server-side key mixed into the stored hash of every key (HMAC-SHA-256). @defaultValue none */
  pepper?: string;
  /** Current time in epoch milliseconds. @defaultValue `Date.now` */
  clock?: () => number;
  /** Random bytes for generated keys. @defaultValue Web Crypto `getRandomValues` */
  random?: RandomSource;
  /** Receives errors of scheduled synchronizations. @defaultValue `console.error` */
  onSyncError?: (error: unknown) => void;
}

/**
 * What {@link CatalogRegistry.create} takes.
 *
 * @example
 * ```ts
 * const input: CreateCatalogInput = { identifier: 'acme' };
 * const { catalog, catalogApiKey, searchApiKey } = await registry.create(input);
 * ```
 */
export interface CreateCatalogInput {
  /** Customer identifier: a lower-case DNS label (it leads the search host name). */
  identifier: string;
  /** Fixed catalog key (bootstrap files, tests), at least 32 characters; generated when absent. */
  catalogApiKey?: string;
  /** Fixed search key, at least 32 characters; generated when absent. */
  searchApiKey?: string;
}

/**
 * A created catalog and its keys, the only time they are shown.
 *
 * @example
 * ```ts
 * const created: CreatedCatalog = await registry.create({ identifier: 'acme' });
 * await created.catalog.put(item);
 * console.log(created.catalogApiKey, created.searchApiKey); // shown only now
 * ```
 */
export interface CreatedCatalog {
  readonly catalog: Catalog;
  readonly catalogApiKey: string;
  readonly searchApiKey: string;
}

/**
 * Which catalog a key opens, and as what.
 *
 * @example
 * ```ts
 * const grant: KeyGrant | undefined = await registry.authenticate(key);
 * if (grant?.role === 'catalog') await grant.catalog.sync();
 * ```
 */
export interface KeyGrant {
  readonly catalog: Catalog;
  /** `catalog`: may manage the catalog; `search`: may only read. */
  readonly role: 'catalog' | 'search';
}

/**
 * The catalogs of a storage, one per customer identifier, each with a catalog key (manage)
 * and a search key (read), stored only as hashes.
 *
 * @example
 * ```ts
 * const registry = new CatalogRegistry({ storage });
 * const { catalog, catalogApiKey } = await registry.create({ identifier: 'acme' });
 * const grant = await registry.authenticate(catalogApiKey); // { catalog, role: 'catalog' }
 * ```
 */
export class CatalogRegistry {
  /** The storage the catalogs live in. */
  readonly storage: Storage;
  readonly #pepper: string | undefined;
  readonly #clock: () => number;
  readonly #random: RandomSource;
  readonly #onSyncError: ((error: unknown) => void) | undefined;
  readonly #catalogs = new Map<string, Catalog>();

  /** Creates a registry; a bad option throws a `TypeError` prefixed `CatalogRegistry:`. */
  constructor(options: CatalogRegistryOptions) {
    const { storage, pepper, clock = Date.now, random = secureRandom, onSyncError } = options;
    if (pepper !== undefined && (typeof pepper !== 'string' || pepper.length < 16)) {
      throw new TypeError('CatalogRegistry: pepper must be a string of at least 16 characters');
    }
    if (typeof clock !== 'function') throw new TypeError('CatalogRegistry: clock must be a function returning epoch milliseconds');
    if (typeof random !== 'function') throw new TypeError('CatalogRegistry: random must be a function returning random bytes');
    if (!storage || typeof storage.catalogs?.getCatalog !== 'function')
      throw new TypeError('CatalogRegistry: storage must be a Storage (memoryStorage(), sqliteStorage(…), postgresStorage(…))');
    this.storage = storage;
    this.#pepper = pepper;
    this.#clock = clock;
    this.#random = random;
    this.#onSyncError = onSyncError;
  }

  /**
   * Creates a catalog and its two keys. Throws {@link ValidationError} for a bad identifier or
   * key, and `ConflictError` when the identifier exists.
   */
  async create(input: CreateCatalogInput): Promise<CreatedCatalog> {
    const { identifier } = input;
    this.#checkInput(input);
    const catalogApiKey = input.catalogApiKey ?? randomCredential(CATALOG_KEY_PREFIX, 32, this.#random);
    const searchApiKey = input.searchApiKey ?? randomCredential(SEARCH_KEY_PREFIX, 32, this.#random);
    const record: CatalogRecord = {
      identifier,
      catalogKeyHash: await credentialHash(catalogApiKey, this.#pepper),
      searchKeyHash: await credentialHash(searchApiKey, this.#pepper),
      createdAt: this.#clock(),
    };
    await this.storage.catalogs.createCatalog(record);
    return { catalog: this.#bind(identifier), catalogApiKey, searchApiKey };
  }

  /**
   * Creates the catalog, or makes an existing one use exactly these keys (bootstrap files):
   * applying the same input twice changes nothing. Without a `searchApiKey` a new catalog gets a
   * generated one (search is public by default) and an existing catalog keeps the one it has.
   * Returns whether anything was written, and whether the catalog was created now.
   */
  async ensure(input: CreateCatalogInput & { catalogApiKey: string }): Promise<{ catalog: Catalog; written: boolean; created: boolean }> {
    this.#checkInput(input);
    const existing = await this.storage.catalogs.getCatalog(input.identifier);
    if (!existing) return { catalog: (await this.create(input)).catalog, written: true, created: true };
    const keys = {
      catalogKeyHash: await credentialHash(input.catalogApiKey, this.#pepper),
      searchKeyHash: input.searchApiKey === undefined ? existing.searchKeyHash : await credentialHash(input.searchApiKey, this.#pepper),
    };
    const same = keys.catalogKeyHash === existing.catalogKeyHash && keys.searchKeyHash === existing.searchKeyHash;
    if (!same) await this.storage.catalogs.setKeys(input.identifier, keys);
    return { catalog: this.#bind(input.identifier), written: !same, created: false };
  }

  /** The catalog of an identifier; {@link NotFoundError} when there is none. */
  async get(identifier: string): Promise<Catalog> {
    if (!(await this.storage.catalogs.getCatalog(identifier))) throw new NotFoundError(`no catalog "${identifier}"`);
    return this.#bind(identifier);
  }

  /** Whether a catalog exists. */
  async has(identifier: string): Promise<boolean> {
    return (await this.storage.catalogs.getCatalog(identifier)) !== undefined;
  }

  /** Every catalog identifier, sorted. */
  async identifiers(): Promise<string[]> {
    return (await this.storage.catalogs.listCatalogs()).map((c) => c.identifier);
  }

  /** The catalog a key opens and its role, or undefined for an unknown key. */
  async authenticate(key: string): Promise<KeyGrant | undefined> {
    if (typeof key !== 'string' || key === '' || key.length > 512) return undefined;
    const found = await this.storage.catalogs.findByKeyHash(await credentialHash(key, this.#pepper));
    return found && { catalog: this.#bind(found.catalog.identifier), role: found.role };
  }

  #checkInput(input: CreateCatalogInput): void {
    const problems: ErrorDetail[] = [];
    if (typeof input?.identifier !== 'string' || !IDENTIFIER.test(input.identifier)) {
      problems.push({ path: ['identifier'], message: 'must be a lower-case DNS label: a-z, 0-9 and inner hyphens, at most 63 characters' });
    }
    for (const name of ['catalogApiKey', 'searchApiKey'] as const) {
      const key = input?.[name];
      if (key !== undefined && (typeof key !== 'string' || key.length < 32 || !/^[\x21-\x7e]+$/.test(key))) {
        problems.push({ path: [name], message: 'must be at least 32 visible ASCII characters' });
      }
    }
    if (input?.catalogApiKey !== undefined && input.catalogApiKey === input.searchApiKey) {
      problems.push({ path: ['searchApiKey'], message: 'must differ from catalogApiKey' });
    }
    if (problems.length > 0)
      throw new ValidationError(`invalid catalog: ${problems.map((p) => `${formatPath(p.path)} ${p.message}`).join('; ')}`, problems);
  }

  #bind(identifier: string): Catalog {
    let catalog = this.#catalogs.get(identifier);
    if (!catalog) {
      catalog = new Catalog({ identifier, storage: this.storage, clock: this.#clock, onSyncError: this.#onSyncError });
      this.#catalogs.set(identifier, catalog);
    }
    return catalog;
  }
}
