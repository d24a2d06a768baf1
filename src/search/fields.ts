/**
 * The fields search can filter, facet and sort on, derived from the catalog schema: scalar
 * fields by name, object fields by `field.key`.
 *
 * @module
 */
import type { FieldType } from '../model/field-types';
import type { CatalogItem } from '../storage/catalog';

/** The kind of values a searchable path holds. */
export type PathKind = 'string' | 'number' | 'boolean' | 'string[]';

/** What an object field's type says of its keys' values. */
export function memberKind(type: FieldType): PathKind | undefined {
  if (type === 'object<string>') return 'string';
  if (type === 'object<number>') return 'number';
  if (type === 'object<boolean>') return 'boolean';
  return undefined;
}

/** The kind of a scalar or list field type; undefined for object types. */
export function scalarKind(type: FieldType): PathKind | undefined {
  return type === 'string' || type === 'number' || type === 'boolean' || type === 'string[]' ? type : undefined;
}

/** An item's own value of a field (own properties only: a field named `constructor` must not read Object's). */
export function fieldValue(item: CatalogItem, field: string): unknown {
  return Object.hasOwn(item, field) ? item[field] : undefined;
}

/** Reads the value at a path (`field` or `field.key`). */
export function valueAt(item: CatalogItem, path: string, objectField: string | undefined): unknown {
  if (objectField === undefined) return fieldValue(item, path);
  const obj = fieldValue(item, objectField);
  if (obj === null || typeof obj !== 'object' || Array.isArray(obj)) return undefined;
  const key = path.slice(objectField.length + 1);
  return Object.hasOwn(obj, key) ? (obj as Record<string, unknown>)[key] : undefined;
}

/** The facet/filter values of a value: strings and booleans as they are, numbers, list elements. */
export function valuesOf(value: unknown): (string | number | boolean)[] {
  if (typeof value === 'string') return value === '' ? [] : [value];
  if (typeof value === 'number' || typeof value === 'boolean') return [value];
  if (Array.isArray(value)) return value.filter((v): v is string => typeof v === 'string' && v !== '');
  return [];
}

/**
 * Orders two values of a sort criterion or facet: numbers by value, anything else as lowercased
 * text; missing values (undefined, null) last whatever `sign` (1 ascending, -1 descending).
 *
 * @example
 * ```ts
 * compareValues('apple', 'Banana'); // < 0
 * compareValues(undefined, 3, -1);  // > 0: missing values go last
 * ```
 */
export function compareValues(a: unknown, b: unknown, sign = 1): number {
  const am = a === undefined || a === null;
  const bm = b === undefined || b === null;
  if (am || bm) return am === bm ? 0 : am ? 1 : -1;
  if (typeof a === 'number' && typeof b === 'number') return sign * (a - b);
  const x = String(a).toLowerCase();
  const y = String(b).toLowerCase();
  return sign * (x < y ? -1 : x > y ? 1 : 0);
}
