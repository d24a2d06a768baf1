/**
 * Value indexes of the paths search filters, facets and sorts on. Each path is a handful of flat
 * typed arrays and one Map of its distinct values, never an array per value: an index of 100,000
 * items adds a few dozen objects to the heap, not hundreds of thousands, which keeps the garbage
 * collector's pauses short while a new index is built beside the one being served. A rebuild
 * keeps the previous index's numbering of the values of a text or boolean path (its Map shared,
 * the values met since in a small one beside it): a path with a value per item (ids, links,
 * purchase keys) otherwise built a Map of 100,000 entries at every sync.
 *
 * @module
 */
import type { CatalogItem } from '../storage/catalog';
import { Growable } from './growable';
import { valueAt, type PathKind } from './fields';

/**
 * A path with fewer postings than the documents over this share keeps no per-document arrays
 * ({@link PathIndex.first}, {@link PathIndex.offsets}…): one in 16.
 */
export const RARE_PATH_SHARE = 16;

/** A path that can be filtered, faceted or sorted on. */
export interface SearchPath {
  readonly path: string;
  readonly kind: PathKind;
  /** The object field, for `field.key` paths. */
  readonly objectField?: string;
}

/** A value a path indexes (a Map tells `true`, `42` and `'Apple'` apart). */
export type PathValue = string | number | boolean;

/**
 * Value → its number on a path: the Map of the build that numbered the values first (shared by
 * the indexes built after it), and the values numbered by later builds.
 */
export class ValueNumbers {
  readonly root: ReadonlyMap<PathValue, number>;
  readonly added: ReadonlyMap<PathValue, number>;

  constructor(root: ReadonlyMap<PathValue, number>, added: ReadonlyMap<PathValue, number> = new Map()) {
    this.root = root;
    this.added = added;
  }

  /** The number of a value, or undefined. */
  get(value: PathValue): number | undefined {
    return this.root.get(value) ?? this.added.get(value);
  }

  /** Values numbered. */
  get size(): number {
    return this.root.size + this.added.size;
  }
}

/** The indexes of one path. */
export interface PathIndex {
  readonly info: SearchPath;
  /**
   * Distinct value → its number v. Number paths number their values in ascending order; other
   * paths keep the numbers of the index they were rebuilt from, so some values may have no
   * document ({@link PathIndex.stale}).
   */
  readonly valueIds: ValueNumbers;
  /** Values numbered that no document has (left from an earlier version). */
  readonly stale: number;
  /** Ascending documents of value v: `postingDocs[postingStart[v] … postingStart[v + 1]]`. */
  readonly postingStart: Uint32Array;
  readonly postingDocs: Uint32Array;
  /** Number paths: the value of each posting, so `postingDocs` read as documents by value, then by number. */
  readonly sortedValues?: Float64Array;
  /**
   * Number paths, per document: first, least and greatest value (NaN when none), for sort and
   * range facets; absent on a path with values in under one document in {@link RARE_PATH_SHARE}.
   */
  readonly first?: Float64Array;
  readonly min?: Float64Array;
  readonly max?: Float64Array;
  /** Other paths: the values by number, for list facets. */
  readonly values?: readonly (string | boolean)[];
  /** `values` lowercased (facet order). */
  readonly lower?: readonly string[];
  /**
   * Other paths, per document d: its distinct value numbers `ids[offsets[d] … offsets[d + 1]]`;
   * absent on a path with values in under one document in {@link RARE_PATH_SHARE}.
   */
  readonly offsets?: Uint32Array;
  readonly ids?: Uint32Array;
}

/**
 * Ascending documents having `value` at the path (empty when none).
 *
 * @example
 * ```ts
 * docsWith(index.paths.get('brand')!, 'Apple'); // Uint32Array [12, 40, …]
 * ```
 */
export function docsWith(path: PathIndex, value: PathValue): Uint32Array {
  const v = path.valueIds.get(value);
  return v === undefined ? new Uint32Array(0) : path.postingDocs.subarray(path.postingStart[v]!, path.postingStart[v + 1]!);
}

/**
 * Builds the indexes of one path in steps: the caller may give the event loop a turn at every
 * `yield`, which comes after at most `checkpoint` documents. With the `previous` index of the
 * path (a text or boolean path), its values keep their numbers and new values are numbered after
 * them, unless over an eighth of its values had no document left, or were numbered after its
 * shared map: then every value is numbered afresh.
 */
