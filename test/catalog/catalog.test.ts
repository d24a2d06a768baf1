import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  AbkitError,
  type Catalog,
  CatalogRegistry,
  CatalogValidationError,
  memoryStorage,
  NotFoundError,
  ValidationError,
  type BatchOperation,
  type Storage,
} from '../../src/index';
import { CATALOG_KEY_PREFIX, SEARCH_KEY_PREFIX } from '../../src/catalog/registry';
import { DEFAULT_SYNC_INTERVAL_MS, MAX_BATCH_BYTES, MAX_BATCH_OPERATIONS, type BatchProblem } from '../../src/catalog/catalog';
import { SLICE_OPERATIONS } from '../../src/slices';
import { countTurns } from '../helpers/turns';

const CATALOG_KEY = 'ck-acme-0123456789abcdef0123456789abcdef';
const SEARCH_KEY = 'sk-acme-0123456789abcdef0123456789abcdef';

/** A valid item with every required standard field, plus `extra`. */
function item(id: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    id,
    is_recommendable: true,
    name: `Item ${id}`,
    absolute_link: `https://shop.test/p/${id}`,
    img_link: null,
    price: 10,
    categories_ids: ['c1'],
    ...extra,
  };
}

const put = (product: Record<string, unknown>): BatchOperation => ({ operation: 'create-replace', product });
const del = (id: string): BatchOperation => ({ operation: 'delete', product: { id } });

async function setup(options: { storage?: Storage; clock?: () => number } = {}) {
  const storage = options.storage ?? memoryStorage();
  const registry = new CatalogRegistry({ storage, clock: options.clock ?? (() => 1_700_000_000_000) });
  const created = await registry.create({ identifier: 'acme', catalogApiKey: CATALOG_KEY, searchApiKey: SEARCH_KEY });
  return { storage, registry, catalog: created.catalog, created };
}

/** The error a promise rejects with. */
async function failure(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected a rejection');
}

async function validationProblems(promise: Promise<unknown>): Promise<readonly BatchProblem[]> {
  const error = await failure(promise);
  expect(error).toBeInstanceOf(CatalogValidationError);
  const e = error as CatalogValidationError;
  expect(e.status).toBe(400);
  return e.problems;
}

async function typeOfField(catalog: Catalog, name: string) {
  return (await catalog.schema()).fields.find((f) => f.name === name)?.type;
}

async function customFields(catalog: Catalog) {
  return Object.fromEntries((await catalog.schema()).fields.filter((f) => !f.standard).map((f) => [f.name, f.type]));
}

afterEach(() => {
  vi.useRealTimers();
});

