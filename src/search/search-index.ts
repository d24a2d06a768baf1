/**
 * One immutable search index over one visible catalog version: MiniSearch for text, plus
 * per-path value indexes (postings for exact values, sorted arrays for number ranges), so
 * filters never scan every document.
 *
 * @module
 */
import MiniSearch from 'minisearch';
import { STANDARD_FIELDS, typeOf, type FieldType } from '../catalog/typing';
import type { CatalogItem } from '../storage/catalog';
import { memberKind, scalarKind, valueAt, valuesOf, type PathKind } from './fields';
import { damerau } from './typos';

/** A path that can be filtered, faceted or sorted on. */
export interface SearchPath {
  readonly path: string;
  readonly kind: PathKind;
  /** The object field, for `field.key` paths. */
  readonly objectField?: string;
}

/** Per-path indexes. */
export interface PathIndex {
  readonly info: SearchPath;
  /** Exact value (as text: `true`, `42`, `Apple`) → ascending document numbers. */
  readonly postings: ReadonlyMap<string, Uint32Array>;
  /** Number paths: values ascending, with their documents (`docs[i]` has `values[i]`). */
  readonly sortedValues?: Float64Array;
  readonly sortedDocs?: Uint32Array;
}

/** How an index is built. */
export interface IndexSettings {
  /** Fields whose text is searched; undefined: `name` and every string custom field. */
  readonly searchableFields?: readonly string[];
  /** Field → boost (relative weight); default 1. */
  readonly boosts?: Readonly<Record<string, number>>;
}

/** The key of a value in postings. */
export function postingKey(value: string | number | boolean): string {
  return typeof value === 'string' ? `s:${value}` : `${typeof value === 'number' ? 'n' : 'b'}:${String(value)}`;
}

/** An immutable index of one visible version. */
export class SearchIndex {
  readonly version: number;
  readonly items: readonly CatalogItem[];
  readonly mini: MiniSearch;
  readonly paths: ReadonlyMap<string, PathIndex>;
  readonly searchable: readonly string[];
  /** Field → weight in (0, 1]: its boost over the largest boost. */
  readonly weights: ReadonlyMap<string, number>;
  /** Unit vectors per document, when an embedder is configured. */
  vectors: readonly Float32Array[] | undefined;
  /** Every distinct indexed term. */
  readonly terms: ReadonlySet<string>;
  readonly #prefixes = new Map<number, string[]>();
  // Query terms repeat: remember each one's near prefixes (bounded, cleared when full).
  readonly #near = new Map<string, readonly string[]>();

  /**
   * Field types come from the visible items themselves, not the accepted schema: writes not yet
   * synchronized must not change what search accepts.
   */
  constructor(version: number, items: readonly CatalogItem[], settings: IndexSettings) {
    this.version = version;
    this.items = items;
    const custom = visibleTypes(items);
    const types = new Map<string, FieldType>();
    for (const [name, f] of Object.entries(STANDARD_FIELDS)) types.set(name, f.type);
    for (const [name, type] of custom) types.set(name, type);
    this.searchable = settings.searchableFields ?? ['name', ...[...custom].filter(([, t]) => t === 'string').map(([name]) => name)];
    const boosts = settings.boosts ?? {};
    // Own properties only: a field named `constructor` must not read Object's.
    const boost = (f: string) => (Object.hasOwn(boosts, f) ? boosts[f]! : 1);
    const top = Math.max(1, ...this.searchable.map(boost));
    this.weights = new Map(this.searchable.map((f) => [f, boost(f) / top]));
    this.mini = new MiniSearch({
      fields: [...this.searchable],
      idField: '__doc',
      extractField: (doc, field) => {
        if (field === '__doc') return (doc as { __doc: number }).__doc as unknown as string;
        const item = (doc as { item: CatalogItem }).item;
        return searchableText(Object.hasOwn(item, field) ? item[field] : undefined);
      },
    });
    this.mini.addAll(items.map((item, i) => ({ __doc: i, item })));
    const tokenize = MiniSearch.getDefault('tokenize') as (text: string) => string[];
    const terms = new Set<string>();
    for (const item of items) {
      for (const field of this.searchable) {
        for (const t of tokenize(searchableText(Object.hasOwn(item, field) ? item[field] : undefined))) if (t !== '') terms.add(t.toLowerCase());
      }
    }
    this.terms = terms;
    this.paths = buildPaths(items, types);
  }

