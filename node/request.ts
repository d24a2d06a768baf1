/**
 * A Web `Request` over a node:http request, built lazily: method, URL, headers and the body (read
 * once into a buffer, or a body a framework already parsed) are served from the node request;
 * anything else builds the undici `Request` on first need.
 *
 * @module
 */
import type { IncomingMessage } from 'node:http';
import { Readable } from 'node:stream';
import { PayloadTooLargeError } from '../src/errors';
import { CLIENT_ADDRESS, NODE_BODY, readWebBody, RequestAbortedError, type NodeBody, type NodeBodySource } from '../src/body';
import { lowerCaseName } from '../src/http/header-name';
import { delegateToReal, PATH_AND_QUERY } from '../src/http/lazy';

/**
 * A node request, with the body a framework (Express, Fastify) may have parsed already.
 *
 * @example
 * ```ts
 * import Fastify from 'fastify';
 * const app = Fastify();
 * const listener = createNodeListener(handler);
 * app.all('/*', (req, reply) => { reply.hijack(); const raw: NodeRequestLike = Object.assign(req.raw, { body: req.body }); return listener(raw, reply.raw); });
 * ```
 */
export type NodeRequestLike = IncomingMessage & { body?: unknown };

/**
 * Most bytes of a refused body read and thrown away, so that a client still sending it reads
 * the 413 instead of a connection reset. Past it, the connection is closed.
 */
const MAX_DRAIN_BYTES = 64 * 1024 * 1024;

function discard(req: IncomingMessage): void {
  let drained = 0;
  req.on('data', (chunk: Buffer) => {
    drained += chunk.byteLength;
    if (drained > MAX_DRAIN_BYTES) req.socket.destroy();
  });
  req.resume();
}

const HOST = /^[A-Za-z0-9.\-_~]+(:\d{1,5})?$|^\[[0-9A-Fa-f:.]+\](:\d{1,5})?$/;

// The Host header a server sees is nearly always the same: the origin built from it is remembered.
let lastHost: string | undefined;
let lastSecure = false;
let lastOrigin = '';
function originOf(host: string | undefined, secure: boolean): string {
  if (host !== lastHost || secure !== lastSecure || lastOrigin === '') {
    lastOrigin = `${secure ? 'https' : 'http'}://${host && HOST.test(host) ? host : 'localhost'}`;
    lastHost = host;
    lastSecure = secure;
  }
  return lastOrigin;
}

/** Request headers read from the node request; immutable, like a Request's. */
class NodeHeaders {
  readonly #raw: IncomingMessage['headers'];

  constructor(raw: IncomingMessage['headers']) {
    this.#raw = raw;
  }

  get(name: string): string | null {
    const value = this.#raw[lowerCaseName(name)];
    if (value === undefined) return null;
    return Array.isArray(value) ? value.join(', ') : value;
  }

  has(name: string): boolean {
    return this.#raw[lowerCaseName(name)] !== undefined;
  }

  getSetCookie(): string[] {
    const value = this.#raw['set-cookie'];
    return value === undefined ? [] : Array.isArray(value) ? [...value] : [value];
  }

  *entries(): IterableIterator<[string, string]> {
    for (const name of Object.keys(this.#raw).sort()) {
      const value = this.get(name);
      if (value !== null) yield [name, value];
    }
  }

  *keys(): IterableIterator<string> {
    for (const [name] of this.entries()) yield name;
  }

  *values(): IterableIterator<string> {
    for (const [, value] of this.entries()) yield value;
  }

  forEach(callback: (value: string, name: string, headers: Headers) => void, thisArg?: unknown): void {
    for (const [name, value] of this.entries()) callback.call(thisArg, value, name, this as unknown as Headers);
  }

  [Symbol.iterator](): IterableIterator<[string, string]> {
    return this.entries();
  }

  append(): never {
    throw new TypeError('request headers are immutable');
  }

  set(): never {
    throw new TypeError('request headers are immutable');
  }

  delete(): never {
    throw new TypeError('request headers are immutable');
  }
}
delegateToReal(NodeHeaders, Headers, () => {
  throw new TypeError('not supported on request headers');
});

/** The lazily built Request; see the module note. */
class NodeRequest {
  readonly method: string;
  readonly url: string;
  readonly #req: NodeRequestLike;
  /** The target from the path on, which routing reads instead of the whole URL. */
  readonly [PATH_AND_QUERY]: string;
  #headers: NodeHeaders | undefined;
  #body: ReturnType<NodeBodySource> | undefined;
  #real: Request | undefined;

  constructor(req: NodeRequestLike, origin: string, pathAndQuery: string) {
    this.#req = req;
    this.method = req.method ?? 'GET';
    this.url = origin + pathAndQuery;
    this[PATH_AND_QUERY] = pathAndQuery;
  }

