/**
 * The bounds of search analytics, in one place (docs/interfaces.md, Limits).
 *
 * @example
 * ```ts
 * const events: SearchInteraction[] = [];
 * for (let i = 0; i < events.length; i += SEARCH_ANALYTICS_LIMITS.eventsPerCall)
 *   await abkit.searchAnalytics.recordEvents('shop', events.slice(i, i + SEARCH_ANALYTICS_LIMITS.eventsPerCall));
 * ```
 */
export const SEARCH_ANALYTICS_LIMITS = Object.freeze({
  /** Most events one call (or one `POST /search/events`) carries. */
  eventsPerCall: 1000,
  /** Longest item id and visitor id an event carries. */
  idLength: 256,
  /** Largest click position. */
  clickPosition: 1000,
  /** Longest range one report covers, in days. */
  reportDays: 366,
  /** Length of a report's lists (top queries, no-result queries, top clicked items). */
  reportList: 100,
  /** Most rollup rows a behaviour snapshot reads of each kind (item days, query-item pairs). */
  snapshotRows: 200_000,
  /** Most hits of one answer the query-id registry keeps. */
  trackedHits: 1000,
});