describe('schema typing (interfaces.md, Catalog items)', () => {
  it('rule 1: any field name in a payload is accepted and joins the schema', async () => {
    const { catalog } = await setup();
    await catalog.put(item('a', { color: 'red', 'weird name / ü': 1, constructor: 'c', __proto__x: true }));
    expect(Object.keys(await customFields(catalog)).sort()).toEqual(['__proto__x', 'color', 'constructor', 'weird name / ü']);
    expect(await catalog.get('a')).toMatchObject({ color: 'red', 'weird name / ü': 1 });
  });

  it('a field that can be created can also be deleted through deleteSchemaField (or is refused on creation)', async () => {
    // A field created with the wrong type must be deletable to be recreated (rule 4); the field
    // named "" is accepted by put but deleteSchemaField('') refuses it.
    const { catalog } = await setup();
    const created = await catalog.put(item('a', { '': 'x' })).then(
      () => true,
      () => false,
    );
    if (created) await expect(catalog.deleteSchemaField('')).resolves.toBeUndefined();
  });

  it('the schema lists the standard fields with fixed types, then custom fields by name', async () => {
    const { catalog } = await setup();
    await catalog.put(item('a', { zeta: true, alpha: { k: 'v' } }));
    const { fields } = await catalog.schema();
    expect(fields.slice(0, 9).map((f) => [f.name, f.type, f.standard])).toEqual([
      ['id', 'string', true],
      ['is_recommendable', 'boolean', true],
      ['name', 'string', true],
      ['absolute_link', 'string', true],
      ['img_link', 'string', true],
      ['price', 'number', true],
      ['categories_ids', 'string[]', true],
      ['item_purchase_key', 'string[]', true],
      ['item_pageview_key', 'string[]', true],
    ]);
    expect(fields.slice(9)).toEqual([
      { name: 'alpha', type: 'object<string>', standard: false, nullable: true, required: false },
      { name: 'zeta', type: 'boolean', standard: false, nullable: true, required: false },
    ]);
  });

  it.each([
    ['string', 'red', 5],
    ['number', 3.5, '3.5'],
    ['boolean', true, 'true'],
    ['string[]', ['a', 'b'], 'a'],
    ['object<string>', { size: 'XL' }, { size: 1 }],
    ['object<number>', { w: 1 }, { w: true }],
    ['object<boolean>', { ok: true }, ['ok']],
  ])('rule 2: the first value types the field as %s; rule 3: a value of another type is then rejected', async (type, first, other) => {
    const { catalog } = await setup();
    await catalog.put(item('a', { f: first }));
    expect(await typeOfField(catalog, 'f')).toBe(type);
    await catalog.put(item('b', { f: first }));
    const problems = await validationProblems(catalog.put(item('c', { f: other })));
    expect(problems).toMatchObject([{ index: 0, id: 'c', field: 'f', expected: type }]);
    expect(await catalog.get('c')).toBeUndefined();
    expect(await typeOfField(catalog, 'f')).toBe(type);
  });

  it('rule 3: the rejection names item id, field, expected and actual type', async () => {
    const { catalog } = await setup();
    await catalog.put(item('a', { color: 'red' }));
    const error = (await failure(catalog.put(item('sku-9', { color: 5 })))) as CatalogValidationError;
    expect(error.problems).toEqual([
      { index: 0, id: 'sku-9', field: 'color', expected: 'string', actual: 'number', reason: expect.any(String) },
    ]);
    for (const part of ['sku-9', 'color', 'string', 'number']) expect(error.message).toContain(part);
  });

  it.each([[null], [''], [[]], [{}]])('rule 3: later items may give the empty value %j', async (empty) => {
    const { catalog } = await setup();
    await catalog.put(item('a', { color: 'red' }));
    await catalog.put(item('b', { color: empty }));
    expect(await catalog.get('b')).toMatchObject({ color: empty });
    expect(await typeOfField(catalog, 'color')).toBe('string');
  });

  it('rule 3: later items may omit the field', async () => {
    const { catalog } = await setup();
    await catalog.put(item('a', { color: 'red' }));
    await catalog.put(item('b'));
    expect(await catalog.count()).toBe(2);
  });

  it('an empty first value creates the field untyped; a later non-empty value types it', async () => {
    const { catalog } = await setup();
    await catalog.put(item('a', { color: '' }));
    expect(await customFields(catalog)).toEqual({ color: null });
    await catalog.put(item('b', { color: null }));
    expect(await customFields(catalog)).toEqual({ color: null });
    await catalog.put(item('c', { color: ['red'] }));
    expect(await customFields(catalog)).toEqual({ color: 'string[]' });
    await validationProblems(catalog.put(item('d', { color: 'red' })));
  });

  it('rule 4: a type cannot change; the field is deleted and recreated with another type', async () => {
    const { catalog } = await setup();
    await catalog.put(item('a', { size: 42 }));
    await validationProblems(catalog.put(item('b', { size: 'XL' })));
    await catalog.deleteSchemaField('size');
    expect(await customFields(catalog)).toEqual({});
    expect(await catalog.get('a')).not.toHaveProperty('size');
    await catalog.put(item('b', { size: 'XL' }));
    expect(await typeOfField(catalog, 'size')).toBe('string');
    await validationProblems(catalog.put(item('c', { size: 42 })));
  });

  it('standard field types are fixed and cannot be overridden by a first value', async () => {
    const { catalog } = await setup();
    const problems = await validationProblems(catalog.put(item('a', { price: '10 EUR' })));
    expect(problems).toMatchObject([{ index: 0, id: 'a', field: 'price', expected: 'number or null', actual: 'string' }]);
    expect(await customFields(catalog)).toEqual({});
  });

  it('rejects unsupported values without creating the field', async () => {
    const { catalog } = await setup();
    const problems = await validationProblems(catalog.put(item('a', { specs: { screen: { inches: 6 } } })));
    expect(problems).toMatchObject([{ index: 0, id: 'a', field: 'specs' }]);
    expect(await customFields(catalog)).toEqual({});
  });

  it('standard fields cannot be deleted from the schema', async () => {
    const { catalog } = await setup();
    for (const name of ['id', 'price', 'item_purchase_key']) {
      const error = await failure(catalog.deleteSchemaField(name));
      expect(error).toBeInstanceOf(ValidationError);
      expect((error as ValidationError).code).toBe('standard_field');
    }
  });

  it('deleting an unknown field is a NotFoundError', async () => {
    const { catalog } = await setup();
    await expect(catalog.deleteSchemaField('nope')).rejects.toBeInstanceOf(NotFoundError);
  });
});

