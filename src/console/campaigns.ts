/**
 * Environments: their campaigns and panic switch, a campaign's groups, targeting and
 * allocations (edited through the remote control, so the API's schemas check them), and the
 * visitor preview (`engine.explain`).
 *
 * @module
 */
import { NotFoundError, ValidationError } from '../errors';
import type { Campaign } from '../model/bucketing-config';
import { campaignOfForm, newCampaignForm } from './campaign-form';
import { html, type Html } from './html';
import { fieldError, htmlResponse, layout, postForm, problemsByPath, redirect, seg, type PageContext } from './page';

/** Most context rows of the preview form. */
export const PREVIEW_CONTEXT_ROWS = 5;

function remoteOf(ctx: PageContext) {
  const remote = ctx.services.remote;
  if (!remote) throw new NotFoundError('campaigns are not served here (createHandler was given no decision engine)');
  return remote;
}

const envPath = (ctx: PageContext) => `${ctx.base}/accounts/${seg(ctx.c.params.account!)}/environments/${seg(ctx.c.params.env!)}`;
const crumbsOf = (ctx: PageContext, withEnv: boolean): [string, string][] => {
  const { account, env } = ctx.c.params as { account: string; env: string };
  return [
    [`${ctx.base}/accounts`, 'Accounts'],
    [`${ctx.base}/accounts/${seg(account)}`, account],
    ...(withEnv ? ([[envPath(ctx), env]] as [string, string][]) : []),
  ];
};

/** GET …/environments/{env}: campaigns, the new-campaign form, panic switch, preview form. */
export async function environmentPage(
  ctx: PageContext,
  problems: Map<string, string[]> = new Map(),
  given?: URLSearchParams,
  status = 200,
): Promise<Response> {
  const { account, env } = ctx.c.params as { account: string; env: string };
  const record = await remoteOf(ctx).getConfiguration(account, env);
  const { campaigns, panic } = record.config;
  const path = envPath(ctx);
  return htmlResponse(
    layout(
      ctx,
      `Environment ${env}`,
      html`<section class="card"><h2>Panic switch</h2>${
        panic
          ? html`<p class="error">Panic is ON: decisions serve no campaign.</p>`
          : html`<p class="ok">Panic is off: campaigns are served.</p>`
      }${postForm(
        ctx.session,
        `${path}/panic`,
        html`<input type="hidden" name="panic" value="${panic ? 'false' : 'true'}"><button type="submit" class="${panic ? '' : 'danger'}">${panic ? 'Turn panic off' : 'Turn panic on'}</button>`,
        'inline',
      )}</section>
<h2>Campaigns</h2>${
        campaigns.length === 0
          ? html`<p class="muted">No campaign in this environment yet: create one below (or write configurations through the remote-control API or a bootstrap file).</p>`
          : html`<table><thead><tr><th>Campaign</th><th>Name</th><th>Type</th><th>Variation groups</th><th>Results</th></tr></thead><tbody>${campaigns.map(
              (c) =>
                html`<tr><td><a href="${path}/campaigns/${seg(c.id)}">${c.id}</a></td><td>${c.name ?? '—'}</td><td>${c.type}</td><td class="num">${c.variationGroups.length}</td><td><a href="${path}/campaigns/${seg(c.id)}/results" aria-label="Results of ${c.id}">Results</a></td></tr>`,
            )}</tbody></table>`
      }
<h2>New campaign</h2>${newCampaignForm(ctx, `${path}/campaigns`, problems, given)}
<h2>Preview a visitor</h2>${previewForm(ctx, new URLSearchParams())}`,
      crumbsOf(ctx, false),
    ),
    status,
  );
}

/** POST …/environments/{env}/campaigns: a new campaign from the form (an existing id is refused: its page edits it). */
export async function createCampaign(ctx: PageContext): Promise<Response> {
  const { account, env } = ctx.c.params as { account: string; env: string };
  const remote = remoteOf(ctx);
  let campaign: Campaign;
  try {
    campaign = campaignOfForm(ctx.form);
  } catch (error) {
    if (error instanceof ValidationError) return environmentPage(ctx, problemsByPath(error.details), ctx.form, 400);
    throw error;
  }
  const { campaigns } = (await remote.getConfiguration(account, env)).config;
  if (campaigns.some((c) => c.id === campaign.id))
    return environmentPage(ctx, new Map([['id', [`campaign "${campaign.id}" exists already: change it on its page`]]]), ctx.form, 409);
  try {
    await ctx.services.admin.putCampaign(ctx.session.actor, account, env, campaign.id, campaign);
  } catch (error) {
    if (error instanceof ValidationError) return environmentPage(ctx, problemsByPath(error.details), ctx.form, 400);
    throw error;
  }
  return redirect(`${envPath(ctx)}/campaigns/${seg(campaign.id)}`);
}

