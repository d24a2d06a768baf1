/**
 * The types a catalog field can have: what the catalog's typing decides, the storage keeps in
 * the schema, and search indexes by.
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
export const FIELD_TYPES: readonly FieldType[] = [
  'string',
  'number',
  'boolean',
  'string[]',
  'object<string>',
  'object<number>',
  'object<boolean>',
];
