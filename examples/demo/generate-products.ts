/**
 * Seeded generator of the demo catalog: realistic electronics products with custom fields of
 * every supported type. `npx tsx examples/demo/generate-products.ts` rewrites products.json;
 * the same seed always gives the same file (a test checks it).
 */
import { writeFileSync } from 'node:fs';

/** mulberry32: a small, fast, seeded PRNG. */
export function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const FAMILIES = [
  {
    category: 'phones',
    noun: 'Smartphone',
    price: [99, 1399],
    lines: [
      ['Samsung', 'Galaxy S'],
      ['Apple', 'iPhone'],
      ['Google', 'Pixel'],
      ['Motorola', 'Moto G'],
      ['OnePlus', 'Nord'],
      ['Nokia', 'G'],
      ['Sony', 'Xperia'],
    ],
  },
  {
    category: 'laptops',
    noun: 'Laptop',
    price: [349, 3299],
    lines: [
      ['Lenovo', 'ThinkPad X'],
      ['Dell', 'XPS'],
      ['HP', 'Envy'],
      ['Apple', 'MacBook Air'],
      ['Asus', 'ZenBook'],
      ['Acer', 'Swift'],
      ['Microsoft', 'Surface Laptop'],
    ],
  },
  {
    category: 'headphones',
    noun: 'Headphones',
    price: [19, 549],
    lines: [
      ['Sony', 'WH-1000XM'],
      ['Bose', 'QuietComfort'],
      ['Sennheiser', 'Momentum'],
      ['JBL', 'Tune'],
      ['Beats', 'Studio'],
      ['Audio-Technica', 'ATH-M'],
    ],
  },
  {
    category: 'tvs',
    noun: 'TV',
    price: [179, 4999],
    lines: [
      ['Samsung', 'Neo QLED'],
      ['LG', 'OLED evo'],
      ['Sony', 'Bravia'],
      ['TCL', 'QM'],
      ['Hisense', 'U'],
      ['Philips', 'Ambilight'],
    ],
  },
  {
    category: 'cameras',
    noun: 'Camera',
    price: [149, 3899],
    lines: [
      ['Canon', 'EOS R'],
      ['Nikon', 'Z'],
      ['Sony', 'Alpha'],
      ['Fujifilm', 'X-T'],
      ['Panasonic', 'Lumix S'],
      ['GoPro', 'HERO'],
    ],
  },
  {
    category: 'smartwatches',
    noun: 'Smartwatch',
    price: [49, 899],
    lines: [
      ['Apple', 'Watch Series'],
      ['Samsung', 'Galaxy Watch'],
      ['Garmin', 'Forerunner'],
      ['Fitbit', 'Versa'],
      ['Amazfit', 'GTR'],
    ],
  },
] as const;
const COLORS = ['Black', 'White', 'Silver', 'Blue', 'Red', 'Green', 'Graphite', 'Gold'];
const TAGS = ['new', 'bestseller', 'eco', 'refurbished', 'gift-idea', 'limited', 'bundle', 'clearance'];

/** Builds `count` products from `seed`. */
export function generateProducts(count = 2500, seed = 20261121): Record<string, unknown>[] {
  const random = prng(seed);
  const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)]!;
  const products: Record<string, unknown>[] = [];
  for (let i = 0; i < count; i++) {
    const family = pick(FAMILIES);
    const [brand, line] = pick<readonly [string, string]>(family.lines);
    const model = `${line} ${Math.floor(random() * 20) + 1}${pick(['', ' Pro', ' Plus', ' Lite', ' Max', ' SE'])}`;
    const color = pick(COLORS);
    const [lo, hi] = family.price;
    // Prices end in .99 or .49, as shops price them.
    const price = Math.floor(lo + (hi - lo) * random() ** 2) + pick([0.99, 0.49]);
    const id = `demo-${String(i + 1).padStart(5, '0')}`;
    const tags = TAGS.filter(() => random() < 0.2);
    products.push({
      id,
      is_recommendable: random() > 0.05,
      name: `${brand} ${model} ${family.noun} - ${color}`,
      absolute_link: `https://shop.example/p/${id}`,
      img_link: `https://shop.example/img/${id}.jpg`,
      price,
      categories_ids: ['electronics', family.category],
      item_purchase_key: [`sku-${i + 1}`],
      item_pageview_key: [`/p/${id}`],
      brand,
      color,
      rating: Math.round((2.5 + random() * 2.5) * 10) / 10,
      popularity: Math.floor(random() ** 3 * 50_000),
      in_stock: random() > 0.15,
      tags,
      specs: { model, warranty: `${pick([1, 2, 3])} years`, origin: pick(['CN', 'KR', 'JP', 'US', 'VN', 'TW']) },
      dimensions_cm: {
        width: Math.round(random() * 1000) / 10,
        height: Math.round(random() * 1000) / 10,
        depth: Math.round(random() * 300) / 10,
      },
      features: { wireless: random() > 0.4, waterproof: random() > 0.7, refurbished: tags.includes('refurbished') },
    });
  }
  return products;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const target = new URL('./products.json', import.meta.url);
  writeFileSync(target, `${JSON.stringify(generateProducts(), null, 0).replace(/\},\{"id"/g, '},\n{"id"')}\n`);
  console.log(`wrote ${target.pathname}`);
}