/** POST …/environments/{env}/panic */
export async function setPanic(ctx: PageContext): Promise<Response> {
  const { account, env } = ctx.c.params as { account: string; env: string };
  const value = ctx.form.get('panic');
  if (value !== 'true' && value !== 'false')
    throw new ValidationError('panic must be true or false', [{ path: ['panic'], message: 'must be true or false' }]);
  remoteOf(ctx);
  await ctx.services.admin.setPanic(ctx.session.actor, account, env, value === 'true');
  return redirect(envPath(ctx));
}

function targetingText(group: Campaign['variationGroups'][number]): Html {
  const groups = group.targeting.targetingGroups;
  if (groups.length === 0) return html`<span class="muted">everyone</span>`;
  return html`${groups.map(
    (g, i) =>
      html`${i > 0 && html` <strong>or</strong> `}(${g.targetings.map(
        (t, k) => html`${k > 0 && ' and '}<code>${t.key} ${t.operator}${t.value !== undefined ? ` ${JSON.stringify(t.value)}` : ''}</code>`,
      )})`,
  )}`;
}

/** GET …/campaigns/{id}: variation groups, targeting and the allocation form. */
export async function campaignPage(
  ctx: PageContext,
  problems: Map<string, string[]> = new Map(),
  given?: URLSearchParams,
  status = 200,
): Promise<Response> {
  const { account, env, id } = ctx.c.params as { account: string; env: string; id: string };
  const campaign = await remoteOf(ctx).getCampaign(account, env, id);
  const path = `${envPath(ctx)}/campaigns/${seg(id)}`;
  const general = [...problems].filter(([k]) => !/^variationGroups\[\d+\]/.test(k));
  const body = html`<p>Type <code>${campaign.type}</code>${campaign.name && html` · ${campaign.name}`} · <a href="${path}/results">Results</a></p>
${general.length > 0 && html`<p class="error" role="alert">${general.map(([k, m]) => `${k || 'campaign'}: ${m.join('; ')}`).join(' · ')}</p>`}
${postForm(
  ctx.session,
  `${path}/allocations`,
  html`${campaign.variationGroups.map((group, g) => {
    const groupProblems = problems.get(`variationGroups[${g}].variations`) ?? problems.get(`variationGroups[${g}]`);
    return html`<fieldset aria-describedby="${groupProblems ? `group-${g}-error` : ''}"><legend>Variation group <code>${group.id}</code></legend>
<p>Targeting: ${targetingText(group)}</p>${groupProblems && html`<p class="error" id="group-${g}-error" role="alert">${groupProblems.join('; ')}</p>`}
<table><thead><tr><th>Variation</th><th>Reference</th><th>Allocation (%)</th><th>Modifications</th></tr></thead><tbody>${group.variations.map(
      (v, i) => {
        const key = `variationGroups[${g}].variations[${i}].allocation`;
        const inputId = `alloc-${g}-${i}`;
        const messages = problems.get(key);
        return html`<tr><td><label for="${inputId}"><code>${v.id}</code></label></td><td>${v.reference ? 'yes' : ''}</td><td><input type="number" id="${inputId}" name="${key}" step="any" value="${given?.get(key) ?? v.allocation ?? 0}"${messages ? html` aria-invalid="true" aria-describedby="${inputId}-error"` : ''}> ${fieldError(inputId, messages)}</td><td><span class="muted">${v.modifications.type}</span> <code>${JSON.stringify(v.modifications.value).slice(0, 120)}</code></td></tr>`;
      },
    )}</tbody></table></fieldset>`;
  })}<button type="submit">Save allocations</button> <span class="muted">Checked by the same schema as the API; decisions follow at once.</span>`,
)}`;
  return htmlResponse(layout(ctx, `Campaign ${id}`, body, crumbsOf(ctx, true)), status);
}

