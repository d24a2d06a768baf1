import { PayloadTooLargeError, ValidationError } from '../errors';

/**
 * Reads a request body as text, refusing with {@link PayloadTooLargeError} as soon as more than
 * `limit` bytes have arrived (or `content-length` announces more), without buffering the rest.
 */
export async function readText(request: Request, limit: number): Promise<string> {
  const announced = Number(request.headers.get('content-length') ?? NaN);
  if (announced > limit) throw new PayloadTooLargeError(`abkit: request body exceeds the limit of ${limit} bytes`);
  if (!request.body) return '';
  const reader = request.body.getReader();
  const decoder = new TextDecoder('utf-8', { fatal: true });
  let size = 0;
  let text = '';
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.byteLength;
      if (size > limit) {
        await reader.cancel();
        throw new PayloadTooLargeError(`abkit: request body exceeds the limit of ${limit} bytes`);
      }
      text += decoder.decode(value, { stream: true });
    }
    return text + decoder.decode();
  } catch (error) {
    if (error instanceof TypeError) throw new ValidationError('abkit: request body is not valid UTF-8', [{ path: '(body)', message: 'not valid UTF-8' }]);
    throw error;
  }
}

/**
 * Deepest nesting of arrays and objects a request body may have. Every later step (validation,
 * copying, serialising, storing) walks values recursively; this bound keeps them all far from
 * the stack limit, whatever the body.
 */
export const MAX_JSON_DEPTH = 64;

/**
 * Nesting depth of JSON text, counted without parsing (brackets outside strings), stopping as
 * soon as it passes `max`: linear time, constant memory, no recursion.
 */
export function jsonDepthExceeds(text: string, max: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++; // backslash: skip the escaped character
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x5b || c === 0x7b) {
      if (++depth > max) return true;
    } else if (c === 0x5d || c === 0x7d) depth--;
  }
  return false;
}

/**
 * Parses a JSON request body: nesting deeper than {@link MAX_JSON_DEPTH} or invalid JSON is a
 * {@link ValidationError} naming the problem. Empty text → undefined.
 */
export function parseJsonBody(text: string): unknown {
  if (text.trim() === '') return undefined;
  if (jsonDepthExceeds(text, MAX_JSON_DEPTH)) {
    throw new ValidationError(`abkit: request body nests arrays and objects deeper than the limit of ${MAX_JSON_DEPTH} levels`, [{ path: '(body)', message: `nesting deeper than ${MAX_JSON_DEPTH}` }], 'too_deep');
  }
  try {
    return JSON.parse(text);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new ValidationError(`abkit: request body is not valid JSON: ${reason}`, [{ path: '(body)', message: 'invalid JSON' }], 'invalid_json');
  }
}

/** Reads and parses a JSON body (see {@link parseJsonBody}). Empty body → undefined. */
export async function readJson(request: Request, limit: number): Promise<unknown> {
  return parseJsonBody(await readText(request, limit));
}
