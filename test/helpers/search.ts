/**
 * Factories the search and catalog tests share: an item with every standard field, a fresh
 * catalog holding items (one memory registry each), and a search service over one.
 */
import { CatalogRegistry, memoryStorage, SearchService, type Catalog, type SearchServiceOptions, type Storage } from '../../src/index';

/** A catalog item as the tests write them. */
export type Item = Record<string, unknown> & { id: string };

/**
 * A valid item: the standard fields (price 10, no links, no categories), named `name` (by default
 * `Item <id>`), then `extra` over them.
 */
export function item(id: string, extra?: Record<string, unknown>): Item;
export function item(id: string, name: string | null, extra?: Record<string, unknown>): Item;
export function item(id: string, nameOrExtra?: string | null | Record<string, unknown>, extra: Record<string, unknown> = {}): Item {
  const named = typeof nameOrExtra === 'string' || nameOrExtra === null;
  const name = named ? nameOrExtra : `Item ${id}`;
  return {
    id,
    is_recommendable: true,
    name,
    absolute_link: null,
    img_link: null,
    price: 10,
    categories_ids: null,
    ...(named ? extra : (nameOrExtra ?? {})),
  };
}

/** The ids of a page of hits, in order. */
export const ids = (page: { readonly hits: readonly { readonly id: string }[] }): string[] => page.hits.map((h) => h.id);

/** Items a batch sends at most here (far under the batch limits, whatever the items' size). */
const BATCH = 1000;
let catalogs = 0;

/** A fresh catalog holding `items` (batches of 1,000), synced unless `sync` is false. */
export async function catalogOf(
  items: readonly Record<string, unknown>[],
  options: { storage?: Storage; sync?: boolean } = {},
): Promise<Catalog> {
  const { catalog } = await new CatalogRegistry({ storage: options.storage ?? memoryStorage() }).create({ identifier: `c${++catalogs}` });
  for (let i = 0; i < items.length; i += BATCH)
    await catalog.batch(items.slice(i, i + BATCH).map((product) => ({ operation: 'create-replace' as const, product })));
  if (options.sync !== false) await catalog.sync();
  return catalog;
}

/** A search service over a fresh synced catalog holding `items`. */
export async function serviceOf(
  items: readonly Record<string, unknown>[],
  options: Omit<SearchServiceOptions, 'catalog'> = {},
): Promise<SearchService> {
  return new SearchService({ catalog: await catalogOf(items), ...options });
}