describe('transitions (interfaces.md, Catalog synchronization)', () => {
  it('schema field absent → present with the type of the first value sent', async () => {
    const { catalog } = await setup();
    expect(await customFields(catalog)).toEqual({});
    await catalog.put(item('a', { brand: 'Acme' }));
    expect(await customFields(catalog)).toEqual({ brand: 'string' });
  });

  it('schema field present → absent by schema-field deletion, removed from every item', async () => {
    const { catalog } = await setup();
    await catalog.batch([put(item('a', { brand: 'Acme', color: 'red' })), put(item('b', { brand: 'Other' })), put(item('c'))]);
    await catalog.deleteSchemaField('brand');
    expect(await customFields(catalog)).toEqual({ color: 'string' });
    for (const id of ['a', 'b', 'c']) expect(await catalog.get(id)).not.toHaveProperty('brand');
    expect(await catalog.get('a')).toMatchObject({ color: 'red' });
    await expect(catalog.deleteSchemaField('brand')).rejects.toBeInstanceOf(NotFoundError);
  });

  it('item absent → present by add-or-replace', async () => {
    const { catalog } = await setup();
    expect(await catalog.get('a')).toBeUndefined();
    expect(await catalog.put(item('a'))).toEqual({ accepted: 1, upserted: 1, deleted: 0 });
    expect(await catalog.get('a')).toEqual(item('a'));
  });

  it('item present → wholly replaced: a custom field missing from the payload is gone', async () => {
    const { catalog } = await setup();
    await catalog.put(item('a', { color: 'red', size: 'XL', item_purchase_key: ['p'] }));
    await catalog.put(item('a', { size: 'L', name: 'Renamed' }));
    const stored = await catalog.get('a');
    expect(stored).toEqual(item('a', { size: 'L', name: 'Renamed' }));
    expect(stored).not.toHaveProperty('color');
    expect(stored).not.toHaveProperty('item_purchase_key');
    expect(await catalog.count()).toBe(1);
    // The field stays in the schema: only its value on that item went away.
    expect(await typeOfField(catalog, 'color')).toBe('string');
  });

  it('item present → absent by delete; deleting an absent item is accepted', async () => {
    const { catalog } = await setup();
    await catalog.put(item('a'));
    expect(await catalog.delete('a')).toEqual({ accepted: 1, upserted: 0, deleted: 1 });
    expect(await catalog.get('a')).toBeUndefined();
    expect(await catalog.delete('a')).toEqual({ accepted: 1, upserted: 0, deleted: 1 });
  });

  it('delete rejects an id of 41 characters', async () => {
    const { catalog } = await setup();
    const problems = await validationProblems(catalog.delete('x'.repeat(41)));
    expect(problems).toMatchObject([{ index: 0, field: 'id' }]);
  });

  it('catalog any → empty by delete-all; the schema is kept', async () => {
    const { catalog } = await setup();
    await catalog.batch([put(item('a', { color: 'red' })), put(item('b', { size: 3 }))]);
    expect(await catalog.deleteAll()).toEqual({ deleted: 2 });
    expect(await catalog.count()).toBe(0);
    expect(await customFields(catalog)).toEqual({ color: 'string', size: 'number' });
    await validationProblems(catalog.put(item('c', { color: 1 })));
    expect(await catalog.deleteAll()).toEqual({ deleted: 0 });
  });

  it('visible catalog: unchanged by calls, reflects all accepted operations after sync', async () => {
    let now = 1_000;
    const { catalog } = await setup({ clock: () => now });
    expect(await catalog.visible()).toEqual({ version: 0, syncedAt: null, items: [] });

    await catalog.batch([put(item('b')), put(item('a', { color: 'red' })), put(item('c'))]);
    await catalog.delete('c');
    await validationProblems(catalog.put(item('z', { color: 7 })));
    expect(await catalog.visible()).toEqual({ version: 0, syncedAt: null, items: [] });

    now = 2_000;
    expect(await catalog.sync()).toEqual({ version: 1, syncedAt: 2_000, count: 2 });
    const v1 = await catalog.visible();
    expect(v1.version).toBe(1);
    expect(v1.syncedAt).toBe(2_000);
    expect(v1.items).toEqual([item('a', { color: 'red' }), item('b')]);
    expect(await catalog.visibleVersion()).toBe(1);

    // Every kind of write stays invisible until the next sync.
    await catalog.put(item('a', { color: 'blue' }));
    await catalog.put(item('d'));
    await catalog.deleteSchemaField('color');
    await catalog.delete('b');
    expect(await catalog.visible()).toEqual(v1);
    await catalog.deleteAll();
    expect((await catalog.visible()).items.map((i) => i.id)).toEqual(['a', 'b']);
    expect((await catalog.visible()).items[0]).toMatchObject({ color: 'red' });

    now = 3_000;
    expect(await catalog.sync()).toMatchObject({ version: 2, count: 0 });
    expect(await catalog.visible()).toEqual({ version: 2, syncedAt: 3_000, items: [] });
  });

  it('sync without changes keeps the published version; the next change publishes a new one', async () => {
    const { catalog } = await setup();
    await catalog.put(item('a'));
    await catalog.sync();
    expect(await catalog.sync()).toMatchObject({ version: 1, count: 1 });
    await catalog.put(item('b'));
    expect(await catalog.sync()).toMatchObject({ version: 2, count: 2 });
  });

  it('visible items are ordered by id and cannot be mutated by the caller', async () => {
    const { catalog } = await setup();
    const original = item('m', { tags: ['x'] });
    await catalog.batch([put(item('z')), put(original), put(item('a'))]);
    (original.tags as string[]).push('mutated-after-put');
    await catalog.sync();
    const { items } = await catalog.visible();
    expect(items.map((i) => i.id)).toEqual(['a', 'm', 'z']);
    expect(items[1]!.tags).toEqual(['x']);
    expect(() => {
      (items[1] as Record<string, unknown>).name = 'hacked';
    }).toThrow();
  });

  it('every instance sharing the store sees the new visible version', async () => {
    const { storage, catalog } = await setup();
    const other = await new CatalogRegistry({ storage }).get('acme');
    expect(other).not.toBe(catalog);
    await catalog.put(item('a'));
    await catalog.sync();
    expect((await other.visible()).items.map((i) => i.id)).toEqual(['a']);
    expect(await other.visibleVersion()).toBe(1);
  });
});

