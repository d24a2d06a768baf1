/**
 * Filters: a query's filters and sort checked against the index, and the mask of the documents
 * passing every filter, marked from the posting windows each filter selects.
 *
 * @module
 */
import { ValidationError } from '../errors';
import { docsWith, lowerBound, type PathIndex } from './path-index';
import type { Filter, SearchQuery } from './query';
import { maskScratch } from './scratch';
import { MAX_OBJECT_KEY_PATHS, type SearchIndex } from './search-index';

/** Checks a query's filters and sort against the index: each unknown field or impossible filter named (one ValidationError). */
export function checkQuery(index: SearchIndex, query: SearchQuery): void {
  const details = [];
  for (const [field, filter] of Object.entries(query.filters)) {
    const path = index.paths.get(field);
    if (!path) details.push({ path: ['filters', field], message: `filters[${field}]: unknown field ${field}${skippedKeys(index)}` });
    else if (filter.kind === 'range' && path.info.kind !== 'number') {
      details.push({
        path: ['filters', field],
        message: `filters[${field}]: a range filter needs a number field; ${field} is ${path.info.kind}`,
      });
    } else if (filter.kind === 'list') {
      const bad = filter.values.filter((v) =>
        path.info.kind === 'number'
          ? v.trim() === '' || !Number.isFinite(Number(v))
          : path.info.kind === 'boolean'
            ? v !== 'true' && v !== 'false'
            : false,
      );
      if (bad.length > 0) {
        details.push({
          path: ['filters', field],
          message: `filters[${field}]: ${field} is ${path.info.kind}; ${bad.map((v) => JSON.stringify(v)).join(', ')} can never match`,
        });
      }
    }
  }
  for (const { field } of query.sort) {
    if (!index.paths.has(field) && field !== 'id')
      details.push({ path: ['sort'], message: `sort: unknown field ${field}${skippedKeys(index)}` });
  }
  if (details.length > 0) throw new ValidationError(`${details.map((d) => d.message).join('; ')}`, details);
}

/** What an unknown path may be when the index left object keys out. */
function skippedKeys(index: SearchIndex): string {
  return index.skippedKeys === 0
    ? ''
    : ` (the catalog's object fields hold ${index.skippedKeys + MAX_OBJECT_KEY_PATHS} keys; search indexes the ${MAX_OBJECT_KEY_PATHS} the most items hold)`;
}

/**
 * Documents passing every filter (1 in the mask), or undefined without filters. The mask is
 * scratch of the index, valid until the next call: the caller reads it before any await.
 */
export function filterMask(index: SearchIndex, filters: Readonly<Record<string, Filter>>): Uint8Array | undefined {
  // Two masks in turn, each filter's from the one before: allocating one per filter cost as much as marking it.
  return maskOf(index, filters, (k) => maskScratch(index, k % 2));
}

/**
 * Documents passing every filter of a merchandising rule, in a mask of their own (kept with the
 * index). Unlike a query's filters, which checkQuery refuses, a filter a rule cannot apply (an
 * unknown field, a range over a field that is not a number) selects nothing: the catalog's
 * fields may change after the rule was written, and a shopper's search must not fail for it.
 */
export function ruleMask(index: SearchIndex, filters: Readonly<Record<string, Filter>>): Uint8Array {
  for (const [field, filter] of Object.entries(filters)) {
    const path = index.paths.get(field);
    if (!path || (filter.kind === 'range' && path.info.kind !== 'number')) return new Uint8Array(index.items.length);
  }
  const masks = [new Uint8Array(index.items.length), new Uint8Array(index.items.length)];
  return maskOf(index, filters, (k) => masks[k % 2]!) ?? new Uint8Array(index.items.length).fill(1);
}

/** The mask of the documents passing every filter, each filter's marked in `take(k)` from the one before. */
function maskOf(index: SearchIndex, filters: Readonly<Record<string, Filter>>, take: (k: number) => Uint8Array): Uint8Array | undefined {
  let allowed: Uint8Array | undefined;
  let k = 0;
  for (const [field, filter] of Object.entries(filters)) {
    const mask = take(k++).fill(0);
    for (const docs of matching(index.paths.get(field)!, filter)) {
      // Two loops, not one testing `allowed` per document: a range window may hold most of the catalog.
      if (!allowed) for (let i = 0; i < docs.length; i++) mask[docs[i]!] = 1;
      else for (let i = 0; i < docs.length; i++) if (allowed[docs[i]!] === 1) mask[docs[i]!] = 1;
    }
    allowed = mask;
  }
  return allowed;
}

/**
 * The windows of the path's posting list holding the documents that pass `filter` (a document
 * may be in several: a list filter's values are ORed). Windows, not a set: a range over most of
 * the catalog is then a subarray, and the caller marks its mask from it without hashing.
 */
function matching(path: PathIndex, filter: Filter): Uint32Array[] {
  if (filter.kind === 'list') {
    const out: Uint32Array[] = [];
    for (const raw of filter.values) {
      let key: string | number | boolean;
      if (path.info.kind === 'number') {
        const n = Number(raw);
        if (raw.trim() === '' || !Number.isFinite(n)) continue;
        key = n;
      } else if (path.info.kind === 'boolean') {
        if (raw !== 'true' && raw !== 'false') continue;
        key = raw === 'true';
      } else key = raw;
      out.push(docsWith(path, key));
    }
    return out;
  }
  // Range conditions are ANDed: intersect the index windows of a sorted array.
  const values = path.sortedValues!;
  let lo = 0;
  let hi = values.length;
  let equal: number | undefined;
  for (const { operator, value } of filter.conditions) {
    if (operator === '>') lo = Math.max(lo, lowerBound(values, value, true));
    else if (operator === '>=') lo = Math.max(lo, lowerBound(values, value, false));
    else if (operator === '<') hi = Math.min(hi, lowerBound(values, value, false));
    else if (operator === '<=') hi = Math.min(hi, lowerBound(values, value, true));
    else {
      if (equal !== undefined && equal !== value) return [];
      equal = value;
      lo = Math.max(lo, lowerBound(values, value, false));
      hi = Math.min(hi, lowerBound(values, value, true));
    }
  }
  return lo < hi ? [path.postingDocs.subarray(lo, hi)] : [];
}
