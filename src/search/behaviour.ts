/**
 * What search reads of shoppers' behaviour, and the query key analytics and search share.
 *
 * Search (this folder) ranks with behaviour but does not record it: search analytics, a layer
 * above, records searches and their events, rolls them up, and gives search a
 * {@link BehaviourSource} answering from snapshots it keeps, so a search never waits on storage.
 *
 * @module
 */
import { words } from './analysis';

/**
 * The key under which analytics counts a query and behaviour ranking looks up its feedback: its
 * folded words joined by one space (`'  Galaxy  S7 Case'` → `'galaxy s7 case'`), so spacing and
 * case never split one query's counts.
 *
 * @example
 * ```ts
 * normalizeQuery('  Galaxy  S7 Case '); // 'galaxy s7 case'
 * normalizeQuery('USB-C'); // 'usb c'
 * ```
 */
export function normalizeQuery(text: string): string {
  return words(text).join(' ');
}

/**
 * Click feedback of one item for one query, over the days a snapshot covers.
 *
 * @example
 * ```ts
 * const feedback: QueryFeedback = { clicks: 12, examined: 30.5 };
 * const ctr = feedback.clicks / feedback.examined; // clicks per examination, position bias removed
 * ```
 */
export interface QueryFeedback {
  /** Clicks on the item in answers to the query. */
  readonly clicks: number;
  /**
   * The item's impressions in answers to the query, each weighted by how likely its shopper read
   * that far: in an answer that was clicked, 1 down to its deepest click and 0 below (the cascade
   * model: shoppers read down and stop after what they click); in one never clicked, `1 / position`
   * (1-based). So `clicks / examined` estimates the item's attractiveness whatever positions it was
   * shown at.
   */
  readonly examined: number;
}

/**
 * Behaviour signals of one catalog's items, as behaviour ranking reads them (synchronously:
 * the source answers from snapshots it refreshes on its own).
 *
 * @example
 * ```ts
 * const none: BehaviourSource = { itemSignals: () => undefined, queryFeedback: () => undefined };
 * ```
 */
export interface BehaviourSource {
  /**
   * Each item's signal (≥ 0, time-decayed clicks, conversions, purchases and page views), or
   * undefined when the catalog has none yet. Items absent from the map have 0.
   */
  itemSignals(catalog: string): ReadonlyMap<string, number> | undefined;
  /** Per item, the click feedback for the query (its {@link normalizeQuery} key), or undefined when it has none. */
  queryFeedback(catalog: string, query: string): ReadonlyMap<string, QueryFeedback> | undefined;
}
