/** An abkit instance with data for the console's tests: an account, a campaign with results, a catalog. */
import { AdminKeys } from '../../src/access/admin-keys';
import type { ConsoleMountOptions } from '../../src/http/handler';
import { createAbkit, memoryStorage } from '../../src/index';
import { config } from '../helpers/configs';
import { item } from '../helpers/search';

export const ADMIN_KEY = `abk_ak_console-test-${'k'.repeat(32)}`;
export const DAY = 86_400_000;

/** An item the console tests add through the Add items form: a Quokka bag, `price` as given (a bad one included). */
export const quokkaItem = (id: string, name: string, price: unknown = 10) =>
  item(id, name, { price, categories_ids: ['bags'], brand: 'Quokka' });

const PRODUCTS = [
  { id: 'p1', name: 'Red running shoe', brand: 'Fleet', price: 89, image: '/img/p1.png' },
  { id: 'p2', name: 'Blue running shoe', brand: 'Fleet', price: 99, image: 'https://cdn.example/p2.png' },
  { id: 'p3', name: 'Trail shoe', brand: 'Rock', price: 129, image: null },
  { id: 'p4', name: 'Running socks', brand: 'Fleet', price: 12, image: null },
];

/** The instance, its handler with the admin API and the console, and a clock offset to seed the past. */
export async function consoleFixture(consoleOptions: ConsoleMountOptions = {}) {
  let offset = 0;
  const clock = () => Date.now() + offset;
  const keys = new AdminKeys([{ name: 'ops', key: ADMIN_KEY }]);
  // prod is the account's default environment, as `abkit serve` makes it the engine's: /search decides there.
  const abkit = createAbkit({ storage: memoryStorage(), clock, tokens: { adminKeys: keys }, decision: { defaultEnvironment: 'prod' } });
  await abkit.admin.createAccount('fixture', { id: 'acme' });
  await abkit.admin.createEnvironment('fixture', 'acme', { id: 'prod', default: true });
  await abkit.engine.load(
    config([
      { id: 'checkout', split: [50, 50] },
      { id: 'banner', split: [100], targeting: [[{ key: 'country', operator: 'EQUALS', value: 'fr' }]] },
    ]),
    { environment: 'prod', account: 'acme' },
  );
  // Exposures and conversions over the past six days: v1 converts more.
  for (let day = 6; day >= 1; day--) {
    offset = -day * DAY;
    for (let i = 0; i < 40; i++) {
      const visitorId = `d${day}-u${i}`;
      const variationId = i % 2 === 0 ? 'checkout-v0' : 'checkout-v1';
      await abkit.experiments.activate({ environmentId: 'prod', visitorId, variationGroupId: 'checkout-vg', variationId });
      if (i % (variationId === 'checkout-v0' ? 5 : 3) === 0)
        await abkit.experiments.track({ visitorId, environment: 'prod', event: 'purchase' });
    }
  }
  offset = 0;
  const { catalog } = await abkit.catalogs.create({ identifier: 'shop' });
  await catalog.batch(
    PRODUCTS.map((p) => ({
      operation: 'create-replace' as const,
      product: {
        id: p.id,
        is_recommendable: true,
        name: p.name,
        absolute_link: `https://shop.example/p/${p.id}`,
        img_link: p.image,
        price: p.price,
        categories_ids: ['shoes'],
        brand: p.brand,
      },
    })),
  );
  await catalog.sync();
  // Searches over the past six days, some without a result, some clicked: the analytics page's data.
  for (let day = 6; day >= 1; day--) {
    offset = -day * DAY;
    for (let i = 0; i < 4 + day; i++) {
      const text = ['running shoe', 'Trail shoe', 'socks', 'sandals'][i % 4]!;
      const found = text === 'sandals' ? [] : ['p1', 'p2', 'p3', 'p4'];
      const queryID = abkit.searchAnalytics.recordSearch({
        catalog: 'shop',
        kind: 'search',
        text,
        totalHits: found.length,
        filters: [],
        latencyMs: 1 + (i % 3),
        hits: found,
        page: 0,
        hitsPerPage: 20,
        clickAnalytics: true,
      })!;
      if (found.length > 0 && i % 2 === 0)
        await abkit.searchAnalytics.recordEvents('shop', [{ type: 'click', queryID, itemId: found[i % 3]!, position: (i % 3) + 1 }]);
    }
  }
  await abkit.searchAnalytics.flush();
  offset = 0;
  // Brand facets, and the settings the console stores (merchandising, behaviour ranking) over them.
  const search = (identifier: string) => ({ facets: ['brand'], ...abkit.admin.searchSettings(identifier) });
  const handler = abkit.handler({ admin: { abkit, keys, console: consoleOptions }, search: { options: search as never } });
  return { abkit, handler };
}
