/**
 * A TypeScript helper script run as a child process (bundled once by compileScript, then
 * `node <bundle>`), driven by lines: wait for a line it prints, send it a line.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { compileScript } from './compile-script';

export interface ChildScript {
  readonly child: ChildProcess;
  /** Everything printed so far (stdout and stderr). */
  output(): string;
  /** Resolves with the match of the first stdout line (printed so far or later) matching `pattern` that was not returned before. */
  waitFor(pattern: RegExp, timeoutMs?: number): Promise<RegExpExecArray>;
  /** Writes a line to its stdin. */
  send(line: string): void;
  /** Resolves with the exit code (or signal) once it has exited and its output is all read. */
  readonly exited: Promise<number | string | null>;
}

export function runScript(script: string, args: string[], env: Record<string, string> = {}): ChildScript {
  const child = spawn(process.execPath, [compileScript(script), ...args], {
    env: { ...process.env, ...env },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let output = '';
  const lines: string[] = [];
  let consumed = 0;
  let partial = '';
  const waiters = new Set<() => void>();
  const exited = new Promise<number | string | null>((resolve) => child.on('close', (code, signal) => resolve(code ?? signal)));
  let done = false;
  void exited.then(() => {
    done = true;
    for (const w of waiters) w();
  });
  child.stdout!.on('data', (chunk: Buffer) => {
    const text = chunk.toString();
    output += text;
    partial += text;
    const parts = partial.split('\n');
    partial = parts.pop()!;
    lines.push(...parts);
    for (const w of waiters) w();
  });
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  // EPIPE when it exits while a line is on its way: the exit itself is what the caller sees.
  child.stdin!.on('error', () => undefined);
  return {
    child,
    output: () => output,
    exited,
    send(line) {
      // A child that already exited cannot read it: nothing to send.
      if (!done && child.exitCode === null && child.signalCode === null) child.stdin!.write(`${line}\n`);
    },
    waitFor(pattern, timeoutMs = 30_000) {
      return new Promise((resolve, reject) => {
        const check = () => {
          for (let i = consumed; i < lines.length; i++) {
            const m = pattern.exec(lines[i]!);
            if (m) {
              consumed = i + 1;
              finish();
              resolve(m);
              return;
            }
          }
          if (done) {
            finish();
            reject(new Error(`${script} exited before printing ${pattern}:\n${output}`));
          }
        };
        const timer = setTimeout(() => {
          finish();
          reject(new Error(`${script} did not print ${pattern} within ${timeoutMs} ms:\n${output}`));
        }, timeoutMs);
        const finish = () => {
          clearTimeout(timer);
          waiters.delete(check);
        };
        waiters.add(check);
        check();
      });
    },
  };
}
