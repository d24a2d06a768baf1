/**
 * Catalog typing (interfaces.md, Catalog items): pure functions that type a value, check an item against the
 * schema, and say which fields an item creates.
 *
 * - Any field name is accepted (but `""`, `.`, `..`, and a dotted name search would confuse with an
 *   object field's key: see pathCollision); each distinct name sent joins the schema.
 * - An item has at most MAX_ITEM_FIELDS fields (object keys included) and MAX_ITEM_SIZE
 *   characters of JSON.
 * - A custom field's type is fixed by its first non-empty value: `string`, `number`, `boolean`,
 *   `string[]`, or an object whose values are all strings, all numbers or all booleans.
 * - Empty values (`null`, `""`, `[]`, `{}`) are always accepted and never fix a type.
 * - A later value must be empty or of the field's type; a type never changes (delete the field
 *   to recreate it with another type).
 * - The standard fields have fixed types, and those marked required must be present.
 *
 * @module
 */
import { FIELD_TYPES, type FieldType } from '../model/field-types';

/**
 * A standard field: fixed type, whether null is allowed, whether it must be present.
 *
 * @example
 * ```ts
 * const price: StandardField | undefined = STANDARD_FIELDS.price;
 * console.log(price?.type, price?.nullable, price?.required); // 'number' true true
 * ```
 */
export interface StandardField {
  readonly type: FieldType;
  readonly nullable: boolean;
  readonly required: boolean;
}

/**
 * Maximum length of an item id (interfaces.md, Limits).
 *
 * @example
 * ```ts
 * const skus = ['sku-1', 'x'.repeat(41)];
 * const valid = skus.filter((sku) => sku.length <= MAX_ITEM_ID_LENGTH); // 40: longer ids are refused
 * await catalog.batch(valid.map((id) => ({ operation: 'delete' as const, product: { id } })));
 * ```
 */
export const MAX_ITEM_ID_LENGTH = 40;

/**
 * Most fields one item may have, counting each key of an object field as a field of its own (it
 * is a path, `field.key`, that search filters on): 500 (interfaces.md, Limits). Real product
 * records have tens (the four sample catalogs of the tests at most 12) and the richest spec
 * sheets a few hundred; each field costs search an index over every item of the catalog.
 *
 * @example
 * ```ts
 * const fields = (item: Record<string, unknown>) => Object.values(item).reduce<number>((n, v) => n + 1 + (v !== null && typeof v === 'object' && !Array.isArray(v) ? Object.keys(v).length : 0), 0);
 * if (fields(item) > MAX_ITEM_FIELDS) throw new Error('split the attributes over fewer fields');
 * ```
 */
export const MAX_ITEM_FIELDS = 500;

/**
 * Largest size of an item: 100,000 characters of its JSON text, escapes counted as one
 * (interfaces.md, Limits). Algolia's largest record is 100 KB; the sample catalogs' items are
 * under 1 KB. It bounds what one hit adds to a search answer (at most 1,000 hits a page): without
 * it, a string field of 50 MB would be stored and sent with every search that finds it.
 *
 * @example
 * ```ts
 * if (JSON.stringify(item).length > MAX_ITEM_SIZE) item.description = item.description.slice(0, 50_000);
 * ```
 */
export const MAX_ITEM_SIZE = 100_000;

/**
 * The standard fields of interfaces.md, Catalog items. `item_purchase_key` and `item_pageview_key` are optional:
 * they are needed only to link analytics events, and absent means null.
 *
 * @example
 * ```ts
 * const required = Object.entries(STANDARD_FIELDS).filter(([, field]) => field.required).map(([name]) => name);
 * // ['id', 'is_recommendable', 'name', 'absolute_link', 'img_link', 'price', 'categories_ids']
 * ```
 */
export const STANDARD_FIELDS: Readonly<Record<string, StandardField>> = Object.freeze({
  id: { type: 'string', nullable: false, required: true },
  is_recommendable: { type: 'boolean', nullable: false, required: true },
  name: { type: 'string', nullable: true, required: true },
  absolute_link: { type: 'string', nullable: true, required: true },
  img_link: { type: 'string', nullable: true, required: true },
  price: { type: 'number', nullable: true, required: true },
  categories_ids: { type: 'string[]', nullable: true, required: true },
  item_purchase_key: { type: 'string[]', nullable: true, required: false },
  item_pageview_key: { type: 'string[]', nullable: true, required: false },
});

// Field names that cannot be a URL path segment of `DELETE /indexes/catalog/schema/{fieldID}`.
const UNADDRESSABLE = new Set(['', '.', '..']);

