/**
 * The three catalogs of ../shared/data besides Best Buy (sporting goods, menswear, general
 * merchandise), read at run time and never copied: each product seen as one {@link ProductView}
 * (the fields the judges grade, the peers index and abkit's items carry), mapped to catalog items
 * and loaded through a CatalogRegistry catalog in one batch and one sync.
 */
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { CatalogRegistry, memoryStorage, type BatchOperation, type Catalog } from '../../src/index';
import { slug } from './bestbuy';
import { need, type Need } from './skip';

/** The catalogs with judged query sets besides Best Buy. */
export const CATALOG_NAMES = ['decathlon', 'mrporter', 'retaildemo'] as const;
export type CatalogName = (typeof CATALOG_NAMES)[number];

/**
 * A product as search sees it, whatever the file's own field names: the brand is Decathlon's
 * `vendor` and Mr Porter's `designerName`; the category path is Decathlon's one `category`, Mr
 * Porter's three levels, the retail demo's `category` then `style`; empty strings where the file
 * has nothing.
 */
export interface ProductView {
  id: string;
  name: string;
  brand: string;
  categories: string[];
  colour: string;
  description: string;
  /** The retail demo's `gender_affinity` as a word (`women`, `men`), else empty. */
  gender: string;
  price: number;
}

/** The text fields every engine searches, in this order (name first: the one boosted). */
export const VIEW_FIELDS = ['name', 'brand', 'category', 'colour', 'description', 'gender'] as const;
export type ViewField = (typeof VIEW_FIELDS)[number];

/** A view's text per searchable field (`category` is the path joined by ` > `). */
export function viewText(p: ProductView): Record<ViewField, string> {
  return {
    name: p.name,
    brand: p.brand,
    category: p.categories.join(' > '),
    colour: p.colour,
    description: p.description,
    gender: p.gender,
  };
}

interface DecathlonRaw {
  id: number;
  name: string;
  vendor: string;
  category: string;
  price: string;
}
interface MrPorterRaw {
  id: string;
  name: string;
  designerName: string;
  price: string;
  colour: string;
  categories: string[];
}
interface RetailDemoRaw {
  id: string;
  name: string;
  category: string;
  style: string;
  description: string;
  price: number;
  gender_affinity?: string;
}

/** One shared catalog: its file, what it holds, and how its products read as views. */
export interface SharedCatalog {
  readonly name: CatalogName;
  readonly title: string;
  readonly file: URL;
  /** Which of {@link VIEW_FIELDS} the file fills (the others stay out of the items and the peers' text). */
  readonly fields: readonly ViewField[];
  view(raw: unknown): ProductView;
}

const dataUrl = (file: string) => new URL(`../../../shared/data/${file}`, import.meta.url);

const SHARED: Record<CatalogName, SharedCatalog> = {
  decathlon: {
    name: 'decathlon',
    title: 'Decathlon (sporting goods and apparel)',
    file: dataUrl('decathlon-products.json'),
    fields: ['name', 'brand', 'category'],
    view: (raw) => {
      const r = raw as DecathlonRaw;
      return {
        id: String(r.id),
        name: r.name,
        brand: r.vendor,
        categories: r.category ? [r.category] : [],
        colour: '',
        description: '',
        gender: '',
        price: Number(r.price),
      };
    },
  },
  mrporter: {
    name: 'mrporter',
    title: 'Mr Porter (menswear)',
    file: dataUrl('mrporter-products.json'),
    fields: ['name', 'brand', 'category', 'colour'],
    view: (raw) => {
      const r = raw as MrPorterRaw;
      return {
        id: r.id,
        name: r.name,
        brand: r.designerName,
        categories: r.categories,
        colour: r.colour,
        description: '',
        gender: '',
        price: Number(r.price),
      };
    },
  },
  retaildemo: {
    name: 'retaildemo',
    title: 'Retail demo store (general merchandise with descriptions)',
    file: dataUrl('retaildemo-products.json'),
    fields: ['name', 'category', 'description', 'gender'],
    view: (raw) => {
      const r = raw as RetailDemoRaw;
      return {
        id: r.id,
        name: r.name,
        brand: '',
        categories: [r.category, r.style],
        colour: '',
        description: r.description,
        gender: r.gender_affinity === 'F' ? 'women' : r.gender_affinity === 'M' ? 'men' : '',
        price: r.price,
      };
    },
  },
};

