import type { IncomingMessage } from 'node:http';
import { Readable } from 'node:stream';
import fc from 'fast-check';
import { describe, expect, it, vi } from 'vitest';
import { type AbkitError, AuthenticationError, ValidationError } from '../../src/errors';
import { bearerToken, MalformedAuthorizationError, optionalBearerToken } from '../../src/http/bearer';
import { bodyReader } from '../../src/body';
import { json } from '../../src/http/respond';
import { handlerOf, normalizePrefix, requestPath, routeTable, type RouteContext, type RouteSpec } from '../../src/http/router';
import { nodeRequest } from '../../node/request';

const TABLE = [
  { method: 'GET', path: '/things', name: 'list' },
  { method: 'POST', path: '/things', name: 'create' },
  { method: 'GET', path: '/things/special', name: 'special' },
  { method: 'GET', path: '/things/:id', name: 'one' },
  { method: 'DELETE', path: '/things/:id', name: 'remove' },
  { method: 'POST', path: '/things/:id/boom', name: 'boom' },
] as const satisfies readonly RouteSpec[];

function setup(prefix?: string) {
  const onError = vi.fn();
  const seen: { name: string; params: Record<string, string> }[] = [];
  const ok = (name: string) => async (c: RouteContext) => {
    seen.push({ name, params: { ...c.params } });
    return json({ name, params: c.params }, 200, { etag: '"1"' });
  };
  const routes = routeTable(
    TABLE,
    {
      list: ok('list'),
      create: async ({ body }) => json({ got: await body.json() }, 201),
      special: ok('special'),
      one: ok('one'),
      remove: ok('remove'),
      boom: async () => {
        throw new Error('secret internals');
      },
    },
    {
      prefix,
      maxBodyBytes: 16,
      onError,
      render: (e: AbkitError, route) => json({ code: e.code, text: e.message, route: route.name }, e.status),
    },
  );
  return { handler: handlerOf([routes]), onError, seen };
}

const call = (handler: (r: Request) => Promise<Response>, method: string, path: string, init: RequestInit = {}) =>
  handler(new Request(`http://x${path}`, { method, ...init }));

