import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { stopProcess } from '../helpers/server-process';

// Each child with its exit: afterAll waits for every one to be gone (SIGKILL after a grace
// period), so no server outlives the run.
const children: { child: ChildProcess; exit: Promise<number | string | null> }[] = [];
afterAll(async () => {
  await Promise.all(
    children.map(({ child, exit }) => (child.exitCode !== null || child.signalCode !== null ? exit : stopProcess(child, exit, 5000))),
  );
});

function track(child: ChildProcess): Promise<number | string | null> {
  const exit = new Promise<number | string | null>((resolve) => child.once('exit', (code, signal) => resolve(code ?? signal)));
  children.push({ child, exit });
  return exit;
}

/** Starts examples/server.ts (what `npm start` runs) on a free port and returns its base URL. */
async function start(env: Record<string, string> = {}): Promise<string> {
  return (await startChild(env)).base;
}

async function startChild(
  env: Record<string, string> = {},
): Promise<{ base: string; child: ChildProcess; exit: Promise<number | string | null>; output: () => string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'examples/server.ts'], {
    // A fresh SQLite file per server: the default storage, without touching the repo's .abkit/.
    env: {
      ...process.env,
      PORT: '0',
      HOST: '127.0.0.1',
      ABKIT_STORAGE: `sqlite:${join(mkdtempSync(join(tmpdir(), 'abkit-server-')), 'abkit.db')}`,
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const exit = track(child);
  let output = '';
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`server did not start:\n${output}`)), 20_000);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const m = /on (http:\/\/127\.0\.0\.1:\d+)/.exec(output);
      if (m && output.includes('curl -s -XPOST')) {
        clearTimeout(timer);
        resolve({ base: m[1]!, child, exit, output: () => output });
      }
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`server exited with ${code}:\n${output}`));
    });
  });
}

describe('demo server (npm start)', () => {
  it('answers /v2/campaigns with campaigns from the demo environment', async () => {
    const base = await start();
    const res = await fetch(`${base}/v2/campaigns`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ visitor_id: 'v1', context: {} }),
    });
    expect(res.status).toBe(200);
    const body = (await res.json()) as { visitor_id: string; campaigns: { id: string }[]; panic: boolean };
    expect(body.visitor_id).toBe('v1');
    expect(body.panic).toBe(false);
    expect(body.campaigns.map((c) => c.id)).toContain('checkout-button');
    const gold = (await (
      await fetch(`${base}/v2/campaigns`, { method: 'POST', body: JSON.stringify({ visitor_id: 'v1', context: { plan: 'Gold' } }) })
    ).json()) as { campaigns: { id: string }[] };
    expect(gold.campaigns.map((c) => c.id)).toContain('vip-free-shipping');
  });

  it('honours ABKIT_BOOTSTRAP, with bucketing files relative to it', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'abkit-boot-'));
    writeFileSync(join(dir, 'staging.json'), JSON.stringify({ panic: true, campaigns: [] }));
    writeFileSync(
      join(dir, 'bootstrap.json'),
      JSON.stringify({ accounts: [{ id: 'acme', environments: [{ id: 'staging', default: true, bucketingFile: 'staging.json' }] }] }),
    );
    const base = await start({ ABKIT_BOOTSTRAP: join(dir, 'bootstrap.json') });
    const res = await fetch(`${base}/v2/campaigns`, { method: 'POST', body: '{"visitor_id":"v"}' });
    expect(await res.json()).toEqual({ visitor_id: 'v', campaigns: [], panic: true });
  });

  it('logs one JSON line per request and, on SIGTERM, finishes the request in flight before closing', async () => {
    const { base, child, output } = await startChild();
    await fetch(`${base}/v2/campaigns`, { method: 'POST', body: '{"visitor_id":"v1"}', headers: { 'x-request-id': 'req-42' } });
    await new Promise((r) => setTimeout(r, 200));
    const lines = output()
      .split('\n')
      .filter((l) => l.startsWith('{'))
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(lines).toContainEqual(
      expect.objectContaining({
        msg: 'request',
        reqId: 'req-42',
        method: 'POST',
        route: '/v2/campaigns',
        status: 200,
        ms: expect.any(Number),
        time: expect.any(String),
      }),
    );
    // A request whose body is still arriving when SIGTERM comes.
    let push!: (text: string) => void;
    let end!: () => void;
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        push = (text) => controller.enqueue(new TextEncoder().encode(text));
        end = () => controller.close();
      },
    });
    const pending = fetch(`${base}/v2/campaigns`, { method: 'POST', body, duplex: 'half' } as RequestInit);
    push('{"visitor_id":');
    await new Promise((r) => setTimeout(r, 200));
    const exited = new Promise<number | null>((r) => child.on('exit', (code) => r(code)));
    child.kill('SIGTERM');
    await new Promise((r) => setTimeout(r, 200));
    push('"v2"}');
    end();
    const res = await pending;
    expect(res.status).toBe(200);
    expect(((await res.json()) as { visitor_id: string }).visitor_id).toBe('v2');
    expect(await exited).toBe(0);
    expect(output()).toMatch(/"msg":"draining"/);
    expect(output()).toMatch(/"msg":"closed"/);
  });

  it('prints no secret of the bootstrap file: placeholders, and where to find them', async () => {
    const { output } = await startChild();
    // The example lines follow the URL line: wait for the last one.
    for (let i = 0; i < 50 && !output().includes('-XPUT'); i++) await new Promise((r) => setTimeout(r, 100));
    const bootstrap = readFileSync('examples/demo/bootstrap.json', 'utf8');
    const secrets = [...bootstrap.matchAll(/"(clientSecret|catalogApiKey|searchApiKey|apiKey)"\s*:\s*"([^"]+)"/g)].map((m) => m[2]!);
    expect(secrets.length).toBeGreaterThan(1);
    for (const secret of secrets) expect(output()).not.toContain(secret);
    expect(output()).toContain('<CLIENT_SECRET>');
    expect(output()).toContain('<CATALOG_API_KEY>');
    expect(output()).toMatch(/CATALOG_API_KEY: catalogs\[0\]\.catalogApiKey in .*bootstrap\.json/);
  });
});

