/** node:http ↔ Web-standard Request/Response, in a few lines. */
import type { IncomingMessage, ServerResponse } from 'node:http';

/**
 * Most bytes of a refused body read and thrown away after the response, so that a client still
 * sending it reads the status instead of a connection reset. Past it, the connection is closed.
 */
const MAX_DRAIN_BYTES = 64 * 1024 * 1024;

/** Builds a Web `Request` from a node:http request, streaming its body. */
export function toWebRequest(req: IncomingMessage, origin: string): Request {
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (Array.isArray(value)) for (const v of value) headers.append(name, v);
    else if (value !== undefined) headers.set(name, value);
  }
  const method = req.method ?? 'GET';
  const hasBody = method !== 'GET' && method !== 'HEAD';
  let url: URL;
  try {
    url = new URL(req.url ?? '/', origin);
  } catch {
    // A malformed Host header or request target: answer for a neutral origin instead of failing.
    url = new URL(req.url?.startsWith('/') ? req.url : '/', 'http://localhost');
  }
  return new Request(url, {
    method,
    headers,
    body: hasBody ? bodyStream(req) : undefined,
    duplex: 'half',
  } as RequestInit);
}

/**
 * The request body as a Web stream, read as the handler pulls. Cancelling it (a body refused
 * half-way, over the size limit) leaves the socket open: the rest is drained after the response.
 */
function bodyStream(req: IncomingMessage): ReadableStream<Uint8Array> {
  let done = false;
  return new ReadableStream<Uint8Array>(
    {
      start(controller) {
        req.pause();
        req.on('data', (chunk: Buffer) => {
          if (done) return;
          controller.enqueue(new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength));
          if ((controller.desiredSize ?? 0) <= 0) req.pause();
        });
        req.once('end', () => !done && ((done = true), controller.close()));
        req.once('error', (error) => !done && ((done = true), controller.error(error)));
      },
      pull() {
        req.resume();
      },
      cancel() {
        done = true;
      },
    },
    { highWaterMark: 64 * 1024, size: (chunk) => chunk.byteLength },
  );
}

/**
 * Reads and discards what is left of a request body the handler did not read (refused with
 * 401, 403 or 413), up to {@link MAX_DRAIN_BYTES}: closing a socket with unread data makes the
 * kernel reset it, and the client could lose the response it has not read yet.
 */
function drain(req: IncomingMessage): void {
  if (req.complete || req.destroyed) return;
  let drained = 0;
  // The body stream's listener pauses the request when nobody reads the stream: replace it.
  req.removeAllListeners('data');
  req.on('data', (chunk: Buffer) => {
    drained += chunk.byteLength;
    if (drained > MAX_DRAIN_BYTES) req.socket.destroy();
  });
  req.resume();
}

/** Writes a Web `Response` to a node:http response, then drains the unread rest of the request body. */
export async function sendWebResponse(res: ServerResponse, response: Response): Promise<void> {
  res.statusCode = response.status;
  response.headers.forEach((value, name) => res.setHeader(name, value));
  if (response.body) {
    for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) res.write(chunk);
  }
  res.end();
  if (res.req) drain(res.req);
}
