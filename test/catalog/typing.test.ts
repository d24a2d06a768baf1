import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  checkItem,
  checkItemId,
  describeValue,
  isStandardField,
  MAX_ITEM_ID_LENGTH,
  STANDARD_FIELDS,
  typeOf,
  type SchemaLookup,
} from '../../src/catalog/typing';
import { FIELD_TYPES, type FieldType } from '../../src/model/field-types';

/** A valid item with every required standard field. */
function base(extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    id: 'sku-1',
    is_recommendable: true,
    name: 'Phone',
    absolute_link: 'https://shop.test/p/1',
    img_link: null,
    price: 199.5,
    categories_ids: ['phones'],
    ...extra,
  };
}

const noSchema: SchemaLookup = () => undefined;
const schemaOf =
  (fields: Record<string, FieldType | null>): SchemaLookup =>
  (name) =>
    Object.hasOwn(fields, name) ? fields[name] : undefined;

/** A non-empty value of each supported type. */
const samples: Record<FieldType, unknown> = {
  string: 'red',
  number: 42,
  boolean: false,
  'string[]': ['a', 'b'],
  'object<string>': { size: 'XL', color: 'red' },
  'object<number>': { width: 1.5, height: 2 },
  'object<boolean>': { waterproof: true, refurbished: false },
};

/** Arbitraries producing only non-empty values of each type. */
const valueOfType: Record<FieldType, fc.Arbitrary<unknown>> = {
  string: fc.string({ minLength: 1 }),
  number: fc.oneof(fc.integer(), fc.double({ noNaN: true, noDefaultInfinity: true })),
  boolean: fc.boolean(),
  'string[]': fc.array(fc.string(), { minLength: 1, maxLength: 5 }),
  'object<string>': fc.dictionary(fc.string({ minLength: 1 }), fc.string(), { minKeys: 1, maxKeys: 5 }),
  'object<number>': fc.dictionary(fc.string({ minLength: 1 }), fc.double({ noNaN: true, noDefaultInfinity: true }), {
    minKeys: 1,
    maxKeys: 5,
  }),
  'object<boolean>': fc.dictionary(fc.string({ minLength: 1 }), fc.boolean(), { minKeys: 1, maxKeys: 5 }),
};

const typeArb = fc.constantFrom(...FIELD_TYPES);

describe('typeOf', () => {
  it('lists the seven supported types of interfaces.md, Catalog items', () => {
    expect([...FIELD_TYPES].sort()).toEqual([
      'boolean',
      'number',
      'object<boolean>',
      'object<number>',
      'object<string>',
      'string',
      'string[]',
    ]);
  });

  it.each(Object.entries(samples))('types a %s value', (type, value) => {
    expect(typeOf(value)).toBe(type);
  });

  it('types every scalar form', () => {
    expect(typeOf('x')).toBe('string');
    expect(typeOf(' ')).toBe('string');
    expect(typeOf(0)).toBe('number');
    expect(typeOf(-0)).toBe('number');
    expect(typeOf(-12.75)).toBe('number');
    expect(typeOf(true)).toBe('boolean');
    expect(typeOf(false)).toBe('boolean');
    expect(typeOf([''])).toBe('string[]');
    expect(typeOf({ a: '' })).toBe('object<string>');
    expect(typeOf({ a: 0 })).toBe('object<number>');
  });

  it.each([
    ['null', null],
    ['the empty string', ''],
    ['the empty array', []],
    ['the empty object', {}],
  ])('calls %s empty', (_label, value) => {
    expect(typeOf(value)).toBe('empty');
  });

  it.each([
    ['a nested object', { a: { b: 'c' } }],
    ['an array of numbers', [1, 2, 3]],
    ['an array of booleans', [true]],
    ['a mixed array', ['a', 1]],
    ['an array holding null', ['a', null]],
    ['an array of arrays', [['a']]],
    ['an array of objects', [{ a: 'b' }]],
    ['an object of mixed values', { a: 'x', b: 1 }],
    ['an object of strings and booleans', { a: 'x', b: true }],
    ['an object holding null', { a: null }],
    ['an object of arrays', { a: ['x'] }],
    ['Infinity', Infinity],
    ['-Infinity', -Infinity],
    ['NaN', NaN],
    ['an object holding Infinity', { a: 1, b: Infinity }],
    ['an object holding NaN first', { a: NaN, b: 1 }],
    ['undefined', undefined],
    ['a bigint', 10n],
    ['a function', () => 1],
  ])('calls %s unsupported', (_label, value) => {
    expect(typeOf(value)).toBe('unsupported');
  });

  it('property: every JSON value is one of the field types, empty or unsupported', () => {
    const kinds = new Set<string>([...FIELD_TYPES, 'empty', 'unsupported']);
    fc.assert(
      fc.property(fc.jsonValue(), (v) => {
        expect(kinds.has(typeOf(v))).toBe(true);
      }),
      { numRuns: 500 },
    );
  });

  it('property: the generated values of each type are typed as such', () => {
    fc.assert(
      fc.property(
        typeArb.chain((t) => valueOfType[t].map((v) => [t, v] as const)),
        ([t, v]) => {
          expect(typeOf(v)).toBe(t);
        },
      ),
      { numRuns: 500 },
    );
  });
});

