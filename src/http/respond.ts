/**
 * Responses of the HTTP modules. They are Web `Response`s, but built lazily: a response holds its
 * status, header record and text, and only becomes an undici `Response` when something reads
 * more than those (its body stream, `text()`, `clone()`…). Building an undici `Response` costs
 * more than a whole decision; a node listener (`abkit/node`) reads the text through
 * {@link responseText} and never builds one.
 *
 * @module
 */

import { lowerCaseName } from './header-name';
import { delegateToReal } from './lazy';

// Global-registry symbols: the root and `abkit/node` bundles may each carry a copy of this module.
const TEXT = Symbol.for('abkit.response.text');
const HEADER_RECORD = Symbol.for('abkit.response.headers');
const SET_HEADER = Symbol.for('abkit.response.setHeader');
const OWN_RECORD = Symbol.for('abkit.response.ownHeaders');

/**
 * A `Response` with a text (or no) body whose undici object is built on first need.
 * `instanceof Response` holds.
 */
class TextResponse {
  readonly status: number;
  readonly [TEXT]: string | null;
  #init: Record<string, string>;
  // Whether #init is this response's own (else it may be a shared constant: copy on write).
  #own: boolean;
  #headers: Headers | undefined;
  #real: Response | undefined;

  constructor(text: string | null, status: number, headers: Record<string, string>, own: boolean) {
    this.status = status;
    this[TEXT] = text;
    this.#init = headers;
    this.#own = own;
  }

  /** The header record while no `Headers` object was asked for (then `undefined`). */
  get [HEADER_RECORD](): Record<string, string> | undefined {
    return this.#headers ? undefined : this.#init;
  }

  /** Sets a header without building a `Headers` object; the record may be shared: copy on write. */
  [SET_HEADER](name: string, value: string): void {
    if (this.#headers || this.#real) this.headers.set(name, value);
    else this[OWN_RECORD]()![lowerCaseName(name)] = value;
  }

  /** The header record, this response's own (copied once if shared), while no `Headers` object was asked for. */
  [OWN_RECORD](): Record<string, string> | undefined {
    if (this.#headers || this.#real) return undefined;
    if (!this.#own) {
      this.#init = Object.assign({}, this.#init);
      this.#own = true;
    }
    return this.#init;
  }

  get headers(): Headers {
    if (this.#real) return this.#real.headers;
    return (this.#headers ??= new Headers(this.#init));
  }

  get ok(): boolean {
    return this.status >= 200 && this.status < 300;
  }

  /** The undici Response, built once. @internal */
  real(): Response {
    return (this.#real ??= new Response(this[TEXT], { status: this.status, headers: this.headers }));
  }
}

// Everything else a Response offers (body, text(), json(), clone(), statusText…) goes to the
// undici object, built on first use.
delegateToReal(TextResponse, Response, (r) => r.real(), ['status']);

/**
 * A response with a text body (or none), built lazily (see the module note).
 *
 * @example
 * ```ts
 * const res = respond('{"ok":true}', 200, { 'content-type': 'application/json' });
 * await res.json(); // { ok: true }
 * ```
 */
export function respond(text: string | null, status = 200, headers: Record<string, string> = {}): Response {
  return new TextResponse(text, status, headers, false) as unknown as Response;
}

/**
 * {@link respond} with a header record made for this response alone (a fresh literal), which
 * then takes later headers (a request id, the content length) without being copied first.
 * @internal
 */
export function respondOwn(text: string | null, status: number, headers: Record<string, string>): Response {
  return new TextResponse(text, status, headers, true) as unknown as Response;
}

/**
 * A 200 of JSON text already written (`Content-Type: application/json`), with a header record of
 * its own (see {@link respondOwn}).
 * @internal
 */
export function jsonText(text: string): Response {
  return respondOwn(text, 200, { 'content-type': 'application/json' });
}

/** A JSON response with `Content-Type: application/json`. */
export function json(body: unknown, status = 200, headers: Record<string, string> = {}): Response {
  return respondOwn(JSON.stringify(body), status, { 'content-type': 'application/json', ...headers });
}

/**
 * The text of a response built by {@link respond} whose body was not read, `null` for none;
 * `undefined` for any other response (read its body instead).
 *
 * @example
 * ```ts
 * responseText(json({ a: 1 })); // '{"a":1}'
 * ```
 */
export function responseText(response: Response): string | null | undefined {
  return TEXT in response ? (response as unknown as TextResponse)[TEXT] : undefined;
}

/**
 * The headers of `response` as a record when it still holds one (no `Headers` object was built),
 * else `undefined`.
 *
 * @example
 * ```ts
 * responseHeaderRecord(json({})); // { 'content-type': 'application/json' }
 * ```
 */
export function responseHeaderRecord(response: Response): Record<string, string> | undefined {
  return HEADER_RECORD in response ? (response as unknown as TextResponse)[HEADER_RECORD] : undefined;
}

/**
 * The header record of `response` for its writer to add to (`content-length`): the response's
 * own record (copied once if it shared one), or `undefined` when it holds none (see
 * {@link responseHeaderRecord}). Writing to it changes the response's headers.
 * @internal
 */
export function ownHeaderRecord(response: Response): Record<string, string> | undefined {
  return OWN_RECORD in response ? (response as unknown as TextResponse)[OWN_RECORD]() : undefined;
}

/**
 * Sets a header on a response; a response with immutable headers (a fetched one) is copied.
 *
 * @example
 * ```ts
 * const res = withHeader(json({}), 'x-request-id', 'r1');
 * ```
 */
export function withHeader(response: Response, name: string, value: string): Response {
  if (SET_HEADER in response) {
    (response as unknown as TextResponse)[SET_HEADER](name, value);
    return response;
  }
  try {
    response.headers.set(name, value);
    return response;
  } catch {
    const headers = new Headers(response.headers);
    headers.set(name, value);
    return new Response(response.body, { status: response.status, statusText: response.statusText, headers });
  }
}