describe('route table dispatch', () => {
  it('serves the first declared route whose pattern and method match, with decoded parameters', async () => {
    const { handler, seen } = setup();
    expect(await (await call(handler, 'GET', '/things/special')).json()).toMatchObject({ name: 'special' });
    expect(await (await call(handler, 'GET', '/things/a%20b%2Fc')).json()).toEqual({ name: 'one', params: { id: 'a b/c' } });
    expect(await (await call(handler, 'DELETE', '/things/special')).json()).toEqual({ name: 'remove', params: { id: 'special' } });
    expect(seen.map((s) => s.name)).toEqual(['special', 'one', 'remove']);
  });

  it('405 in the interface format with Allow (HEAD after GET) for a method the path does not take', async () => {
    const { handler, seen } = setup();
    const res = await call(handler, 'PUT', '/things/special');
    expect(res.status).toBe(405);
    // Every route matching the path counts: the static GET and the parameterised GET, DELETE.
    expect(res.headers.get('allow')).toBe('GET, HEAD, DELETE');
    expect(await res.json()).toEqual({
      code: 'method_not_allowed',
      text: 'PUT is not allowed on /things/special; use GET, HEAD, DELETE',
      route: 'special',
    });
    expect((await call(handler, 'PATCH', '/things')).headers.get('allow')).toBe('GET, HEAD, POST');
    expect(seen).toEqual([]);
  });

  it('HEAD runs the GET route and sends its status and headers without the body', async () => {
    const { handler, seen } = setup();
    const res = await call(handler, 'HEAD', '/things/7');
    expect(res.status).toBe(200);
    expect(res.headers.get('etag')).toBe('"1"');
    expect(res.headers.get('content-type')).toBe('application/json');
    expect(await res.text()).toBe('');
    expect(seen).toEqual([{ name: 'one', params: { id: '7' } }]);
    expect((await call(handler, 'HEAD', '/things/7/boom')).status).toBe(405);
  });

  it('OPTIONS answers 204 with Allow from the table, without running a route', async () => {
    const { handler, seen } = setup();
    const res = await call(handler, 'OPTIONS', '/things/7');
    expect(res.status).toBe(204);
    expect(res.headers.get('allow')).toBe('GET, HEAD, DELETE, OPTIONS');
    expect((await call(handler, 'OPTIONS', '/things/7/boom')).headers.get('allow')).toBe('POST, OPTIONS');
    expect((await call(handler, 'OPTIONS', '/elsewhere')).status).toBe(404);
    expect(seen).toEqual([]);
  });

  it('404 { message } for paths no pattern matches: extra or empty segments, bad percent-encoding', async () => {
    const { handler } = setup();
    for (const path of ['/nothing', '/things/', '/things//boom', '/things/a/b', '/things/%E0%A4%A']) {
      const res = await call(handler, 'GET', path);
      expect(res.status, path).toBe(404);
      expect(await res.json()).toEqual({ message: `no route for GET ${new URL(`http://x${path}`).pathname}` });
    }
  });

  it('mounts under a prefix, and only there', async () => {
    const { handler } = setup('/api/v1/');
    expect((await call(handler, 'GET', '/api/v1/things')).status).toBe(200);
    expect((await call(handler, 'GET', '/things')).status).toBe(404);
    expect((await call(handler, 'GET', '/api/things')).status).toBe(404);
  });

  it('refuses a prefix the patterns would read as a parameter or wildcard', () => {
    expect(normalizePrefix('/')).toBe('');
    expect(normalizePrefix('a//b/')).toBe('/a/b');
    for (const bad of ['/:tenant', '/a/*', '/{x}', '/a b']) expect(() => normalizePrefix(bad), bad).toThrow(/prefix/);
  });

  it('an unexpected error is reported once and rendered as the one 500, without its message', async () => {
    const { handler, onError } = setup();
    const res = await call(handler, 'POST', '/things/1/boom');
    expect(res.status).toBe(500);
    const text = await res.text();
    expect(JSON.parse(text)).toEqual({ code: 'server_error', text: 'internal error', route: 'boom' });
    expect(text).not.toContain('secret');
    expect(onError).toHaveBeenCalledTimes(1);
  });

  it('a renderer that throws is reported and the client gets a bare 500', async () => {
    const onError = vi.fn();
    const routes = routeTable(
      [TABLE[0]],
      {
        list: async () => {
          throw new ValidationError('bad');
        },
      },
      {
        maxBodyBytes: 1,
        onError,
        render: () => {
          throw new Error('renderer bug');
        },
      },
    );
    const res = await handlerOf([routes])(new Request('http://x/things'));
    expect([res.status, await res.json()]).toEqual([500, { message: 'internal error' }]);
    expect(onError).toHaveBeenCalledTimes(1);
  });

  it("applies the route's body limit", async () => {
    const { handler } = setup();
    expect(await (await call(handler, 'POST', '/things', { body: '{"a":1}' })).json()).toEqual({ got: { a: 1 } });
    const res = await call(handler, 'POST', '/things', { body: JSON.stringify({ a: 'x'.repeat(20) }) });
    expect(res.status).toBe(413);
    expect(await res.json()).toMatchObject({ code: 'payload_too_large', route: 'create' });
  });
});

/** A body stream that records how many chunks were pulled. */
function counted(chunks: number, size: number) {
  let pulled = 0;
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (pulled === chunks) return controller.close();
      pulled++;
      controller.enqueue(new Uint8Array(size).fill(0x61));
    },
  });
  return { stream, pulled: () => pulled };
}

const post = (body: BodyInit, headers: Record<string, string> = {}) =>
  new Request('http://x/', { method: 'POST', body, headers, duplex: 'half' } as RequestInit);

describe('body reader', () => {
  it('refuses a declared Content-Length over the limit before reading anything', async () => {
    const { stream, pulled } = counted(100, 1024);
    await expect(bodyReader(post(stream, { 'content-length': String(100 * 1024) }), 50_000).bytes()).rejects.toMatchObject({ status: 413 });
    expect(pulled()).toBeLessThanOrEqual(1);
  });

  it('streams a body without a length and stops at the limit', async () => {
    const { stream, pulled } = counted(100, 1024);
    await expect(bodyReader(post(stream), 4096).bytes()).rejects.toMatchObject({
      status: 413,
      message: 'request body exceeds the limit of 4096 bytes',
    });
    expect(pulled()).toBeLessThanOrEqual(6);
  });

  it('reads a body without a length that fits, across chunks', async () => {
    const { stream } = counted(3, 10);
    expect(await bodyReader(post(stream), 30).text()).toBe('a'.repeat(30));
  });

  it('never keeps more than the limit when a Content-Length understates the body', async () => {
    const { stream } = counted(4, 10);
    await expect(bodyReader(post(stream, { 'content-length': '5' }), 20).bytes()).rejects.toMatchObject({ status: 413 });
  });

  it('an empty or blank body is undefined; invalid JSON and invalid UTF-8 are 400s naming the body', async () => {
    expect(await bodyReader(new Request('http://x/', { method: 'POST' }), 10).json()).toBeUndefined();
    expect(await bodyReader(post('  \n'), 10).json()).toBeUndefined();
    await expect(bodyReader(post('{"a":'), 10).json()).rejects.toMatchObject({ status: 400, code: 'invalid_json' });
    await expect(bodyReader(post(new Uint8Array([0x7b, 0xff, 0x7d])), 10).text()).rejects.toMatchObject({
      status: 400,
      message: 'request body is not valid UTF-8',
    });
  });
});

