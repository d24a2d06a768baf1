/**
 * The paths an index filters, facets and sorts on: the visible items' fields by type, and the
 * keys of their object fields.
 *
 * @module
 */
import { STANDARD_FIELDS, typeOf } from '../catalog/typing';
import type { FieldType } from '../model/field-types';
import type { CatalogItem } from '../storage/catalog';
import { memberKind, scalarKind } from './fields';
import type { SearchPath } from './path-index';

/** Field types as the visible items show them: the type of each field's first non-empty value (a turn every `every` items). */
export function* visibleTypes(items: readonly CatalogItem[], every: number): Generator<void, Map<string, FieldType>> {
  const types = new Map<string, FieldType>();
  for (let d = 0; d < items.length; d++) {
    if (d % every === every - 1) yield;
    const item = items[d]!;
    for (const name of Object.keys(item)) {
      if (types.has(name) || Object.hasOwn(STANDARD_FIELDS, name)) continue;
      const kind = typeOf(item[name]);
      if (kind !== 'empty' && kind !== 'unsupported') types.set(name, kind);
    }
  }
  return types;
}

/**
 * Most object keys (`field.key` paths) one index filters, facets and sorts on: 1,000, those the
 * most items hold (then by path). Each path is indexed over every item at each sync; the
 * catalog's own fields are bounded at write time (1,000 custom fields per catalog), but object
 * keys are only bounded per item (500), so a catalog could hold millions across its items.
 */
export const MAX_OBJECT_KEY_PATHS = 1_000;

/**
 * The filterable paths of the fields: scalars by name, object fields by `field.key` for the keys
 * the items use (at most {@link MAX_OBJECT_KEY_PATHS}; `skippedKeys` counts the others; a turn every `every` items). A
 * field of its own named like an object field's key (writes refuse that now) keeps the path.
 */
export function* searchPaths(
  items: readonly CatalogItem[],
  types: ReadonlyMap<string, FieldType>,
  every: number,
): Generator<void, { infos: SearchPath[]; skippedKeys: number }> {
  const infos: SearchPath[] = [];
  const members: { info: SearchPath; holders: number }[] = [];
  for (const [name, type] of types) {
    const kind = scalarKind(type);
    if (kind) {
      infos.push({ path: name, kind });
      continue;
    }
    const member = memberKind(type);
    if (!member) continue;
    const holders = new Map<string, number>();
    for (let d = 0; d < items.length; d++) {
      if (d % every === every - 1) yield;
      const obj = items[d]![name];
      if (obj && typeof obj === 'object' && !Array.isArray(obj))
        for (const k of Object.keys(obj)) holders.set(k, (holders.get(k) ?? 0) + 1);
    }
    for (const [k, n] of holders) members.push({ info: { path: `${name}.${k}`, kind: member, objectField: name }, holders: n });
  }
  const own = new Set(infos.map((i) => i.path));
  const kept = members.filter((m) => !own.has(m.info.path));
  kept.sort((a, b) => b.holders - a.holders || (a.info.path < b.info.path ? -1 : a.info.path > b.info.path ? 1 : 0));
  // Two object fields' keys naming one path (`a` with key `b.c`, `a.b` with key `c`): the first kept.
  for (const m of kept.slice(0, MAX_OBJECT_KEY_PATHS)) {
    if (own.has(m.info.path)) continue;
    own.add(m.info.path);
    infos.push(m.info);
  }
  return { infos, skippedKeys: Math.max(0, kept.length - MAX_OBJECT_KEY_PATHS) };
}