describe('batches', () => {
  it('applies operations in order: put then delete of one id leaves it absent', async () => {
    const { catalog } = await setup();
    expect(await catalog.batch([put(item('a')), del('a')])).toEqual({ accepted: 2, upserted: 1, deleted: 1 });
    expect(await catalog.get('a')).toBeUndefined();
  });

  it('applies operations in order: delete then put of one id leaves it present', async () => {
    const { catalog } = await setup();
    await catalog.put(item('a', { name: 'old' }));
    await catalog.batch([del('a'), put(item('a', { name: 'new' }))]);
    expect(await catalog.get('a')).toMatchObject({ name: 'new' });
  });

  it('applies operations in order: the last of two puts of one id wins', async () => {
    const { catalog } = await setup();
    await catalog.batch([put(item('a', { name: 'first', color: 'red' })), put(item('a', { name: 'second' }))]);
    expect(await catalog.get('a')).toEqual(item('a', { name: 'second' }));
  });

  it('typing considers fields created by earlier operations of the same batch', async () => {
    const { catalog } = await setup();
    const problems = await validationProblems(catalog.batch([put(item('a', { color: 'red' })), put(item('b', { color: 5 }))]));
    expect(problems).toEqual([{ index: 1, id: 'b', field: 'color', expected: 'string', actual: 'number', reason: expect.any(String) }]);
    expect(await catalog.count()).toBe(0);
    expect(await customFields(catalog)).toEqual({});
  });

  it('typing within a batch: an empty value does not fix the type, the first non-empty one does', async () => {
    const { catalog } = await setup();
    const problems = await validationProblems(
      catalog.batch([
        put(item('a', { color: null })),
        put(item('b', { color: 'red' })),
        put(item('c', { color: '' })),
        put(item('d', { color: true })),
      ]),
    );
    expect(problems).toMatchObject([{ index: 3, id: 'd', field: 'color', expected: 'string', actual: 'boolean' }]);
  });

  it('a valid batch creates fields from several operations', async () => {
    const { catalog } = await setup();
    await catalog.batch([
      put(item('a', { color: '' })),
      put(item('b', { color: 'red', size: 1 })),
      put(item('c', { size: 2, tags: ['x'] })),
    ]);
    expect(await customFields(catalog)).toEqual({ color: 'string', size: 'number', tags: 'string[]' });
  });

  it('is atomic: one invalid operation applies nothing, and every failing operation is listed', async () => {
    const { catalog } = await setup();
    await catalog.put(item('keep', { color: 'red' }));
    const long = 'x'.repeat(41);
    const missing = item('m');
    delete missing.price;
    const operations = [
      put(item('new-1', { brand: 'Acme' })), // valid, creates brand
      put(item('bad-type', { color: 1 })), // 1: type mismatch
      del('keep'), // valid
      put(missing), // 3: missing price
      { operation: 'upsert', product: item('u') } as unknown as BatchOperation, // 4: unknown operation
      del(long), // 5: id too long
      { operation: 'create-replace', product: null } as unknown as BatchOperation, // 6: no product
      put(item('two', { price: 'x', size: [1, 2] })), // 7: two problems
    ];
    const error = (await failure(catalog.batch(operations))) as CatalogValidationError;
    expect(error).toBeInstanceOf(CatalogValidationError);
    expect(error.problems.map((p) => [p.index, p.id, p.field])).toEqual([
      [1, 'bad-type', 'color'],
      [3, 'm', 'price'],
      [4, undefined, 'operation'],
      [5, long, 'id'],
      [6, undefined, 'product'],
      [7, 'two', 'price'],
      [7, 'two', 'size'],
    ]);
    for (const p of error.problems) expect(p.reason).toEqual(expect.any(String));
    expect(error.details).toHaveLength(7);
    // Nothing applied: no new item, no deletion, no new field.
    expect(await catalog.count()).toBe(1);
    expect(await catalog.get('keep')).toBeDefined();
    expect(await catalog.get('new-1')).toBeUndefined();
    expect(await customFields(catalog)).toEqual({ color: 'string' });
  });

  it('error details point at the offending JSON path of each operation', async () => {
    const { catalog } = await setup();
    const error = (await failure(
      catalog.batch([
        put(item('a', { price: 'x' })),
        { operation: 'upsert', product: item('u') } as unknown as BatchOperation,
        { operation: 'delete', product: null } as unknown as BatchOperation,
      ]),
    )) as CatalogValidationError;
    // "operation" and "product" are members of the operation, not of its product.
    expect(error.details.map((d) => d.path)).toEqual([
      [0, 'product', 'price'],
      [1, 'operation'],
      [2, 'product'],
    ]);
  });

  it('rejects an unknown operation', async () => {
    const { catalog } = await setup();
    const problems = await validationProblems(catalog.batch([{ operation: 'replace', product: item('a') } as unknown as BatchOperation]));
    expect(problems).toEqual([{ index: 0, field: 'operation', reason: expect.stringContaining('replace') }]);
  });

  it('rejects a non-object operation and a non-array batch', async () => {
    const { catalog } = await setup();
    await validationProblems(catalog.batch(['x' as unknown as BatchOperation]));
    await expect(catalog.batch({} as unknown as BatchOperation[])).rejects.toBeInstanceOf(ValidationError);
  });

  it('accepts an empty batch', async () => {
    const { catalog } = await setup();
    expect(await catalog.batch([])).toEqual({ accepted: 0, upserted: 0, deleted: 0 });
  });

  it(`accepts ${MAX_BATCH_OPERATIONS} operations and rejects ${MAX_BATCH_OPERATIONS + 1}`, async () => {
    expect(MAX_BATCH_OPERATIONS).toBe(10_000);
    const { catalog } = await setup();
    const operations = Array.from({ length: 10_000 }, (_, i) => put(item(`sku-${i}`, { brand: `b${i % 7}`, rank: i })));
    expect(await catalog.batch(operations)).toEqual({ accepted: 10_000, upserted: 10_000, deleted: 0 });
    expect(await catalog.count()).toBe(10_000);

    const error = await failure(catalog.batch([...operations, put(item('one-more'))]));
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ValidationError).code).toBe('too_many_operations');
    expect((error as ValidationError).message).toContain('10001');
    expect(await catalog.get('one-more')).toBeUndefined();
  });

  it('rejects a payload size of 50 MB or more', async () => {
    expect(MAX_BATCH_BYTES).toBe(50 * 1024 * 1024);
    const { catalog } = await setup();
    await expect(catalog.batch([put(item('a'))], { sizeBytes: MAX_BATCH_BYTES - 1 })).resolves.toMatchObject({ accepted: 1 });
    const error = await failure(catalog.batch([put(item('b'))], { sizeBytes: MAX_BATCH_BYTES }));
    expect((error as ValidationError).code).toBe('payload_too_large');
    expect(await catalog.get('b')).toBeUndefined();
  });
});

