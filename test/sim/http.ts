/**
 * Simulated shoppers over HTTP: `GET /search` (with `clickAnalytics=true` and the visitor id) and
 * `POST /search/events`, through a handler called with `new Request(...)`, as a shop's front end
 * would call abkit.
 */
import type { Handler } from '../../src/index';
import type { LinkedEvent, Search, SearchEvent } from '../helpers/shoppers';

const BASE = 'http://shop.test';
const BATCH = 1000;

/** The search of `catalog` (named by `index=<catalog>_Catalog`) through `handler`. */
export function httpSearch(handler: Handler, catalog: string, extra: Record<string, string> = { clickAnalytics: 'true' }): Search {
  return async ({ text, visitorId, hitsPerPage }) => {
    const params = new URLSearchParams({ index: `${catalog}_Catalog`, text, hitsPerPage: String(hitsPerPage), visitorId, ...extra });
    const response = await handler(new Request(`${BASE}/search?${params}`));
    if (response.status !== 200) throw new Error(`GET /search answered ${response.status}: ${await response.text()}`);
    const body = (await response.json()) as { hits: { id: string }[]; totalHits: number; queryID?: string };
    return { ids: body.hits.map((h) => h.id), totalHits: body.totalHits, ...(body.queryID === undefined ? {} : { queryID: body.queryID }) };
  };
}

/**
 * Posts search events (`events`) or linked page views and purchases (`linked`) to
 * `POST /search/events` of `handler`, at most 1,000 per request, throwing on anything but 204.
 */
export async function postEvents(
  handler: Handler,
  catalog: string,
  list: readonly (SearchEvent | LinkedEvent)[],
  member: 'events' | 'linked' = 'events',
): Promise<void> {
  for (let i = 0; i < list.length; i += BATCH) {
    const response = await handler(
      new Request(`${BASE}/search/events?index=${catalog}_Catalog`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ [member]: list.slice(i, i + BATCH) }),
      }),
    );
    if (response.status !== 204) throw new Error(`POST /search/events answered ${response.status}: ${await response.text()}`);
  }
}
