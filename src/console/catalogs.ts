/**
 * Catalogs: counts, schema (delete a field, confirmed), synchronization, key rotation, and the
 * search playground.
 *
 * @module
 */
import { CatalogValidationError } from '../catalog/catalog';
import { NotFoundError, ValidationError } from '../errors';
import type { Filter } from '../search/query';
import type { Hit, SearchResponse } from '../search/service';
import { showOnce } from './accounts';
import { type MerchandisingForm, merchandisingSection } from './merchandising';
import { html, type Html } from './html';
import { fieldError, htmlResponse, layout, postForm, problemsByPath, redirect, seg, time, type PageContext } from './page';

function registryOf(ctx: PageContext) {
  const registry = ctx.services.catalogs;
  if (!registry) throw new NotFoundError('catalogs are not served here (createHandler was given no catalog registry)');
  return registry;
}

const catalogPath = (ctx: PageContext, identifier: string) => `${ctx.base}/catalogs/${seg(identifier)}`;
const crumbs = (ctx: PageContext, identifier?: string): [string, string][] => [
  [`${ctx.base}/catalogs`, 'Catalogs'],
  ...(identifier ? ([[catalogPath(ctx, identifier), identifier]] as [string, string][]) : []),
];
// Read after "every": "every day (the default)", "every 6 h".
const interval = (ms: number | null) =>
  ms === null
    ? 'day (the default)'
    : ms % 3_600_000 === 0
      ? `${ms / 3_600_000} h`
      : ms % 60_000 === 0
        ? `${ms / 60_000} min`
        : `${ms / 1000} s`;

/** GET /console/catalogs */
export async function catalogsPage(ctx: PageContext, problems: Map<string, string[]> = new Map(), status = 200): Promise<Response> {
  registryOf(ctx);
  const { catalogs } = await ctx.services.admin.listCatalogs();
  return htmlResponse(
    layout(
      ctx,
      'Catalogs',
      html`${
        catalogs.length === 0
          ? html`<p class="muted">No catalog yet: create the first one below.</p>`
          : html`<table><thead><tr><th>Catalog</th><th>Synchronized every</th><th>Search</th></tr></thead><tbody>${catalogs.map(
              (c) =>
                html`<tr><td><a href="${catalogPath(ctx, c.identifier)}">${c.identifier}</a></td><td>${interval(c.syncIntervalMs)}</td><td><a href="${catalogPath(ctx, c.identifier)}/search" aria-label="Search playground of ${c.identifier}">Playground</a></td></tr>`,
            )}</tbody></table>`
      }<h2>Create a catalog</h2>${postForm(
        ctx.session,
        `${ctx.base}/catalogs`,
        html`${problems.get('') && html`<p class="error" role="alert">${problems.get('')!.join('; ')}</p>`}<label class="block" for="catalog-identifier">Identifier (a lower-case DNS label)</label><input type="text" id="catalog-identifier" name="identifier" required maxlength="63">${fieldError('catalog-identifier', problems.get('identifier'))}
<label class="block" for="catalog-interval">Synchronize every (minutes; empty: daily)</label><input type="number" id="catalog-interval" name="syncMinutes" min="1" step="1">${fieldError('catalog-interval', problems.get('syncIntervalMs'))}
<p><button type="submit">Create catalog</button> <span class="muted">Its catalog and search keys are shown once.</span></p>`,
      )}`,
    ),
    status,
  );
}

/** POST /console/catalogs */
export async function createCatalog(ctx: PageContext): Promise<Response> {
  const identifier = ctx.form.get('identifier') ?? '';
  const minutes = ctx.form.get('syncMinutes') ?? '';
  let created: Awaited<ReturnType<typeof ctx.services.admin.createCatalog>>;
  try {
    created = await ctx.services.admin.createCatalog(ctx.session.actor, {
      identifier,
      ...(minutes.trim() !== '' ? { syncIntervalMs: Number(minutes) * 60_000 } : {}),
    });
  } catch (error) {
    if (error instanceof ValidationError) {
      const problems = problemsByPath(error.details);
      if (problems.size === 0) problems.set('identifier', [error.message]);
      return catalogsPage(ctx, problems, 400);
    }
    if ((error as { status?: number }).status === 409) return catalogsPage(ctx, new Map([['identifier', [(error as Error).message]]]), 409);
    throw error;
  }
  return showOnce(ctx, {
    title: `Keys of catalog ${identifier}`,
    lines: [
      { label: 'Catalog API key (writes)', value: created.catalogApiKey, secret: true },
      { label: 'Search API key', value: created.searchApiKey, secret: true },
    ],
    back: catalogPath(ctx, identifier),
  });
}

