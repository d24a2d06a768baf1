/**
 * One immutable search index over one visible catalog version: the text index (dictionary,
 * postings, per-field word sequences) and per-path value indexes (postings for exact values,
 * sorted arrays for number ranges), so filters never scan every document.
 *
 * @module
 */
import { STANDARD_FIELDS, typeOf, type FieldType } from '../catalog/typing';
import type { CatalogItem } from '../storage/catalog';
import { words, type Analyzer } from './analysis';
import { Dictionary } from './dictionary';
import { memberKind, scalarKind, valueAt, valuesOf, type PathKind } from './fields';

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
  /** Exact value (`true`, `42`, `'Apple'`: a Map tells the types apart) → ascending document numbers. */
  readonly postings: ReadonlyMap<string | number | boolean, Uint32Array>;
  /** Number paths: values ascending, with their documents (`docs[i]` has `values[i]`). */
  readonly sortedValues?: Float64Array;
  readonly sortedDocs?: Uint32Array;
  /** Number paths, per document: first, least and greatest value (NaN when none), for sort and range facets. */
  readonly first?: Float64Array;
  readonly min?: Float64Array;
  readonly max?: Float64Array;
  /** Other paths, per document: its distinct values, as numbers into `values` (`ids[offsets[d] … offsets[d + 1]]`), for list facets. */
  readonly values?: readonly (string | boolean)[];
  /** `values` as lowercased text (facet order). */
  readonly lower?: readonly string[];
  readonly offsets?: Uint32Array;
  readonly ids?: Uint32Array;
}

/** How an index is built. */
export interface IndexSettings {
  /** Fields whose text is searched, best first; undefined: `name`, every string custom field, then `categories_ids`. */
  readonly searchableFields?: readonly string[];
  /** Field → boost (relative weight); default 1. */
  readonly boosts?: Readonly<Record<string, number>>;
}

/**
 * Gives the event loop a turn whenever the current slice of work has run `budgetMs`, so building
 * a large index never blocks it for long.
 *
 * @example
 * ```ts
 * const slicer = new Slicer(8);
 * for (const item of items) { index(item); await slicer.tick(); }
 * ```
 */
export class Slicer {
  readonly #budget: number;
  #start = performance.now();

  constructor(budgetMs = 8) {
    this.#budget = budgetMs;
  }

  /** Yields when the slice is used up. */
  async tick(): Promise<void> {
    if (performance.now() - this.#start < this.#budget) return;
    await new Promise<void>((resolve) => (globalThis.setImmediate ? globalThis.setImmediate(resolve) : setTimeout(resolve, 0)));
    this.#start = performance.now();
  }
}

/**
 * An immutable index of one visible version: a dictionary of folded words, their postings,
 * the words of every document field in order (positions for proximity, attribute and
 * exactness), stems, and the value indexes of filters and facets.
 */
export class SearchIndex {
  readonly version: number;
  readonly items: readonly CatalogItem[];
  readonly paths: ReadonlyMap<string, PathIndex>;
  /** Searched fields, in the order given. */
  readonly searchable: readonly string[];
  /** Per searched field: its rank (0 = best) by boost, then order. */
  readonly fieldRank: Uint8Array;
  /** Number of distinct field ranks. */
  readonly fieldRanks: number;
  /** Per searched field: its boost over the largest boost. */
  readonly fieldWeight: Float64Array;
  readonly dictionary: Dictionary;
  /** Stem → numbers of the words having it. */
  readonly stems: ReadonlyMap<string, readonly number[]>;
  /** Documents of every word, word after word (one array: a few large arrays, not one per word). */
  readonly postingDocs: Uint32Array;
  /** Where each word's documents start in `postingDocs` (word w: `postingStart[w] … postingStart[w + 1]`). */
  readonly postingStart: Uint32Array;
  /** Word numbers of document d, field f, in order: `tokens[offsets[d·F + f] … offsets[d·F + f + 1]]`. */
  readonly tokens: Uint32Array;
  readonly offsets: Uint32Array;
  /** Mean length in words of each searched field. */
  readonly averageLength: Float64Array;
  /** Unit vectors per document, when an embedder is configured. */
  vectors: readonly Float32Array[] | undefined;

  private constructor(parts: Omit<SearchIndex, 'vectors' | 'docs'>) {
    this.version = parts.version;
    this.items = parts.items;
    this.paths = parts.paths;
    this.searchable = parts.searchable;
    this.fieldRank = parts.fieldRank;
    this.fieldRanks = parts.fieldRanks;
    this.fieldWeight = parts.fieldWeight;
    this.dictionary = parts.dictionary;
    this.stems = parts.stems;
    this.postingDocs = parts.postingDocs;
    this.postingStart = parts.postingStart;
    this.tokens = parts.tokens;
    this.offsets = parts.offsets;
    this.averageLength = parts.averageLength;
    this.vectors = undefined;
  }