/** Opens a raw connection; resolves with it once connected. */
function open(base: string): Promise<Socket> {
  const { hostname, port } = new URL(base);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname, () => resolve(socket));
    socket.once('error', reject);
  });
}

/** Resolves with what the server sent, and after how many ms, once it closes the connection. */
function closed(socket: Socket): Promise<{ received: string; afterMs: number }> {
  const started = Date.now();
  let received = '';
  socket.on('data', (chunk) => (received += chunk.toString()));
  return new Promise((resolve) => socket.once('close', () => resolve({ received, afterMs: Date.now() - started })));
}

describe('demo server start-up errors', () => {
  it('a database it cannot open is one line naming the path and the cause, and exit code 1', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'abkit-ro-'));
    writeFileSync(join(dir, 'file'), 'x');
    const child = spawn(process.execPath, ['--import', 'tsx', 'examples/server.ts'], {
      env: { ...process.env, PORT: '0', ABKIT_STORAGE: `sqlite:${join(dir, 'file', 'abkit.db')}` },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    track(child);
    let stderr = '';
    child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
    expect(code).toBe(1);
    expect(stderr.trim()).toMatch(/^abkit: cannot start: cannot open the SQLite database ".*\/file\/abkit\.db": E[A-Z]+/);
    expect(stderr).not.toMatch(/^\s+at /m);
  });
});

