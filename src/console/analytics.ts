/**
 * A catalog's search analytics page: searches and zero results per day, click-through over the
 * tracked searches, the top and the zero-result queries, the most clicked items.
 *
 * @module
 */
import type { SearchAnalyticsReport, SearchRates } from '../analytics/report';
import { NotFoundError, ValidationError } from '../errors';
import { lineChart } from './charts';
import { html, type Html } from './html';
import { fieldError, htmlResponse, layout, problemsByPath, seg, type PageContext } from './page';

const pct = (v: number | null) => (v === null ? '—' : `${(v * 100).toFixed(1)}%`);
const num = (v: number | null, digits = 1) => (v === null ? '—' : v.toFixed(digits));
const dayMs = (day: string) => Date.parse(`${day}T00:00:00Z`);
const dayText = (ms: number) => new Date(ms).toISOString().slice(0, 10);

function summary(t: SearchRates): Html {
  const cell = (label: string, value: string) => html`<tr><th>${label}</th><td class="num">${value}</td></tr>`;
  return html`<table><tbody>${[
    cell('Searches', String(t.searches)),
    cell('Without a result', `${t.zeroResults} (${pct(t.zeroResultRate)})`),
    cell('Tracked searches (clickAnalytics)', String(t.trackedSearches)),
    cell('Clicks; click-through rate (clicks per tracked search)', `${t.clicks}; ${pct(t.clickThroughRate)}`),
    cell('Conversions; conversion rate', `${t.conversions}; ${pct(t.conversionRate)}`),
    cell('Mean click position', num(t.meanClickPosition)),
    cell('Mean time to answer', t.meanLatencyMs === null ? '—' : `${num(t.meanLatencyMs, 2)} ms`),
  ]}</tbody></table>`;
}

function charts(report: SearchAnalyticsReport): Html {
  const series = (label: string, pick: (d: SearchAnalyticsReport['days'][number]) => number) => ({
    label,
    points: report.days.map((d) => [dayMs(d.day), pick(d)] as const),
  });
  return html`${lineChart(
    `Searches and searches without a result per day, ${report.since} to ${report.until}`,
    [series('Searches', (d) => d.searches), series('Without a result', (d) => d.zeroResults)],
    dayText,
  )}${lineChart(
    `Tracked searches and clicks per day, ${report.since} to ${report.until}`,
    [series('Tracked searches', (d) => d.trackedSearches), series('Clicks', (d) => d.clicks)],
    dayText,
  )}`;
}

function tables(report: SearchAnalyticsReport): Html {
  return html`<h2>Top queries</h2>${
    report.topQueries.length === 0
      ? html`<p class="muted">No search in this range.</p>`
      : html`<table><thead><tr><th>Query</th><th class="num">Searches</th><th class="num">Without a result</th><th class="num">Clicks</th><th class="num">Click-through</th><th class="num">Conversions</th><th class="num">Mean click position</th></tr></thead><tbody>${report.topQueries.map(
          (q) =>
            html`<tr><td><code>${q.query === '' ? '(empty)' : q.query}</code></td><td class="num">${q.count}</td><td class="num">${q.zeroResults}</td><td class="num">${q.clicks}</td><td class="num">${pct(q.clickThroughRate)}</td><td class="num">${q.conversions}</td><td class="num">${num(q.meanClickPosition)}</td></tr>`,
        )}</tbody></table>`
  }
<h2>Queries without a result</h2>${
    report.noResultQueries.length === 0
      ? html`<p class="muted">Every search found something.</p>`
      : html`<table><thead><tr><th>Query</th><th class="num">Searches without a result</th></tr></thead><tbody>${report.noResultQueries.map(
          (q) => html`<tr><td><code>${q.query === '' ? '(empty)' : q.query}</code></td><td class="num">${q.count}</td></tr>`,
        )}</tbody></table>`
  }
<h2>Fields filtered on</h2>${
    report.topFilters.length === 0
      ? html`<p class="muted">No search used a filter.</p>`
      : html`<table><thead><tr><th>Field</th><th class="num">Searches filtering on it</th></tr></thead><tbody>${report.topFilters.map(
          (f) => html`<tr><td><code>${f.field}</code></td><td class="num">${f.count}</td></tr>`,
        )}</tbody></table>`
  }
<h2>Most clicked items</h2>${
    report.topClickedItems.length === 0
      ? html`<p class="muted">No click or conversion recorded (answers asked with <code>clickAnalytics=true</code>, events sent to <code>POST /search/events</code>).</p>`
      : html`<table><thead><tr><th>Item</th><th class="num">Clicks</th><th class="num">Conversions</th><th class="num">Views</th></tr></thead><tbody>${report.topClickedItems.map(
          (i) =>
            html`<tr><td><code>${i.itemId}</code></td><td class="num">${i.clicks}</td><td class="num">${i.conversions}</td><td class="num">${i.views}</td></tr>`,
        )}</tbody></table>`
  }`;
}

/** GET /console/catalogs/{identifier}/analytics?since&until */
export async function analyticsPage(ctx: PageContext): Promise<Response> {
  const { identifier } = ctx.c.params as { identifier: string };
  const analytics = ctx.services.searchAnalytics;
  if (!analytics) throw new NotFoundError('search analytics is not recorded here (the handler was given none)');
  await ctx.services.admin.catalogSettings(identifier); // 404 for an unknown catalog
  const since = ctx.c.query.get('since') || undefined;
  const until = ctx.c.query.get('until') || undefined;
  let body: Html;
  let problems: Map<string, string[]> | undefined;
  let status = 200;
  let shown = { since: since ?? '', until: until ?? '' };
  try {
    const report = await analytics.analytics(identifier, { since, until });
    shown = { since: report.since, until: report.until };
    body = html`${summary(report.totals)}${charts(report)}${tables(report)}`;
  } catch (error) {
    if (!(error instanceof ValidationError)) throw error;
    problems = problemsByPath(error.details);
    body = html``;
    status = 400;
  }
  const path = `${ctx.base}/catalogs/${seg(identifier)}`;
  return htmlResponse(
    layout(
      ctx,
      `Search analytics of ${identifier}`,
      html`<form method="get" class="card"><label for="since">From</label> <input type="date" id="since" name="since" value="${shown.since}"> <label for="until">to</label> <input type="date" id="until" name="until" value="${shown.until}"> <button type="submit">Show</button> <span class="muted">UTC days, at most 366; counts are written about every second.</span>${fieldError('since', problems?.get('since'))}${fieldError('until', problems?.get('until'))}</form>
${body}`,
      [
        [`${ctx.base}/catalogs`, 'Catalogs'],
        [path, identifier],
      ],
    ),
    status,
  );
}
