/**
 * Sort keys of documents, as `sort`, `customRanking`, `priceIntent` and `tieBreak` order by them.
 *
 * @module
 */
import type { CatalogItem } from '../storage/catalog';
import { valueAt } from './fields';
import type { SortCriterion } from './query';
import type { SearchIndex } from './search-index';

/** The sort key of a document for a criterion: its first value. */
function keyOf(item: CatalogItem, criterion: SortCriterion, index: SearchIndex): unknown {
  const raw = criterion.field === 'id' ? item.id : valueAt(item, criterion.field, index.paths.get(criterion.field)?.info.objectField);
  return Array.isArray(raw) ? raw[0] : raw;
}

/**
 * Reads a criterion's key per document: number paths from their first-value array (NaN: none),
 * other fields from the item.
 */
export function keyReader(index: SearchIndex, criterion: SortCriterion): (doc: number) => unknown {
  const path = criterion.field === 'id' ? undefined : index.paths.get(criterion.field);
  const first = path?.first;
  if (first) return (doc) => (Number.isNaN(first[doc]!) ? undefined : first[doc]);
  // A rare number path keeps no first values: read the item, as the array would have it.
  if (path?.info.kind === 'number') {
    return (doc) => {
      const key = keyOf(index.items[doc]!, criterion, index);
      return typeof key === 'number' ? key : undefined;
    };
  }
  return (doc) => keyOf(index.items[doc]!, criterion, index);
}

/** Each criterion's key for each of `docs`, read once (criteria every comparison reads). */
export function keysOf(index: SearchIndex, docs: Int32Array, criteria: readonly SortCriterion[]): ArrayLike<unknown>[] {
  return criteria.map((criterion): ArrayLike<unknown> => Array.from(docs, keyReader(index, criterion)));
}
