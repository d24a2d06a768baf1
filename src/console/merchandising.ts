/**
 * A catalog's merchandising on its console page: pin an item at a position or hide it for a
 * query, list and remove the rules, and turn behaviour ranking on or off. Every change is a
 * catalog settings change through the AdminService (audited), which search follows at its next
 * request (docs/ranking.md, Merchandising and Behaviour ranking).
 *
 * @module
 */
import type { CatalogSearchSettings } from '../bootstrap/schema';
import { ValidationError } from '../errors';
import { normalizeQuery } from '../search/behaviour';
import { MERCHANDISING_LIMITS, type MerchandisingRule } from '../search/merchandising';
import { html, type Html } from './html';
import { postForm, redirect, type PageContext } from './page';

/** What the merchandising forms were given and what was wrong with it, to show them again. */
export interface MerchandisingForm {
  readonly problems: readonly string[];
  readonly given: URLSearchParams;
}

const queryText = (rule: MerchandisingRule): Html =>
  'equals' in rule.query
    ? html`is <q>${rule.query.equals}</q>`
    : html`contains ${(rule.query as { contains: string[] }).contains.map((w, i) => html`${i > 0 && ', '}<q>${w}</q>`)}`;

function actions(rule: MerchandisingRule): Html {
  const parts: Html[] = [
    ...(rule.pin ?? []).map((p) => html`pin <code>${p.itemId}</code> at ${p.position}`),
    ...(rule.hide ?? []).map((id) => html`hide <code>${id}</code>`),
    ...(rule.boost ? [html`boost <code>${JSON.stringify(rule.boost)}</code>`] : []),
    ...(rule.bury ? [html`bury <code>${JSON.stringify(rule.bury)}</code>`] : []),
  ];
  return html`${parts.map((p, i) => html`${i > 0 && '; '}${p}`)}`;
}

const window = (rule: MerchandisingRule): string => (rule.from || rule.until ? `${rule.from ?? '…'} to ${rule.until ?? '…'}` : 'always');

/** Whether the settings turn behaviour ranking on. */
const behaviourOn = (search: CatalogSearchSettings | null): boolean => {
  const b = search?.behaviour;
  return b === true || (typeof b === 'object' && b !== null && b.enabled !== false);
};

/** How far re-ranking moves an item under these settings (RerankOptions' default: 3). */
const maxShift = (search: CatalogSearchSettings | null): number => {
  const rerank = typeof search?.behaviour === 'object' ? search.behaviour.rerank : undefined;
  return typeof rerank === 'object' ? (rerank.maxShift ?? 3) : 3;
};

/** The merchandising section of a catalog page (`path`: the catalog page's path). */
export function merchandisingSection(ctx: PageContext, path: string, search: CatalogSearchSettings | null, form?: MerchandisingForm): Html {
  const rules = search?.merchandising ?? [];
  const given = form?.given;
  const match = given?.get('match') ?? 'equals';
  return html`<h2 id="merchandising">Merchandising</h2>
${
  rules.length === 0
    ? html`<p class="muted">No rule: every query is answered by the ranking alone.</p>`
    : html`<table><thead><tr><th>Rule</th><th>When the query</th><th>Does</th><th>Active</th><th><span class="muted">Change</span></th></tr></thead><tbody>${rules.map(
        (rule) =>
          html`<tr><td><code>${rule.id}</code></td><td>${queryText(rule)}</td><td>${actions(rule)}</td><td>${window(rule)}</td><td>${postForm(
            ctx.session,
            `${path}/merchandising/remove`,
            html`<input type="hidden" name="rule" value="${rule.id}"><button type="submit" aria-label="Remove the rule ${rule.id}">Remove</button>`,
            'inline',
          )}</td></tr>`,
      )}</tbody></table>`
}
${postForm(
  ctx.session,
  `${path}/merchandising`,
  html`<fieldset><legend>Pin or hide an item for a query</legend>
<label class="block" for="merch-query">Query (matched whatever its case, spacing and punctuation; empty: the search without text)</label><input type="text" id="merch-query" name="query" maxlength="512" value="${given?.get('query') ?? ''}">
<label for="merch-match">Match</label><select id="merch-match" name="match"><option value="equals"${match === 'equals' ? html` selected` : ''}>the whole query</option><option value="contains"${match === 'contains' ? html` selected` : ''}>queries containing every word</option></select>
<label class="block" for="merch-pin">Pin item (id)</label><input type="text" id="merch-pin" name="pin" maxlength="${MERCHANDISING_LIMITS.idLength}" value="${given?.get('pin') ?? ''}"> <label for="merch-position">at position</label><input type="number" id="merch-position" name="position" min="1" max="${MERCHANDISING_LIMITS.position}" step="1" value="${given?.get('position') ?? '1'}">
<label class="block" for="merch-hide">Hide item (id)</label><input type="text" id="merch-hide" name="hide" maxlength="${MERCHANDISING_LIMITS.idLength}" value="${given?.get('hide') ?? ''}">
</fieldset>
${form && form.problems.length > 0 && html`<ul class="error" role="alert">${form.problems.map((p) => html`<li>${p}</li>`)}</ul>`}
<p><button type="submit">Save rule</button> <span class="muted">Added to the query's rule (one per query and match); search follows at its next request.</span></p>`,
)}
${postForm(
  ctx.session,
  `${path}/behaviour`,
  html`<p><label><input type="checkbox" id="behaviour-enabled" name="enabled" value="true"${behaviourOn(search) ? html` checked` : ''}> Behaviour ranking: reorder a query's first hits by what shoppers clicked (an item moves at most ${maxShift(search)} places), and rank by <code>_behaviour</code> where <code>customRanking</code> names it</label></p>
<button type="submit">Save behaviour ranking</button>`,
)}`;
}

/** The rule id the form gives a query and match: one rule per query, which later pins and hides join. */
const ruleId = (match: string, query: string) => `${match}:${normalizeQuery(query)}`.slice(0, MERCHANDISING_LIMITS.idLength);

/** The catalog's stored search settings (checked by the schema when written). */
async function stored(ctx: PageContext, identifier: string): Promise<CatalogSearchSettings | null> {
  return (await ctx.services.admin.catalogSettings(identifier)).search as CatalogSearchSettings | null;
}

/** Stores `search` as the catalog's search settings, or shows the page again with the problems. */
async function save(
  ctx: PageContext,
  search: CatalogSearchSettings,
  again: (form: MerchandisingForm) => Promise<Response>,
): Promise<Response> {
  const identifier = ctx.c.params.identifier!;
  try {
    await ctx.services.admin.updateCatalogSettings(ctx.session.actor, identifier, { search });
  } catch (error) {
    if (!(error instanceof ValidationError)) throw error;
    return again({ problems: error.details.map((d) => `${d.path.slice(1).join('.')}: ${d.message}`), given: ctx.form });
  }
  return redirect(`${ctx.base}/catalogs/${encodeURIComponent(identifier)}#merchandising`);
}