describe('Bearer parser', () => {
  const withAuth = (value?: string) => new Request('http://x/', value === undefined ? {} : { headers: { authorization: value } });
  const tokenChar = fc.constantFrom(..."ABCxyz019-._~+/=!#$%&'*:;<>?@[]^`{|}".split(''));
  const token = fc.array(tokenChar, { minLength: 1, maxLength: 40 }).map((a) => a.join(''));

  it('reads the credentials after the scheme in any case and any number of spaces', () => {
    fc.assert(
      fc.property(token, fc.constantFrom('Bearer', 'bearer', 'BEARER', 'BeArEr'), fc.integer({ min: 1, max: 4 }), (t, scheme, spaces) => {
        expect(bearerToken(withAuth(`${scheme}${' '.repeat(spaces)}${t}`))).toBe(t);
      }),
    );
  });

  it('a header that is not exactly "Bearer <credentials>" is a 400 invalid_request', () => {
    fc.assert(
      fc.property(
        token,
        fc.constantFrom(
          (t: string) => `Basic ${t}`,
          (t: string) => t,
          (t: string) => `Bearer ${t} ${t}`,
          (t: string) => `Bearer "${t}"`,
          (t: string) => `Bearer${t}`,
          (t: string) => `Bearer ${t},x`,
        ),
        (t, shape) => {
          const header = shape(t);
          fc.pre(!/^bearer +[^\s",\\]+$/i.test(header));
          expect(() => optionalBearerToken(withAuth(header))).toThrow(MalformedAuthorizationError);
        },
      ),
    );
    for (const header of ['Bearer', 'Bearer ', '']) {
      const error = (() => {
        try {
          optionalBearerToken(withAuth(header));
        } catch (e) {
          return e;
        }
      })();
      expect(error, JSON.stringify(header)).toMatchObject({ status: 400, code: 'invalid_request' });
    }
  });

  it('no header: undefined for the optional form, a 401 missing_token otherwise', () => {
    expect(optionalBearerToken(withAuth())).toBeUndefined();
    expect(() => bearerToken(withAuth())).toThrow(AuthenticationError);
  });
});

describe('paths routed without parsing the URL', () => {
  it('route as the URL parser reads them: dot segments, percent-encoding and odd characters', async () => {
    const { handler } = setup();
    const segment = fc.constantFrom(
      'things',
      'special',
      '7',
      '.',
      '..',
      '%2E',
      '%2e%2E',
      'a%20b',
      '%7E',
      '~',
      '-_',
      'x.y',
      '',
      'é',
      'a b',
      '%',
      ':id',
    );
    await fc.assert(
      fc.asyncProperty(fc.array(segment, { minLength: 1, maxLength: 4 }), fc.constantFrom('', '?q=1', '#f'), async (segments, tail) => {
        const raw = `/${segments.join('/')}${tail}`;
        const normal = new URL(`http://x${raw}`).pathname;
        const [a, b] = await Promise.all([call(handler, 'GET', raw), call(handler, 'GET', normal)]);
        expect(a.status).toBe(b.status);
        expect(await a.text()).toBe(await b.text());
      }),
    );
  });

  it('a route that reads url gets the parsed URL with its query; params come decoded', async () => {
    const urls: string[] = [];
    const routes = routeTable(
      [
        { method: 'GET', path: '/a/:x', name: 'a' },
        { method: 'GET', path: '/b', name: 'b' },
      ] as const,
      { a: async ({ params }) => json(params), b: async ({ url }) => (urls.push(url.search), json({})) },
      { maxBodyBytes: 16, render: (e: AbkitError) => json({ message: e.message }, e.status) },
    );
    const handler = handlerOf([routes]);
    expect(await (await call(handler, 'GET', '/a/%C3%A9?z=1')).json()).toEqual({ x: 'é' });
    await call(handler, 'GET', '/b?k=v');
    expect(urls).toEqual(['?k=v']);
  });
});

describe('dot segments', () => {
  // A node request's target, as the client sent it (fetch and the URL parser would resolve it).
  const asSent = (url: string) =>
    nodeRequest(Object.assign(Readable.from([]), { url, method: 'GET', headers: { host: 'x' } }) as unknown as IncomingMessage);

  it('a target with a . or .. segment, percent-encoded or not, is a 404: never the route it resolves to', async () => {
    const { handler, seen } = setup();
    const targets = [
      '/things/../things/7',
      '/x/../things',
      '/things/%2e%2e/things/special',
      '/things/%2E%2e/things',
      '/things/.%2e/things',
      '/things/%2e./things',
      '/things/./7',
      '/things/%2e/7',
      '/things/7/.',
      '/things/7/..?q=1',
      '/things\\..\\things',
      '/things/.\t./things',
      'http://x/y/../things/7',
      'http://x/y/%2e%2e/things',
    ];
    for (const target of targets) {
      const res = await handler(asSent(target));
      expect(res.status, target).toBe(404);
      expect(await res.json(), target).toEqual({ message: expect.stringMatching(/^no route for GET /) });
    }
    expect(seen).toEqual([]);
    // Names with dots that are not dot segments are served, and as sent: a proxy sees them so too.
    for (const id of ['..x', 'x..', '...', '.x', '%2e%2e%2e', '%2e%2ex']) {
      expect(await (await handler(asSent(`/things/${id}`))).json(), id).toEqual({ name: 'one', params: { id: decodeURIComponent(id) } });
    }
    expect(requestPath(asSent('/a/%2e%2e/things'))).toBe('/a/%2e%2e/things');
  });

  it('a Request has none left (its URL is resolved when built): it is routed as resolved', async () => {
    const { handler } = setup();
    expect(await (await call(handler, 'GET', '/x/../things/7')).json()).toEqual({ name: 'one', params: { id: '7' } });
  });
});

describe('RouteContext.query', () => {
  const QUERY_TABLE = [{ method: 'GET', path: '/q', name: 'q' }] as const satisfies readonly RouteSpec[];
  const handler = handlerOf([
    routeTable(
      QUERY_TABLE,
      { q: async ({ query, url }) => json({ query: [...query], url: [...url.searchParams] }) },
      { maxBodyBytes: 16, render: (e) => json({ message: e.message }, e.status) },
    ),
  ]);
  // A node request's URL is its raw request target after the origin (not normalized by the URL parser).
  const raw = (href: string) => ({ method: 'GET', url: href, headers: new Headers() }) as unknown as Request;

  it('has the same entries as the URL parser gives, for any query text', async () => {
    const unit = fc.constantFrom(
      'a',
      'Z',
      '0',
      '=',
      '&',
      '+',
      '%',
      '%',
      '2',
      '0',
      'F',
      'c',
      'C',
      '3',
      'A',
      '9',
      'e',
      'é',
      '€',
      '😀',
      '\uD800',
      ' ',
      '\t',
      '"',
      "'",
      '<',
      '>',
      '`',
      '#',
      '?',
      '/',
      '[',
      ']',
      ';',
      '\x00',
      '\x7f',
    );
    await fc.assert(
      fc.asyncProperty(fc.string({ unit, maxLength: 16 }), async (text) => {
        const href = `http://abkit.test/q?${text}`;
        const body = (await (await handler(raw(href))).json()) as { query: string[][]; url: string[][] };
        expect(body.query).toEqual([...new URL(href).searchParams]);
        expect(body.query).toEqual(body.url);
      }),
      { numRuns: 1000 },
    );
  });

  it('is empty without a query string or when the query comes after a fragment', async () => {
    for (const href of ['http://abkit.test/q', 'http://abkit.test/q#a?b=1', 'http://abkit.test/q?']) {
      const body = (await (await handler(raw(href))).json()) as { query: string[][] };
      expect(body.query).toEqual([]);
    }
    const body = (await (await handler(raw('http://abkit.test/q?a=1#b=2'))).json()) as { query: string[][] };
    expect(body.query).toEqual([['a', '1']]);
  });
});

describe('requestPath', () => {
  it('gives the path routing reads, worked out once per request for a server edge and the router together', async () => {
    const { handler } = setup();
    let reads = 0;
    const request = new Request('http://localhost/things/7?x=1');
    const counted = new Proxy(request, {
      get(target, name) {
        if (name === 'url') reads++;
        const value = Reflect.get(target, name, target) as unknown;
        return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
      },
      set: (target, name, value) => Reflect.set(target, name, value, target),
    });
    expect(requestPath(counted)).toBe('/things/7');
    const res = await handler(counted);
    expect(await res.json()).toEqual({ name: 'one', params: { id: '7' } });
    expect(reads).toBe(1);
    expect(requestPath(new Request('http://localhost/a%20b/../c'))).toBe('/c');
  });
});
