/**
 * The fields search can filter, facet and sort on, derived from the catalog schema: scalar
 * fields by name, object fields by `field.key`.
 *
 * @module
 */
import type { FieldType } from '../catalog/typing';
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

/** Reads the value at a path (`field` or `field.key`). */
export function valueAt(item: CatalogItem, path: string, objectField: string | undefined): unknown {
  if (objectField === undefined) return Object.prototype.hasOwnProperty.call(item, path) ? item[path] : undefined;
  const obj = Object.prototype.hasOwnProperty.call(item, objectField) ? item[objectField] : undefined;
  if (obj === null || typeof obj !== 'object' || Array.isArray(obj)) return undefined;
  const key = path.slice(objectField.length + 1);
  return Object.prototype.hasOwnProperty.call(obj, key) ? (obj as Record<string, unknown>)[key] : undefined;
}

/** The facet/filter values of a value: strings and booleans as they are, numbers, list elements. */
export function valuesOf(value: unknown): (string | number | boolean)[] {
  if (typeof value === 'string') return value === '' ? [] : [value];
  if (typeof value === 'number' || typeof value === 'boolean') return [value];
  if (Array.isArray(value)) return value.filter((v): v is string => typeof v === 'string' && v !== '');
  return [];
}