  /**
   * Indexed prefixes of `term`'s length within `typos` (Damerau) of it, other than `term`
   * itself, at most `limit`; cached per term.
   *
   * @example
   * ```ts
   * index.nearPrefixes('sansu', 1, 20); // ['samsu', …]
   * ```
   */
  nearPrefixes(term: string, typos: number, limit: number): readonly string[] {
    const key = `${typos}:${term}`;
    let near = this.#near.get(key);
    if (!near) {
      near = this.prefixes(term.length).filter((p) => p !== term && damerau(term, p, typos) <= typos).slice(0, limit);
      if (this.#near.size >= 10_000) this.#near.clear();
      this.#near.set(key, near);
    }
    return near;
  }

  /** The distinct `length`-character prefixes of longer indexed terms (cached per length). */
  prefixes(length: number): readonly string[] {
    let list = this.#prefixes.get(length);
    if (!list) {
      const set = new Set<string>();
      for (const t of this.terms) if (t.length > length) set.add(t.slice(0, length));
      list = [...set];
      this.#prefixes.set(length, list);
    }
    return list;
  }
}

/** The text of a value for full-text search: strings, list elements, object member strings. */
export function searchableText(value: unknown): string {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (Array.isArray(value)) return value.filter((v) => typeof v === 'string').join(' ');
  if (value !== null && typeof value === 'object') return Object.values(value).filter((v) => typeof v === 'string').join(' ');
  return '';
}

/** Field types as the visible items show them: the type of each field's first non-empty value. */
export function visibleTypes(items: readonly CatalogItem[]): Map<string, FieldType> {
  const types = new Map<string, FieldType>();
  for (const item of items) {
    for (const name of Object.keys(item)) {
      if (types.has(name) || Object.hasOwn(STANDARD_FIELDS, name)) continue;
      const kind = typeOf(item[name]);
      if (kind !== 'empty' && kind !== 'unsupported') types.set(name, kind);
    }
  }
  return types;
}

function buildPaths(items: readonly CatalogItem[], types: ReadonlyMap<string, FieldType>): Map<string, PathIndex> {
  const infos: SearchPath[] = [];
  for (const [name, type] of types) {
    const kind = scalarKind(type);
    if (kind) {
      infos.push({ path: name, kind });
      continue;
    }
    const member = memberKind(type);
    if (!member) continue;
    const keys = new Set<string>();
    for (const item of items) {
      const obj = item[name];
      if (obj && typeof obj === 'object' && !Array.isArray(obj)) for (const k of Object.keys(obj)) keys.add(k);
    }
    for (const k of keys) infos.push({ path: `${name}.${k}`, kind: member, objectField: name });
  }
  const out = new Map<string, PathIndex>();
  for (const info of infos) {
    const lists = new Map<string, number[]>();
    const numbers: [number, number][] = [];
    items.forEach((item, doc) => {
      for (const v of valuesOf(valueAt(item, info.path, info.objectField))) {
        const key = postingKey(v);
        const list = lists.get(key);
        if (list) {
          if (list[list.length - 1] !== doc) list.push(doc);
        } else lists.set(key, [doc]);
        if (typeof v === 'number') numbers.push([v, doc]);
      }
    });
    const postings = new Map<string, Uint32Array>();
    for (const [k, list] of lists) postings.set(k, Uint32Array.from(list));
    if (info.kind === 'number') {
      numbers.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
      out.set(info.path, {
        info,
        postings,
        sortedValues: Float64Array.from(numbers, (n) => n[0]),
        sortedDocs: Uint32Array.from(numbers, (n) => n[1]),
      });
    } else out.set(info.path, { info, postings });
  }
  return out;
}