describe('describeValue', () => {
  it('describes values for error messages', () => {
    expect(describeValue(null)).toBe('null');
    expect(describeValue('x')).toBe('string');
    expect(describeValue(1)).toBe('number');
    expect(describeValue([1, 2])).toBe('number[]');
    expect(describeValue(['a', 1])).toBe('mixed array');
    expect(describeValue({ a: { b: 1 } })).toBe('object<object<number>>');
    expect(describeValue({ a: 'x', b: 1 })).toBe('object of mixed values');
    expect(describeValue(Infinity)).toBe('non-finite number');
  });
});

describe('checkItemId', () => {
  it('accepts 1 to 40 characters', () => {
    expect(MAX_ITEM_ID_LENGTH).toBe(40);
    expect(checkItemId('a')).toBeUndefined();
    expect(checkItemId('x'.repeat(40))).toBeUndefined();
  });

  it('rejects 41 characters, naming the id and the limit', () => {
    const id = 'x'.repeat(41);
    expect(checkItemId(id)).toEqual({ id, field: 'id', reason: expect.stringContaining('41') });
    expect(checkItemId(id)!.reason).toContain('40');
  });

  it.each([[''], [5], [null], [undefined], [['a']]])('rejects a non-string or empty id (%j)', (id) => {
    expect(checkItemId(id)).toMatchObject({ field: 'id' });
  });
});

