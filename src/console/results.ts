/**
 * A campaign's results: per variation exposed, converted, rate, uplift with its interval,
 * p-value and chance to beat; the sample-ratio warning; a chart of rates with their intervals
 * and one of cumulative exposures and conversions over time.
 *
 * @module
 */
import { NotFoundError, ValidationError } from '../errors';
import { SEARCH_MODIFICATION_TYPE } from '../model/search-settings';
import type { ExperimentResults } from '../results/results';
import { lineChart, rateChart, wilson } from './charts';
import { html, type Html } from './html';
import { fieldError, htmlResponse, layout, seg, time, type PageContext } from './page';

/**
 * Points of the cumulative chart: the results as they stood at that many evenly spaced times
 * since the environment's first activation (each a `results` call with `until`), so the cost
 * is that many results reads, whatever the traffic.
 */
export const TIMELINE_POINTS = 8;

const pct = (v: number | null | undefined, digits = 2) => (v === null || v === undefined ? '—' : `${(v * 100).toFixed(digits)}%`);
const signed = (v: number) => `${v >= 0 ? '+' : ''}${(v * 100).toFixed(1)}%`;

function totals(results: ExperimentResults): { exposed: number; converted: number } {
  let exposed = 0;
  let converted = 0;
  for (const g of results.groups)
    for (const v of g.variations) {
      exposed += v.exposed;
      converted += v.converted;
    }
  return { exposed, converted };
}

/** The search metrics (experiments on search) and what their rate and value mean. */
const SEARCH_METRIC_TEXT: Readonly<Record<string, { name: string; rate: string; perVisitor: string }>> = {
  search_click: {
    name: 'Search clicks',
    rate: 'exposed visitors who clicked a search result at least once',
    perVisitor: 'Clicks per visitor',
  },
  search_conversion: {
    name: 'Search conversions',
    rate: 'exposed visitors who converted after a search at least once',
    perVisitor: 'Conversions per visitor',
  },
};

function groupSection(group: ExperimentResults['groups'][number], metric: string): Html {
  const srm = group.sampleRatio;
  const search = SEARCH_METRIC_TEXT[metric];
  return html`<h2>Variation group <code>${group.variationGroupId}</code></h2>
${
  srm?.mismatch &&
  html`<p class="warning" role="alert"><strong>Sample ratio mismatch</strong> (p = ${srm.pValue.toExponential(2)}): exposures do not follow the allocations. Check the set-up before reading these results.</p>`
}
<table><thead><tr><th>Variation</th><th class="num">Allocation</th><th class="num">Exposed</th><th class="num">Converted</th><th class="num">Rate</th>${search && html`<th class="num">${search.perVisitor}</th>`}<th class="num">Uplift (95% interval)</th><th class="num">p-value</th><th class="num">Chance to beat</th></tr></thead><tbody>${group.variations.map(
    (v) => {
      const c = v.comparison?.conversionRate;
      return html`<tr><td><code>${v.variationId}</code>${v.reference && html` <span class="muted">(reference)</span>`}</td><td class="num">${v.allocation === null ? '—' : `${v.allocation}%`}</td><td class="num">${v.exposed}</td><td class="num">${v.converted}</td><td class="num">${pct(v.conversionRate)}</td>${search && html`<td class="num">${v.meanValue === null ? '—' : v.meanValue.toFixed(2)}</td>`}<td class="num">${
        c?.uplift ? `${signed(c.uplift.estimate)} (${signed(c.uplift.lower)} to ${signed(c.uplift.upper)})` : '—'
      }</td><td class="num">${c?.pValue == null ? '—' : c.pValue.toFixed(4)}</td><td class="num">${c ? pct(c.chanceToBeat, 1) : '—'}</td></tr>`;
    },
  )}</tbody></table>
${search && html`<p class="muted">Rate: the share of ${search.rate} (a per-visitor proportion, compared by a two-proportion z-test).</p>`}
${rateChart(
  `Conversion rate of ${metric} per variation of ${group.variationGroupId}, with 95% intervals`,
  group.variations.map((v) => ({
    label: v.variationId,
    rate: v.conversionRate ?? 0,
    ...wilson(v.converted, v.exposed),
    reference: v.reference,
  })),
)}`;
}

