/**
 * The server never blocks on its log output: with stdout full (nobody reads it) or closed by its
 * reader (`abkit serve | head -3`), log lines are dropped and counted, and SIGTERM still ends the
 * process within the shutdown timeout plus 2 s.
 */
import { execFileSync, spawn } from 'node:child_process';
import { closeSync, constants, mkdtempSync, openSync, rmSync } from 'node:fs';
import { Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { logOutput, type LogStream } from '../../server/log-output';
import { compileScript } from '../helpers/compile-script';
import { stopProcess } from '../helpers/server-process';

const turn = () => new Promise((r) => setImmediate(r));

describe('logOutput', () => {
  it('hands the lines of one turn to stdout in one write, and never waits for it', async () => {
    const written: string[] = [];
    const output = logOutput({ writableLength: 0, on: () => undefined, write: (text, done) => (written.push(text), done(), true) });
    output.write('a\n');
    output.write('b\n');
    expect(written).toEqual([]);
    await turn();
    expect(written).toEqual(['a\nb\n']);
    expect(output.dropped).toBe(0);
  });

  it('with stdout full, keeps lines up to its bound and drops (and counts) the rest', async () => {
    // A stdout that takes everything and writes nothing: what it holds grows.
    let held = 0;
    const full: LogStream = {
      on: () => undefined,
      get writableLength() {
        return held;
      },
      write: (text) => ((held += text.length), false),
    };
    const output = logOutput(full, 1000);
    const seen: number[] = [];
    output.onDropped((n) => seen.push(n));
    const line = `${'x'.repeat(99)}\n`;
    for (let i = 0; i < 25; i++) {
      output.write(line);
      if (i % 5 === 4) await turn();
    }
    expect(held).toBe(1000);
    expect(output.dropped).toBe(15);
    expect(seen.reduce((a, b) => a + b, 0)).toBe(15);
    // Ending waits for the last write at most as long as it is told.
    const ended = output.end(50);
    await expect(Promise.race([ended.then(() => 'ended'), new Promise((r) => setTimeout(() => r('waiting'), 2_000))])).resolves.toBe(
      'ended',
    );
  });

  it('once stdout fails (its reader closed it), counts the lines it lost and drops every later one', async () => {
    const errorListeners: ((e: Error) => void)[] = [];
    const closed: LogStream = {
      writableLength: 0,
      on: (_e, listener) => errorListeners.push(listener),
      write: (_text, done) => {
        const error = Object.assign(new Error('write EPIPE'), { code: 'EPIPE' });
        setImmediate(() => (done(error), errorListeners.forEach((l) => l(error))));
        return false;
      },
    };
    const output = logOutput(closed);
    output.write('1\n');
    output.write('2\n');
    await turn();
    await turn();
    expect(output.dropped).toBe(2);
    for (let i = 0; i < 10; i++) output.write(`${i}\n`);
    await turn();
    expect(output.dropped).toBe(12);
  });
});

// The server as `abkit serve` runs, its stdout a named pipe (as with `| head`), not a socket.
const SHUTDOWN_TIMEOUT_MS = 1_000;
const EXIT_BOUND_MS = SHUTDOWN_TIMEOUT_MS + 2_000;
const dir = mkdtempSync(join(tmpdir(), 'abkit-log-output-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let fifos = 0;
// Every server started, stopped even when a test fails half-way.
const stops = new Set<() => Promise<number>>();
afterEach(async () => {
  await Promise.all([...stops].map((stop) => stop()));
  stops.clear();
});

async function startWithPipe(): Promise<{ url: string; reader: Socket; stop: () => Promise<number> }> {
  const fifo = join(dir, `stdout-${fifos++}`);
  execFileSync('mkfifo', [fifo]);
  const readFd = openSync(fifo, constants.O_RDONLY | constants.O_NONBLOCK);
  const writeFd = openSync(fifo, constants.O_WRONLY);
  const child = spawn(process.execPath, [compileScript('server/cli.ts'), 'serve'], {
    env: { ...process.env, PORT: '0', HOST: '127.0.0.1', ABKIT_STORAGE: 'memory', ABKIT_SHUTDOWN_TIMEOUT_MS: String(SHUTDOWN_TIMEOUT_MS) },
    stdio: ['ignore', writeFd, 'pipe'],
  });
  closeSync(writeFd);
  const reader = new Socket({ fd: readFd, readable: true, writable: false });
  reader.pause();
  reader.on('error', () => undefined);
  const exit = new Promise<null>((resolve) => child.on('exit', () => resolve(null)));
  let stderr = '';
  child.stderr!.on('data', (c: Buffer) => (stderr += c.toString()));
  // SIGTERM, and how long the exit took (SIGKILL past twice the bound, so a wedge fails the
  // test instead of hanging it).
  const stop = async () => {
    stops.delete(stop);
    const t0 = Date.now();
    if (child.exitCode === null && child.signalCode === null) await stopProcess(child, exit, 2 * EXIT_BOUND_MS);
    reader.destroy();
    return Date.now() - t0;
  };
  stops.add(stop);
  const started = Date.now();
  let url: string | undefined;
  while (!(url = /on (http:\/\/127\.0\.0\.1:\d+)/.exec(stderr)?.[1])) {
    if (Date.now() - started > 20_000 || child.exitCode !== null) {
      await stop();
      throw new Error(`server did not start:\n${stderr}`);
    }
    await new Promise((r) => setTimeout(r, 20));
  }
  return { url, reader, stop };
}

const dropped = async (url: string) =>
  Number(/^abkit_log_lines_dropped_total (\d+)$/m.exec(await (await fetch(`${url}/metrics`)).text())?.[1] ?? NaN);

describe('abkit serve with a stdout nobody reads', () => {
  it('closed by its reader: drops and counts the lines, and exits on SIGTERM within the shutdown timeout + 2 s (5 tries)', async () => {
    for (let attempt = 0; attempt < 5; attempt++) {
      const server = await startWithPipe();
      // Read what came so far (the 'listening' line), then close the read end, as `head` does.
      server.reader.resume();
      await new Promise((r) => setTimeout(r, 50));
      server.reader.destroy();
      for (let i = 0; i < 20; i++) expect((await fetch(`${server.url}/health/live`)).status).toBe(200);
      await new Promise((r) => setTimeout(r, 20));
      expect(await dropped(server.url)).toBeGreaterThanOrEqual(20);
      expect(await server.stop()).toBeLessThan(EXIT_BOUND_MS);
    }
  });

  it('full: keeps answering, and exits on SIGTERM within the shutdown timeout + 2 s (3 tries)', async () => {
    for (let attempt = 0; attempt < 3; attempt++) {
      const server = await startWithPipe();
      // ~150 KiB of log lines, past the 64 KiB a pipe holds (the dropping past the bound of
      // what waits is counted in the tests of logOutput above).
      for (let i = 0; i < 10; i++) {
        // 100 at once (fetch may open twice as many sockets): within what one address may hold.
        const statuses = await Promise.all(Array.from({ length: 100 }, () => fetch(`${server.url}/health/live`).then((r) => r.status)));
        expect(statuses.filter((s) => s !== 200)).toEqual([]);
      }
      expect(await server.stop()).toBeLessThan(EXIT_BOUND_MS);
    }
  });
});
