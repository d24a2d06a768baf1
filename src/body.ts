/**
 * The one request body reader: every route reads its body through it, within a limit.
 *
 * @module
 */
import { AbkitError, PayloadTooLargeError, ValidationError } from './errors';
import { SLICE_CHARACTERS, SLICE_OPERATIONS } from './slices';
import { nestingExceeds } from './validation';

/**
 * A request body read within a limit; each method reads the body once.
 *
 * @example
 * ```ts
 * const body = bodyReader(request, 65_536);
 * const value = await body.json(); // undefined for an empty body
 * ```
 */
export interface BodyReader {
  /** The raw bytes. */
  bytes(): Promise<Uint8Array>;
  /** The bytes decoded as UTF-8 (invalid UTF-8 is a 400). */
  text(): Promise<string>;
  /** The body parsed as JSON; an empty (or blank) body is `undefined`, invalid JSON a 400. */
  json(): Promise<unknown>;
}

/**
 * The client went away before its request body was complete: it closed the connection, or the
 * server closed it because the body came too slowly (`requestTimeout`). Answered with status 499
 * (nginx's "client closed request"), which nobody reads: it is there so that logs and metrics
 * count the request as the client's doing, never as a server error.
 *
 * @example
 * ```ts
 * if (error instanceof RequestAbortedError) logger.info('request aborted');
 * ```
 */
export class RequestAbortedError extends AbkitError {
  /** Creates the error; `cause` is the stream's own error, when there is one. */
  constructor(cause?: unknown) {
    super('the request body did not complete: the connection closed first', 'client_closed_request', CLIENT_CLOSED_REQUEST);
    if (cause !== undefined) this.cause = cause;
  }
}

/** The status of a request whose client went away before its body was complete (nginx's 499). */
export const CLIENT_CLOSED_REQUEST = 499;

/** The default `maxBodyBytes` of the HTTP interfaces: 1 MiB. */
export const DEFAULT_MAX_BODY_BYTES = 1_048_576;

/**
 * Validates a `maxBodyBytes` option: a positive integer, or undefined for `fallback`.
 *
 * @example
 * ```ts
 * const limit = maxBodyBytesOption(options.maxBodyBytes, DEFAULT_MAX_BODY_BYTES, 'createDecisionHandler');
 * ```
 */
export function maxBodyBytesOption(value: unknown, fallback: number, owner: string): number {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 1) {
    throw new TypeError(`${owner}: maxBodyBytes must be a positive integer, got ${String(value)}`);
  }
  return value;
}

/**
 * The body of `request`, refused with {@link PayloadTooLargeError} when it exceeds `limit` bytes:
 * a declared `Content-Length` is checked before anything is read and the body is then read in one
 * copy; a body without a length is streamed with a running count, stopping at the limit.
 *
 * @example
 * ```ts
 * const text = await bodyReader(request, 1024).text();
 * ```
 */
export function bodyReader(request: Request | Response, limit: number): BodyReader {
  if ((request as { [NODE_BODY]?: NodeBodySource })[NODE_BODY]) return new NodeBodyReader(request as unknown as NodeBodyHolder, limit);
  const bytes = () => readBytes(request, limit);
  const text = async () => decodeUtf8(await bytes());
  return {
    bytes,
    text,
    json: async () => parseJsonBody(await text()),
  };
}

/**
 * What {@link BodyReader.json} gives, without a promise when the body is already in memory (a
 * node request's usual case: a small body arrives with its headers): the value, or a promise of
 * it when the body is still to be read. A refusal (too large, invalid JSON) throws or rejects.
 * A parsed JSON value is never a `Promise`, so `instanceof Promise` tells the two apart.
 * @internal
 *
 * @example
 * ```ts
 * let value = jsonNow(context.body);
 * if (value instanceof Promise) value = await value;
 * ```
 */
export function jsonNow(reader: BodyReader): unknown {
  return reader instanceof NodeBodyReader ? reader.jsonNow() : reader.json();
}

/**
 * Where a request built by a node listener (`abkit/node`) keeps its body: the bytes read from the
 * socket in one buffer, or a value a framework already parsed (Express's or Fastify's `req.body`).
 * A global-registry symbol, so that separately bundled entries agree on it.
 */
export const NODE_BODY = Symbol.for('abkit.request.body');

/**
 * Where a request built by `abkit/node` keeps the client's socket address (a Web `Request` has
 * none): read it with {@link clientAddressOf}.
 */
export const CLIENT_ADDRESS = Symbol.for('abkit.request.clientAddress');

/**
 * The address of the client that sent a request served by `abkit/node` (the socket's remote
 * address, not a header a client could write), or undefined for any other request.
 *
 * @example
 * ```ts
 * const console = { clientAddress: (request: Request) => clientAddressOf(request) };
 * ```
 */
export function clientAddressOf(request: Request): string | undefined {
  const address = (request as { [CLIENT_ADDRESS]?: unknown })[CLIENT_ADDRESS];
  return typeof address === 'string' ? address : undefined;
}

/** A node request's body: its bytes, or the value a framework parsed. @internal */
export type NodeBody = { bytes: Uint8Array } | { parsed: unknown };

