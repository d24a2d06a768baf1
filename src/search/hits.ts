/**
 * Hits: an item with its ranking score (and details), as an object or straight as JSON text.
 *
 * @module
 */
import type { CatalogItem } from '../storage/catalog';
import type { RankingScoreDetails } from './ranking';

/**
 * A hit: the item, with its ranking score, and what each rule counted when
 * `showRankingScoreDetails` is set.
 *
 * @example
 * ```ts
 * const { hits } = await search.search({ text: 'galaxy', showRankingScoreDetails: true });
 * const best: Hit | undefined = hits[0];
 * console.log(best?.id, best?.name, best?._rankingScore, best?._rankingScoreDetails?.words);
 * ```
 */
export type Hit = CatalogItem & { readonly _rankingScore: number; readonly _rankingScoreDetails?: RankingScoreDetails };

/** The hit of an item. */
export function hitOf(item: CatalogItem, score: number, details: RankingScoreDetails | undefined): Hit {
  const hit: Record<string, unknown> = { ...item, _rankingScore: score };
  if (details) hit._rankingScoreDetails = details;
  return hit as Hit;
}

/** The JSON text of a frozen item without its closing brace, and a comma unless it has no key. */
const ITEM_HEADS = new WeakMap<CatalogItem, string>();

/** `JSON.stringify(hitOf(item, score, details))`. */
export function hitText(item: CatalogItem, score: number, details: RankingScoreDetails | undefined): string {
  // A field of the item named as a hit's own key keeps the item's place for it: serialized whole.
  if (!Object.isFrozen(item) || Object.hasOwn(item, '_rankingScore') || Object.hasOwn(item, '_rankingScoreDetails'))
    return JSON.stringify(hitOf(item, score, details));
  let head = ITEM_HEADS.get(item);
  if (head === undefined) {
    const whole = JSON.stringify(item);
    head = whole === '{}' ? '{' : `${whole.slice(0, -1)},`;
    ITEM_HEADS.set(item, head);
  }
  return `${head}"_rankingScore":${JSON.stringify(score)}${details ? `,"_rankingScoreDetails":${JSON.stringify(details)}` : ''}}`;
}
