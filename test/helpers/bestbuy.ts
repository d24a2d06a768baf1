/**
 * The 3,291 real Best Buy products of ../shared/data/bestbuy-cellphones.json (read at test
 * time, never copied), mapped to catalog items as test/catalog/bestbuy.test.ts maps them and
 * loaded through a CatalogRegistry catalog in one batch and one sync. Cached per test file
 * (each vitest file runs in its own module graph).
 */
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { CatalogRegistry, memoryStorage, type BatchOperation, type Catalog } from '../../src/index';

/** Third-party data shared by the project's tests: read here, never copied (../shared/data/README.md). */
export const BESTBUY_DATA_URL = new URL('../../../shared/data/bestbuy-cellphones.json', import.meta.url);

/** One product of the file. */
export interface BestBuyProduct {
  name: string;
  description: string;
  brand: string;
  categories: string[];
  price: number;
  image: string;
  popularity: number;
}

/** A Best Buy product as a catalog item (the raw data the search is checked against). */
export interface BestBuyItem {
  id: string;
  is_recommendable: boolean;
  name: string;
  absolute_link: string;
  img_link: string;
  price: number;
  categories_ids: string[];
  item_purchase_key: string[];
  item_pageview_key: string[];
  brand: string;
  popularity: number;
  description: string;
}

/** The loaded catalog. */
export interface BestBuyCatalog {
  readonly registry: CatalogRegistry;
  readonly catalog: Catalog;
  readonly identifier: string;
  readonly catalogApiKey: string;
  readonly searchApiKey: string;
  readonly products: readonly BestBuyProduct[];
  /** The items as sent, in file order (`bb-<index>`). */
  readonly items: readonly BestBuyItem[];
}

/** Catalog keys of the Best Buy catalog. */
export const BESTBUY_CATALOG_KEY = 'ck-bestbuy-0123456789abcdef0123456789abcdef';
/** Search key of the Best Buy catalog. */
export const BESTBUY_SEARCH_KEY = 'sk-bestbuy-0123456789abcdef0123456789abcdef';

/** `Cell Phones` → `cell-phones`. */
export function slug(text: string): string {
  return text
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');
}

/** Maps a product to a catalog item: standard fields, then brand, popularity and description as custom fields. */
export function toItem(product: BestBuyProduct, index: number): BestBuyItem {
  const id = `bb-${index}`;
  return {
    id,
    is_recommendable: true,
    name: product.name,
    absolute_link: `https://shop.example/p/${id}`,
    img_link: product.image,
    price: product.price,
    categories_ids: product.categories.map(slug),
    item_purchase_key: [id],
    item_pageview_key: [`/p/${id}`],
    brand: product.brand,
    popularity: product.popularity,
    description: product.description,
  };
}

/**
 * Whether the data file is there. A fresh clone has no ../shared beside it: the suites that
 * need the data skip, saying why; under CI=true a missing file fails the run instead.
 */
export function bestBuyAvailable(): boolean {
  const path = fileURLToPath(BESTBUY_DATA_URL);
  if (existsSync(path)) return true;
  if (process.env.CI === 'true') throw new Error(`missing test data ${path} and CI=true (see ../shared/data/README.md)`);
  console.warn(`\n*** SKIPPING Best Buy tests: ${path} is absent (the project's tests read it from ../shared/data). ***\n`);
  return false;
}

/** Reads the products from ../shared/data (throws naming the path when it is missing). */
export function readBestBuyProducts(): BestBuyProduct[] {
  const path = fileURLToPath(BESTBUY_DATA_URL);
  if (!existsSync(path)) throw new Error(`missing test data ${path} (see ../shared/data/README.md)`);
  return JSON.parse(readFileSync(path, 'utf8')) as BestBuyProduct[];
}

let cached: Promise<BestBuyCatalog> | undefined;

/**
 * The Best Buy catalog, loaded once per test file: a fresh memory registry, one catalog
 * `bestbuy` with fixed keys, every product in one batch, then one sync.
 */
export function loadBestBuy(): Promise<BestBuyCatalog> {
  cached ??= (async () => {
    const products = readBestBuyProducts();
    const items = products.map(toItem);
    const registry = new CatalogRegistry({ storage: memoryStorage() });
    const identifier = 'bestbuy';
    const { catalog } = await registry.create({ identifier, catalogApiKey: BESTBUY_CATALOG_KEY, searchApiKey: BESTBUY_SEARCH_KEY });
    const operations: BatchOperation[] = items.map((item) => ({ operation: 'create-replace', product: { ...item } }));
    const result = await catalog.batch(operations);
    if (result.accepted !== items.length) throw new Error(`bestbuy: ${result.accepted} of ${items.length} operations accepted`);
    const synced = await catalog.sync();
    if (synced.count !== items.length) throw new Error(`bestbuy: ${synced.count} of ${items.length} items visible after sync`);
    return { registry, catalog, identifier, catalogApiKey: BESTBUY_CATALOG_KEY, searchApiKey: BESTBUY_SEARCH_KEY, products, items };
  })();
  return cached;
}