/**
 * Whether `name` is a standard field.
 *
 * @example
 * ```ts
 * isStandardField('price'); // true
 * isStandardField('color'); // false: a custom field
 * ```
 */
export function isStandardField(name: string): boolean {
  return Object.hasOwn(STANDARD_FIELDS, name);
}

/**
 * What the catalog's typing says of a value.
 *
 * @example
 * ```ts
 * const kinds: Record<string, ValueKind> = { red: 'string', tags: 'string[]', none: 'empty', pairs: 'unsupported' }; // 'red', ['a'], [], [[1, 2]]
 * const refused = Object.keys(kinds).filter((field) => kinds[field] === 'unsupported'); // a catalog field cannot hold those
 * ```
 */
export type ValueKind = FieldType | 'empty' | 'unsupported';

/**
 * A short description of a value's kind for error messages (`object`, `number[]`, `null`…).
 *
 * @example
 * ```ts
 * describeValue([1, 2]);            // 'number[]'
 * describeValue({ a: 1, b: 'x' });  // 'object of mixed values'
 * describeValue(Number.NaN);        // 'non-finite number'
 * ```
 */
export function describeValue(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) {
    const kinds = [...new Set(value.map(describeValue))];
    return kinds.length === 1 ? `${kinds[0]}[]` : kinds.length === 0 ? 'empty array' : 'mixed array';
  }
  if (typeof value === 'object') {
    const kinds = [...new Set(Object.values(value as object).map(describeValue))];
    return kinds.length === 1 ? `object<${kinds[0]}>` : kinds.length === 0 ? 'empty object' : 'object of mixed values';
  }
  if (typeof value === 'number' && !Number.isFinite(value)) return 'non-finite number';
  return typeof value;
}

/**
 * The type a value gives a field, `empty` for null, "", [] and {}, or `unsupported`.
 *
 * @example
 * ```ts
 * typeOf({ size: 'XL', color: 'red' }); // 'object<string>'
 * typeOf([]);                          // 'empty'
 * typeOf([1, 2]);                      // 'unsupported'
 * ```
 */
export function typeOf(value: unknown): ValueKind {
  switch (typeof value) {
    case 'string':
      return value === '' ? 'empty' : 'string';
    case 'number':
      return Number.isFinite(value) ? 'number' : 'unsupported';
    case 'boolean':
      return 'boolean';
    case 'object': {
      if (value === null) return 'empty';
      if (Array.isArray(value)) {
        if (value.length === 0) return 'empty';
        return value.every((v) => typeof v === 'string') ? 'string[]' : 'unsupported';
      }
      const values = Object.values(value);
      if (values.length === 0) return 'empty';
      const first = typeof values[0];
      if (first !== 'string' && first !== 'boolean' && first !== 'number') return 'unsupported';
      for (const v of values) {
        if (typeof v !== first || (first === 'number' && !Number.isFinite(v as number))) return 'unsupported';
      }
      return `object<${first}>` as FieldType;
    }
    default:
      return 'unsupported';
  }
}

/**
 * One problem with one item.
 *
 * @example
 * ```ts
 * const problem: ItemProblem = { id: 'sku-1', field: 'price', expected: 'number', actual: 'string', reason: 'price must be a number, got a string' };
 * console.log(problem.field, problem.reason);
 * ```
 */
export interface ItemProblem {
  /** The item id, when it has a usable one. */
  readonly id?: string;
  /** The offending field, when one is to blame. */
  readonly field?: string;
  /** The field's type, for a type mismatch. */
  readonly expected?: string;
  /** What was sent, for a type mismatch. */
  readonly actual?: string;
  /** A sentence naming all of the above. */
  readonly reason: string;
}

/**
 * Looks up the type of an existing custom field: a type, `null` (exists, untyped) or undefined (absent).
 *
 * @example
 * ```ts
 * const schema = new Map((await storage.catalogs.schema('acme')).map((f) => [f.name, f.type]));
 * const lookup: SchemaLookup = (field) => schema.get(field); // 'string', …; null: exists, untyped; undefined: absent
 * ```
 */
export type SchemaLookup = (field: string) => FieldType | null | undefined;

/**
 * The outcome of checking one item: problems, and the custom fields it uses with the type it gives them.
 *
 * @example
 * ```ts
 * // What checking { id: 'sku-1', …, color: 'red' } against a schema without `color` gives:
 * const check: ItemCheck = { problems: [], fields: new Map([['color', 'string']]) };
 * console.log(check.problems.length, check.fields.get('color')); // 0 'string'
 * ```
 */
export interface ItemCheck {
  readonly problems: ItemProblem[];
  /** Custom field → type given by this item's value (`null` for an empty value). */
  readonly fields: Map<string, FieldType | null>;
}

