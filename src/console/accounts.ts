/**
 * Account settings: accounts, their environments, and remote-control accesses (create with the
 * secret shown once, preview, revoke and rotate with a confirmation).
 *
 * @module
 */
import { ACCESS_ACTIONS } from '../access/actions';
import { ValidationError } from '../errors';
import { html } from './html';
import { fieldError, htmlResponse, layout, postForm, problemsByPath, redirect, seg, time, type PageContext } from './page';
import type { Flash } from './session';

const crumbsOf = (ctx: PageContext, account?: string): [string, string][] => [
  [`${ctx.base}/accounts`, 'Accounts'],
  ...(account ? ([[`${ctx.base}/accounts/${seg(account)}`, account]] as [string, string][]) : []),
];

/** Stores a one-time flash in the session and sends the browser to the page that shows it. */
export function showOnce(ctx: PageContext, flash: Omit<Flash, 'path'>): Response {
  ctx.session.flash = { ...flash, path: `${ctx.base}/once` };
  return redirect(`${ctx.base}/once`);
}

/** GET /console/once: the flash, once; a reload finds it gone. */
export async function oncePage(ctx: PageContext): Promise<Response> {
  const flash = ctx.services.sessions.takeFlash(ctx.session, `${ctx.base}/once`);
  if (!flash)
    return htmlResponse(
      layout(
        ctx,
        'Nothing to show',
        html`<p>What was shown here is shown only once and is gone now. If a secret was lost, rotate it to get a new one.</p><p><a href="${ctx.base}/accounts">Back to the accounts</a></p>`,
      ),
    );
  return htmlResponse(
    layout(
      ctx,
      flash.title,
      html`<p class="warning" role="alert"><strong>Copy it now: it will not be shown again.</strong> Reloading this page will not show it.</p>
<dl class="card">${flash.lines.map(
        (line, i) =>
          html`<dt>${line.label}</dt><dd><code class="secret" id="once-${i}">${line.value}</code>${line.secret && html` <button type="button" class="secondary" data-copy="once-${i}">Copy</button>`}</dd>`,
      )}</dl><p><a href="${flash.back}">Done</a></p>`,
    ),
  );
}

/** GET /console/accounts */
export async function accountsPage(ctx: PageContext, problem?: string, status = 200): Promise<Response> {
  const { accounts } = await ctx.services.admin.listAccounts();
  return htmlResponse(
    layout(
      ctx,
      'Accounts',
      html`${
        accounts.length === 0
          ? html`<p class="muted">No account yet: create the first one below.</p>`
          : html`<table><thead><tr><th>Account</th><th>Environments</th><th>Default environment</th><th>Accesses</th></tr></thead><tbody>${accounts.map(
              (a) =>
                html`<tr><td><a href="${ctx.base}/accounts/${seg(a.id)}">${a.id}</a></td><td>${a.environments.map(
                  (e, i) => html`${i > 0 && ', '}<a href="${ctx.base}/accounts/${seg(a.id)}/environments/${seg(e.id)}">${e.id}</a>`,
                )}</td><td>${a.defaultEnvironment ?? '—'}</td><td><a href="${ctx.base}/accounts/${seg(a.id)}/accesses">Accesses</a></td></tr>`,
            )}</tbody></table>`
      }
<h2>Create an account</h2>${postForm(
        ctx.session,
        `${ctx.base}/accounts`,
        html`<label class="block" for="account-id">Account id</label><input type="text" id="account-id" name="id" required maxlength="128" aria-describedby="account-id-hint${problem ? ' account-id-error' : ''}"> <button type="submit">Create account</button>
<p class="muted" id="account-id-hint">Letters, digits, ".", "_" and "-".</p>${fieldError('account-id', problem ? [problem] : undefined)}`,
      )}`,
    ),
    status,
  );
}

/** POST /console/accounts */
export async function createAccount(ctx: PageContext): Promise<Response> {
  const id = ctx.form.get('id') ?? '';
  try {
    await ctx.services.admin.createAccount(ctx.session.actor, { id });
  } catch (error) {
    if (error instanceof ValidationError || (error as { status?: number }).status === 409)
      return accountsPage(ctx, (error as Error).message, (error as { status: number }).status);
    throw error;
  }
  return redirect(`${ctx.base}/accounts/${seg(id)}`);
}

