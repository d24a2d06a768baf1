/**
 * The demo server (examples/server.ts, what `npm start` runs) as a child process, for tests that
 * need real separate processes: started on a free port, its URL read from what it prints.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { compileScript } from './compile-script';

/** A running demo server process. */
export interface ServerProcess {
  /** Base URL, e.g. `http://127.0.0.1:40123`. */
  readonly url: string;
  readonly child: ChildProcess;
  /** Everything it printed so far (stdout and stderr). */
  output(): string;
  /** SIGTERM, then waits for the exit (SIGKILL after `graceMs`); resolves with the exit code or signal. */
  stop(graceMs?: number): Promise<number | string | null>;
}

/** Starts examples/server.ts (bundled once, see compileScript) with `env` on PORT=0, HOST=127.0.0.1. */
export function startServer(env: Record<string, string>, timeoutMs = 30_000): Promise<ServerProcess> {
  const child = spawn(process.execPath, [compileScript('examples/server.ts')], {
    env: { ...process.env, PORT: '0', HOST: '127.0.0.1', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  let exited: { code: number | null; signal: string | null } | undefined;
  const exit = new Promise<number | string | null>((resolve) => {
    child.on('exit', (code, signal) => {
      exited = { code, signal };
      resolve(code ?? signal);
    });
  });
  const server = (url: string): ServerProcess => ({
    url,
    child,
    output: () => output,
    stop: (graceMs = 5000) => (exited ? Promise.resolve(exited.code ?? exited.signal) : stopProcess(child, exit, graceMs)),
  });
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`server did not start within ${timeoutMs} ms:\n${output}`));
    }, timeoutMs);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const m = /on (http:\/\/127\.0\.0\.1:\d+)/.exec(output);
      // The URL line comes first, then the example requests: wait for one of them.
      if (m && output.includes('curl -s -XPOST')) {
        clearTimeout(timer);
        resolve(server(m[1]!));
      }
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    void exit.then((code) => {
      clearTimeout(timer);
      reject(new Error(`server exited with ${code} before printing its URL:\n${output}`));
    });
  });
}

/** SIGTERM, then waits for `exit` (the child's exit event); SIGKILL after `graceMs`. Resolves with the exit code or signal. */
export async function stopProcess<T>(child: ChildProcess, exit: Promise<T>, graceMs = 5000): Promise<T> {
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
  try {
    return await exit;
  } finally {
    clearTimeout(timer);
  }
}

/** Polls `probe` every `everyMs` until it returns true or `withinMs` passes; returns the elapsed ms, or throws with `what`. */
export async function eventually(what: string, probe: () => Promise<boolean>, withinMs: number, everyMs = 100): Promise<number> {
  const start = Date.now();
  let last: unknown;
  for (;;) {
    try {
      if (await probe()) return Date.now() - start;
      last = undefined;
    } catch (error) {
      last = error;
    }
    if (Date.now() - start > withinMs) {
      throw new Error(`${what}: not within ${withinMs} ms${last ? ` (last error: ${(last as Error).message})` : ''}`);
    }
    await new Promise((r) => setTimeout(r, everyMs));
  }
}