/** POST …/campaigns/{id}/allocations: new allocations, validated as the remote-control API's PUT. */
export async function saveAllocations(ctx: PageContext): Promise<Response> {
  const { account, env, id } = ctx.c.params as { account: string; env: string; id: string };
  const remote = remoteOf(ctx);
  const campaign = structuredClone(await remote.getCampaign(account, env, id)) as Campaign;
  for (const [g, group] of campaign.variationGroups.entries())
    for (const [i, v] of group.variations.entries()) {
      const raw = ctx.form.get(`variationGroups[${g}].variations[${i}].allocation`);
      if (raw === null) continue;
      // A number stays a number; anything else goes to the schema as it is, which names it.
      (v as { allocation?: unknown }).allocation = raw.trim() !== '' && Number.isFinite(Number(raw)) ? Number(raw) : raw;
    }
  try {
    await ctx.services.admin.putCampaign(ctx.session.actor, account, env, id, campaign);
  } catch (error) {
    if (error instanceof ValidationError) return campaignPage(ctx, problemsByPath(error.details), ctx.form, 400);
    throw error;
  }
  return redirect(`${envPath(ctx)}/campaigns/${seg(id)}`);
}

function contextValue(raw: string): string | number | boolean {
  if (raw === 'true' || raw === 'false') return raw === 'true';
  if (/^-?\d+(\.\d+)?$/.test(raw) && raw.length < 16) return Number(raw);
  return raw;
}

function previewForm(ctx: PageContext, given: URLSearchParams, problems: Map<string, string[]> = new Map()): Html {
  const rows = Array.from({ length: PREVIEW_CONTEXT_ROWS }, (_, i) => i);
  return html`<form method="get" action="${envPath(ctx)}/preview" class="card">
<label class="block" for="visitor-id">Visitor id</label><input type="text" id="visitor-id" name="visitorId" required maxlength="256" value="${given.get('visitorId') ?? ''}">
${fieldError('visitor-id', problems.get('visitorId'))}
<fieldset><legend>Context (numbers and true/false are read as such)</legend>${rows.map(
    (i) =>
      html`<div><label for="ctx-key-${i}">Key ${i + 1}</label><input type="text" id="ctx-key-${i}" name="key" value="${given.getAll('key')[i] ?? ''}"> <label for="ctx-value-${i}">Value ${i + 1}</label><input type="text" id="ctx-value-${i}" name="value" value="${given.getAll('value')[i] ?? ''}"></div>`,
  )}${fieldError(
    'context',
    [...problems].filter(([k]) => k.startsWith('context')).flatMap(([k, m]) => m.map((x) => `${k}: ${x}`)),
  )}</fieldset>
<button type="submit">Preview</button></form>`;
}

/** GET …/environments/{env}/preview?visitorId&key&value: what the visitor gets, campaign by campaign, and why. */
export async function previewPage(ctx: PageContext): Promise<Response> {
  const { account, env } = ctx.c.params as { account: string; env: string };
  const engine = ctx.services.engine;
  await remoteOf(ctx).getConfiguration(account, env);
  const query = ctx.c.query;
  const visitorId = query.get('visitorId') ?? '';
  const keys = query.getAll('key').slice(0, PREVIEW_CONTEXT_ROWS);
  const values = query.getAll('value');
  const context: Record<string, string | number | boolean> = {};
  keys.forEach((k, i) => {
    if (k.trim() !== '') context[k.trim()] = contextValue(values[i] ?? '');
  });
  let result: Html;
  let status = 200;
  let problems = new Map<string, string[]>();
  try {
    const why = await engine!.explain({ environment: env, visitorId, context });
    result = html`${why.panic && html`<p class="error">Panic is on: no campaign is served.</p>`}<table><thead><tr><th>Campaign</th><th>Outcome</th><th>Variation</th><th>Why</th></tr></thead><tbody>${why.campaigns.map(
      (c) =>
        html`<tr><td>${c.campaignId}</td><td>${c.outcome}</td><td>${c.variationId ? html`<code>${c.variationGroupId} / ${c.variationId}</code>` : '—'}</td><td>${c.reason}</td></tr>`,
    )}</tbody></table>`;
  } catch (error) {
    if (!(error instanceof ValidationError)) throw error;
    problems = problemsByPath(error.details);
    status = 400;
    result = html`<p class="error" role="alert">${error.message}</p>`;
  }
  return htmlResponse(
    layout(ctx, `Preview in ${env}`, html`${previewForm(ctx, query, problems)}<h2>Result</h2>${result}`, crumbsOf(ctx, true)),
    status,
  );
}
