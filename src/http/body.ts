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

/** Reads and parses a JSON body; invalid JSON is a {@link ValidationError}. Empty body → undefined. */
export async function readJson(request: Request, limit: number): Promise<unknown> {
  const text = await readText(request, limit);
  if (text.trim() === '') return undefined;
  try {
    return JSON.parse(text);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new ValidationError(`abkit: request body is not valid JSON: ${reason}`, [{ path: '(body)', message: 'invalid JSON' }], 'invalid_json');
  }
}