/**
 * Ceilings of the "Add items" form: its body (raised above the other forms' 64 KiB for this
 * route only: a few hundred items) and the items of one form.
 */
export const ADD_ITEMS_LIMITS = Object.freeze({ formBytes: 1_048_576, items: 1000 });

/** Most item problems listed at the field (the count of the others follows). */
const SHOWN_PROBLEMS = 20;

const ITEMS_EXAMPLE =
  '[{"id": "sku-1", "is_recommendable": true, "name": "Red shoe", "absolute_link": null, "img_link": null, "price": 89, "categories_ids": ["shoes"], "brand": "Fleet"}]';

function addItemsForm(ctx: PageContext, path: string, problems: readonly string[], given?: URLSearchParams): Html {
  const sync = given ? given.get('sync') === 'true' : true;
  return postForm(
    ctx.session,
    `${path}/items`,
    html`<label class="block" for="items">Items: a JSON array (at most ${ADD_ITEMS_LIMITS.items}) of <code>id</code>, <code>is_recommendable</code>, <code>name</code>, <code>absolute_link</code>, <code>img_link</code>, <code>price</code>, <code>categories_ids</code> and custom fields; an item with an id already there replaces it</label>
<textarea id="items" name="items" rows="8" required placeholder="${ITEMS_EXAMPLE}"${problems.length > 0 ? html` aria-invalid="true" aria-describedby="items-error"` : ''}>${given?.get('items') ?? ''}</textarea>
${problems.length > 0 && html`<ul class="error" id="items-error" role="alert">${problems.map((p) => html`<li>${p}</li>`)}</ul>`}
<p><label><input type="checkbox" name="sync" value="true"${sync ? html` checked` : ''}> Sync now after adding (otherwise they are searched after the next synchronization)</label></p>
<button type="submit">Add items</button> <span class="muted">All or nothing: one invalid item and none is added.</span>`,
  );
}

/** The catalog page again with the merchandising forms' problems (a 400). */
export const merchandisingAgain = (ctx: PageContext) => (form: MerchandisingForm) => catalogPage(ctx, [], undefined, 400, form);