describe('concurrent writers', () => {
  it('two writers creating one new field with different types: exactly one wins, the other is told the field', async () => {
    const storage = memoryStorage();
    const { catalog: first } = await setup({ storage });
    const second = await new CatalogRegistry({ storage }).get('acme');
    expect(second).not.toBe(first);
    const applyBatch = vi.spyOn(storage.catalogs, 'applyBatch');

    const outcomes = await Promise.allSettled([first.put(item('a', { size: 'XL' })), second.put(item('b', { size: 42 }))]);
    // Both validated against the schema without "size": the store caught the loser's claim.
    expect(applyBatch).toHaveBeenCalledTimes(2);
    expect(await applyBatch.mock.results[1]!.value.catch((e: AbkitError) => e.code)).toBe('field_type_conflict');
    applyBatch.mockRestore();
    const won = outcomes.filter((o) => o.status === 'fulfilled');
    const lost = outcomes.filter((o): o is PromiseRejectedResult => o.status === 'rejected');
    expect(won).toHaveLength(1);
    expect(lost).toHaveLength(1);
    expect(lost[0]!.reason).toBeInstanceOf(AbkitError);
    expect((lost[0]!.reason as Error).message).toContain('size');
    const type = await typeOfField(first, 'size');
    const winner = outcomes[0]!.status === 'fulfilled' ? 'a' : 'b';
    expect(type).toBe(winner === 'a' ? 'string' : 'number');
    expect(await first.count()).toBe(1);
    expect(await first.get(winner)).toBeDefined();
  });

  it('many concurrent pairs: each field gets exactly one type and exactly one write per pair is rejected', async () => {
    const storage = memoryStorage();
    const { catalog: first } = await setup({ storage });
    const second = await new CatalogRegistry({ storage }).get('acme');
    const pairs = 200;
    const attempts: Promise<unknown>[] = [];
    for (let i = 0; i < pairs; i++) {
      const [x, y] = i % 2 === 0 ? [first, second] : [second, first];
      attempts.push(x.put(item(`s-${i}`, { [`f${i}`]: 'XL' })), y.put(item(`n-${i}`, { [`f${i}`]: 42 })));
    }
    const outcomes = await Promise.allSettled(attempts);
    const fields = await customFields(first);
    for (let i = 0; i < pairs; i++) {
      const [s, n] = [outcomes[2 * i]!, outcomes[2 * i + 1]!];
      expect([s.status, n.status].sort()).toEqual(['fulfilled', 'rejected']);
      const lost = (s.status === 'rejected' ? s : n) as PromiseRejectedResult;
      expect((lost.reason as Error).message).toContain(`f${i}`);
      expect(fields[`f${i}`]).toBe(s.status === 'fulfilled' ? 'string' : 'number');
      expect(await first.get(s.status === 'fulfilled' ? `s-${i}` : `n-${i}`)).toBeDefined();
      expect(await first.get(s.status === 'fulfilled' ? `n-${i}` : `s-${i}`)).toBeUndefined();
    }
  });

  it('two writers over separate registries giving the same type both succeed', async () => {
    const storage = memoryStorage();
    const { catalog: first } = await setup({ storage });
    const second = await new CatalogRegistry({ storage }).get('acme');
    await Promise.all([first.put(item('a', { size: 'XL' })), second.put(item('b', { size: 'L' }))]);
    expect(await first.count()).toBe(2);
    expect(await typeOfField(second, 'size')).toBe('string');
  });

  it('a batch racing a conflicting writer is all-or-nothing', async () => {
    const storage = memoryStorage();
    const { catalog: first } = await setup({ storage });
    const second = await new CatalogRegistry({ storage }).get('acme');
    const batch = Array.from({ length: 50 }, (_, i) => put(item(`b-${i}`, { size: i === 49 ? 7 : '', other: 'x' })));
    const outcomes = await Promise.allSettled([first.batch(batch), second.put(item('w', { size: 'XL' }))]);
    expect(outcomes.filter((o) => o.status === 'fulfilled')).toHaveLength(1);
    if (outcomes[0]!.status === 'rejected') {
      expect(await first.count()).toBe(1);
      expect(await typeOfField(first, 'other')).toBeUndefined();
    } else {
      expect(await first.count()).toBe(50);
    }
  });
});

