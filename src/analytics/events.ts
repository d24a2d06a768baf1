/**
 * Search events (what shoppers did with an answer) and their checks.
 *
 * @module
 */
import type { AnalyticsEvent } from '../catalog/catalog';
import type { ErrorDetail } from '../errors';
import { failWith } from '../validation';
import { SEARCH_ANALYTICS_LIMITS } from './limits';

const {
  eventsPerCall: MAX_SEARCH_EVENTS_PER_CALL,
  idLength: MAX_EVENT_ID_LENGTH,
  clickPosition: MAX_CLICK_POSITION,
} = SEARCH_ANALYTICS_LIMITS;

/** A query id: 32 lowercase hex digits. */
export const QUERY_ID = /^[0-9a-f]{32}$/;

/**
 * What a shopper did with an answer that carried a `queryID` (asked with `clickAnalytics=true`).
 *
 * @example
 * ```ts
 * const answer = await (await fetch('/search?text=tv&clickAnalytics=true')).json();
 * const click: SearchInteraction = { type: 'click', queryID: answer.queryID, itemId: 'sku-42', position: 3, visitorId: 'v1' };
 * await abkit.searchAnalytics.recordEvents('shop', [click]);
 * ```
 */
export interface SearchInteraction {
  /** `view` (the item was seen), `click` (it was clicked; `position` required) or `conversion` (it was bought, added to a cart…). */
  readonly type: 'view' | 'click' | 'conversion';
  /** The query id of the answer the event follows. */
  readonly queryID: string;
  /** The item, at most 256 characters. */
  readonly itemId: string;
  /** The item's position in the answer, 1-based, counting across pages (1 to 1,000). Required for a click. */
  readonly position?: number;
  /** The visitor, at most 256 characters; the search's visitor id when absent. */
  readonly visitorId?: string;
}

/**
 * A recorded {@link SearchInteraction}, with what the registry knew of its search.
 *
 * @example
 * ```ts
 * const events = [{ type: 'view' as const, queryID: 'd41d8cd98f00b204e9800998ecf8427e', itemId: 'sku-7' }];
 * const recorded: RecordedInteraction[] = await abkit.searchAnalytics.recordEvents('shop', events);
 * for (const e of recorded) if (e.visitorId) console.log(e.visitorId, e.type, e.query);
 * ```
 */
export interface RecordedInteraction extends Omit<SearchInteraction, 'visitorId'> {
  /** The normalized query of the search the event follows. */
  readonly query: string;
  /** The event's visitor id, else the search's, else null. */
  readonly visitorId: string | null;
}

const TYPES = new Set(['view', 'click', 'conversion']);

/** Most properties of a linked event, and most values of one property. */
const MAX_PROPERTIES = 50;
const MAX_PROPERTY_VALUES = 100;

const scalar = (v: unknown) => (typeof v === 'string' && v.length <= MAX_EVENT_ID_LENGTH) || (typeof v === 'number' && Number.isFinite(v));

/**
 * Purchase and page-view events to link to items, as a checked list, or a `ValidationError`
 * naming every bad field under `root` (`linked[i].properties`): at most 1,000 events, each
 * `{ name: 'purchase' | 'pageview', properties }` with at most 50 properties, each a string of at
 * most 256 characters, a number, or a list of at most 100 of those.
 */
export function checkLinked(events: unknown, root: string): AnalyticsEvent[] {
  if (!Array.isArray(events) || events.length > MAX_SEARCH_EVENTS_PER_CALL)
    failWith([{ path: [root], message: `must be an array of at most ${MAX_SEARCH_EVENTS_PER_CALL} events` }]);
  const details: ErrorDetail[] = [];
  events.forEach((e: unknown, i) => {
    const { name, properties } = (e ?? {}) as Record<string, unknown>;
    if (name !== 'purchase' && name !== 'pageview') details.push({ path: [root, i, 'name'], message: 'must be purchase or pageview' });
    const values =
      properties !== null && typeof properties === 'object' && !Array.isArray(properties) ? Object.values(properties) : undefined;
    if (
      !values ||
      values.length > MAX_PROPERTIES ||
      !values.every((v) => scalar(v) || (Array.isArray(v) && v.length <= MAX_PROPERTY_VALUES && v.every(scalar)))
    )
      details.push({
        path: [root, i, 'properties'],
        message: `must be an object of at most ${MAX_PROPERTIES} properties, each a string of at most ${MAX_EVENT_ID_LENGTH} characters, a number, or a list of at most ${MAX_PROPERTY_VALUES} of those`,
      });
  });
  if (details.length > 0) failWith(details, 'invalid linked events');
  return events as AnalyticsEvent[];
}

/** The events as a checked list, or a {@link ValidationError} naming every bad field by its path (`events[i].field`). */
export function checkEvents(events: unknown): SearchInteraction[] {
  if (!Array.isArray(events)) failWith([{ path: ['events'], message: 'must be an array of events' }]);
  if (events.length > MAX_SEARCH_EVENTS_PER_CALL)
    failWith([{ path: ['events'], message: `holds ${events.length} events; at most ${MAX_SEARCH_EVENTS_PER_CALL} per call` }]);
  const details: ErrorDetail[] = [];
  events.forEach((e: unknown, i) => {
    const at = (field: string) => ['events', i, field];
    if (e === null || typeof e !== 'object' || Array.isArray(e)) {
      details.push({ path: ['events', i], message: 'must be an object' });
      return;
    }
    const { type, queryID, itemId, position, visitorId } = e as Record<string, unknown>;
    if (typeof type !== 'string' || !TYPES.has(type)) details.push({ path: at('type'), message: 'must be view, click or conversion' });
    if (typeof queryID !== 'string' || !QUERY_ID.test(queryID))
      details.push({ path: at('queryID'), message: 'must be the queryID of an answer (32 hex digits)' });
    if (typeof itemId !== 'string' || itemId.length === 0 || itemId.length > MAX_EVENT_ID_LENGTH)
      details.push({ path: at('itemId'), message: `must be a string of 1 to ${MAX_EVENT_ID_LENGTH} characters` });
    if (position === undefined) {
      if (type === 'click') details.push({ path: at('position'), message: 'is required for a click' });
    } else if (!Number.isInteger(position) || (position as number) < 1 || (position as number) > MAX_CLICK_POSITION)
      details.push({ path: at('position'), message: `must be an integer from 1 to ${MAX_CLICK_POSITION}` });
    if (visitorId !== undefined && (typeof visitorId !== 'string' || visitorId.length === 0 || visitorId.length > MAX_EVENT_ID_LENGTH))
      details.push({ path: at('visitorId'), message: `must be a string of 1 to ${MAX_EVENT_ID_LENGTH} characters` });
  });
  if (details.length > 0) failWith(details, 'invalid search events');
  return events as SearchInteraction[];
}
