/**
 * The audit log, newest first, a page at a time.
 *
 * @module
 */
import { ValidationError } from '../errors';
import { html } from './html';
import { htmlResponse, layout, time, type PageContext } from './page';

/** Entries per page. */
export const AUDIT_PAGE_SIZE = 50;

/** GET /console/audit?before= */
export async function auditPage(ctx: PageContext): Promise<Response> {
  const raw = ctx.c.query.get('before');
  if (raw !== null && !/^\d{1,15}$/.test(raw))
    throw new ValidationError('before must be a positive integer', [{ path: ['before'], message: 'not a positive integer' }]);
  const page = await ctx.services.admin.audit({ limit: AUDIT_PAGE_SIZE, ...(raw !== null ? { before: Number(raw) } : {}) });
  return htmlResponse(
    layout(
      ctx,
      'Audit log',
      html`${
        page.entries.length === 0
          ? html`<p class="muted">No entry${raw !== null ? ' before this one' : ' yet'}.</p>`
          : html`<table><thead><tr><th>Time</th><th>Actor</th><th>Action</th><th>Target</th><th>Outcome</th><th>Detail</th></tr></thead><tbody>${page.entries.map(
              (e) =>
                html`<tr><td>${time(e.time)}</td><td>${e.actor}</td><td><code>${e.action}</code></td><td><code>${e.target}</code></td><td class="${e.outcome === 'ok' ? 'ok' : 'error'}">${e.outcome}</td><td><code>${e.detail ? JSON.stringify(e.detail) : ''}</code></td></tr>`,
            )}</tbody></table>`
      }<p>${raw !== null && html`<a href="${ctx.base}/audit">Newest</a> · `}${page.next !== null && html`<a href="${ctx.base}/audit?before=${page.next}">Older entries</a>`}</p>`,
    ),
  );
}
