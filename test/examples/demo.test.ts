import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { generateProducts } from '../../examples/demo/generate-products';
import { CatalogRegistry, memoryStorage } from '../../src/index';
import { FIELD_TYPES } from '../../src/model/field-types';

describe('demo catalog', () => {
  it('products.json is exactly what the seeded generator produces', () => {
    const file = JSON.parse(readFileSync(new URL('../../examples/demo/products.json', import.meta.url), 'utf8'));
    expect(file).toEqual(generateProducts());
  });

  it('loads in one batch and uses a custom field of every supported type', async () => {
    const { catalog } = await new CatalogRegistry({ storage: memoryStorage() }).create({ identifier: 'demo' });
    await catalog.batch(generateProducts().map((product) => ({ operation: 'create-replace' as const, product })));
    const custom = (await catalog.schema()).fields.filter((f) => !f.standard);
    expect(new Set(custom.map((f) => f.type))).toEqual(new Set(FIELD_TYPES));
    expect(await catalog.count()).toBe(2500);
  });
});

describe('demo bootstrap', () => {
  it('is valid and its campaigns use every targeting operator', async () => {
    const { parseBucketingConfig, TARGETING_OPERATORS } = await import('../../src/model/bucketing-config');
    const bootstrap = JSON.parse(readFileSync(new URL('../../examples/demo/bootstrap.json', import.meta.url), 'utf8'));
    const config = parseBucketingConfig(bootstrap.accounts[0].environments[0].bucketing);
    const used = new Set(
      config.campaigns.flatMap((c) =>
        c.variationGroups.flatMap((g) => g.targeting.targetingGroups.flatMap((t) => t.targetings.map((x) => x.operator))),
      ),
    );
    expect([...TARGETING_OPERATORS].filter((op) => !used.has(op))).toEqual([]);
  });
});