/**
 * Reads the body of a node request, within a limit (a method of the request): the body itself
 * when it was already in memory, else a promise of it; a body over the limit throws or rejects.
 * @internal
 */
export type NodeBodySource = (limit: number) => NodeBody | Promise<NodeBody>;

interface NodeBodyHolder {
  [NODE_BODY]: NodeBodySource;
}

/**
 * The reader of a node request's body. A body already in memory (the common case: a small body
 * arrives with its headers) is decoded at once, so each method costs one settled promise instead
 * of a chain of them.
 */
class NodeBodyReader implements BodyReader {
  readonly #request: NodeBodyHolder;
  readonly #limit: number;

  constructor(request: NodeBodyHolder, limit: number) {
    this.#request = request;
    this.#limit = limit;
  }

  bytes(): Promise<Uint8Array> {
    return this.#settle(bytesOf);
  }

  text(): Promise<string> {
    return this.#settle(textOf);
  }

  json(): Promise<unknown> {
    return this.#settle(jsonOf);
  }

  /** The body parsed as JSON at once when it is in memory, else a promise of it; a refusal throws. */
  jsonNow(): unknown {
    const body = this.#request[NODE_BODY](this.#limit);
    return body instanceof Promise ? body.then(jsonOf) : jsonOf(body);
  }

  #settle<T>(read: (body: NodeBody) => T): Promise<T> {
    try {
      const body = this.#request[NODE_BODY](this.#limit);
      return body instanceof Promise ? body.then(read) : Promise.resolve(read(body));
    } catch (error) {
      return Promise.reject(error);
    }
  }
}

function bytesOf(body: NodeBody): Uint8Array {
  if ('bytes' in body) return body.bytes;
  const text = body.parsed === undefined ? '' : typeof body.parsed === 'string' ? body.parsed : JSON.stringify(body.parsed);
  return new TextEncoder().encode(text);
}

function textOf(body: NodeBody): string {
  return decodeUtf8(bytesOf(body));
}

function jsonOf(body: NodeBody): unknown {
  if ('bytes' in body) return parseJsonBody(decodeUtf8(body.bytes));
  // A framework parsed it already: the same depth bound as for text we parse.
  if (typeof body.parsed === 'string') return parseJsonBody(body.parsed);
  if (nestingExceeds(body.parsed, MAX_JSON_DEPTH)) throw tooDeep();
  return body.parsed;
}

function tooDeep(): ValidationError {
  return new ValidationError(
    `request body nests arrays and objects deeper than the limit of ${MAX_JSON_DEPTH} levels`,
    [{ path: [], message: `nesting deeper than ${MAX_JSON_DEPTH}` }],
    'too_deep',
  );
}

/**
 * Reads a Web body (`read`), a failure of its stream being the client's: a body stream fails
 * when the connection under it closed before the body was complete.
 * @internal
 */
export async function readWebBody<T>(body: Request | Response, read: () => Promise<T>): Promise<T> {
  // A body already read is the caller's mistake, not the client's: its TypeError stays.
  if (body.bodyUsed) return read();
  try {
    return await read();
  } catch (error) {
    throw error instanceof AbkitError ? error : new RequestAbortedError(error);
  }
}

function readBytes(request: Request | Response, limit: number): Promise<Uint8Array> {
  return readWebBody(request, () => readBytesOnce(request, limit));
}

async function readBytesOnce(request: Request | Response, limit: number): Promise<Uint8Array> {
  const tooLarge = () => new PayloadTooLargeError(`request body exceeds the limit of ${limit} bytes`);
  if (!request.body) return new Uint8Array(0);
  const declared = request.headers.get('content-length');
  if (declared !== null && /^\d{1,15}$/.test(declared.trim())) {
    if (Number(declared) > limit) {
      await request.body.cancel().catch(() => undefined);
      throw tooLarge();
    }
    const buffer = new Uint8Array(await request.arrayBuffer());
    // A framework's Request may not hold to its header; never keep more than the limit.
    if (buffer.byteLength > limit) throw tooLarge();
    return buffer;
  }
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel().catch(() => undefined);
      throw tooLarge();
    }
    chunks.push(value);
  }
  if (chunks.length === 1) return chunks[0]!;
  const out = new Uint8Array(size);
  let at = 0;
  for (const chunk of chunks) {
    out.set(chunk, at);
    at += chunk.byteLength;
  }
  return out;
}

// One decoder for every call: a decode without `stream` starts afresh, even after an error.
const UTF8 = new TextDecoder('utf-8', { fatal: true });

/**
 * Decodes UTF-8, refusing invalid sequences with a {@link ValidationError}.
 *
 * @example
 * ```ts
 * decodeUtf8(new Uint8Array([0x68, 0x69])); // 'hi'
 * ```
 */
export function decodeUtf8(bytes: Uint8Array): string {
  try {
    return UTF8.decode(bytes);
  } catch {
    throw new ValidationError('request body is not valid UTF-8', [{ path: [], message: 'not valid UTF-8' }]);
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
 *
 * @example
 * ```ts
 * jsonDepthExceeds('[[1]]', 1); // true
 * ```
 */
export function jsonDepthExceeds(text: string, max: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c)
        i++; // backslash: skip the escaped character
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x5b || c === 0x7b) {
      if (++depth > max) return true;
    } else if (c === 0x5d || c === 0x7d) depth--;
  }
  return false;
}