describe('demo server limits on slow and greedy clients', () => {
  it('a body dripping one byte at a time is cut off at the request timeout', async () => {
    const base = await start({ ABKIT_REQUEST_TIMEOUT_MS: '1500', ABKIT_HEADERS_TIMEOUT_MS: '1000' });
    const socket = await open(base);
    const done = closed(socket);
    socket.write('POST /v2/campaigns HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n');
    const drip = setInterval(() => !socket.destroyed && socket.write('{'), 100);
    const { received, afterMs } = await done;
    clearInterval(drip);
    expect(received).toMatch(/^HTTP\/1\.1 408/);
    expect(afterMs).toBeLessThan(5000);
  });

  it('headers that never end are cut off at the headers timeout', async () => {
    const base = await start({ ABKIT_HEADERS_TIMEOUT_MS: '1000' });
    const socket = await open(base);
    const done = closed(socket);
    socket.write('GET /health HTTP/1.1\r\nHost: x\r\n');
    const drip = setInterval(() => !socket.destroyed && socket.write('X-A: b\r\n'), 100);
    const { afterMs } = await done;
    clearInterval(drip);
    expect(afterMs).toBeLessThan(4000);
  });

  it('connections past ABKIT_MAX_CONNECTIONS are closed at once; the open ones keep working', async () => {
    const base = await start({ ABKIT_MAX_CONNECTIONS: '2' });
    const held = [await open(base), await open(base)];
    const extra = await open(base);
    const { received } = await closed(extra);
    expect(received).toBe('');
    held[0]!.write('GET /health HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n');
    expect((await closed(held[0]!)).received).toMatch(/^HTTP\/1\.1 200/);
    held[1]!.destroy();
  });

  it('a large body refused before it is read gets its 401 or 413, not a connection reset', async () => {
    const base = await start();
    for (const [head, status] of [
      ['PUT /indexes/catalog/x HTTP/1.1\r\nAuthorization: Bearer wrong', 401],
      ['POST /v2/campaigns HTTP/1.1\r\nContent-Type: application/json', 413],
    ] as const) {
      const socket = await open(base);
      let reset: unknown;
      socket.on('error', (error) => (reset = error));
      const size = 20 * 1024 * 1024;
      const answer = new Promise<string>((resolve) => {
        let received = '';
        socket.on('data', (chunk) => {
          received += chunk.toString();
          if (received.includes('\r\n\r\n')) resolve(received);
        });
      });
      socket.write(`${head}\r\nHost: x\r\nContent-Length: ${size}\r\n\r\n`);
      // Send the whole body before reading, as simple clients do.
      const chunk = Buffer.alloc(1024 * 1024, 0x61);
      for (let sent = 0; sent < size && reset === undefined; sent += chunk.length) {
        if (!socket.write(chunk)) await new Promise((r) => socket.once('drain', r));
      }
      expect(reset).toBeUndefined();
      expect(await answer).toMatch(new RegExp(`^HTTP/1\\.1 ${status}`));
      socket.destroy();
    }
  });
});

describe('demo server shutdown', () => {
  /** A connection whose request body never finishes arriving. */
  async function stuckRequest(base: string): Promise<Socket> {
    const socket = await open(base);
    socket.on('error', () => undefined);
    socket.write('POST /v2/campaigns HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"visitor_id":');
    return socket;
  }

  it('a request stuck in flight does not keep it alive: SIGTERM exits cleanly soon after ABKIT_SHUTDOWN_TIMEOUT_MS', async () => {
    const { base, child, exit, output } = await startChild({ ABKIT_SHUTDOWN_TIMEOUT_MS: '300' });
    const socket = await stuckRequest(base);
    const done = closed(socket);
    await new Promise((r) => setTimeout(r, 100));
    const started = Date.now();
    child.kill('SIGTERM');
    expect(await exit, output()).toBe(0);
    // The default timeout is 10 s and each later step is bounded by 1 s.
    expect(Date.now() - started).toBeLessThan(5000);
    await done;
  });

  it('a second SIGTERM or SIGINT during the drain ends it at once', async () => {
    const { base, child, exit, output } = await startChild({ ABKIT_SHUTDOWN_TIMEOUT_MS: '60000' });
    const socket = await stuckRequest(base);
    await new Promise((r) => setTimeout(r, 100));
    child.kill('SIGTERM');
    for (let i = 0; i < 100 && !output().includes('"msg":"draining"'); i++) await new Promise((r) => setTimeout(r, 50));
    child.kill('SIGINT');
    expect(await exit).toBe('SIGINT');
    socket.destroy();
  });

  it('exits after SIGTERM even when nobody reads its output', async () => {
    const { base, child, exit } = await startChild({ ABKIT_SHUTDOWN_TIMEOUT_MS: '300' });
    // Stop reading its stdout and stderr, then log requests until the pipe is full and a write
    // is waiting: pino's synchronous flush at exit used to retry that write forever.
    child.stdout!.pause();
    child.stderr!.pause();
    for (let i = 0; i < 1500; i++) await (await fetch(`${base}/health`)).arrayBuffer();
    const started = Date.now();
    child.kill('SIGTERM');
    const code = await Promise.race([exit, new Promise((r) => setTimeout(() => r('still running'), 8000))]);
    child.stdout!.resume();
    child.stderr!.resume();
    expect(code).toBe(0);
    expect(Date.now() - started).toBeLessThan(8000);
  });
});