/** POST …/merchandising: adds a pin and/or a hidden item to the query's rule. */
export async function saveMerchandising(ctx: PageContext, again: (form: MerchandisingForm) => Promise<Response>): Promise<Response> {
  const identifier = ctx.c.params.identifier!;
  const search = await stored(ctx, identifier);
  const query = ctx.form.get('query') ?? '';
  const match = ctx.form.get('match') === 'contains' ? 'contains' : 'equals';
  const pin = (ctx.form.get('pin') ?? '').trim();
  const hide = (ctx.form.get('hide') ?? '').trim();
  const refuse = (problem: string) => again({ problems: [problem], given: ctx.form });
  if (pin === '' && hide === '') return refuse('give an item id to pin or to hide');
  if (match === 'contains' && normalizeQuery(query) === '') return refuse('query: give at least one word to contain');
  const id = ruleId(match, query);
  const rules = [...(search?.merchandising ?? [])];
  const at = rules.findIndex((r) => r.id === id);
  const rule: MerchandisingRule =
    at >= 0 ? { ...rules[at]! } : { id, query: match === 'equals' ? { equals: query } : { contains: normalizeQuery(query).split(' ') } };
  if (pin !== '')
    rule.pin = [...(rule.pin ?? []).filter((p) => p.itemId !== pin), { itemId: pin, position: Number(ctx.form.get('position') ?? '1') }];
  if (hide !== '') rule.hide = [...(rule.hide ?? []).filter((h) => h !== hide), hide];
  if (at >= 0) rules[at] = rule;
  else rules.push(rule);
  return save(ctx, { ...search, merchandising: rules as CatalogSearchSettings['merchandising'] }, again);
}

/** POST …/merchandising/remove: removes the rule named `rule`. */
export async function removeMerchandising(ctx: PageContext, again: (form: MerchandisingForm) => Promise<Response>): Promise<Response> {
  const identifier = ctx.c.params.identifier!;
  const search = await stored(ctx, identifier);
  const id = ctx.form.get('rule') ?? '';
  const rules = (search?.merchandising ?? []).filter((r) => r.id !== id);
  const { merchandising: _, ...rest } = search ?? {};
  return save(ctx, rules.length > 0 ? { ...rest, merchandising: rules } : rest, again);
}

/** POST …/behaviour: turns behaviour ranking on (`enabled=true`) or off, keeping its other settings. */
export async function saveBehaviour(ctx: PageContext, again: (form: MerchandisingForm) => Promise<Response>): Promise<Response> {
  const identifier = ctx.c.params.identifier!;
  const search = await stored(ctx, identifier);
  const enabled = ctx.form.get('enabled') === 'true';
  const before = search?.behaviour;
  const behaviour = typeof before === 'object' && before !== null ? { ...before, enabled } : { enabled };
  return save(ctx, { ...search, behaviour }, again);
}
