/**
 * What every console page shares: the context a page is rendered in, the layout, form helpers
 * and the answers (HTML with the security headers, redirects).
 *
 * @module
 */
import type { SearchAnalytics } from '../analytics/service';
import type { AdminService } from '../admin/service';
import type { RemoteControl } from '../access/remote-control';
import type { CatalogRegistry } from '../catalog/registry';
import type { DecisionEngine } from '../decision/engine';
import type { ErrorDetail } from '../errors';
import { formatPath } from '../errors';
import type { ExperimentService } from '../results/experiments';
import type { SearchService } from '../search/service';
import type { RouteContext } from '../http/router';
import { html, type Html } from './html';
import type { Session, SessionStore } from './session';

/** The services the pages read and change (each optional one turns its pages on). */
export interface ConsoleServices {
  readonly admin: AdminService;
  readonly engine?: DecisionEngine;
  readonly experiments?: ExperimentService;
  readonly remote?: RemoteControl;
  readonly catalogs?: CatalogRegistry;
  /** The search service of a catalog (built anew when its search settings change). */
  readonly search?: (identifier: string) => Promise<SearchService>;
  /** Turns on the catalogs' analytics pages. */
  readonly searchAnalytics?: SearchAnalytics;
  readonly sessions: SessionStore;
  readonly clock: () => number;
}

/** One signed-in request. */
export interface PageContext {
  readonly c: RouteContext;
  readonly session: Session;
  /** The console's root path: `{prefix}/console`. */
  readonly base: string;
  readonly services: ConsoleServices;
  /** The form of a POST (read and CSRF-checked before the page runs). */
  readonly form: URLSearchParams;
}

/**
 * The headers of every console answer: nothing inline, nothing from another host, no framing,
 * no caching of pages that may show a secret.
 */
export const SECURITY_HEADERS: Readonly<Record<string, string>> = Object.freeze({
  'content-security-policy': "default-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'",
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  'referrer-policy': 'same-origin',
});

/** An HTML answer. */
export function htmlResponse(body: Html, status = 200, headers: Record<string, string> = {}): Response {
  return new Response(`<!doctype html>\n${body.text}`, {
    status,
    headers: { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store', ...SECURITY_HEADERS, ...headers },
  });
}

/** A 303 to `location` (after a POST, the browser GETs it: a reload does not post again). */
export function redirect(location: string, headers: Record<string, string> = {}): Response {
  return new Response(null, { status: 303, headers: { location, 'cache-control': 'no-store', ...SECURITY_HEADERS, ...headers } });
}

/** A path segment, encoded. */
export const seg = (value: string) => encodeURIComponent(value);

/** The page around `body`: header with the sections and the logout button, breadcrumbs, title. */
export function layout(
  ctx: { base: string; session?: Session },
  title: string,
  body: Html,
  crumbs: readonly (readonly [string, string])[] = [],
): Html {
  const { base, session } = ctx;
  return html`<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title} · abkit console</title><link rel="stylesheet" href="${base}/assets/console.css"><script src="${base}/assets/console.js" defer></script></head>
<body><header><a class="brand" href="${base}">abkit console</a>${
    session &&
    html`<nav aria-label="Sections"><a href="${base}/accounts">Accounts</a> · <a href="${base}/catalogs">Catalogs</a> · <a href="${base}/audit">Audit log</a></nav>
<form method="post" action="${base}/logout">${csrfField(session)}<span class="muted">Signed in as ${session.actor}</span> <button type="submit" class="secondary">Log out</button></form>`
  }</header>
<main>${crumbs.length > 0 && html`<nav class="crumbs" aria-label="Breadcrumbs">${crumbs.map(([href, label], i) => html`${i > 0 && ' › '}<a href="${href}">${label}</a>`)}</nav>`}<h1>${title}</h1>
${body}</main></body></html>`;
}

/** The hidden CSRF field every POST form carries. */
export function csrfField(session: Session): Html {
  return html`<input type="hidden" name="_csrf" value="${session.csrf}">`;
}

/** A form that posts to `action` with the CSRF field. */
export function postForm(session: Session, action: string, inner: Html, className = 'card'): Html {
  return html`<form method="post" action="${action}" class="${className}">${csrfField(session)}${inner}</form>`;
}

/** A time as `YYYY-MM-DD HH:MM UTC`, or a dash. */
export function time(ms: number | null | undefined): string {
  if (ms === null || ms === undefined) return '—';
  return `${new Date(ms).toISOString().slice(0, 16).replace('T', ' ')} UTC`;
}

/** Problems keyed by their path (`variationGroups[0].variations[1].allocation`), for showing at their field. */
export function problemsByPath(details: readonly ErrorDetail[]): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const d of details) {
    const key = formatPath(d.path, '');
    out.set(key, [...(out.get(key) ?? []), d.message]);
  }
  return out;
}

/** An error message tied to an input by id (`aria-describedby`). */
export function fieldError(id: string, messages: readonly string[] | undefined): Html {
  return html`${messages && messages.length > 0 && html`<span class="error" id="${id}-error">${messages.join('; ')}</span>`}`;
}
