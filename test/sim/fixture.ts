/** A small catalog and judged queries for the simulator's unit tests (always there, unlike ../shared/data). */
import { type Catalog, CatalogRegistry, memoryStorage } from '../../src/index';
import type { JudgedQuery } from '../bench/relevance-judgments';
import { item } from '../helpers/search';

const COLOURS = ['red', 'blue', 'green', 'black'];
const KINDS = ['phone case', 'charger', 'cable', 'headphones', 'screen protector'];
/** 60 items: every kind in every colour, three brands each. */
export const ITEMS = KINDS.flatMap((kind, k) =>
  COLOURS.flatMap((colour, c) =>
    ['Acme', 'Zenith', 'Orbit'].map((brand, b) => {
      const id = `p${k}${c}${b}`;
      return item(id, `${brand} ${colour} ${kind}`, { item_purchase_key: [id], item_pageview_key: [`/p/${id}`] });
    }),
  ),
);
/** Per kind and colour, graded: the kind in the colour 3, the kind 1. */
export const QUERIES: JudgedQuery[] = KINDS.flatMap((kind, k) =>
  COLOURS.map((colour, c) => ({
    query: `${colour}  ${kind.toUpperCase()}`,
    kind: 'test',
    judged: new Map<string, number>(ITEMS.filter((i) => i.id.startsWith(`p${k}`)).map((i) => [i.id, i.id.startsWith(`p${k}${c}`) ? 3 : 1])),
  })),
);

/** A memory registry holding one synced catalog of {@link ITEMS}. */
export async function registryOf(identifier: string): Promise<{ registry: CatalogRegistry; catalog: Catalog }> {
  const registry = new CatalogRegistry({ storage: memoryStorage() });
  const { catalog } = await registry.create({ identifier });
  await catalog.batch(ITEMS.map((product) => ({ operation: 'create-replace' as const, product })));
  await catalog.sync();
  return { registry, catalog };
}
