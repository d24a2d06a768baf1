/**
 * The server's edge against clients that misbehave, over real sockets: bodies that never
 * complete, one address opening many connections, dot segments in the request target.
 */
import { Writable } from 'node:stream';
import pino from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { parseServeConfig } from '../../server/config';
import { addressKey } from '../../server/connections';
import { serve, type RunningServer } from '../../server/serve';
import type { Socket } from 'node:net';
import { open, raw, untilClosed } from '../helpers/raw-http';

let running: RunningServer | undefined;
let logs = '';
afterEach(async () => {
  await running?.close();
  running = undefined;
});

async function start(env: Record<string, string> = {}): Promise<{ port: number; url: string }> {
  logs = '';
  const stream = new Writable({ write: (chunk, _e, done) => ((logs += chunk.toString()), done()) });
  running = await serve(parseServeConfig([], { PORT: '0', ABKIT_STORAGE: 'memory', ABKIT_SHUTDOWN_TIMEOUT_MS: '200', ...env }), {
    logger: pino(stream),
    banner: () => undefined,
  });
  return { port: Number(new URL(running.url).port), url: running.url };
}
const logLines = () =>
  logs
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => JSON.parse(l) as Record<string, unknown>);

const metricsText = async (port: number) => (await raw(port, 'GET /metrics HTTP/1.1')).text;

describe('a request whose body never completes', () => {
  it('is logged at info as aborted and counted under 499, never as a 5xx or an error', async () => {
    const { port } = await start();
    const aborted = 20;
    for (let i = 0; i < aborted; i++) {
      const socket = await open(port);
      const closed = untilClosed(socket);
      // Half of the declared body, then the client goes away.
      socket.write(
        'POST /acme/token HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"grant_type":"cl',
      );
      await new Promise((r) => setTimeout(r, 5));
      socket.destroy();
      await closed;
    }
    const text = await (async () => {
      // The server sees each close on its own turn: wait until it has counted them all.
      for (let i = 0; i < 100; i++) {
        const t = await metricsText(port);
        if (new RegExp(`status="499"\\} ${aborted}$`, 'm').test(t)) return t;
        await new Promise((r) => setTimeout(r, 20));
      }
      return metricsText(port);
    })();
    expect(text).toMatch(
      new RegExp(`^abkit_http_request_duration_seconds_count\\{method="POST",route="/:account_id/token",status="499"\\} ${aborted}$`, 'm'),
    );
    expect(text).not.toMatch(/status="5\d\d"/);
    const lines = logLines();
    expect(lines.filter((l) => l.msg === 'request aborted' && l.level === 30 && l.status === 499)).toHaveLength(aborted);
    expect(lines.filter((l) => (l.level as number) >= 40)).toEqual([]);
  });
});

describe('the per-address connection limit', () => {
  it('keys IPv4 addresses as they are and IPv6 ones by their /64', () => {
    expect(addressKey('203.0.113.9')).toBe('203.0.113.9');
    expect(addressKey('::ffff:203.0.113.9')).toBe('203.0.113.9');
    expect(addressKey('2001:db8:1:2:aaaa::1')).toBe('2001:db8:1:2::/64');
    expect(addressKey('2001:0db8:0001:0002:ffff:ffff:ffff:ffff')).toBe('2001:db8:1:2::/64');
    expect(addressKey('::1')).toBe('0:0:0:0::/64');
    expect(addressKey('fe80::1%eth0')).toBe('fe80:0:0:0::/64');
  });

  it('refuses one address past its limit with a 429 naming it, and keeps serving the others', async () => {
    const { port } = await start({ ABKIT_MAX_CONNECTIONS: '8', ABKIT_MAX_CONNECTIONS_PER_IP: '4' });
    // One client opens more sockets than the whole cap, each starting a body it never finishes.
    const flood: Socket[] = [];
    const answers: Promise<string>[] = [];
    for (let i = 0; i < 12; i++) {
      const socket = await open(port, '127.0.0.2');
      flood.push(socket);
      answers.push(untilClosed(socket));
    }
    // The server has seen them all once it has answered one more request from elsewhere.
    const live = await raw(port, 'GET /health/live HTTP/1.1');
    expect(live.status).toBe(200);
    expect(live.text).toContain('{"status":"ok"}');
    for (const socket of flood) socket.write('POST /acme/token HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\n{');
    const closed = await Promise.race([Promise.all(answers.slice(4)), new Promise<undefined>((r) => setTimeout(r, 5_000))]);
    expect(closed, 'the 8 sockets past the limit are closed').toBeDefined();
    for (const text of closed!)
      expect(
        text === '' || /^HTTP\/1\.1 429 Too Many Requests\r\n[\s\S]*at most 4 at once \(ABKIT_MAX_CONNECTIONS_PER_IP\)/.test(text),
        text,
      ).toBe(true);
    expect(closed!.filter((t) => t.startsWith('HTTP/1.1 429')).length).toBeGreaterThan(0);
    // The four within the limit are still open, waiting for their bodies, and another address
    // is served as before.
    for (const socket of flood.slice(0, 4)) expect(socket.destroyed).toBe(false);
    expect((await raw(port, 'GET /health/live HTTP/1.1', '127.0.0.3')).status).toBe(200);
    expect(await metricsText(port)).toMatch(/^abkit_connections_refused_total 8$/m);
    // Once one of its connections closes, the address may open another.
    flood[0]!.destroy();
    await answers[0];
    await new Promise((r) => setTimeout(r, 20));
    expect((await raw(port, 'GET /health/live HTTP/1.1', '127.0.0.2')).status).toBe(200);
    for (const socket of flood) socket.destroy();
  });
});

describe('dot segments in the request target', () => {
  it('never resolve to another route: each is a 404, the metrics stay unreachable through them', async () => {
    const { port } = await start();
    const targets = [
      '/v2/../metrics',
      '/search/%2e%2e/metrics',
      '/search/%2E%2E/metrics',
      '/search/.%2e/metrics',
      '/v2/./../metrics',
      '/v2/%2e/%2e%2e/metrics',
      '/health/live/../../metrics',
      '/v2/..',
      '/health/./live',
      '/health/%2e/live',
      '/metrics/.',
      '/metrics/..?x=1',
      'http://127.0.0.1/v2/../metrics',
      'http://127.0.0.1/search/%2e%2e/metrics?x=1',
    ];
    for (const target of targets) {
      const { status, text } = await raw(port, `GET ${target} HTTP/1.1`);
      expect(status, target).toBe(404);
      expect(text, target).not.toContain('abkit_');
    }
    // Segments that only look like dot segments are plain names.
    expect((await raw(port, 'GET /health/live HTTP/1.1')).status).toBe(200);
    expect((await raw(port, 'GET /v2/x.y/../metrics HTTP/1.1')).status).toBe(404);
    expect((await raw(port, 'GET /metrics HTTP/1.1')).text).toContain('abkit_');
  });
});