describe('synchronization scheduler', () => {
  it('startSync runs sync every intervalMs until stopped', async () => {
    vi.useFakeTimers();
    const { catalog } = await setup();
    await catalog.put(item('a'));
    const schedule = catalog.startSync({ intervalMs: 60_000 });
    await vi.advanceTimersByTimeAsync(59_999);
    expect(await catalog.visibleVersion()).toBe(0);
    await vi.advanceTimersByTimeAsync(1);
    expect(await catalog.visibleVersion()).toBe(1);
    expect((await catalog.visible()).items.map((i) => i.id)).toEqual(['a']);

    await catalog.put(item('b'));
    await vi.advanceTimersByTimeAsync(60_000);
    expect(await catalog.visibleVersion()).toBe(2);
    expect((await catalog.visible()).items.map((i) => i.id)).toEqual(['a', 'b']);

    schedule.stop();
    await catalog.put(item('c'));
    await vi.advanceTimersByTimeAsync(10 * 60_000);
    expect(await catalog.visibleVersion()).toBe(2);
    expect((await catalog.visible()).items).toHaveLength(2);
  });

  it('defaults to once a day', async () => {
    expect(DEFAULT_SYNC_INTERVAL_MS).toBe(24 * 60 * 60 * 1000);
    vi.useFakeTimers();
    const { catalog } = await setup();
    await catalog.put(item('a'));
    const schedule = catalog.startSync();
    await vi.advanceTimersByTimeAsync(DEFAULT_SYNC_INTERVAL_MS - 1);
    expect(await catalog.visibleVersion()).toBe(0);
    await vi.advanceTimersByTimeAsync(1);
    expect(await catalog.visibleVersion()).toBe(1);
    schedule.stop();
  });

  it('a manual sync remains available while the scheduler runs', async () => {
    vi.useFakeTimers();
    const { catalog } = await setup();
    const schedule = catalog.startSync({ intervalMs: 1_000 });
    await catalog.put(item('a'));
    await catalog.sync();
    expect(await catalog.visibleVersion()).toBe(1);
    await vi.advanceTimersByTimeAsync(1_000);
    expect(await catalog.visibleVersion()).toBe(1);
    await catalog.put(item('b'));
    await vi.advanceTimersByTimeAsync(1_000);
    expect(await catalog.visibleVersion()).toBe(2);
    schedule.stop();
  });

  it('reports errors of scheduled synchronizations to onSyncError and keeps running', async () => {
    vi.useFakeTimers();
    const storage = memoryStorage();
    const errors: unknown[] = [];
    const registry = new CatalogRegistry({ storage, onSyncError: (e) => errors.push(e) });
    const { catalog } = await registry.create({ identifier: 'acme' });
    const publish = vi.spyOn(storage.catalogs, 'publish').mockRejectedValueOnce(new Error('store down'));
    const schedule = catalog.startSync({ intervalMs: 1_000 });
    await vi.advanceTimersByTimeAsync(1_000);
    expect(errors).toHaveLength(1);
    expect((errors[0] as Error).message).toBe('store down');
    await vi.advanceTimersByTimeAsync(1_000);
    expect(await catalog.visibleVersion()).toBe(1);
    schedule.stop();
    publish.mockRestore();
  });

  it.each([[0], [999], [1.5], [-1], [Number.NaN]])('refuses intervalMs = %s', async (intervalMs) => {
    const { catalog } = await setup();
    expect(() => catalog.startSync({ intervalMs })).toThrow(TypeError);
  });
});