/**
 * Checks an item's id alone (for deletes and path parameters).
 *
 * @example
 * ```ts
 * checkItemId('sku-1'); // undefined: a valid id
 * checkItemId('');      // { field: 'id', reason: 'id must be a non-empty string' }
 * ```
 */
export function checkItemId(id: unknown): ItemProblem | undefined {
  if (typeof id !== 'string' || id === '') return { field: 'id', reason: 'id must be a non-empty string' };
  // Characters, as interfaces.md, Catalog items counts them: code points, not UTF-16 units.
  const length = id.length <= MAX_ITEM_ID_LENGTH ? id.length : [...id].length;
  if (length > MAX_ITEM_ID_LENGTH) {
    return { id, field: 'id', reason: `id is ${length} characters long; the limit is ${MAX_ITEM_ID_LENGTH}` };
  }
  return undefined;
}

/** JSON characters of a scalar (escapes counted as one); 1 for what typing refuses anyway. */
function scalarSize(value: unknown): number {
  if (typeof value === 'string') return value.length + 2;
  if (typeof value === 'number') return String(value).length;
  if (typeof value === 'boolean') return value ? 4 : 5;
  return value === null ? 4 : 1;
}

/**
 * An item's fields (each key of an object value counting as one) and size (see MAX_ITEM_SIZE),
 * walked without recursion: values nested deeper than typing allows count 1 each (they are
 * refused anyway). Stops counting once both limits are known to be broken.
 */
function itemShape(record: Record<string, unknown>): { fields: number; size: number } {
  let fields = 0;
  // Braces; a comma before every entry but the first.
  let size = 1;
  for (const name in record) {
    if (!Object.hasOwn(record, name)) continue;
    fields++;
    size += name.length + 4;
    const value = record[name];
    if (value !== null && typeof value === 'object') {
      const array = Array.isArray(value);
      // Brackets, a comma before every element but the first (an empty one has no element).
      size += 1;
      let empty = 1;
      for (const key in value) {
        if (!Object.hasOwn(value, key)) continue;
        if (!array) {
          fields++;
          size += key.length + 3;
        }
        size += scalarSize((value as Record<string, unknown>)[key]) + 1;
        empty = 0;
        if (size > MAX_ITEM_SIZE && fields > MAX_ITEM_FIELDS) return { fields, size };
      }
      size += empty;
    } else size += scalarSize(value);
    if (size > MAX_ITEM_SIZE && fields > MAX_ITEM_FIELDS) return { fields, size };
  }
  return { fields, size };
}

const OBJECT_TYPES: ReadonlySet<FieldType | ValueKind | null | undefined> = new Set([
  'object<string>',
  'object<number>',
  'object<boolean>',
]);

/**
 * Why a field would make a path search cannot tell from another, or undefined. Filters and
 * facets address an object field's key as `field.key`, so `a.b` cannot be created when `a` is an
 * object field, and an object field `a` cannot hold a key `b` (nor `b.c` when `a.b` is an object
 * field) when `a.b` is a field of its own. `typeIn` gives a field's type as this item or the
 * schema has it (null: present, untyped; undefined: absent); `isNew`: the schema lacks `name`.
 */
function pathCollision(
  name: string,
  value: unknown,
  kind: ValueKind,
  isNew: boolean,
  typeIn: (field: string) => FieldType | null | undefined,
): string | undefined {
  if (isNew) {
    for (let dot = name.indexOf('.'); dot > 0; dot = name.indexOf('.', dot + 1)) {
      const owner = name.slice(0, dot);
      if (OBJECT_TYPES.has(typeIn(owner)))
        return `field ${name} cannot be created: ${owner} is an object field, and ${name} names its key ${JSON.stringify(name.slice(dot + 1))} in filters and facets`;
    }
  }
  if (!OBJECT_TYPES.has(kind)) return undefined;
  for (const key of Object.keys(value as object)) {
    const path = `${name}.${key}`;
    if (typeIn(path) !== undefined)
      return `field ${name}: its key ${JSON.stringify(key)} would be addressed as ${path} in filters and facets, which is a field of its own`;
    for (let dot = key.indexOf('.'); dot > 0; dot = key.indexOf('.', dot + 1)) {
      const owner = `${name}.${key.slice(0, dot)}`;
      if (OBJECT_TYPES.has(typeIn(owner)))
        return `field ${name}: its key ${JSON.stringify(key)} would be addressed as ${path} in filters and facets, as is the key ${JSON.stringify(key.slice(dot + 1))} of the object field ${owner}`;
    }
  }
  return undefined;
}

