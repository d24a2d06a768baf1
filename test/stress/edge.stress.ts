/**
 * The server edge of issue 23 under load, over real sockets: 1,000 bodies that never complete
 * leave the 5xx counters where they were; 1,000 slow-body sockets from one address leave
 * /health/live reachable from the others; no request target with a dot segment reaches another
 * route. Asserted by counting (metrics, statuses, log lines), never by timing.
 */
import { Writable } from 'node:stream';
import fc from 'fast-check';
import pino from 'pino';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { parseServeConfig } from '../../server/config';
import { serve, type RunningServer } from '../../server/serve';
import type { Socket } from 'node:net';
import { open, raw, untilClosed } from '../helpers/raw-http';

const figures: string[] = [];
afterAll(() => console.log(`\n${figures.join('\n')}\n`));

let running: RunningServer | undefined;
afterEach(async () => {
  await running?.close();
  running = undefined;
});

const levels = new Map<number, number>();
async function start(env: Record<string, string> = {}): Promise<number> {
  levels.clear();
  const stream = new Writable({
    write(chunk: Buffer, _e, done) {
      for (const line of chunk.toString().split('\n')) {
        if (line === '') continue;
        const level = (JSON.parse(line) as { level: number }).level;
        levels.set(level, (levels.get(level) ?? 0) + 1);
      }
      done();
    },
  });
  running = await serve(parseServeConfig([], { PORT: '0', ABKIT_STORAGE: 'memory', ABKIT_SHUTDOWN_TIMEOUT_MS: '500', ...env }), {
    logger: pino(stream),
    banner: () => undefined,
  });
  return Number(new URL(running.url).port);
}

/** The request counts of /metrics by status. */
async function countsByStatus(port: number): Promise<Map<string, number>> {
  const { text } = await raw(port, 'GET /metrics HTTP/1.1');
  const counts = new Map<string, number>();
  for (const m of text.matchAll(/^abkit_http_request_duration_seconds_count\{[^}]*status="(\d+)"\} (\d+)$/gm))
    counts.set(m[1]!, (counts.get(m[1]!) ?? 0) + Number(m[2]));
  return counts;
}
const fivexx = (counts: Map<string, number>) => [...counts].filter(([s]) => s.startsWith('5')).reduce((a, [, n]) => a + n, 0);

describe('aborted bodies', () => {
  it('1,000 bodies that never complete (closed by the client, or cut at the request timeout) add 1,000 to status 499 and nothing to 5xx', async () => {
    const port = await start({ ABKIT_REQUEST_TIMEOUT_MS: '1000', ABKIT_HEADERS_TIMEOUT_MS: '1000' });
    const before = await countsByStatus(port);
    const heads = [
      'POST /acme/token HTTP/1.1\r\nContent-Type: application/json',
      'POST /v2/events HTTP/1.1\r\nContent-Type: application/json',
      'POST /v2/activate HTTP/1.1\r\nContent-Type: application/json',
    ];
    const total = 1_000;
    const cutByServer = 100;
    // In groups of 100 sockets (within what one address may hold at once).
    for (let sent = 0; sent < total; sent += 100) {
      const sockets = await Promise.all(Array.from({ length: 100 }, () => open(port)));
      const closed = sockets.map(untilClosed);
      sockets.forEach((s, i) => s.write(`${heads[i % heads.length]}\r\nHost: x\r\nContent-Length: 1000\r\n\r\n{"a":`));
      // The last group waits for the server's request timeout; the others leave.
      if (sent + 100 <= total - cutByServer) {
        await new Promise((r) => setTimeout(r, 20));
        for (const s of sockets) s.destroy();
      }
      await Promise.all(closed);
    }
    // Every abort counted (the server hears each close on its own turn).
    let after = await countsByStatus(port);
    for (let i = 0; i < 100 && (after.get('499') ?? 0) - (before.get('499') ?? 0) < total; i++) {
      await new Promise((r) => setTimeout(r, 50));
      after = await countsByStatus(port);
    }
    figures.push(
      `aborted bodies: ${total} sent (${cutByServer} cut at the 1 s request timeout): status 499 +${(after.get('499') ?? 0) - (before.get('499') ?? 0)}, 5xx +${fivexx(after) - fivexx(before)}, log lines at warn or above: ${[...levels].filter(([l]) => l >= 40).reduce((a, [, n]) => a + n, 0)}`,
    );
    expect((after.get('499') ?? 0) - (before.get('499') ?? 0)).toBe(total);
    expect(fivexx(after)).toBe(fivexx(before));
    expect([...levels].filter(([l]) => l >= 40)).toEqual([]);
  });
});