describe('linkEvent (interfaces.md, Analytics linking)', () => {
  async function linked() {
    const { catalog } = await setup();
    await catalog.batch([
      put(item('a', { item_purchase_key: ['sku-a', '1001'], item_pageview_key: ['/p/a'] })),
      put(item('b', { item_purchase_key: ['sku-b'], item_pageview_key: ['/p/b', 'sku-a'] })),
      put(item('c', { item_purchase_key: null })),
    ]);
    return catalog;
  }

  it('sees only visible items', async () => {
    const catalog = await linked();
    expect(await catalog.linkEvent({ name: 'purchase', properties: { product: 'sku-a' } })).toEqual([]);
    await catalog.sync();
    expect((await catalog.linkEvent({ name: 'purchase', properties: { product: 'sku-a' } })).map((i) => i.id)).toEqual(['a']);
    await catalog.delete('a');
    expect((await catalog.linkEvent({ name: 'purchase', properties: { product: 'sku-a' } })).map((i) => i.id)).toEqual(['a']);
    await catalog.sync();
    expect(await catalog.linkEvent({ name: 'purchase', properties: { product: 'sku-a' } })).toEqual([]);
  });

  it('links a purchase through item_purchase_key and a pageview through item_pageview_key', async () => {
    const catalog = await linked();
    await catalog.sync();
    expect((await catalog.linkEvent({ name: 'purchase', properties: { product: 'sku-b' } })).map((i) => i.id)).toEqual(['b']);
    expect(await catalog.linkEvent({ name: 'purchase', properties: { url: '/p/b' } })).toEqual([]);
    expect((await catalog.linkEvent({ name: 'pageview', properties: { url: '/p/b' } })).map((i) => i.id)).toEqual(['b']);
    // "sku-a" is a purchase key of a and a pageview key of b.
    expect((await catalog.linkEvent({ name: 'pageview', properties: { product: 'sku-a' } })).map((i) => i.id)).toEqual(['b']);
  });

  it('matches any property value, numbers as text, arrays element-wise, without duplicates', async () => {
    const catalog = await linked();
    await catalog.sync();
    expect((await catalog.linkEvent({ name: 'purchase', properties: { order: 1001 } })).map((i) => i.id)).toEqual(['a']);
    const found = await catalog.linkEvent({
      name: 'purchase',
      properties: { items: ['sku-a', 'sku-b', 'none'], again: 'sku-a', nested: { x: 'sku-b' } },
    });
    expect(found.map((i) => i.id).sort()).toEqual(['a', 'b']);
    expect(await catalog.linkEvent({ name: 'purchase', properties: {} })).toEqual([]);
  });

  it('follows new visible versions (the key index is rebuilt)', async () => {
    const catalog = await linked();
    await catalog.sync();
    await catalog.put(item('a', { item_purchase_key: ['renamed'] }));
    await catalog.sync();
    expect(await catalog.linkEvent({ name: 'purchase', properties: { p: 'sku-a' } })).toEqual([]);
    expect((await catalog.linkEvent({ name: 'purchase', properties: { p: 'renamed' } })).map((i) => i.id)).toEqual(['a']);
  });

  it('builds the key index of a large version giving the event loop a turn every SLICE_OPERATIONS items', async () => {
    const { catalog } = await setup();
    const N = 4 * SLICE_OPERATIONS + 3;
    await catalog.batch(Array.from({ length: N }, (_, i) => put(item(`i${i}`, { item_purchase_key: [`sku-${i}`] }))));
    await catalog.sync();
    const turns = countTurns();
    expect((await catalog.linkEvent({ name: 'purchase', properties: { p: `sku-${N - 1}` } })).map((i) => i.id)).toEqual([`i${N - 1}`]);
    expect(turns.stop()).toBeGreaterThanOrEqual(Math.floor(N / SLICE_OPERATIONS));
  });

  it('rejects other event names and bad properties', async () => {
    const catalog = await linked();
    await expect(catalog.linkEvent({ name: 'click' as 'purchase', properties: {} })).rejects.toBeInstanceOf(ValidationError);
    await expect(catalog.linkEvent({ name: 'purchase', properties: null as unknown as Record<string, unknown> })).rejects.toBeInstanceOf(
      ValidationError,
    );
  });
});