/** GET …/campaigns/{id}/results?metric= */
export async function resultsPage(ctx: PageContext): Promise<Response> {
  const { account, env, id } = ctx.c.params as { account: string; env: string; id: string };
  const remote = ctx.services.remote;
  if (!remote) throw new NotFoundError('results are not served here (createHandler was given no decision engine)');
  const campaign = await remote.getCampaign(account, env, id);
  const metric = ctx.c.query.get('metric') ?? '';
  const searchTest = campaign.variationGroups.some((g) => g.variations.some((v) => v.modifications.type === SEARCH_MODIFICATION_TYPE));
  let body: Html = html``;
  let problem: string[] | undefined;
  let status = 200;
  if (metric !== '') {
    try {
      const results = await remote.results(account, env, { campaignId: id, metric });
      const all = totals(results);
      body = html`<p>${all.exposed} visitors exposed, ${all.converted} converted on <code>${metric}</code>${
        results.multipleExposures > 0 && html`; ${results.multipleExposures} exposed to several variations (left out)`
      }.</p>${all.exposed === 0 ? html`<p class="muted">No exposure recorded yet for this campaign.</p>` : results.groups.map((g) => groupSection(g, metric))}${await timeline(ctx, id, metric)}`;
    } catch (error) {
      if (!(error instanceof ValidationError)) throw error;
      problem = [error.message];
      status = 400;
    }
  }
  const envPath = `${ctx.base}/accounts/${seg(account)}/environments/${seg(env)}`;
  return htmlResponse(
    layout(
      ctx,
      `Results of ${campaign.name ?? id}`,
      html`<form method="get" class="card"><label class="block" for="metric">Metric (the conversion event's name)</label><input type="text" id="metric" name="metric" required maxlength="256" value="${metric}" list="metrics"><datalist id="metrics">${Object.keys(
        SEARCH_METRIC_TEXT,
      ).map(
        (m) => html`<option value="${m}"></option>`,
      )}</datalist> <button type="submit">Show results</button>${fieldError('metric', problem)}${
        searchTest &&
        html`<p>A test of search settings: ${Object.entries(SEARCH_METRIC_TEXT).map(
          ([m, t], i) => html`${i > 0 ? ' · ' : ''}<a href="?metric=${m}">${t.name}</a>`,
        )}</p>`
      }</form>
${metric === '' ? html`<p class="muted">Give the name of the event you track (for instance <code>purchase</code>).</p>` : body}`,
      [
        [`${ctx.base}/accounts`, 'Accounts'],
        [`${ctx.base}/accounts/${seg(account)}`, account],
        [envPath, env],
        [`${envPath}/campaigns/${seg(id)}`, id],
      ],
    ),
    status,
  );
}

async function timeline(ctx: PageContext, campaignId: string, metric: string): Promise<Html> {
  const { env, account } = ctx.c.params as { account: string; env: string };
  const remote = ctx.services.remote!;
  const [first] = await remote.listActivations(account, env, { limit: 1 });
  if (!first) return html``;
  const start = first.timestamp;
  const end = Math.max(start + 1, ctx.services.clock());
  const exposures: [number, number][] = [[start, 0]];
  const conversions: [number, number][] = [[start, 0]];
  for (let k = 1; k <= TIMELINE_POINTS; k++) {
    const at = Math.round(start + ((end - start) * k) / TIMELINE_POINTS);
    const t = totals(await remote.results(account, env, { campaignId, metric, until: at + 1 }));
    exposures.push([at, t.exposed]);
    conversions.push([at, t.converted]);
  }
  return html`<h2>Over time</h2>${lineChart(
    `Cumulative exposures and conversions of ${metric} since ${time(start)}`,
    [
      { label: 'Exposed (cumulative)', points: exposures },
      { label: `Converted on ${metric} (cumulative)`, points: conversions },
    ],
    time,
  )}`;
}