/** GET /console/accounts/{account}: its environments and the form to add one. */
export async function accountPage(ctx: PageContext, problem?: string, status = 200): Promise<Response> {
  const account = ctx.c.params.account!;
  const { accounts } = await ctx.services.admin.listAccounts();
  const found = accounts.find((a) => a.id === account);
  if (!found) return htmlResponse(layout(ctx, 'Not found', html`<p class="error">Account "${account}" does not exist.</p>`), 404);
  return htmlResponse(
    layout(
      ctx,
      `Account ${account}`,
      html`<p><a href="${ctx.base}/accounts/${seg(account)}/accesses">Remote-control accesses of ${account}</a></p>
<h2>Environments</h2>${
        found.environments.length === 0
          ? html`<p class="muted">No environment yet.</p>`
          : html`<table><thead><tr><th>Environment</th><th class="num">Version</th><th>Default</th><th>API key</th><th>Updated</th></tr></thead><tbody>${found.environments.map(
              (e) =>
                html`<tr><td><a href="${ctx.base}/accounts/${seg(account)}/environments/${seg(e.id)}">${e.id}</a></td><td class="num">${e.version}</td><td>${e.default ? 'yes' : 'no'}</td><td>${e.apiKeyRequired ? 'required' : 'none'}</td><td>${time(e.updatedAt)}</td></tr>`,
            )}</tbody></table>`
      }
<h2>Create an environment</h2>${postForm(
        ctx.session,
        `${ctx.base}/accounts/${seg(account)}/environments`,
        html`<label class="block" for="env-id">Environment id</label><input type="text" id="env-id" name="id" required maxlength="128">
${fieldError('env-id', problem ? [problem] : undefined)}
<p><label><input type="checkbox" name="default" value="true"> Default environment of the account</label>
<label><input type="checkbox" name="apiKey" value="true"> Require an API key for decisions (shown once)</label></p><button type="submit">Create environment</button>`,
      )}`,
      crumbsOf(ctx),
    ),
    status,
  );
}

/** POST /console/accounts/{account}/environments */
export async function createEnvironment(ctx: PageContext): Promise<Response> {
  const account = ctx.c.params.account!;
  const id = ctx.form.get('id') ?? '';
  let created: Awaited<ReturnType<typeof ctx.services.admin.createEnvironment>>;
  try {
    created = await ctx.services.admin.createEnvironment(ctx.session.actor, account, {
      id,
      default: ctx.form.get('default') === 'true',
      apiKey: ctx.form.get('apiKey') === 'true',
    });
  } catch (error) {
    if (error instanceof ValidationError || (error as { status?: number }).status === 409)
      return accountPage(ctx, (error as Error).message, (error as { status: number }).status);
    throw error;
  }
  const back = `${ctx.base}/accounts/${seg(account)}/environments/${seg(id)}`;
  if (!created.apiKey) return redirect(back);
  return showOnce(ctx, { title: `API key of environment ${id}`, lines: [{ label: 'API key', value: created.apiKey, secret: true }], back });
}

/** GET /console/accounts/{account}/accesses: the preview list and the form to create one. */
export async function accessesPage(
  ctx: PageContext,
  problems: Map<string, string[]> = new Map(),
  status = 200,
  given?: URLSearchParams,
): Promise<Response> {
  const account = ctx.c.params.account!;
  const admin = ctx.services.admin;
  const [{ accesses }, { accounts }] = await Promise.all([admin.listAccesses(account), admin.listAccounts()]);
  const environments = accounts.find((a) => a.id === account)?.environments.map((e) => e.id) ?? [];
  const base = `${ctx.base}/accounts/${seg(account)}/accesses`;
  const other = [...problems].filter(([k]) => !['name', 'environments', 'actions'].includes(k.replace(/\[\d+\]$/, '')));
  const at = (key: string) => [...problems].filter(([k]) => k === key || k.startsWith(`${key}[`)).flatMap(([, m]) => m);
  const checked = (name: string, value: string) => given?.getAll(name).includes(value) === true;
  return htmlResponse(
    layout(
      ctx,
      `Accesses of ${account}`,
      html`<p>An access lets a program get remote-control tokens (<code>POST /${account}/token</code>) for the actions it is given.</p>
${
  accesses.length === 0
    ? html`<p class="muted">No access yet: create the first one below.</p>`
    : html`<table><thead><tr><th>Name</th><th>Environments</th><th>Actions</th><th>Client id</th><th>Created</th><th>Last used</th><th>Revoked</th><th><span class="muted">Actions on it</span></th></tr></thead><tbody>${accesses.map(
        (a) =>
          html`<tr><td>${a.name}</td><td>${a.environments.length === 0 ? html`<span class="muted">all</span>` : a.environments.join(', ')}</td><td>${a.actions.map((x, i) => html`${i > 0 && html`<br>`}<code>${x}</code>`)}</td><td><code>${a.clientIdHint}</code></td><td>${time(a.createdAt)}</td><td>${time(a.lastUsedAt)}</td><td>${a.revokedAt ? time(a.revokedAt) : 'no'}</td><td>${
            a.status === 'active' &&
            html`<a href="${base}/${seg(a.id)}/rotate" aria-label="Rotate the secret of ${a.name}">Rotate</a> · <a href="${base}/${seg(a.id)}/revoke" aria-label="Revoke ${a.name}">Revoke</a>`
          }</td></tr>`,
      )}</tbody></table>`
}
<h2>Create an access</h2>${postForm(
        ctx.session,
        base,
        html`${other.length > 0 && html`<p class="error" role="alert">${other.map(([k, m]) => `${k || 'access'}: ${m.join('; ')}`).join(' · ')}</p>`}
<label class="block" for="access-name">Name</label><input type="text" id="access-name" name="name" required maxlength="100" value="${given?.get('name') ?? ''}">
${fieldError('access-name', at('name'))}
<fieldset><legend>Environments (none selected: all)</legend>${
          environments.length === 0
            ? html`<span class="muted">The account has no environment yet.</span>`
            : environments.map(
                (e) =>
                  html`<label><input type="checkbox" name="environments" value="${e}"${checked('environments', e) ? html` checked` : ''}> ${e}</label>`,
              )
        }${fieldError('access-environments', at('environments'))}</fieldset>
<fieldset><legend>Actions</legend>${ACCESS_ACTIONS.map(
          (x) =>
            html`<label><input type="checkbox" name="actions" value="${x}"${checked('actions', x) ? html` checked` : ''}> ${x}</label>`,
        )}${fieldError('access-actions', at('actions'))}</fieldset>
<button type="submit">Create</button> <span class="muted">The client id and secret are shown once.</span>`,
      )}`,
      crumbsOf(ctx, account),
    ),
    status,
  );
}