  /** Ascending numbers of the documents containing word `w`. */
  docs(w: number): Uint32Array {
    return this.postingDocs.subarray(this.postingStart[w]!, this.postingStart[w + 1]!);
  }

  /**
   * Builds the index of one visible version in slices that yield to the event loop.
   * Field types come from the visible items themselves, not the accepted schema: writes not
   * yet synchronized must not change what search accepts.
   */
  static async build(version: number, items: readonly CatalogItem[], settings: IndexSettings, analyzer: Analyzer, slicer = new Slicer()): Promise<SearchIndex> {
    const custom = await visibleTypes(items, slicer);
    const types = new Map<string, FieldType>();
    for (const [name, f] of Object.entries(STANDARD_FIELDS)) types.set(name, f.type);
    for (const [name, type] of custom) types.set(name, type);
    // Category paths name the product type ("cell-phones"): searched last, after the text fields.
    const searchable = settings.searchableFields ?? ['name', ...[...custom].filter(([, t]) => t === 'string').map(([name]) => name), 'categories_ids'];
    const boosts = settings.boosts ?? {};
    // Own properties only: a field named `constructor` must not read Object's.
    const boost = (f: string) => (Object.hasOwn(boosts, f) ? boosts[f]! : 1);
    const top = Math.max(1, ...searchable.map(boost));
    const fieldWeight = Float64Array.from(searchable, (f) => boost(f) / top);
    const distinct = [...new Set(searchable.map(boost))].sort((a, b) => b - a);
    // Without boosts the order of the fields ranks them; with boosts, the boost does.
    const fieldRank = Uint8Array.from(searchable, (f, i) => (settings.boosts ? distinct.indexOf(boost(f)) : Math.min(i, 255)));
    const fieldRanks = Math.max(...fieldRank, 0) + 1;

    const F = searchable.length;
    const ids = new Map<string, number>();
    const wordList: string[] = [];
    let tokens = new Uint32Array(1024);
    let count = 0;
    const offsets = new Uint32Array(items.length * F + 1);
    const totalLength = new Float64Array(F);
    for (let d = 0; d < items.length; d++) {
      const item = items[d]!;
      for (let f = 0; f < F; f++) {
        offsets[d * F + f] = count;
        const field = searchable[f]!;
        for (const w of words(searchableText(Object.hasOwn(item, field) ? item[field] : undefined))) {
          let id = ids.get(w);
          if (id === undefined) {
            id = wordList.length;
            ids.set(w, id);
            wordList.push(w);
          }
          if (count === tokens.length) {
            const grown = new Uint32Array(tokens.length * 2);
            grown.set(tokens);
            tokens = grown;
          }
          tokens[count++] = id;
        }
        totalLength[f]! += count - offsets[d * F + f]!;
      }
      await slicer.tick();
    }
    offsets[items.length * F] = count;
    const averageLength = totalLength.map((t) => (items.length === 0 ? 0 : t / items.length));

    // Postings: count, then fill, each document once per word.
    const lastDoc = new Int32Array(wordList.length).fill(-1);
    const df = new Uint32Array(wordList.length);
    for (let d = 0; d < items.length; d++) {
      for (let t = offsets[d * F]!; t < offsets[(d + 1) * F]!; t++) {
        const w = tokens[t]!;
        if (lastDoc[w] !== d) {
          lastDoc[w] = d;
          df[w]!++;
        }
      }
      await slicer.tick();
    }
    const postingStart = new Uint32Array(wordList.length + 1);
    for (let w = 0; w < wordList.length; w++) postingStart[w + 1] = postingStart[w]! + df[w]!;
    const postingDocs = new Uint32Array(postingStart[wordList.length]!);
    const filled = postingStart.slice(0, wordList.length);
    lastDoc.fill(-1);
    for (let d = 0; d < items.length; d++) {
      for (let t = offsets[d * F]!; t < offsets[(d + 1) * F]!; t++) {
        const w = tokens[t]!;
        if (lastDoc[w] !== d) {
          lastDoc[w] = d;
          postingDocs[filled[w]!++] = d;
        }
      }
      await slicer.tick();
    }
    const stems = new Map<string, number[]>();
    for (let w = 0; w < wordList.length; w++) {
      const s = analyzer.stem(wordList[w]!);
      const list = stems.get(s);
      if (list) list.push(w);
      else stems.set(s, [w]);
      await slicer.tick();
    }
    const dictionary = await Dictionary.build(wordList, () => slicer.tick());
    const paths = await buildPaths(items, types, slicer);
    return new SearchIndex({
      version,
      items,
      paths,
      searchable,
      fieldRank,
      fieldRanks,
      fieldWeight,
      dictionary,
      stems,
      postingDocs,
      postingStart,
      tokens: tokens.slice(0, count),
      offsets,
      averageLength,
    });
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
export async function visibleTypes(items: readonly CatalogItem[], slicer = new Slicer()): Promise<Map<string, FieldType>> {
  const types = new Map<string, FieldType>();
  for (const item of items) {
    await slicer.tick();
    for (const name of Object.keys(item)) {
      if (types.has(name) || Object.hasOwn(STANDARD_FIELDS, name)) continue;
      const kind = typeOf(item[name]);
      if (kind !== 'empty' && kind !== 'unsupported') types.set(name, kind);
    }
  }
  return types;
}

async function buildPaths(items: readonly CatalogItem[], types: ReadonlyMap<string, FieldType>, slicer: Slicer): Promise<Map<string, PathIndex>> {
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
      await slicer.tick();
      const obj = item[name];
      if (obj && typeof obj === 'object' && !Array.isArray(obj)) for (const k of Object.keys(obj)) keys.add(k);
    }
    for (const k of keys) infos.push({ path: `${name}.${k}`, kind: member, objectField: name });
  }
  const out = new Map<string, PathIndex>();
  for (const info of infos) {
    const lists = new Map<string | number | boolean, number[]>();
    const n = items.length;
    if (info.kind === 'number') {
      const first = new Float64Array(n).fill(NaN);
      const min = new Float64Array(n).fill(NaN);
      const max = new Float64Array(n).fill(NaN);
      const values: number[] = [];
      const docs: number[] = [];
      for (let doc = 0; doc < n; doc++) {
        await slicer.tick();
        for (const v of valuesOf(valueAt(items[doc]!, info.path, info.objectField))) {
          if (typeof v !== 'number') continue;
          addPosting(lists, v, doc);
          if (Number.isNaN(first[doc]!)) first[doc] = min[doc] = max[doc] = v;
          else {
            if (v < min[doc]!) min[doc] = v;
            if (v > max[doc]!) max[doc] = v;
          }
          values.push(v);
          docs.push(doc);
        }
      }
      const sorted = await sortByValue(values, docs, slicer);
      out.set(info.path, { info, postings: await toPostings(lists, slicer), sortedValues: sorted.values, sortedDocs: sorted.docs, first, min, max });
      continue;
    }
    const valueIds = new Map<string | boolean, number>();
    const valueList: (string | boolean)[] = [];
    const offsets = new Uint32Array(n + 1);
    const ids: number[] = [];
    for (let doc = 0; doc < n; doc++) {
      await slicer.tick();
      offsets[doc] = ids.length;
      for (const v of valuesOf(valueAt(items[doc]!, info.path, info.objectField))) {
        if (typeof v === 'number') continue;
        if (!addPosting(lists, v, doc)) continue;
        let id = valueIds.get(v);
        if (id === undefined) {
          id = valueList.length;
          valueIds.set(v, id);
          valueList.push(v);
        }
        ids.push(id);
      }
    }
    offsets[n] = ids.length;
    const lower = valueList.map((v) => String(v).toLowerCase());
    out.set(info.path, { info, postings: await toPostings(lists, slicer), values: valueList, lower, offsets, ids: Uint32Array.from(ids) });
  }
  return out;
}

/** Adds a document to a value's postings; false when it was already there. */
function addPosting(lists: Map<string | number | boolean, number[]>, key: string | number | boolean, doc: number): boolean {
  const list = lists.get(key);
  if (!list) lists.set(key, [doc]);
  else if (list[list.length - 1] !== doc) list.push(doc);
  else return false;
  return true;
}

async function toPostings(lists: Map<string | number | boolean, number[]>, slicer: Slicer): Promise<Map<string | number | boolean, Uint32Array>> {
  const postings = new Map<string | number | boolean, Uint32Array>();
  for (const [k, list] of lists) {
    postings.set(k, Uint32Array.from(list));
    await slicer.tick();
  }
  return postings;
}

/**
 * (value, document) pairs by value, then document (they come in document order): a native sort
 * of the distinct values and a counting pass, so 100,000 values never block in one comparator sort.
 */
async function sortByValue(values: readonly number[], docs: readonly number[], slicer: Slicer): Promise<{ values: Float64Array; docs: Uint32Array }> {
  const distinct = Float64Array.from(new Set(values)).sort();
  await slicer.tick();
  const rank = new Map<number, number>();
  distinct.forEach((v, i) => rank.set(v, i));
  const start = new Uint32Array(distinct.length + 1);
  for (const v of values) start[rank.get(v)! + 1]!++;
  for (let i = 1; i <= distinct.length; i++) start[i]! += start[i - 1]!;
  const outValues = new Float64Array(values.length);
  const outDocs = new Uint32Array(values.length);
  for (let k = 0; k < values.length; k++) {
    const at = start[rank.get(values[k]!)!]!++;
    outValues[at] = values[k]!;
    outDocs[at] = docs[k]!;
    await slicer.tick();
  }
  return { values: outValues, docs: outDocs };
}
