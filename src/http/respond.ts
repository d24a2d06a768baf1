/** Small response helpers shared by the HTTP modules. */

/** A JSON response with `Content-Type: application/json`. */
export function json(body: unknown, status = 200, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json', ...headers },
  });
}