describe('keys (interfaces.md, Catalog keys)', () => {
  it('the catalog key manages, the search key only reads, others are unknown', async () => {
    const { registry, catalog } = await setup();
    const manage = await registry.authenticate(CATALOG_KEY);
    expect(manage?.role).toBe('catalog');
    expect(manage?.catalog).toBe(catalog);
    const read = await registry.authenticate(SEARCH_KEY);
    expect(read?.role).toBe('search');
    expect(read?.catalog.identifier).toBe('acme');
    expect(await registry.authenticate('ck-acme-0123456789abcdef0123456789abcdeX')).toBeUndefined();
    expect(await registry.authenticate('')).toBeUndefined();
    expect(await registry.authenticate('x'.repeat(600))).toBeUndefined();
  });

  it('each key selects its own catalog', async () => {
    const { registry } = await setup();
    const beta = await registry.create({ identifier: 'beta' });
    expect(beta.catalogApiKey.startsWith(CATALOG_KEY_PREFIX)).toBe(true);
    expect(beta.searchApiKey.startsWith(SEARCH_KEY_PREFIX)).toBe(true);
    expect(beta.catalogApiKey).not.toBe(beta.searchApiKey);
    expect((await registry.authenticate(beta.catalogApiKey))?.catalog.identifier).toBe('beta');
    expect((await registry.authenticate(CATALOG_KEY))?.catalog.identifier).toBe('acme');
    await beta.catalog.put(item('only-beta'));
    expect(await (await registry.get('acme')).get('only-beta')).toBeUndefined();
    expect(await registry.identifiers()).toEqual(['acme', 'beta']);
  });

  it('stores keys hashed: the stored records never contain a key', async () => {
    for (const pepper of [undefined, 'pepper-0123456789abcdef']) {
      const storage = memoryStorage();
      const registry = new CatalogRegistry({ storage, pepper });
      const generated = await registry.create({ identifier: 'gen' });
      await registry.create({ identifier: 'acme', catalogApiKey: CATALOG_KEY, searchApiKey: SEARCH_KEY });
      const stored = JSON.stringify(await storage.catalogs.listCatalogs());
      for (const key of [CATALOG_KEY, SEARCH_KEY, generated.catalogApiKey, generated.searchApiKey]) {
        expect(stored).not.toContain(key);
        expect(stored).not.toContain(key.slice(-16));
      }
      const record = await storage.catalogs.getCatalog('acme');
      expect(record?.catalogKeyHash).toMatch(/^[0-9a-f]{64}$/);
      expect(record?.searchKeyHash).toMatch(/^[0-9a-f]{64}$/);
      expect((await registry.authenticate(CATALOG_KEY))?.role).toBe('catalog');
    }
  });

  it('a key only works with the pepper it was hashed with', async () => {
    const storage = memoryStorage();
    await new CatalogRegistry({ storage, pepper: 'pepper-0123456789abcdef' }).create({
      identifier: 'acme',
      catalogApiKey: CATALOG_KEY,
      searchApiKey: SEARCH_KEY,
    });
    expect(await new CatalogRegistry({ storage }).authenticate(CATALOG_KEY)).toBeUndefined();
    expect(await new CatalogRegistry({ storage, pepper: 'pepper-0123456789abcdef' }).authenticate(CATALOG_KEY)).toBeDefined();
  });

  it('refuses bad identifiers, short keys, equal keys and duplicates', async () => {
    const { registry } = await setup();
    await expect(registry.create({ identifier: 'Acme' })).rejects.toBeInstanceOf(ValidationError);
    await expect(registry.create({ identifier: 'ok', catalogApiKey: 'short' })).rejects.toBeInstanceOf(ValidationError);
    await expect(registry.create({ identifier: 'ok', catalogApiKey: 'k'.repeat(32), searchApiKey: 'k'.repeat(32) })).rejects.toBeInstanceOf(
      ValidationError,
    );
    await expect(registry.create({ identifier: 'acme' })).rejects.toBeInstanceOf(AbkitError);
    await expect(registry.get('nope')).rejects.toBeInstanceOf(NotFoundError);
  });

  it('ensure is idempotent and rotates keys', async () => {
    const { registry } = await setup();
    const same = { identifier: 'acme', catalogApiKey: CATALOG_KEY, searchApiKey: SEARCH_KEY };
    expect((await registry.ensure(same)).written).toBe(false);
    const rotated = { ...same, catalogApiKey: 'ck-rotated-0123456789abcdef0123456789ab' };
    expect((await registry.ensure(rotated)).written).toBe(true);
    expect(await registry.authenticate(CATALOG_KEY)).toBeUndefined();
    expect((await registry.authenticate(rotated.catalogApiKey))?.role).toBe('catalog');
  });
});