describe('checkItem: standard fields', () => {
  it('accepts a complete item and reports no custom field', () => {
    const check = checkItem(base(), noSchema);
    expect(check.problems).toEqual([]);
    expect([...check.fields]).toEqual([]);
  });

  it('knows the nine standard fields of interfaces.md, Catalog items', () => {
    expect(Object.keys(STANDARD_FIELDS).sort()).toEqual(
      [
        'absolute_link',
        'categories_ids',
        'id',
        'img_link',
        'is_recommendable',
        'item_pageview_key',
        'item_purchase_key',
        'name',
        'price',
      ].sort(),
    );
    expect(isStandardField('price')).toBe(true);
    expect(isStandardField('brand')).toBe(false);
    expect(isStandardField('toString')).toBe(false);
    expect(isStandardField('__proto__')).toBe(false);
  });

  it.each(['id', 'is_recommendable', 'name', 'absolute_link', 'img_link', 'price', 'categories_ids'])(
    'reports the missing required field %s by name',
    (field) => {
      const item = base();
      delete item[field];
      const { problems } = checkItem(item, noSchema);
      expect(problems).toHaveLength(1);
      expect(problems[0]!.field).toBe(field);
      expect(problems[0]!.reason).toContain(field);
      if (field !== 'id') expect(problems[0]!.id).toBe('sku-1');
    },
  );

  it('reports every missing field of an empty object at once', () => {
    const { problems } = checkItem({}, noSchema);
    expect(problems.map((p) => p.field).sort()).toEqual([
      'absolute_link',
      'categories_ids',
      'id',
      'img_link',
      'is_recommendable',
      'name',
      'price',
    ]);
  });

  it('leaves item_purchase_key and item_pageview_key optional', () => {
    expect(checkItem(base(), noSchema).problems).toEqual([]);
    expect(checkItem(base({ item_purchase_key: ['p-1'], item_pageview_key: ['/p/1', 'sku-1'] }), noSchema).problems).toEqual([]);
    expect(checkItem(base({ item_purchase_key: null, item_pageview_key: null }), noSchema).problems).toEqual([]);
    expect(checkItem(base({ item_purchase_key: [], item_pageview_key: [] }), noSchema).problems).toEqual([]);
  });

  it.each([
    ['is_recommendable', 'yes', 'boolean', 'string'],
    ['is_recommendable', null, 'boolean', 'null'],
    ['name', 5, 'string or null', 'number'],
    ['absolute_link', true, 'string or null', 'boolean'],
    ['img_link', ['x'], 'string or null', 'string[]'],
    ['price', '199', 'number or null', 'string'],
    ['price', Infinity, 'number or null', 'non-finite number'],
    ['categories_ids', 'phones', 'string[] or null', 'string'],
    ['categories_ids', [1, 2], 'string[] or null', 'number[]'],
    ['categories_ids', { a: 'b' }, 'string[] or null', 'object<string>'],
    ['item_purchase_key', 'p-1', 'string[] or null', 'string'],
    ['item_pageview_key', [7], 'string[] or null', 'number[]'],
  ])('rejects %s = %j with expected %s and actual %s', (field, value, expected, actual) => {
    const { problems } = checkItem(base({ [field]: value }), noSchema);
    expect(problems).toEqual([{ id: 'sku-1', field, expected, actual, reason: expect.stringContaining(field) }]);
    expect(problems[0]!.reason).toContain(expected);
    expect(problems[0]!.reason).toContain('sku-1');
  });

  it.each(['name', 'absolute_link', 'img_link', 'price', 'categories_ids', 'item_purchase_key', 'item_pageview_key'])(
    'accepts null for the nullable field %s',
    (field) => {
      expect(checkItem(base({ [field]: null }), noSchema).problems).toEqual([]);
    },
  );

  it('accepts "" and [] as values of the string and string[] standard fields', () => {
    expect(checkItem(base({ name: '', absolute_link: '', categories_ids: [] }), noSchema).problems).toEqual([]);
  });

  it('rejects {} in a standard field (an empty value of another type)', () => {
    const { problems } = checkItem(base({ name: {} }), noSchema);
    expect(problems).toMatchObject([{ field: 'name', expected: 'string or null' }]);
  });

  it('accepts an id of 40 characters and rejects one of 41', () => {
    expect(checkItem(base({ id: 'a'.repeat(40) }), noSchema).problems).toEqual([]);
    const long = 'a'.repeat(41);
    expect(checkItem(base({ id: long }), noSchema).problems).toEqual([{ id: long, field: 'id', reason: expect.stringContaining('41') }]);
  });

  it.each([[5], [null], [''], [true]])('rejects id = %j', (id) => {
    const { problems } = checkItem(base({ id }), noSchema);
    expect(problems).toHaveLength(1);
    expect(problems[0]!.field).toBe('id');
  });

  it.each([[null], ['item'], [['a']], [42]])('rejects a non-object item %j', (item) => {
    const { problems } = checkItem(item, noSchema);
    expect(problems).toHaveLength(1);
    expect(problems[0]!.reason).toMatch(/object/);
  });
});

