/**
 * `createNodeListener`: abkit's Web-standard handler as a node:http, Express or Fastify listener,
 * without Web streams on the way.
 *
 * @module
 */
import type { ServerResponse } from 'node:http';
import type { Handler } from '../src/http/router';
import { ownHeaderRecord, responseHeaderRecord, responseText } from '../src/http/respond';
import { nodeRequest, type NodeRequestLike } from './request';

/**
 * Options of {@link createNodeListener}.
 *
 * @example
 * ```ts
 * const options: NodeListenerOptions = { origin: 'https://api.example.com', onError: (e) => logger.error(e) };
 * ```
 */
export interface NodeListenerOptions {
  /**
   * The public origin of request URLs (`https://api.example.com`), e.g. behind a proxy.
   * @defaultValue the socket's protocol and the `Host` header (`localhost` when it is not a plain host)
   */
  origin?: string;
  /** Called with an error the handler threw (the client gets a bare 500). @defaultValue `console.error` */
  onError?: (error: unknown) => void;
  /**
   * Writes the responses that became ready during one turn of the event loop together, once
   * that turn's I/O callbacks have run (`setImmediate`), instead of each at once. When the
   * server's CPU is the limit, the clients (or the proxy in front) are woken once per batch
   * instead of once per response. Through `abkit serve` on a 2-core machine that gave 13% more
   * requests per second at 4 connections and about 50% more at 32, each with a lower p99. With
   * one connection, each response waits for the rest of its turn (about 10 µs more at the median).
   * Responses whose body is a stream are written as they come.
   * @defaultValue `false`
   * @example `createNodeListener(handler, { coalesceWrites: true })`
   */
  coalesceWrites?: boolean;
}

/**
 * A node:http request listener; as Express middleware, `next` receives a handler failure.
 *
 * @example
 * ```ts
 * import { createServer } from 'node:http';
 * const listener: NodeListener = createNodeListener(handler);
 * createServer(listener).listen(8080);
 * ```
 */
export type NodeListener = (req: NodeRequestLike, res: ServerResponse, next?: (error?: unknown) => void) => Promise<void>;

const INTERNAL_ERROR = '{"message":"internal error"}';

/**
 * Serves a Web-standard handler on node:http, Express or Fastify. The `Request` is built lazily
 * (method, URL and headers come from the node request; the body is read once into a buffer,
 * within the route's limit), and a body a framework already parsed (`req.body`, e.g. after
 * `express.json()`) is used as it is. The response is written with one `end()` and a
 * `Content-Length`.
 *
 * @example
 * ```ts
 * import { createServer } from 'node:http';
 * import { createNodeListener } from 'abkit/node';
 * createServer(createNodeListener(handler)).listen(8080);
 * // Express 5, before any body parser, so abkit reads its own bodies within each route's limit:
 * // app.use(createNodeListener(handler));
 * ```
 */
export function createNodeListener(handler: Handler, options: NodeListenerOptions = {}): NodeListener {
  const { origin, onError = (error: unknown) => console.error(error), coalesceWrites = false } = options;
  if (typeof coalesceWrites !== 'boolean')
    throw new TypeError(`createNodeListener: coalesceWrites must be a boolean, got ${typeof coalesceWrites}`);
  const writeText = coalesceWrites ? batchedWriter(onError) : writeTextNow(onError);
  if (origin !== undefined && !/^https?:\/\/[^/?#]+$/.test(origin)) {
    throw new TypeError(`createNodeListener: origin must be a scheme and host without a path, got ${JSON.stringify(origin)}`);
  }
  return async (req, res, next) => {
    let response: Response;
    try {
      response = await handler(nodeRequest(req, origin));
    } catch (error) {
      if (next) return next(error);
      onError(error);
      if (res.headersSent) res.end();
      else res.writeHead(500, { 'content-type': 'application/json', 'content-length': INTERNAL_ERROR.length }).end(INTERNAL_ERROR);
      return;
    }
    try {
      // abkit's own responses hold their text: written without another promise.
      const text = responseText(response);
      if (text !== undefined) writeText(res, response, text, req.method === 'HEAD');
      else await writeResponse(res, response, req.method === 'HEAD');
    } catch (error) {
      onError(error);
      res.destroy();
    }
  };
}

type TextWriter = (res: ServerResponse, response: Response, text: string | null, head: boolean) => void;

// The response is this listener's alone: its header record is written as it is.
function writeTextNow(onError: (error: unknown) => void): TextWriter {
  return (res, response, text, head) => {
    try {
      writeBody(res, response, text, head, true);
    } catch (error) {
      onError(error);
      res.destroy();
    }
  };
}

/** A writer that keeps the turn's responses and writes them all in the loop's check phase. */
function batchedWriter(onError: (error: unknown) => void): TextWriter {
  const now = writeTextNow(onError);
  let queue: [ServerResponse, Response, string | null, boolean][] = [];
  const flush = () => {
    const batch = queue;
    queue = [];
    for (const [res, response, text, head] of batch) now(res, response, text, head);
  };
  return (res, response, text, head) => {
    if (queue.push([res, response, text, head]) === 1) setImmediate(flush);
  };
}

/**
 * Writes a Web `Response` to a node response with one `end()` and a `Content-Length`.
 *
 * @example
 * ```ts
 * import { createServer } from 'node:http';
 * createServer((req, res) => writeResponse(res, new Response('hi')));
 * ```
 */
export async function writeResponse(res: ServerResponse, response: Response, head = false): Promise<void> {
  const text = responseText(response);
  if (text !== undefined) writeBody(res, response, text, head);
  else writeBody(res, response, response.body ? new Uint8Array(await response.arrayBuffer()) : null, head);
}

// `own`: the response is the writer's alone, so its own header record takes the content-length
// (no copy); else the headers are copied.
function writeBody(res: ServerResponse, response: Response, body: string | Uint8Array | null, head: boolean, own = false): void {
  let headers: Record<string, string | string[] | number> | undefined = own ? ownHeaderRecord(response) : undefined;
  if (headers === undefined) {
    headers = {};
    const record = responseHeaderRecord(response);
    if (record) Object.assign(headers, record);
    else {
      response.headers.forEach((value, name) => {
        if (name !== 'set-cookie') headers![name] = value;
      });
      const cookies = response.headers.getSetCookie();
      if (cookies.length > 0) headers['set-cookie'] = cookies;
    }
  }
  const length = body === null ? -1 : typeof body === 'string' ? Buffer.byteLength(body) : body.byteLength;
  if (length >= 0) headers['content-length'] = length;
  res.writeHead(response.status, headers);
  if (body === null || head) res.end();
  // A text whose UTF-8 length is its length is ASCII: written as 'ascii', node sends it as it is
  // (for UTF-8 or latin1 it first copies the header in front of it, then encodes the whole).
  else if (typeof body === 'string' && length === body.length) res.end(body, 'ascii');
  else res.end(body);
}