  get headers(): Headers {
    return (this.#headers ??= new NodeHeaders(this.#req.headers)) as unknown as Headers;
  }

  /** The client's socket address (clientAddressOf in src/body.ts). */
  get [CLIENT_ADDRESS](): string | undefined {
    return this.#req.socket?.remoteAddress;
  }

  /** The body, read once (see {@link NODE_BODY}); a refusal is thrown again on each read. */
  [NODE_BODY](limit: number): ReturnType<NodeBodySource> {
    if (this.#body === undefined) {
      try {
        this.#body = this.#real ? readWeb(this.#real, limit) : readBody(this.#req, limit);
      } catch (error) {
        this.#body = Promise.reject(error);
        this.#body.catch(() => undefined);
      }
    }
    return this.#body;
  }

  /** The undici Request, built once: its body is the bytes read, or the socket's stream. */
  real(): Request {
    if (this.#real) return this.#real;
    const hasBody = this.method !== 'GET' && this.method !== 'HEAD';
    let body: ReadableStream<Uint8Array> | undefined;
    if (hasBody) {
      const read = this.#body;
      body = read
        ? new ReadableStream({
            async pull(controller) {
              const b = await read;
              controller.enqueue('bytes' in b ? b.bytes : new TextEncoder().encode(JSON.stringify(b.parsed) ?? ''));
              controller.close();
            },
          })
        : (Readable.toWeb(this.#req) as ReadableStream<Uint8Array>);
    }
    const headers = new Headers();
    const raw = this.#req.rawHeaders;
    for (let i = 0; i + 1 < raw.length; i += 2) headers.append(raw[i]!, raw[i + 1]!);
    return (this.#real = new Request(this.url, { method: this.method, headers, body, duplex: 'half' } as RequestInit));
  }
}
delegateToReal(NodeRequest, Request, (r) => r.real(), ['method', 'url']);

/**
 * The Web `Request` of a node request: `origin` when given (a proxy's public origin), else the
 * protocol of the socket and the `Host` header when it is a plain host name.
 *
 * @example
 * ```ts
 * import { createServer } from 'node:http';
 * createServer(async (req, res) => { const request = nodeRequest(req); console.log(request.url); res.end(); });
 * ```
 */
export function nodeRequest(req: NodeRequestLike, origin?: string): Request {
  let path = req.url ?? '/';
  if (!path.startsWith('/')) {
    // absolute-form (a proxy's): keep its path as sent (the URL parser would resolve its dot
    // segments, which routing refuses); anything else is a request for '/'.
    const rest = ABSOLUTE_FORM.exec(path)?.[1];
    path = rest === undefined || !URL.canParse(path) ? '/' : rest.startsWith('/') ? rest : `/${rest}`;
  }
  origin ??= originOf(req.headers.host, (req.socket as { encrypted?: boolean } | undefined)?.encrypted === true);
  return new NodeRequest(req, origin, path) as unknown as Request;
}

// scheme://authority, then the path and query as sent.
const ABSOLUTE_FORM = /^[A-Za-z][A-Za-z0-9+.-]*:\/\/[^/?#\\]*(.*)$/s;

// Once the undici Request exists it owns the socket's stream: read through it.
async function readWeb(request: Request, limit: number): Promise<NodeBody> {
  const declared = request.headers.get('content-length');
  if (declared !== null && Number(declared) > limit) throw new PayloadTooLargeError(`request body exceeds the limit of ${limit} bytes`);
  const bytes = new Uint8Array(await readWebBody(request, () => request.arrayBuffer()));
  if (bytes.byteLength > limit) throw new PayloadTooLargeError(`request body exceeds the limit of ${limit} bytes`);
  return { bytes };
}

// The body itself when it is already in memory (no promise, no event), else a promise of it.
function readBody(req: NodeRequestLike, limit: number): NodeBody | Promise<NodeBody> {
  if (req.body !== undefined) return { parsed: req.body };
  const tooLarge = () => new PayloadTooLargeError(`request body exceeds the limit of ${limit} bytes`);
  const declared = req.headers['content-length'];
  const length = declared === undefined ? -1 : Number(declared);
  if (length > limit) {
    discard(req);
    throw tooLarge();
  }
  if (req.readableEnded) return { bytes: new Uint8Array(0) };
  // The connection closed before the body was complete (and before anyone read it): no event
  // will come any more.
  if (req.destroyed) throw new RequestAbortedError();
  // The whole body is in the stream's buffer (a small body comes in the packet of its headers)
  // and nobody reads it yet: take it at once, without events.
  const whole = req.complete ? req.readableLength <= limit : length >= 0 && req.readableLength === length;
  if (whole && req.readableFlowing === null) {
    const chunk = req.read() as Buffer | string | null;
    if (chunk === null) return { bytes: new Uint8Array(0) };
    return { bytes: typeof chunk === 'string' ? Buffer.from(chunk) : chunk };
  }
  return new Promise<NodeBody>((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer) => {
      size += chunk.byteLength;
      if (size > limit) {
        cleanup();
        discard(req);
        reject(tooLarge());
        return;
      }
      chunks.push(chunk);
    };
    const onEnd = () => {
      cleanup();
      resolve({ bytes: chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, size) });
    };
    // The client's connection closed first ('error' with ECONNRESET "aborted", or only 'close'
    // when nobody listened for errors yet): the client's doing, not a server error.
    const onError = (error?: Error) => {
      cleanup();
      reject(new RequestAbortedError(error));
    };
    const onClose = () => onError();
    const cleanup = () => {
      req.off('data', onData);
      req.off('end', onEnd);
      req.off('error', onError);
      req.off('close', onClose);
    };
    req.on('data', onData);
    req.on('end', onEnd);
    req.on('error', onError);
    req.on('close', onClose);
  });
}
