/**
 * Search analytics at the search interface: the `clickAnalytics` and `visitorId` parameters, the
 * `queryID` an answer then carries, and the body of `POST /search/events`.
 *
 * @module
 */
import type { SearchAnalytics } from '../analytics/service';
import { NotFoundError, ValidationError } from '../errors';
import { searchVisitorOf } from '../search-experiments/visitor';

/** Most filter field names recorded per search. */
const MAX_FILTER_NAMES = 100;

/** What a search's parameters say about its tracking: whether it asks for a query id, and its visitor. */
export interface Tracking {
  readonly clickAnalytics: boolean;
  readonly visitorId: string | undefined;
}

/**
 * Reads `clickAnalytics` (`true` or `false`) and the visitor (checked as experiments on search
 * check it: one message for a bad `visitorId` whichever feature reads it), naming a bad one.
 */
export function trackingOf(params: Record<string, unknown>): Tracking {
  const { clickAnalytics } = params;
  if (clickAnalytics !== undefined && clickAnalytics !== 'true' && clickAnalytics !== 'false')
    throw new ValidationError('clickAnalytics must be true or false', [{ path: ['clickAnalytics'], message: 'must be true or false' }]);
  return { clickAnalytics: clickAnalytics === 'true', visitorId: searchVisitorOf(params)?.visitorId };
}

/** The names of the fields a search filters on (`filters[brand][]=…` → `brand`), never their values. */
export function filterNames(filters: unknown): string[] {
  return filters !== null && typeof filters === 'object' && !Array.isArray(filters) ? Object.keys(filters).slice(0, MAX_FILTER_NAMES) : [];
}

/** An answer's JSON text with `queryID` added as its last member. */
export function withQueryId(text: string, queryId: string | undefined): string {
  return queryId === undefined ? text : `${text.slice(0, -1)},"queryID":"${queryId}"}`;
}

/** Time since `start` (a `performance.now()`), in milliseconds. */
export const elapsedMs = (start: number): number => performance.now() - start;

/**
 * The body of `POST /search/events`: `{ events?: [...], linked?: [...] }`, at least one of them;
 * the service checks each event.
 */
export async function eventsOf(body: { json(): Promise<unknown> }): Promise<{ events?: unknown; linked?: unknown }> {
  const parsed = await body.json();
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed))
    throw new ValidationError('the body must be an object { events: [...] }', [{ path: [], message: 'must be an object' }]);
  const { events, linked } = parsed as { events?: unknown; linked?: unknown };
  if (events === undefined && linked === undefined)
    throw new ValidationError('events is required (or linked)', [{ path: ['events'], message: 'required (or linked)' }]);
  return { events, linked };
}

/** The analytics a search handler records to, or a 404 for the events route when it has none. */
export function requireAnalytics(analytics: SearchAnalytics | undefined): SearchAnalytics {
  if (!analytics) throw new NotFoundError('search analytics is not enabled on this server');
  return analytics;
}