/** The catalog named `name`. */
export function sharedCatalog(name: CatalogName): SharedCatalog {
  return SHARED[name];
}

/**
 * Whether the catalog's file is there. A fresh clone has no ../shared beside it: the suites that
 * need it skip, saying why; under CI=true a missing file fails the run instead.
 */
export function catalogNeed(name: CatalogName): Need {
  const path = fileURLToPath(SHARED[name].file);
  if (existsSync(path)) return need(true, '');
  if (process.env.CI === 'true') throw new Error(`missing test data ${path} and CI=true (see ../shared/data/README.md)`);
  console.warn(`\n*** SKIPPING ${name} tests: ${path} is absent (the project's tests read it from ../shared/data). ***\n`);
  return need(false, `${path} is absent`);
}

const views = new Map<CatalogName, ProductView[]>();

/** The catalog's products as views, in file order (throws naming the path when the file is missing). */
export function readViews(name: CatalogName): ProductView[] {
  const cached = views.get(name);
  if (cached) return cached;
  const path = fileURLToPath(SHARED[name].file);
  if (!existsSync(path)) throw new Error(`missing test data ${path} (see ../shared/data/README.md)`);
  const list = (JSON.parse(readFileSync(path, 'utf8')) as unknown[]).map(SHARED[name].view);
  views.set(name, list);
  return list;
}

/**
 * A view as a catalog item: the standard fields (categories as slugs of the path), then the
 * catalog's text fields as custom string fields (`brand`, `category` as the path, `colour`,
 * `description`, `gender`), only those the file fills.
 */
export function toCatalogItem(p: ProductView, fields: readonly ViewField[]): Record<string, unknown> {
  const text = viewText(p);
  const item: Record<string, unknown> = {
    id: p.id,
    is_recommendable: true,
    name: p.name,
    absolute_link: `https://shop.example/p/${p.id}`,
    img_link: null,
    price: p.price,
    categories_ids: p.categories.map(slug).filter((s) => s !== ''),
    item_purchase_key: [p.id],
    item_pageview_key: [`/p/${p.id}`],
  };
  for (const f of fields) if (f !== 'name') item[f] = text[f];
  return item;
}

/** A loaded shared catalog. */
export interface LoadedCatalog {
  readonly shared: SharedCatalog;
  readonly catalog: Catalog;
  readonly products: readonly ProductView[];
}

const loaded = new Map<CatalogName, Promise<LoadedCatalog>>();

/** The catalog loaded once per module graph: a fresh memory registry, every product in one batch, then one sync. */
export function loadCatalog(name: CatalogName): Promise<LoadedCatalog> {
  let p = loaded.get(name);
  if (p) return p;
  p = (async () => {
    const shared = SHARED[name];
    const products = readViews(name);
    const registry = new CatalogRegistry({ storage: memoryStorage() });
    const { catalog } = await registry.create({
      identifier: name,
      catalogApiKey: `ck-${name}-0123456789abcdef0123456789abcdef`,
      searchApiKey: `sk-${name}-0123456789abcdef0123456789abcdef`,
    });
    const operations: BatchOperation[] = products.map((v) => ({ operation: 'create-replace', product: toCatalogItem(v, shared.fields) }));
    const result = await catalog.batch(operations);
    if (result.accepted !== products.length) throw new Error(`${name}: ${result.accepted} of ${products.length} operations accepted`);
    const synced = await catalog.sync();
    if (synced.count !== products.length) throw new Error(`${name}: ${synced.count} of ${products.length} items visible after sync`);
    return { shared, catalog, products };
  })();
  loaded.set(name, p);
  return p;
}