/** POST /console/accounts/{account}/accesses */
export async function createAccess(ctx: PageContext): Promise<Response> {
  const account = ctx.c.params.account!;
  let created: Awaited<ReturnType<typeof ctx.services.admin.createAccess>>;
  try {
    created = await ctx.services.admin.createAccess(ctx.session.actor, account, {
      name: ctx.form.get('name') ?? '',
      environments: ctx.form.getAll('environments'),
      actions: ctx.form.getAll('actions'),
    });
  } catch (error) {
    if (error instanceof ValidationError) return accessesPage(ctx, problemsByPath(error.details), 400, ctx.form);
    throw error;
  }
  return showOnce(ctx, {
    title: `Access ${created.name} created`,
    lines: [
      { label: 'Client id', value: created.clientId, secret: true },
      { label: 'Client secret', value: created.clientSecret, secret: true },
    ],
    back: `${ctx.base}/accounts/${seg(account)}/accesses`,
  });
}

/** GET …/accesses/{id}/revoke and …/rotate: the confirmation step. */
export async function confirmAccessPage(ctx: PageContext, what: 'revoke' | 'rotate'): Promise<Response> {
  const { account, id } = ctx.c.params as { account: string; id: string };
  const { accesses } = await ctx.services.admin.listAccesses(account);
  const access = accesses.find((a) => a.id === id);
  if (!access)
    return htmlResponse(layout(ctx, 'Not found', html`<p class="error">Access "${id}" does not exist in "${account}".</p>`), 404);
  const back = `${ctx.base}/accounts/${seg(account)}/accesses`;
  const text =
    what === 'revoke'
      ? html`<p>Revoke <strong>${access.name}</strong> (<code>${access.clientIdHint}</code>)? Its tokens stop working at once; this cannot be undone.</p>`
      : html`<p>Give <strong>${access.name}</strong> (<code>${access.clientIdHint}</code>) a new secret? The current secret stops getting tokens at once; the new one is shown once.</p>`;
  return htmlResponse(
    layout(
      ctx,
      what === 'revoke' ? `Revoke access ${access.name}` : `Rotate the secret of ${access.name}`,
      postForm(
        ctx.session,
        `${back}/${seg(id)}/${what}`,
        html`${text}<button type="submit" class="${what === 'revoke' ? 'danger' : ''}">${what === 'revoke' ? 'Revoke' : 'Rotate the secret'}</button> <a href="${back}">Cancel</a>`,
      ),
      crumbsOf(ctx, account),
    ),
  );
}

/** POST …/accesses/{id}/revoke */
export async function revokeAccess(ctx: PageContext): Promise<Response> {
  const { account, id } = ctx.c.params as { account: string; id: string };
  await ctx.services.admin.revokeAccess(ctx.session.actor, account, id);
  return redirect(`${ctx.base}/accounts/${seg(account)}/accesses`);
}

/** POST …/accesses/{id}/rotate */
export async function rotateAccess(ctx: PageContext): Promise<Response> {
  const { account, id } = ctx.c.params as { account: string; id: string };
  const rotated = await ctx.services.admin.rotateAccess(ctx.session.actor, account, id);
  return showOnce(ctx, {
    title: 'New client secret',
    lines: [
      { label: 'Client id', value: rotated.clientIdHint },
      { label: 'Client secret', value: rotated.clientSecret, secret: true },
    ],
    back: `${ctx.base}/accounts/${seg(account)}/accesses`,
  });
}
