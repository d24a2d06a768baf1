/** Small response helpers shared by the HTTP modules. */

/** A JSON response with `Content-Type: application/json`. */
export function json(body: unknown, status = 200, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json', ...headers },
  });
}

/** A 405 with the `Allow` header listing what the path accepts. */
export function methodNotAllowed(allow: readonly string[], body: unknown): Response {
  return json(body, 405, { allow: allow.join(', ') });
}

/**
 * Splits a pathname into decoded segments after stripping `prefix`; undefined when the path
 * is outside the prefix or a segment is not valid percent-encoding.
 */
export function segments(pathname: string, prefix: string): string[] | undefined {
  if (prefix !== '' && pathname !== prefix && !pathname.startsWith(`${prefix}/`)) return undefined;
  // Only the leading slash goes: a trailing one leaves an empty segment, so `/schema/` never
  // silently means another resource.
  const rest = pathname.slice(prefix.length).replace(/^\/+/, '');
  try {
    return rest === '' ? [] : rest.split('/').map(decodeURIComponent);
  } catch {
    return undefined;
  }
}

/** Normalises a mount prefix: `''`, or `/x/y` without a trailing slash. */
export function normalizePrefix(prefix: string | undefined): string {
  if (prefix === undefined || prefix === '' || prefix === '/') return '';
  return `/${prefix.replace(/^\/+|\/+$/g, '')}`;
}
