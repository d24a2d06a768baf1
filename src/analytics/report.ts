/**
 * The search analytics report of a catalog over a range of UTC days: its shape, the range it is
 * asked for, and building it from the store's rollups.
 *
 * @module
 */
import type { ErrorDetail } from '../errors';
import type { DayRange, EpochDay, QueryCounts, SearchAnalyticsStore } from '../storage/search-analytics';
import { failWith } from '../validation';
import { SEARCH_ANALYTICS_LIMITS } from './limits';

/** Milliseconds in a UTC day. */
export const DAY_MS = 86_400_000;

const { reportDays: MAX_REPORT_DAYS, reportList: REPORT_LIST_LIMIT } = SEARCH_ANALYTICS_LIMITS;

/** The UTC day of an epoch millisecond. */
export const dayOf = (ms: number): EpochDay => Math.floor(ms / DAY_MS);

/** `YYYY-MM-DD` of an epoch day. */
export const isoDay = (day: EpochDay): string => new Date(day * DAY_MS).toISOString().slice(0, 10);

const ISO_DAY = /^\d{4}-\d{2}-\d{2}$/;

/** The epoch day of `YYYY-MM-DD`, or undefined when the text is no calendar day. */
function parseDay(text: unknown): EpochDay | undefined {
  if (typeof text !== 'string' || !ISO_DAY.test(text)) return undefined;
  const ms = Date.parse(`${text}T00:00:00Z`);
  // Date.parse rolls 2026-02-30 over to March: a day that does not print back is not one.
  return Number.isNaN(ms) || isoDay(ms / DAY_MS) !== text ? undefined : ms / DAY_MS;
}

/**
 * Which days a report covers: UTC calendar days as `YYYY-MM-DD`, both included.
 *
 * @example
 * ```ts
 * const week: AnalyticsRange = { since: '2026-11-20', until: '2026-11-26' };
 * const report = await abkit.searchAnalytics.analytics('shop', week);
 * ```
 */
export interface AnalyticsRange {
  /** First day. @defaultValue 29 days before `until` (30 days in all) */
  since?: string;
  /** Last day. @defaultValue today (UTC) */
  until?: string;
}

/** The range as epoch days, or a {@link ValidationError} naming `since` or `until`. */
export function resolveRange(catalog: string, range: AnalyticsRange, today: EpochDay): DayRange {
  const details: ErrorDetail[] = [];
  const read = (field: 'since' | 'until', fallback: EpochDay): EpochDay => {
    const value = range[field];
    if (value === undefined) return fallback;
    const day = parseDay(value);
    if (day === undefined) details.push({ path: [field], message: 'must be a calendar day as YYYY-MM-DD' });
    return day ?? fallback;
  };
  const until = read('until', today);
  const since = read('since', until - 29);
  if (details.length === 0 && since > until) details.push({ path: ['since'], message: `must not be after until (${isoDay(until)})` });
  if (details.length === 0 && until - since + 1 > MAX_REPORT_DAYS)
    details.push({ path: ['since'], message: `the range covers ${until - since + 1} days; at most ${MAX_REPORT_DAYS}` });
  if (details.length > 0) failWith(details, 'invalid analytics range');
  return { catalog, since, until };
}

/**
 * Rates of a set of searches. A rate whose denominator is zero is null.
 *
 * @example
 * ```ts
 * const { totals }: SearchAnalyticsReport = await abkit.searchAnalytics.analytics('shop');
 * console.log(`${totals.searches} searches, ${(100 * (totals.zeroResultRate ?? 0)).toFixed(1)} % without a result`);
 * ```
 */
export interface SearchRates {
  /** Searches answered (tracked or not). */
  readonly searches: number;
  /** Searches asked with `clickAnalytics` (events can follow only those). */
  readonly trackedSearches: number;
  /** Searches that found nothing. */
  readonly zeroResults: number;
  /** zeroResults / searches. */
  readonly zeroResultRate: number | null;
  /** Click events. */
  readonly clicks: number;
  /** Conversion events. */
  readonly conversions: number;
  /** clicks / trackedSearches: clicks per tracked search (a search clicked twice counts twice, so it can exceed 1). */
  readonly clickThroughRate: number | null;
  /** conversions / trackedSearches. */
  readonly conversionRate: number | null;
  /** Mean position (1-based) of the clicks. */
  readonly meanClickPosition: number | null;
  /** Mean time to answer, in milliseconds. */
  readonly meanLatencyMs: number | null;
}