/**
 * Parses a JSON request body: blank text is `undefined`; nesting deeper than
 * {@link MAX_JSON_DEPTH} (code `too_deep`) or invalid JSON (code `invalid_json`) is a
 * {@link ValidationError} naming the problem.
 *
 * @example
 * ```ts
 * parseJsonBody('{"a":1}'); // { a: 1 }
 * ```
 */
export function parseJsonBody(text: string): unknown {
  if (text.trim() === '') return undefined;
  // JSON.parse does not recurse, so it runs first; the parsed value nests as deep as its text,
  // and is walked in fewer steps. Text that does not parse is scanned so that depth still wins.
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    if (jsonDepthExceeds(text, MAX_JSON_DEPTH)) throw tooDeep();
    return parseOrRefuse(text);
  }
  if (!bracketsAtMost(text, MAX_JSON_DEPTH) && nestingExceeds(value, MAX_JSON_DEPTH)) throw tooDeep();
  return value;
}

// A value nests no deeper than its text has opening brackets: the text of most bodies has few,
// and a search for them costs less than a walk of the value.
function bracketsAtMost(text: string, max: number): boolean {
  let n = 0;
  for (let i = text.indexOf('{'); i >= 0; i = text.indexOf('{', i + 1)) if (++n > max) return false;
  for (let i = text.indexOf('['); i >= 0; i = text.indexOf('[', i + 1)) if (++n > max) return false;
  return true;
}

function parseOrRefuse(text: string, where = ''): unknown {
  try {
    return JSON.parse(text);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new ValidationError(`request body is not valid JSON${where}: ${reason}`, [{ path: [], message: 'invalid JSON' }], 'invalid_json');
  }
}

/**
 * {@link decodeUtf8} then {@link parseJsonBody} as sliced work (see `runInSlices`), for bodies of
 * many megabytes: a top-level array is split at its commas by scanning the bytes (JSON's
 * structural characters are ASCII, never part of a multi-byte UTF-8 sequence) and each element
 * is decoded and parsed on its own, yielding every `SLICE_OPERATIONS` elements and
 * `SLICE_CHARACTERS` bytes, so no single step holds the event loop for long. Same results and
 * errors as `parseJsonBody(decodeUtf8(bytes))`, but an invalid element is named by its index.
 *
 * @example
 * ```ts
 * const operations = await runInSlices(jsonBodySteps(new TextEncoder().encode('[1,2]'))); // [1, 2]
 * ```
 */
export function* jsonBodySteps(bytes: Uint8Array): Generator<void, unknown> {
  const blank = (b: number) => b === 0x20 || b === 0x0a || b === 0x0d || b === 0x09;
  let start = 0;
  while (start < bytes.length && blank(bytes[start]!)) start++;
  if (bytes[start] !== 0x5b) return parseJsonBody(decodeUtf8(bytes));
  const elements: unknown[] = [];
  // Elements are parsed a group at a time (one decode, one JSON.parse per group); a group that
  // fails is parsed again element by element to name the bad one.
  let group: number[] = [];
  const flush = () => {
    if (group.length === 1) return;
    const text = decodeUtf8(bytes.subarray(group[0]! + 1, group[group.length - 1]));
    try {
      elements.push(...(JSON.parse(`[${text}]`) as unknown[]));
    } catch {
      for (let k = 0; k + 1 < group.length; k++) {
        elements.push(parseOrRefuse(decodeUtf8(bytes.subarray(group[k]! + 1, group[k + 1])), ` (element ${elements.length})`));
      }
    }
    group = [group[group.length - 1]!];
  };
  let depth = 0;
  let inString = false;
  group.push(start);
  for (let i = start; i < bytes.length; i++) {
    if (i % SLICE_CHARACTERS === 0) yield;
    const c = bytes[i]!;
    if (inString) {
      if (c === 0x5c) i++;
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x5b || c === 0x7b) {
      if (++depth > MAX_JSON_DEPTH) throw tooDeep();
    } else if (c === 0x5d || c === 0x7d) {
      if (--depth === 0) {
        let end = i + 1;
        while (end < bytes.length && blank(bytes[end]!)) end++;
        // `}` closing the array, or anything after it: JSON.parse names the problem.
        if (c !== 0x5d || end !== bytes.length) return parseOrRefuse(decodeUtf8(bytes));
        // `[]`: no element at all (a blank last element anywhere else is a stray comma).
        if (elements.length === 0 && group.length === 1 && decodeUtf8(bytes.subarray(start + 1, i)).trim() === '') return elements;
        group.push(i);
        flush();
        return elements;
      }
    } else if (c === 0x2c && depth === 1) {
      group.push(i);
      if (group.length > SLICE_OPERATIONS) {
        flush();
        yield;
      }
    }
  }
  // Never closed: JSON.parse names the problem.
  return parseOrRefuse(decodeUtf8(bytes));
}