export function* pathIndexSteps(
  items: readonly CatalogItem[],
  info: SearchPath,
  checkpoint: number,
  previous?: PathIndex,
): Generator<void, PathIndex> {
  const n = items.length;
  const number = info.kind === 'number';
  const base =
    !number &&
    previous?.values &&
    previous.info.kind === info.kind &&
    previous.info.objectField === info.objectField &&
    previous.stale * 8 <= previous.values.length &&
    previous.valueIds.added.size * 8 <= previous.valueIds.root.size
      ? previous
      : undefined;
  const fresh = new Map<PathValue, number>();
  // Values this build numbers go beside the shared map, never into it.
  const added = base ? new Map(base.valueIds.added) : fresh;
  const valueIds = base ? new ValueNumbers(base.valueIds.root, added) : new ValueNumbers(fresh);
  const known = base ? base.values!.length : 0;
  // Values numbered by this build, from `known` on.
  const valueList: PathValue[] = [];
  // Per value: the last document it was added to (a list naming a value twice is one posting).
  let lastDoc = new Int32Array(Math.max(known, 64)).fill(-1);
  const offsets = new Uint32Array(n + 1);
  const ids = new Growable();
  const first = number ? new Float64Array(n).fill(NaN) : undefined;
  const min = number ? new Float64Array(n).fill(NaN) : undefined;
  const max = number ? new Float64Array(n).fill(NaN) : undefined;
  const add = (doc: number, value: PathValue) => {
    let id = valueIds.get(value);
    if (id === undefined) {
      id = known + valueList.length;
      added.set(value, id);
      valueList.push(value);
      if (id === lastDoc.length) {
        const grown = new Int32Array(2 * id).fill(-1);
        grown.set(lastDoc);
        lastDoc = grown;
      }
    }
    if (lastDoc[id] === doc) return;
    lastDoc[id] = doc;
    ids.push(id);
    if (!number) return;
    const x = value as number;
    if (Number.isNaN(first![doc]!)) first![doc] = min![doc] = max![doc] = x;
    else {
      if (x < min![doc]!) min![doc] = x;
      if (x > max![doc]!) max![doc] = x;
    }
  };
  for (let doc = 0; doc < n; doc++) {
    if (doc % checkpoint === checkpoint - 1) yield;
    offsets[doc] = ids.length;
    // The values of valuesOf() (fields.ts), without an array per document: strings and booleans,
    // numbers on number paths only, the non-empty strings of a list.
    const value = valueAt(items[doc]!, info.path, info.objectField);
    if (typeof value === 'number') {
      if (number) add(doc, value);
    } else if (number) continue;
    else if (typeof value === 'string') {
      if (value !== '') add(doc, value);
    } else if (typeof value === 'boolean') add(doc, value);
    else if (Array.isArray(value)) for (const v of value) if (typeof v === 'string' && v !== '') add(doc, v);
  }
  offsets[n] = ids.length;
  const docIds = yield* ids.concat();
  const distinct = known + valueList.length;
  let sortedNumbers: Float64Array | undefined;
  if (number) {
    // Renumber the values in ascending order: a native sort of the distinct values, then a binary
    // search per value (no comparator sort of 100,000 values in one go).
    sortedNumbers = Float64Array.from(valueList as number[]).sort();
    yield;
    const rank = new Uint32Array(distinct);
    for (let v = 0; v < distinct; v++) {
      if (v % checkpoint === checkpoint - 1) yield;
      rank[v] = lowerBound(sortedNumbers, valueList[v] as number);
    }
    for (const [value, v] of fresh) fresh.set(value, rank[v]!);
    for (let k = 0; k < docIds.length; k++) docIds[k] = rank[docIds[k]!]!;
    yield;
  }
  // Postings: count per value, then fill document by document (so each list is ascending).
  const postingStart = new Uint32Array(distinct + 1);
  for (let k = 0; k < docIds.length; k++) postingStart[docIds[k]! + 1]!++;
  let stale = 0;
  for (let v = 0; v < distinct; v++) {
    if (postingStart[v + 1] === 0) stale++;
    postingStart[v + 1]! += postingStart[v]!;
  }
  const postingDocs = new Uint32Array(docIds.length);
  const fill = postingStart.slice(0, distinct);
  for (let doc = 0; doc < n; doc++) {
    if (doc % checkpoint === checkpoint - 1) yield;
    for (let k = offsets[doc]!; k < offsets[doc + 1]!; k++) postingDocs[fill[docIds[k]!]!++] = doc;
  }
  // A path few documents have keeps no per-document array (facets and sorts read its postings or
  // the items): a catalog's rare fields and object keys then cost what they hold, not one array
  // of the catalog's size each.
  const rare = postingDocs.length * RARE_PATH_SHARE < n;
  if (number) {
    const sortedValues = new Float64Array(postingDocs.length);
    for (let v = 0; v < distinct; v++) sortedValues.fill(sortedNumbers![v]!, postingStart[v]!, postingStart[v + 1]!);
    return rare
      ? { info, valueIds, stale, postingStart, postingDocs, sortedValues }
      : { info, valueIds, stale, postingStart, postingDocs, sortedValues, first, min, max };
  }
  // toLowerCase returns the string itself when it has no capital: most values cost no new string.
  const lower: string[] = [];
  for (let v = 0; v < valueList.length; v++) {
    if (v % checkpoint === checkpoint - 1) yield;
    lower.push(String(valueList[v]).toLowerCase());
  }
  const values = base ? base.values!.concat(valueList as (string | boolean)[]) : (valueList as (string | boolean)[]);
  const listed = { info, valueIds, stale, postingStart, postingDocs, values, lower: base ? base.lower!.concat(lower) : lower };
  return rare ? listed : { ...listed, offsets, ids: docIds };
}

/** First index of `values` (ascending) holding `x` or more (more than `x` when `strict`). */
export function lowerBound(values: Float64Array, x: number, strict = false): number {
  let lo = 0;
  let hi = values.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (strict ? values[mid]! <= x : values[mid]! < x) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