/**
 * Checks an item against the standard fields and the schema (`lookup`). Fields absent from the
 * schema are reported in `fields` with the type this item gives them.
 *
 * @example
 * ```ts
 * const { problems } = checkItem({ id: 'sku-1', is_recommendable: 'yes', color: 7 }, (field) => (field === 'color' ? 'string' : undefined));
 * for (const p of problems) console.log(p.field, p.reason); // is_recommendable, name... and color (number, not string)
 * ```
 */
export function checkItem(item: unknown, lookup: SchemaLookup): ItemCheck {
  const problems: ItemProblem[] = [];
  const fields = new Map<string, FieldType | null>();
  if (item === null || typeof item !== 'object' || Array.isArray(item)) {
    return { problems: [{ reason: `an item must be a JSON object, got ${describeValue(item)}` }], fields };
  }
  const record = item as Record<string, unknown>;
  const idProblem = checkItemId(record.id);
  const id = typeof record.id === 'string' && record.id !== '' ? record.id : undefined;
  if (idProblem) problems.push(idProblem);
  const label = id === undefined ? 'the item' : `item ${JSON.stringify(id)}`;
  // Limits first: an item over them is not typed field by field (3,000 fields, 3,000 problems).
  const shape = itemShape(record);
  if (shape.fields > MAX_ITEM_FIELDS) {
    problems.push({
      id,
      reason: `${label} has ${shape.fields} fields or more (each key of an object field counts as one); the limit is ${MAX_ITEM_FIELDS}`,
    });
  }
  if (shape.size > MAX_ITEM_SIZE) {
    problems.push({ id, reason: `${label} is ${shape.size} characters or more as JSON; the limit is ${MAX_ITEM_SIZE}` });
  }
  if (shape.fields > MAX_ITEM_FIELDS || shape.size > MAX_ITEM_SIZE) return { problems, fields };
  const typeIn = (field: string): FieldType | null | undefined => {
    if (!Object.hasOwn(record, field)) return lookup(field);
    const kind = typeOf(record[field]);
    return kind === 'empty' || kind === 'unsupported' ? null : kind;
  };
  for (const [name, spec] of Object.entries(STANDARD_FIELDS)) {
    if (name === 'id') continue;
    const present = Object.hasOwn(record, name);
    if (!present) {
      if (spec.required) problems.push({ id, field: name, reason: `${label} lacks the standard field ${name}` });
      continue;
    }
    const value = record[name];
    if (value === null && spec.nullable) continue;
    const kind = typeOf(value);
    // A standard field's type is fixed: "" and [] are values of its type, not "empty".
    const matches =
      kind === spec.type ||
      (kind === 'empty' && ((spec.type === 'string' && value === '') || (spec.type === 'string[]' && Array.isArray(value))));
    if (!matches) {
      const expected = spec.nullable ? `${spec.type} or null` : spec.type;
      problems.push({
        id,
        field: name,
        expected,
        actual: describeValue(value),
        reason: `${label}: standard field ${name} must be ${expected}, got ${describeValue(value)}`,
      });
    }
  }
  for (const name of Object.keys(record)) {
    if (isStandardField(name)) continue;
    if (UNADDRESSABLE.has(name)) {
      // These names cannot appear as a path segment, so the field could never be deleted.
      problems.push({ id, field: name, reason: `${label}: a field cannot be named ${JSON.stringify(name)}` });
      continue;
    }
    const value = record[name];
    const kind = typeOf(value);
    if (kind === 'unsupported') {
      const existing = lookup(name);
      const expected = existing ?? undefined;
      problems.push({
        id,
        field: name,
        ...(expected ? { expected } : {}),
        actual: describeValue(value),
        reason: expected
          ? `${label}: field ${name} is of type ${expected}, got ${describeValue(value)}`
          : `${label}: field ${name} has an unsupported value (${describeValue(value)}); supported: ${FIELD_TYPES.join(', ')}`,
      });
      continue;
    }
    const type = kind === 'empty' ? null : kind;
    const existing = lookup(name);
    if (type !== null && existing !== undefined && existing !== null && existing !== type) {
      problems.push({
        id,
        field: name,
        expected: existing,
        actual: type,
        reason: `${label}: field ${name} is of type ${existing}, got ${type}`,
      });
      continue;
    }
    const collision =
      name.includes('.') || OBJECT_TYPES.has(kind) ? pathCollision(name, value, kind, existing === undefined, typeIn) : undefined;
    if (collision !== undefined) {
      problems.push({ id, field: name, reason: `${label}: ${collision}` });
      continue;
    }
    fields.set(name, type);
  }
  return { problems, fields };
}
