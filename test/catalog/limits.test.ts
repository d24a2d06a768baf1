/**
 * The catalog's limits (interfaces.md, Limits): fields per item, item size, custom fields per
 * catalog, and the dotted names search could not tell from an object field's key. Each is
 * refused at write time naming the operation, the field and the limit, and nothing is applied.
 */
import { describe, expect, it } from 'vitest';
import { CatalogRegistry, CatalogValidationError, memoryStorage, type BatchOperation } from '../../src/index';
import { MAX_SCHEMA_FIELDS, type BatchProblem } from '../../src/catalog/catalog';
import { MAX_ITEM_FIELDS, MAX_ITEM_SIZE } from '../../src/catalog/typing';
import { item } from '../helpers/search';

const put = (product: Record<string, unknown>): BatchOperation => ({ operation: 'create-replace', product });
/** `n` custom fields `${prefix}0…` with the value `value`. */
const fields = (n: number, prefix = 'f', value: unknown = 'v') =>
  Object.fromEntries(Array.from({ length: n }, (_, i) => [`${prefix}${i}`, value]));
/** Standard fields of item(): they count too. */
const STANDARD = Object.keys(item('x')).length;

async function setup() {
  const storage = memoryStorage();
  const { catalog } = await new CatalogRegistry({ storage }).create({ identifier: 'acme' });
  const customFields = async () => (await catalog.schema()).fields.filter((f) => !f.standard).length;
  return { storage, catalog, customFields };
}

async function problems(promise: Promise<unknown>): Promise<readonly BatchProblem[]> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(CatalogValidationError);
  expect((error as CatalogValidationError).status).toBe(400);
  return (error as CatalogValidationError).problems;
}