/**
 * What {@link SearchAnalytics.analytics} answers: a catalog's search analytics over a range of UTC
 * days (also `GET /admin/v1/catalogs/{id}/analytics`).
 *
 * @example
 * ```ts
 * const report: SearchAnalyticsReport = await abkit.searchAnalytics.analytics('shop', { since: '2026-11-01' });
 * for (const q of report.noResultQueries) console.log(`${q.count} × "${q.query}" found nothing`);
 * ```
 */
export interface SearchAnalyticsReport {
  readonly catalog: string;
  /** First day covered, `YYYY-MM-DD`. */
  readonly since: string;
  /** Last day covered, `YYYY-MM-DD`. */
  readonly until: string;
  /** The whole range. */
  readonly totals: SearchRates;
  /** Every day of the range in order, days without searches included (at most 366). */
  readonly days: readonly (SearchRates & { readonly day: string })[];
  /** The most searched queries (normalized), at most 100. */
  readonly topQueries: readonly (SearchRates & { readonly query: string; readonly count: number })[];
  /** The queries with searches that found nothing, most such searches first, at most 100. */
  readonly noResultQueries: readonly { readonly query: string; readonly count: number }[];
  /** The fields searches filtered on, most used first, at most 100: `count` searches filtered on `field`. */
  readonly topFilters: readonly { readonly field: string; readonly count: number }[];
  /** The items with the most clicks (then conversions), at most 100. */
  readonly topClickedItems: readonly {
    readonly itemId: string;
    readonly clicks: number;
    readonly conversions: number;
    readonly views: number;
  }[];
}

const ratio = (a: number, b: number): number | null => (b === 0 ? null : a / b);

function rates(c: QueryCounts): SearchRates {
  return {
    searches: c.searches,
    trackedSearches: c.tracked,
    zeroResults: c.zeroResults,
    zeroResultRate: ratio(c.zeroResults, c.searches),
    clicks: c.clicks,
    conversions: c.conversions,
    clickThroughRate: ratio(c.clicks, c.tracked),
    conversionRate: ratio(c.conversions, c.tracked),
    meanClickPosition: ratio(c.clickPositions, c.clicks),
    meanLatencyMs: ratio(c.latencyMs, c.searches),
  };
}

const ZERO: QueryCounts = { searches: 0, tracked: 0, zeroResults: 0, clicks: 0, clickPositions: 0, conversions: 0, latencyMs: 0 };

/** The report of the range, from the rollups: five bounded reads, whatever the number of searches. */
export async function buildReport(store: SearchAnalyticsStore, range: DayRange): Promise<SearchAnalyticsReport> {
  const [days, top, none, items, filters] = await Promise.all([
    store.days(range),
    store.queries(range, 'searches', REPORT_LIST_LIMIT),
    store.queries(range, 'zeroResults', REPORT_LIST_LIMIT),
    store.items(range, REPORT_LIST_LIMIT),
    store.filters(range, REPORT_LIST_LIMIT),
  ]);
  const byDay = new Map(days.map((d) => [d.day, d]));
  const total: Record<string, number> = { ...ZERO };
  for (const d of days) for (const key of Object.keys(ZERO)) total[key]! += d[key as keyof QueryCounts];
  const everyDay = [];
  for (let day = range.since; day <= range.until; day++) everyDay.push({ day: isoDay(day), ...rates(byDay.get(day) ?? ZERO) });
  return {
    catalog: range.catalog,
    since: isoDay(range.since),
    until: isoDay(range.until),
    totals: rates(total as unknown as QueryCounts),
    days: everyDay,
    topQueries: top.map((q) => ({ query: q.query, count: q.searches, ...rates(q) })),
    noResultQueries: none.map((q) => ({ query: q.query, count: q.zeroResults })),
    topFilters: filters.map((f) => ({ field: f.field, count: f.searches })),
    topClickedItems: items.map((i) => ({ itemId: i.itemId, clicks: i.clicks, conversions: i.conversions, views: i.views })),
  };
}