/** GET /console/catalogs/{identifier} */
export async function catalogPage(
  ctx: PageContext,
  problems: readonly string[] = [],
  given?: URLSearchParams,
  status = 200,
  merchandising?: MerchandisingForm,
): Promise<Response> {
  const identifier = ctx.c.params.identifier!;
  const catalog = await registryOf(ctx).get(identifier);
  const [accepted, visible, { fields }, settings] = await Promise.all([
    catalog.count(),
    catalog.visible(),
    catalog.schema(),
    ctx.services.admin.catalogSettings(identifier),
  ]);
  const path = catalogPath(ctx, identifier);
  const next = visible.syncedAt !== null && settings.syncIntervalMs !== null ? visible.syncedAt + settings.syncIntervalMs : null;
  return htmlResponse(
    layout(
      ctx,
      `Catalog ${identifier}`,
      html`<p><a href="${path}/search">Search playground</a>${ctx.services.searchAnalytics && html` · <a href="${path}/analytics">Search analytics</a>`}</p>
<table><tbody><tr><th>Items accepted</th><td class="num">${accepted}</td></tr><tr><th>Items visible (searched)</th><td class="num">${visible.items.length}</td></tr>
<tr><th>Visible version</th><td class="num">${visible.version}</td></tr><tr><th>Last synchronization</th><td>${visible.syncedAt === null ? 'never' : time(visible.syncedAt)}</td></tr>
<tr><th>Next synchronization</th><td>${next !== null ? html`about ${time(next)} (every ${interval(settings.syncIntervalMs)})` : `on the host's schedule (every ${interval(settings.syncIntervalMs)})`}</td></tr></tbody></table>
${postForm(ctx.session, `${path}/sync`, html`<button type="submit">Sync now</button> <span class="muted">Accepted items become the visible ones.</span>`)}
<h2>Add items</h2>${addItemsForm(ctx, path, problems, given)}
${merchandisingSection(ctx, path, settings.search, merchandising)}
<h2>Schema</h2><table><thead><tr><th>Field</th><th>Type</th><th>Kind</th><th><span class="muted">Change</span></th></tr></thead><tbody>${fields.map(
        (f) =>
          html`<tr><td><code>${f.name}</code></td><td><code>${f.type}</code></td><td>${f.standard ? 'standard' : 'custom'}</td><td>${
            !f.standard && html`<a href="${path}/fields/${seg(f.name)}/delete" aria-label="Delete the field ${f.name}">Delete</a>`
          }</td></tr>`,
      )}</tbody></table>
<h2>Keys</h2><p><a href="${path}/keys">Rotate the catalog key</a> (and, if asked, the search key).</p>`,
      crumbs(ctx),
    ),
    status,
  );
}

/** Each problem of a refused batch as a sentence naming its item. */
function itemProblems(error: ValidationError, items: readonly unknown[]): string[] {
  const named = (index: number) => {
    const id = (items[index] as { id?: unknown } | undefined)?.id;
    return `item ${index + 1}${typeof id === 'string' && id.length <= 100 ? ` (id "${id}")` : ''}`;
  };
  const all =
    error instanceof CatalogValidationError
      ? error.problems.map((p) => `item ${p.index + 1}: ${p.reason}`) // the reason names the item's id
      : error.details.map((d) => (typeof d.path[0] === 'number' ? `${named(d.path[0])}: ${d.message}` : `items: ${d.message}`));
  if (all.length === 0) all.push(error.message);
  return all.length > SHOWN_PROBLEMS ? [...all.slice(0, SHOWN_PROBLEMS), `and ${all.length - SHOWN_PROBLEMS} more`] : all;
}

/** POST /console/catalogs/{identifier}/items: one all-or-nothing batch of create-replace operations, then a sync if asked. */
export async function addItems(ctx: PageContext): Promise<Response> {
  const identifier = ctx.c.params.identifier!;
  await registryOf(ctx).get(identifier);
  const refuse = (problems: string[]) => catalogPage(ctx, problems, ctx.form, 400);
  let items: unknown;
  try {
    items = JSON.parse(ctx.form.get('items') ?? '');
  } catch (error) {
    return refuse([`items: not JSON (${(error as Error).message})`]);
  }
  if (!Array.isArray(items)) return refuse(['items: must be a JSON array of items']);
  if (items.length === 0) return refuse(['items: the array is empty']);
  if (items.length > ADD_ITEMS_LIMITS.items)
    return refuse([
      `items: at most ${ADD_ITEMS_LIMITS.items} items in one form, got ${items.length} (the catalog API takes larger batches)`,
    ]);
  try {
    await ctx.services.admin.addItems(ctx.session.actor, identifier, items);
  } catch (error) {
    if (error instanceof ValidationError) return refuse(itemProblems(error, items));
    throw error;
  }
  if (ctx.form.get('sync') === 'true') await ctx.services.admin.syncCatalog(ctx.session.actor, identifier);
  return redirect(catalogPath(ctx, identifier));
}

/** POST /console/catalogs/{identifier}/sync */
export async function syncCatalog(ctx: PageContext): Promise<Response> {
  const identifier = ctx.c.params.identifier!;
  await ctx.services.admin.syncCatalog(ctx.session.actor, identifier);
  return redirect(catalogPath(ctx, identifier));
}

/** GET …/fields/{field}/delete: the confirmation. */
export async function confirmDeleteField(ctx: PageContext): Promise<Response> {
  const { identifier, field } = ctx.c.params as { identifier: string; field: string };
  const path = catalogPath(ctx, identifier);
  return htmlResponse(
    layout(
      ctx,
      `Delete the field ${field}`,
      postForm(
        ctx.session,
        `${path}/fields/${seg(field)}/delete`,
        html`<p>Delete <code>${field}</code> from the schema of <strong>${identifier}</strong> and from every accepted item? It can then be created again with another type. This cannot be undone.</p><button type="submit" class="danger">Delete the field</button> <a href="${path}">Cancel</a>`,
      ),
      crumbs(ctx, identifier),
    ),
  );
}

/** POST …/fields/{field}/delete */
export async function deleteField(ctx: PageContext): Promise<Response> {
  const { identifier, field } = ctx.c.params as { identifier: string; field: string };
  registryOf(ctx);
  await ctx.services.admin.deleteSchemaField(ctx.session.actor, identifier, field);
  return redirect(catalogPath(ctx, identifier));
}

/** GET …/keys: the confirmation. */
export async function confirmRotateKeys(ctx: PageContext): Promise<Response> {
  const identifier = ctx.c.params.identifier!;
  await registryOf(ctx).get(identifier);
  const path = catalogPath(ctx, identifier);
  return htmlResponse(
    layout(
      ctx,
      `Rotate the keys of ${identifier}`,
      postForm(
        ctx.session,
        `${path}/keys`,
        html`<p>A new catalog key replaces the current one at once: writers using it are refused until they get the new one.</p>
<p><label><input type="checkbox" name="search" value="true"> Rotate the search key too (public search clients need the new one)</label></p>
<button type="submit" class="danger">Rotate</button> <a href="${path}">Cancel</a>`,
      ),
      crumbs(ctx, identifier),
    ),
  );
}

/** POST …/keys */
export async function rotateKeys(ctx: PageContext): Promise<Response> {
  const identifier = ctx.c.params.identifier!;
  const keys = await ctx.services.admin.rotateCatalogKeys(ctx.session.actor, identifier, { search: ctx.form.get('search') === 'true' });
  return showOnce(ctx, {
    title: `New keys of ${identifier}`,
    lines: [
      { label: 'Catalog API key', value: keys.catalogApiKey, secret: true },
      ...(keys.searchApiKey ? [{ label: 'Search API key', value: keys.searchApiKey, secret: true }] : []),
    ],
    back: catalogPath(ctx, identifier),
  });
}

const SORTS = ['price:asc', 'price:desc'];

/** A list facet's first values, and the values filtered on even when the facet (counted over the hits) no longer lists them, so they can be unchecked. */
function facetValues(facet: SearchResponse['facets'][string], chosen: readonly string[]): (readonly [string | boolean, number | string])[] {
  const values: (readonly [string | boolean, number | string])[] = facet.type === 'list' ? facet.values.slice(0, 12) : [];
  for (const value of chosen) if (!values.some(([v]) => String(v) === value)) values.push([value, 0]);
  return values;
}

function hitView(hit: Hit, showDetails: boolean): Html {
  const image = typeof hit.img_link === 'string' ? hit.img_link : null;
  // The policy loads nothing from another host: only a same-origin image is drawn, others are linked.
  const sameOrigin = image?.startsWith('/') === true && !image.startsWith('//');
  const details = hit._rankingScoreDetails as Record<string, Record<string, unknown>> | undefined;
  return html`<article class="hit">${
    sameOrigin
      ? html`<img src="${image}" alt="${hit.name ?? hit.id}">`
      : html`<div class="thumb" role="img" aria-label="${image ? 'image on another host' : 'no image'}"></div>`
  }<div><strong>${hit.name ?? hit.id}</strong> <span class="muted">(${hit.id})</span><br>${typeof hit.price === 'number' ? `Price ${hit.price}` : 'No price'} · score ${hit._rankingScore.toFixed(4)}${
    image && !sameOrigin && html` · <a href="${image}" rel="noopener noreferrer" target="_blank">image</a>`
  }${
    showDetails &&
    details &&
    html`<details><summary>Ranking details</summary><table><thead><tr><th>Rule</th><th class="num">Score</th><th>Counted</th></tr></thead><tbody>${Object.entries(
      details,
    )
      .sort((a, b) => Number(a[1].order ?? 0) - Number(b[1].order ?? 0))
      .map(([rule, d]) => {
        const { order: _order, score, ...rest } = d;
        return html`<tr><td>${rule}</td><td class="num">${typeof score === 'number' ? score.toFixed(4) : ''}</td><td><code>${Object.entries(
          rest,
        )
          .map(([k, v]) => `${k}: ${JSON.stringify(v)}`)
          .join(', ')}</code></td></tr>`;
      })}</tbody></table></details>`
  }</div></article>`;
}

/** GET /console/catalogs/{identifier}/search?q&filter.<field>&min&max&sort: the playground. */
export async function playgroundPage(ctx: PageContext): Promise<Response> {
  const identifier = ctx.c.params.identifier!;
  const catalog = await registryOf(ctx).get(identifier);
  if (!ctx.services.search) throw new NotFoundError('search is not served here');
  const service = await ctx.services.search(identifier);
  const q = ctx.c.query;
  const text = q.get('q') ?? '';
  const sort = q.get('sort') ?? '';
  const filters: Record<string, Filter | string[] | { operator: string; value: number }[]> = {};
  for (const [name, value] of q) {
    if (!name.startsWith('filter.') || value === '') continue;
    const field = name.slice('filter.'.length);
    ((filters[field] ??= []) as string[]).push(value);
  }
  const range: { operator: string; value: number }[] = [];
  if ((q.get('min') ?? '') !== '') range.push({ operator: '>=', value: Number(q.get('min')) });
  if ((q.get('max') ?? '') !== '') range.push({ operator: '<=', value: Number(q.get('max')) });
  if (range.length > 0) filters.price = range;
  const { fields } = await catalog.schema();
  const sorts = [...SORTS, ...fields.filter((f) => !f.standard && f.type === 'number').flatMap((f) => [`${f.name}:asc`, `${f.name}:desc`])];
  let response: SearchResponse | undefined;
  let suggestions: readonly { text: string }[] = [];
  let problems = new Map<string, string[]>();
  let status = 200;
  const asked = q.has('q');
  if (asked) {
    try {
      response = await service.search({
        text,
        filters: filters as never,
        sort: sort ? [sort] : undefined,
        hitsPerPage: 10,
        showRankingScoreDetails: true,
      } as never);
      if (text.trim() !== '') suggestions = (await service.autocomplete({ query: text })).suggestions;
    } catch (error) {
      if (!(error instanceof ValidationError)) throw error;
      problems = problemsByPath(error.details);
      if (problems.size === 0) problems.set('q', [error.message]);
      status = 400;
    }
  }
  const chosen = (field: string, value: string) => q.getAll(`filter.${field}`).includes(value);
  const allProblems = [...problems].flatMap(([k, m]) => m.map((x) => (k ? `${k}: ${x}` : x)));
  const path = `${catalogPath(ctx, identifier)}/search`;
  const body = html`<form method="get" action="${path}" class="card" role="search">
<label class="block" for="q">Query</label><input type="search" id="q" name="q" value="${text}" maxlength="512" autocomplete="off">
<label for="sort">Sort</label><select id="sort" name="sort"><option value="">relevance</option>${sorts.map(
    (s) => html`<option value="${s}"${s === sort ? html` selected` : ''}>${s}</option>`,
  )}</select>
<fieldset><legend>Price</legend><label for="min">At least</label><input type="number" id="min" name="min" step="any" value="${q.get('min') ?? ''}"> <label for="max">At most</label><input type="number" id="max" name="max" step="any" value="${q.get('max') ?? ''}"></fieldset>
${
  response &&
  Object.keys(response.facets).length > 0 &&
  html`<div class="facets">${Object.entries(response.facets)
    .filter(([, f]) => f.type === 'list')
    .map(
      ([field, f]) =>
        html`<fieldset><legend>${field}</legend>${facetValues(f, q.getAll(`filter.${field}`)).map(
          ([value, count]) =>
            html`<label><input type="checkbox" name="filter.${field}" value="${String(value)}"${chosen(field, String(value)) ? html` checked` : ''}> ${String(value)} <span class="muted">(${count})</span></label>`,
        )}</fieldset>`,
    )}</div>`
}
<button type="submit">Search</button>${allProblems.length > 0 && html` <span class="error" role="alert">${allProblems.join('; ')}</span>`}</form>
${suggestions.length > 0 && html`<p>Suggestions: ${suggestions.map((s, i) => html`${i > 0 && ' · '}<a href="${path}?q=${encodeURIComponent(s.text)}">${s.text}</a>`)}</p>`}
${
  response
    ? html`<p>${response.totalHits} hits${response.totalHits > response.hits.length && html`, the first ${response.hits.length} shown`}.</p>${response.hits.map((h) => hitView(h, true))}`
    : !asked && html`<p class="muted">Type a query (or none, for every visible item) and search.</p>`
}`;
  return htmlResponse(layout(ctx, `Search ${identifier}`, body, crumbs(ctx, identifier)), status);
}