describe('checkItem: custom fields', () => {
  it('reports new fields with the type their value gives (null for an empty value)', () => {
    const check = checkItem(base({ color: 'red', tags: [], weight: 0.2, dims: { w: 1 } }), noSchema);
    expect(check.problems).toEqual([]);
    expect(Object.fromEntries(check.fields)).toEqual({ color: 'string', tags: null, weight: 'number', dims: 'object<number>' });
  });

  it('rejects a value of another type, naming id, field, expected and actual type', () => {
    const { problems } = checkItem(base({ color: 5 }), schemaOf({ color: 'string' }));
    expect(problems).toEqual([{ id: 'sku-1', field: 'color', expected: 'string', actual: 'number', reason: expect.any(String) }]);
    for (const part of ['sku-1', 'color', 'string', 'number']) expect(problems[0]!.reason).toContain(part);
  });

  it.each([[null], [''], [[]], [{}]])('accepts the empty value %j for a typed field', (value) => {
    const check = checkItem(base({ color: value }), schemaOf({ color: 'string' }));
    expect(check.problems).toEqual([]);
    expect(check.fields.get('color')).toBeNull();
  });

  it('types an untyped (null) field with the first non-empty value', () => {
    const check = checkItem(base({ color: 'red' }), schemaOf({ color: null }));
    expect(check.problems).toEqual([]);
    expect(check.fields.get('color')).toBe('string');
  });

  it('rejects unsupported values, naming field and what was sent', () => {
    const { problems } = checkItem(base({ specs: { screen: { size: 6 } }, sizes: [38, 39], mixed: { a: 'x', b: 2 } }), noSchema);
    expect(problems.map((p) => [p.field, p.actual])).toEqual([
      ['specs', 'object<object<number>>'],
      ['sizes', 'number[]'],
      ['mixed', 'object of mixed values'],
    ]);
    for (const p of problems) expect(p.id).toBe('sku-1');
  });

  it('names the expected type when an unsupported value is sent to a typed field', () => {
    // The issue: "errors that name item id, field, expected and actual type".
    const { problems } = checkItem(base({ sizes: [38, 39] }), schemaOf({ sizes: 'string[]' }));
    expect(problems).toEqual([{ id: 'sku-1', field: 'sizes', expected: 'string[]', actual: 'number[]', reason: expect.any(String) }]);
  });

  it('reports every problem of an item at once', () => {
    const { problems } = checkItem(base({ price: 'x', color: 1, size: [1] }), schemaOf({ color: 'string' }));
    expect(problems.map((p) => p.field).sort()).toEqual(['color', 'price', 'size']);
  });

  it('treats field names that are Object.prototype members as ordinary custom fields', () => {
    const item = JSON.parse(
      '{"id":"x","is_recommendable":true,"name":null,"absolute_link":null,"img_link":null,"price":null,"categories_ids":null,"__proto__":"p","constructor":"c","toString":1}',
    );
    const check = checkItem(item, noSchema);
    expect(check.problems).toEqual([]);
    expect(Object.fromEntries(check.fields)).toEqual({ ['__proto__']: 'string', constructor: 'string', toString: 'number' });
  });

  it('property: a value of type T never has a problem against a field of type T', () => {
    fc.assert(
      fc.property(
        typeArb.chain((t) => valueOfType[t].map((v) => [t, v] as const)),
        ([t, v]) => {
          const check = checkItem(base({ f: v }), schemaOf({ f: t }));
          expect(check.problems).toEqual([]);
          expect(check.fields.get('f')).toBe(t);
        },
      ),
      { numRuns: 500 },
    );
  });

  it('property: a non-empty value of another supported type always has a problem naming the field', () => {
    const pair = fc
      .tuple(typeArb, typeArb)
      .filter(([a, b]) => a !== b)
      .chain(([fieldType, valueType]) => valueOfType[valueType].map((v) => [fieldType, valueType, v] as const));
    fc.assert(
      fc.property(pair, ([fieldType, valueType, v]) => {
        const { problems } = checkItem(base({ f: v }), schemaOf({ f: fieldType }));
        expect(problems).toEqual([{ id: 'sku-1', field: 'f', expected: fieldType, actual: valueType, reason: expect.any(String) }]);
      }),
      { numRuns: 500 },
    );
  });

  it('property: an empty value is accepted against any type and against an absent field', () => {
    fc.assert(
      fc.property(fc.option(typeArb, { nil: undefined }), fc.constantFrom<unknown>(null, '', [], {}), (t, v) => {
        const check = checkItem(base({ f: v }), t === undefined ? noSchema : schemaOf({ f: t }));
        expect(check.problems).toEqual([]);
        expect(check.fields.get('f')).toBeNull();
      }),
    );
  });
});

describe('item id length counts characters (code points), as interfaces.md, Catalog items says', () => {
  it('accepts 40 emoji and refuses 41', async () => {
    const { checkItemId } = await import('../../src/catalog/typing');
    expect(checkItemId('🙂'.repeat(40))).toBeUndefined();
    expect(checkItemId('🙂'.repeat(41))?.reason).toBe('id is 41 characters long; the limit is 40');
  });
});