describe('one address floods the connections', () => {
  it('1,000 slow-body sockets from 127.0.0.2 hold at most its limit; /health/live answers the others throughout', async () => {
    const port = await start();
    const flood: Socket[] = [];
    const closed: Promise<string>[] = [];
    let served = 0;
    for (let i = 0; i < 1_000; i++) {
      const socket = await open(port, '127.0.0.2').catch(() => undefined);
      if (!socket) continue;
      flood.push(socket);
      closed.push(untilClosed(socket));
      socket.write('POST /acme/token HTTP/1.1\r\nHost: x\r\nContent-Length: 1000\r\n\r\n{');
      // Another address asks now and then while the flood grows.
      if (i % 100 === 99) {
        const live = await raw(port, 'GET /health/live HTTP/1.1', `127.0.0.${3 + (i % 7)}`);
        expect(live.status).toBe(200);
        served++;
      }
    }
    const { text } = await raw(port, 'GET /metrics HTTP/1.1', '127.0.0.3');
    const refused = Number(/^abkit_connections_refused_total (\d+)$/m.exec(text)?.[1]);
    const still = flood.filter((s) => !s.destroyed && !s.readableEnded).length;
    figures.push(
      `connection flood: 1,000 sockets from 127.0.0.2: ${refused} refused with 429, ${still} held (limit 256); /health/live from other addresses: ${served}/10 answered 200`,
    );
    expect(refused).toBe(1_000 - 256);
    expect(still).toBeLessThanOrEqual(256);
    expect((await raw(port, 'GET /health/live HTTP/1.1', '127.0.0.1')).status).toBe(200);
    for (const s of flood) s.destroy();
    await Promise.all(closed);
  });
});

describe('dot segments', () => {
  it('no target with a . or .. segment, encoded or not, is served: 2,000 generated targets all 404', async () => {
    const port = await start();
    const dot = fc.constantFrom('.', '..', '%2e', '%2E', '%2e%2e', '%2E%2e', '.%2e', '%2e.', '.%2E');
    const name = fc.constantFrom('v2', 'metrics', 'health', 'live', 'ready', 'search', 'campaigns', 'token', 'indexes', 'catalog', 'x');
    const target = fc
      .tuple(
        fc.array(fc.oneof(name, dot), { minLength: 0, maxLength: 4 }),
        dot,
        fc.array(fc.oneof(name, dot), { minLength: 0, maxLength: 4 }),
        fc.constantFrom('', '?x=1', '?access_token=t'),
        fc.boolean(),
      )
      .map(([a, d, b, query, absolute]) => `${absolute ? 'http://127.0.0.1' : ''}/${[...a, d, ...b].join('/')}${query}`);
    const statuses = new Map<number, number>();
    for (const t of fc.sample(target, 2_000)) {
      const { status, text } = await raw(port, `GET ${t} HTTP/1.1`);
      statuses.set(status, (statuses.get(status) ?? 0) + 1);
      expect(status, t).toBe(404);
      expect(text, t).not.toContain('abkit_');
    }
    figures.push(`dot segments: 2,000 generated targets: ${[...statuses].map(([s, n]) => `${n}x ${s}`).join(', ')}`);
  });
});
