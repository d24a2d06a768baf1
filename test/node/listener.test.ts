import { createServer, request as httpRequest, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import express from 'express';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createNodeListener } from '../../node/index';
import { createHandler, DecisionEngine, memoryStorage, type Handler } from '../../src/index';
import { bodyReader, RequestAbortedError } from '../../src/body';
import { respond } from '../../src/http/respond';
import { config } from '../helpers/configs';

const servers: Server[] = [];
const listen = (server: Server): Promise<string> =>
  new Promise((resolve) => {
    servers.push(server);
    server.listen(0, '127.0.0.1', () => resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}`));
  });
afterAll(() => Promise.all(servers.map((s) => new Promise((r) => s.close(r)))));

// Counts undici Request/Response objects built while serving (the fast path builds none).
const OriginalRequest = globalThis.Request;
const OriginalResponse = globalThis.Response;
let built = 0;
afterEach(() => {
  globalThis.Request = OriginalRequest;
  globalThis.Response = OriginalResponse;
});
function countWebObjects(): void {
  built = 0;
  globalThis.Request = class extends OriginalRequest {
    constructor(...args: ConstructorParameters<typeof Request>) {
      super(...args);
      built++;
    }
  };
  globalThis.Response = class extends OriginalResponse {
    constructor(...args: ConstructorParameters<typeof Response>) {
      super(...args);
      built++;
    }
  };
}

// A client that builds no Web objects either (fetch would), and may send any Host header.
function send(
  url: string,
  method: string,
  body: string | undefined,
  headers: Record<string, string> = {},
): Promise<{ status: number; headers: Record<string, unknown>; text: string }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { method, headers }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (text += c));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, text }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

let handler: Handler;
beforeAll(async () => {
  const engine = new DecisionEngine({ storage: memoryStorage(), defaultEnvironment: 'prod' });
  await engine.load(config([{ id: 'c1', split: [100] }]), { environment: 'prod' });
  handler = createHandler({ decision: engine, maxBodyBytes: 1024 });
});

describe('createNodeListener', () => {
  it('serves a decision without building a Web Request, Response or stream, in one response with a Content-Length', async () => {
    const url = await listen(createServer(createNodeListener(handler)));
    countWebObjects();
    const res = await send(`${url}/v2/campaigns`, 'POST', '{"visitor_id":"v1"}', { 'content-type': 'application/json' });
    expect(res.status).toBe(200);
    expect(res.headers['content-length']).toBe(String(Buffer.byteLength(res.text)));
    expect(res.headers['transfer-encoding']).toBeUndefined();
    expect(res.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    expect(JSON.parse(res.text)).toMatchObject({ visitor_id: 'v1', campaigns: [{ id: 'c1' }] });
    expect(built).toBe(0);
  });

  it("routes and reads the query from the node request's own target, as from its URL", async () => {
    const url = await listen(createServer(createNodeListener(handler)));
    const simple = await send(`${url}/v2/campaigns?mode=simple`, 'POST', '{"visitor_id":"v1"}', { 'content-type': 'application/json' });
    expect(simple.status).toBe(200);
    expect(JSON.parse(simple.text)).toHaveProperty('campaignsVariation');
    const bad = await send(`${url}/v2/campaigns?mode=odd`, 'POST', '{"visitor_id":"v1"}');
    expect(bad.status).toBe(400);
    expect((await send(`${url}/v2/campaigns#?mode=odd`, 'POST', '{"visitor_id":"v1"}')).status).toBe(200);
    expect((await send(`${url}/v2/x/../campaigns?mode=simple`, 'POST', '{"visitor_id":"v1"}')).status).toBe(200);
    expect((await send(`${url}/nowhere?x=1`, 'GET', undefined)).status).toBe(404);
  });

  it('writes a Content-Length without touching a header record responses share', async () => {
    const shared = { 'content-type': 'text/plain' };
    let n = 0;
    const url = await listen(
      createServer(createNodeListener(async () => respond(n++ === 0 ? 'first' : null, n === 1 ? 200 : 204, shared))),
    );
    const first = await send(url, 'GET', undefined);
    expect(first.headers['content-length']).toBe('5');
    const second = await send(url, 'GET', undefined);
    expect(second.status).toBe(204);
    expect(second.headers['content-length']).toBeUndefined();
    expect(shared).toEqual({ 'content-type': 'text/plain' });
  });

  it('refuses a body over the route limit with 413 and keeps answering', async () => {
    const url = await listen(createServer(createNodeListener(handler)));
    const big = await fetch(`${url}/v2/campaigns`, { method: 'POST', body: JSON.stringify({ visitor_id: 'x'.repeat(5000) }) });
    expect(big.status).toBe(413);
    const chunked = await fetch(`${url}/v2/campaigns`, {
      method: 'POST',
      body: new Blob(['{"visitor_id":"', 'y'.repeat(5000), '"}']).stream(),
      duplex: 'half',
    } as RequestInit);
    expect(chunked.status).toBe(413);
    expect((await fetch(`${url}/v2/campaigns`, { method: 'POST', body: '{"visitor_id":"v"}' })).status).toBe(200);
  });

  it('reads the same bytes whether the body came whole with its headers or in pieces while the handler waited', async () => {
    const echo: Handler = async (request) => respond(await bodyReader(request, 1 << 20).text(), 200, { 'content-type': 'text/plain' });
    const url = new URL(await listen(createServer(createNodeListener(echo))));
    const body = `{"text":"${'é€𝄞'.repeat(3000)}"}`;
    const bytes = Buffer.from(body);
    expect((await send(url.href, 'POST', body)).text).toBe(body);
    // Chunked, cut inside multi-byte characters, the last piece after the handler started reading.
    const pieces = [bytes.subarray(0, 7), bytes.subarray(7, 20_001), bytes.subarray(20_001)];
    const text = await new Promise<string>((resolve, reject) => {
      const req = httpRequest(url, { method: 'POST' }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve(Buffer.concat(chunks).toString()));
      });
      req.on('error', reject);
      req.write(pieces[0]);
      req.write(pieces[1]);
      setTimeout(() => req.end(pieces[2]), 50);
    });
    expect(text).toBe(body);
  });

  it('a body the client never completes is a RequestAbortedError (status 499), whether the handler reads it before or after the client went away', async () => {
    for (const readAfterClose of [false, true]) {
      let gone!: () => void;
      const clientGone = new Promise<void>((r) => (gone = r));
      let outcome!: (value: unknown) => void;
      const read = new Promise<unknown>((r) => (outcome = r));
      const errors: unknown[] = [];
      const reading: Handler = async (request) => {
        if (readAfterClose) await clientGone;
        await bodyReader(request, 1000).text().then(outcome, outcome);
        return respond(null, 204);
      };
      const server = createServer(createNodeListener(reading, { onError: (e) => errors.push(e) }));
      server.on('connection', (socket) => socket.on('close', () => setTimeout(gone, 20)));
      const { port } = new URL(await listen(server));
      const socket = connect(Number(port), '127.0.0.1');
      socket.on('error', () => undefined);
      socket.write('POST /x HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\n{"a":');
      setTimeout(() => socket.destroy(), 50);
      // Bounded: a read that waits forever for a body that will never come is the failure.
      const error = await Promise.race([read, new Promise((r) => setTimeout(() => r('still waiting after 3 s'), 3_000))]);
      expect(error, `read ${readAfterClose ? 'after' : 'before'} the close`).toBeInstanceOf(RequestAbortedError);
      expect((error as RequestAbortedError).status).toBe(499);
      expect(errors).toEqual([]);
    }
  });

  it('uses a body Express already parsed, with the same depth limit as text', async () => {
    const app = express();
    app.use(express.json(), createNodeListener(handler));
    const url = await listen(createServer(app));
    const ok = await fetch(`${url}/v2/campaigns`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"visitor_id":"parsed"}',
    });
    expect(await ok.json()).toMatchObject({ visitor_id: 'parsed' });
    let deep: unknown = 1;
    for (let i = 0; i < 70; i++) deep = [deep];
    const tooDeep = await fetch(`${url}/v2/campaigns`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ visitor_id: 'v', context: { d: deep } }),
    });
    expect(tooDeep.status).toBe(400);
    expect(((await tooDeep.json()) as { message: string }).message).toMatch(/deeper than the limit of 64/);
  });

  it('answers HEAD without a body, a thrown error with a bare 500, and ignores a malformed Host', async () => {
    const url = await listen(createServer(createNodeListener(handler)));
    const head = await fetch(`${url}/health`, { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(await head.text()).toBe('');
    const errors: unknown[] = [];
    const failing = await listen(
      createServer(
        createNodeListener(
          async () => {
            throw new Error('secret detail');
          },
          { onError: (e) => errors.push(e) },
        ),
      ),
    );
    const res = await fetch(`${failing}/x`);
    expect(res.status).toBe(500);
    expect(await res.text()).toBe('{"message":"internal error"}');
    expect(errors).toHaveLength(1);
    let seen = '';
    const echo = await listen(createServer(createNodeListener(async (request) => ((seen = request.url), new Response('ok')))));
    await send(`${echo}/a?b=1`, 'GET', undefined, { host: 'evil/path' });
    expect(seen).toBe('http://localhost/a?b=1');
    await send(`${echo}/a`, 'GET', undefined, { host: 'shop.example:8080' });
    expect(seen).toBe('http://shop.example:8080/a');
  });

  it('rejects an origin with a path, and a coalesceWrites that is not a boolean', () => {
    expect(() => createNodeListener(handler, { origin: 'https://x.example/base' })).toThrow(/origin must be a scheme and host/);
    expect(() => createNodeListener(handler, { coalesceWrites: 'yes' as unknown as boolean })).toThrow(
      /coalesceWrites must be a boolean, got string/,
    );
  });

  it('with coalesceWrites, writes the responses ready in one turn together at its end, each whole and to its own request', async () => {
    const url = await listen(createServer(createNodeListener(handler, { coalesceWrites: true })));
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        send(`${url}/v2/campaigns`, 'POST', `{"visitor_id":"v${i}"}`, { 'content-type': 'application/json' }),
      ),
    );
    answers.forEach((res, i) => {
      expect(res.status).toBe(200);
      expect(res.headers['content-length']).toBe(String(Buffer.byteLength(res.text)));
      expect(JSON.parse(res.text)).toMatchObject({ visitor_id: `v${i}`, campaigns: [{ id: 'c1' }] });
    });
    const head = await send(`${url}/health`, 'HEAD', undefined);
    expect([head.status, head.text]).toEqual([200, '']);

    // A fake response records when it is written: after the handler answered, not before the
    // turn's check phase; a response that cannot be written is reported without losing the rest.
    const written: string[] = [];
    const errors: unknown[] = [];
    const fake = (name: string, fail = false) =>
      ({
        headersSent: false,
        writeHead() {
          if (fail) throw new TypeError('invalid header');
          return this;
        },
        end() {
          written.push(name);
        },
        destroy() {
          written.push(`${name} destroyed`);
        },
      }) as unknown as ServerResponse;
    const listener = createNodeListener(async () => respond('ok', 200, { 'content-type': 'text/plain' }), {
      coalesceWrites: true,
      onError: (e) => errors.push(e),
    });
    const request = (path: string) => ({ method: 'GET', url: path, headers: { host: 'x' } }) as unknown as IncomingMessage;
    await Promise.all([listener(request('/a'), fake('a')), listener(request('/b'), fake('b', true)), listener(request('/c'), fake('c'))]);
    expect(written).toEqual([]);
    await new Promise((resolve) => setImmediate(resolve));
    expect(written).toEqual(['a', 'b destroyed', 'c']);
    expect(errors).toHaveLength(1);
  });
});
