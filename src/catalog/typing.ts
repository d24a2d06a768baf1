/**
 * Catalog typing (interfaces.md, Catalog items): pure functions that type a value, check an item against the
 * schema, and say which fields an item creates.
 *
 * - Any field name is accepted; each distinct name sent joins the schema.
 * - A custom field's type is fixed by its first non-empty value: `string`, `number`, `boolean`,
 *   `string[]`, or an object whose values are all strings, all numbers or all booleans.
 * - Empty values (`null`, `""`, `[]`, `{}`) are always accepted and never fix a type.
 * - A later value must be empty or of the field's type; a type never changes (delete the field
 *   to recreate it with another type).
 * - The standard fields have fixed types, and those marked required must be present.
 *
 * @module
 */

/**
 * The type of a catalog field.
 *
 * @example
 * ```ts
 * const { fields } = await catalog.schema();
 * const types: Record<string, FieldType | null> = Object.fromEntries(fields.map((f) => [f.name, f.type]));
 * ```
 */
export type FieldType = 'string' | 'number' | 'boolean' | 'string[]' | 'object<string>' | 'object<number>' | 'object<boolean>';

/**
 * Every field type, for validation and documentation.
 *
 * @example
 * ```ts
 * const isFieldType = (type: string): type is FieldType => (FIELD_TYPES as readonly string[]).includes(type);
 * isFieldType('object<number>'); // true
 * ```
 */
export const FIELD_TYPES: readonly FieldType[] = ['string', 'number', 'boolean', 'string[]', 'object<string>', 'object<number>', 'object<boolean>'];

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
  return Object.prototype.hasOwnProperty.call(STANDARD_FIELDS, name);
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
  for (const [name, spec] of Object.entries(STANDARD_FIELDS)) {
    if (name === 'id') continue;
    const present = Object.prototype.hasOwnProperty.call(record, name);
    if (!present) {
      if (spec.required) problems.push({ id, field: name, reason: `${label} lacks the standard field ${name}` });
      continue;
    }
    const value = record[name];
    if (value === null && spec.nullable) continue;
    const kind = typeOf(value);
    // A standard field's type is fixed: "" and [] are values of its type, not "empty".
    const matches = kind === spec.type || (kind === 'empty' && ((spec.type === 'string' && value === '') || (spec.type === 'string[]' && Array.isArray(value))));
    if (!matches) {
      const expected = spec.nullable ? `${spec.type} or null` : spec.type;
      problems.push({ id, field: name, expected, actual: describeValue(value), reason: `${label}: standard field ${name} must be ${expected}, got ${describeValue(value)}` });
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
      problems.push({ id, field: name, expected: existing, actual: type, reason: `${label}: field ${name} is of type ${existing}, got ${type}` });
      continue;
    }
    fields.set(name, type);
  }
  return { problems, fields };
}