describe(`fields per item: at most ${MAX_ITEM_FIELDS}, each key of an object field counting as one`, () => {
  it('accepts an item at the limit and refuses one over it, naming the operation and the limit, applying nothing', async () => {
    const { catalog, customFields } = await setup();
    expect((await catalog.put(item('a', fields(MAX_ITEM_FIELDS - STANDARD)))).accepted).toBe(1);
    const got = await problems(catalog.batch([put(item('b')), put(item('c', fields(MAX_ITEM_FIELDS - STANDARD + 1, 'g')))]));
    expect(got).toEqual([
      {
        index: 1,
        id: 'c',
        reason: `item "c" has ${MAX_ITEM_FIELDS + 1} fields or more (each key of an object field counts as one); the limit is ${MAX_ITEM_FIELDS}`,
      },
    ]);
    expect(await catalog.count()).toBe(1);
    expect(await customFields()).toBe(MAX_ITEM_FIELDS - STANDARD);
  });

  it('counts the keys of object fields', async () => {
    const { catalog } = await setup();
    const specs = fields(MAX_ITEM_FIELDS, 'k');
    const [problem] = await problems(catalog.put(item('a', { specs })));
    expect(problem?.reason).toMatch(new RegExp(`has \\d+ fields or more .* the limit is ${MAX_ITEM_FIELDS}`));
    expect(await catalog.count()).toBe(0);
  });

  it("the issue's batch (10 items × 3,000 fields) is refused whole: no item, no field stored", async () => {
    const { catalog, customFields } = await setup();
    const batch = Array.from({ length: 10 }, (_, i) => put(item(`p${i}`, fields(3000, 'x', 'value'))));
    const got = await problems(catalog.batch(batch));
    expect(got.map((p) => p.index)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    expect(await catalog.count()).toBe(0);
    expect(await customFields()).toBe(0);
  });
});

describe(`item size: at most ${MAX_ITEM_SIZE} characters of JSON`, () => {
  it('accepts an item near the limit and refuses a longer one (a 50 MB string field would be)', async () => {
    const { catalog } = await setup();
    const base = JSON.stringify(item('a', { description: '' })).length;
    expect((await catalog.put(item('a', { description: 'd'.repeat(MAX_ITEM_SIZE - base) }))).accepted).toBe(1);
    const [problem] = await problems(catalog.put(item('b', { description: 'd'.repeat(MAX_ITEM_SIZE - base + 1) })));
    expect(problem).toEqual({
      index: 0,
      id: 'b',
      reason: `item "b" is ${MAX_ITEM_SIZE + 1} characters or more as JSON; the limit is ${MAX_ITEM_SIZE}`,
    });
    expect(await catalog.count()).toBe(1);
  });

  it('counts the item as its JSON text: lists, objects, numbers, booleans and null included', async () => {
    const { catalog } = await setup();
    const shaped = (pad: number) =>
      item('a', { e: [], o: {}, l: ['x', 'y'], d: { a: 1.5, b: -2e-7 }, k: { t: true }, n: null, f: false, pad: 'p'.repeat(pad) });
    const room = MAX_ITEM_SIZE - JSON.stringify(shaped(0)).length;
    await problems(catalog.put(shaped(room + 1)));
    expect((await catalog.put(shaped(room))).accepted).toBe(1);
  });

  it('counts list elements and object values too', async () => {
    const { catalog } = await setup();
    await problems(catalog.put(item('a', { tags: Array.from({ length: MAX_ITEM_SIZE / 4 }, () => 'ab') })));
    await problems(catalog.put(item('b', { dims: { w: 'x'.repeat(MAX_ITEM_SIZE) } })));
    expect(await catalog.count()).toBe(0);
  });
});

describe(`custom fields per catalog: at most ${MAX_SCHEMA_FIELDS}`, () => {
  it('a batch that would pass the ceiling is refused whole, naming the first operation over it', async () => {
    const { catalog, customFields } = await setup();
    const per = 400;
    await catalog.batch([put(item('a', fields(per, 'a'))), put(item('b', fields(per, 'b')))]);
    expect(await customFields()).toBe(2 * per);
    // 200 more fit; the operation creating the 1,001st field is refused, and the batch with it.
    const got = await problems(
      catalog.batch([put(item('c', fields(200, 'c'))), put(item('d', fields(10, 'a'))), put(item('e', fields(1, 'e')))]),
    );
    expect(got).toEqual([
      {
        index: 2,
        id: 'e',
        field: 'e0',
        reason: `item "e" would create 1 field (e0…) where the schema holds ${MAX_SCHEMA_FIELDS} custom fields; the limit is ${MAX_SCHEMA_FIELDS} (delete unused fields with DELETE /indexes/catalog/schema/{fieldID})`,
      },
    ]);
    expect(await customFields()).toBe(2 * per);
    expect(await catalog.count()).toBe(2);
    // Without the last operation, the batch reaches the ceiling exactly; existing fields stay writable.
    await catalog.batch([put(item('c', fields(200, 'c'))), put(item('d', fields(10, 'a')))]);
    expect(await customFields()).toBe(MAX_SCHEMA_FIELDS);
    await catalog.put(item('f', fields(300, 'b')));
    await problems(catalog.put(item('g', { new_field: 'x' })));
    // Deleting a field makes room for another.
    await catalog.deleteSchemaField('c0');
    expect((await catalog.put(item('g', { new_field: 'x' }))).accepted).toBe(1);
    expect(await customFields()).toBe(MAX_SCHEMA_FIELDS);
  });

  it('counts fields created empty (null), which join the schema too', async () => {
    const { catalog, customFields } = await setup();
    await catalog.batch(Array.from({ length: 2 }, (_, i) => put(item(`a${i}`, fields(450, `n${i}_`, null)))));
    await problems(catalog.put(item('b', fields(101, 'm', null))));
    expect(await customFields()).toBe(900);
  });
});

describe('dotted field names beside object fields (search addresses an object key as field.key)', () => {
  it('a field a.b is refused while a is an object field, naming both', async () => {
    const { catalog } = await setup();
    await catalog.put(item('a', { dims: { w: 7 } }));
    const [problem] = await problems(catalog.put(item('b', { 'dims.w': 8 })));
    expect(problem).toMatchObject({ index: 0, id: 'b', field: 'dims.w' });
    expect(problem?.reason).toBe(
      'item "b": field dims.w cannot be created: dims is an object field, and dims.w names its key "w" in filters and facets',
    );
    expect(await catalog.get('b')).toBeUndefined();
  });

  it('an object field cannot hold key b while a.b is a field of its own', async () => {
    const { catalog } = await setup();
    await catalog.put(item('a', { 'dims.w': 8, dims: null }));
    const [problem] = await problems(catalog.put(item('b', { dims: { w: 7, h: 1 } })));
    expect(problem).toMatchObject({ field: 'dims' });
    expect(problem?.reason).toBe(
      'item "b": field dims: its key "w" would be addressed as dims.w in filters and facets, which is a field of its own',
    );
    // Other keys are fine, and then dims.w stays writable: it exists.
    await catalog.put(item('c', { dims: { h: 1 } }));
    await catalog.put(item('d', { 'dims.w': 9 }));
    expect(await catalog.count()).toBe(3);
  });

  it('within one item and one batch too, and for a dotted key of an object field', async () => {
    const { catalog } = await setup();
    const got = await problems(catalog.put(item('a', { dims: { w: 7 }, 'dims.w': 8 })));
    expect(got.map((p) => p.field).sort()).toEqual(['dims', 'dims.w']);
    await problems(catalog.batch([put(item('a', { dims: { w: 7 } })), put(item('b', { 'dims.w.x': 1 }))]));
    await catalog.put(item('a', { 'x.y': { z: 'one' } }));
    const [problem] = await problems(catalog.put(item('b', { x: { 'y.z': 'two' } })));
    expect(problem?.reason).toBe(
      'item "b": field x: its key "y.z" would be addressed as x.y.z in filters and facets, as is the key "z" of the object field x.y',
    );
    expect(await catalog.count()).toBe(1);
  });

  it('dotted names that collide with nothing are accepted', async () => {
    const { catalog } = await setup();
    await catalog.put(item('a', { 'size.eu': '42', dims: { 'w.cm': 7 }, 'dims2.w': 1 }));
    expect((await catalog.get('a'))?.['size.eu']).toBe('42');
  });
});
