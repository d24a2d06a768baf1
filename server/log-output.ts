/**
 * Where `abkit serve` writes its log lines: stdout, never waited on. Lines are handed to stdout
 * once per turn of the event loop; while stdout does not take them (a reader that stopped
 * reading) they wait up to a bound, and past it, or once stdout is gone (its reader closed it:
 * `abkit serve | head -3`), they are dropped and counted. Nothing here ever blocks the process:
 * not a request, not the exit.
 *
 * @module
 */

/**
 * Most characters of log lines waiting for stdout, handed to it or not yet (about as many bytes:
 * the lines are JSON, nearly all ASCII). At full speed the server writes well under 1 MiB of logs
 * a second, so a reader that stalls for a second loses nothing, and one that stopped reading
 * costs 1 MiB of memory, not all of it.
 */
export const MAX_PENDING_LOG_BYTES = 1_048_576;

/** The part of a writable stream the log output uses (process.stdout in the server). */
export interface LogStream {
  write(chunk: string, callback: (error?: Error | null) => void): boolean;
  readonly writableLength: number;
  on(event: 'error', listener: (error: Error) => void): unknown;
}

/** A pino destination that drops lines instead of waiting, see the module note. */
export interface LogOutput {
  /** Takes one line (pino calls it). */
  write(line: string): void;
  /** Lines dropped so far. */
  readonly dropped: number;
  /** Calls `listener` with every later drop, and at once with those so far. */
  onDropped(listener: (lines: number) => void): void;
  /**
   * Hands what waits to stdout and waits until it is written, at most `ms` (never rejects);
   * lines written later are dropped without being counted.
   */
  end(ms: number): Promise<void>;
}

/**
 * The log output over `stream`. On Linux, process.stdout on a pipe or a socket writes without
 * blocking (what it cannot write at once waits in memory), unlike a file descriptor written with
 * fs.write, whose thread stays blocked in write() while the pipe is full, and whose exit then
 * waits for that thread: the server ignored SIGTERM for as long as nobody read its stdout.
 *
 * @example
 * ```ts
 * const output = logOutput(process.stdout);
 * const logger = pino({}, output);
 * ```
 */
export function logOutput(stream: LogStream, maxPendingBytes = MAX_PENDING_LOG_BYTES): LogOutput {
  let pending = '';
  let pendingLines = 0;
  let scheduled = false;
  let broken = false;
  let ended = false;
  let dropped = 0;
  let listener: ((lines: number) => void) | undefined;
  // Resolved when the last batch handed to the stream is written (or failed).
  let lastWrite: Promise<void> = Promise.resolve();

  const drop = (lines: number) => {
    dropped += lines;
    listener?.(lines);
  };
  // Anything stdout fails with (EPIPE: its reader is gone) ends its use: later lines are dropped.
  stream.on('error', () => (broken = true));

  const flush = () => {
    scheduled = false;
    if (pendingLines === 0) return;
    const text = pending;
    const lines = pendingLines;
    pending = '';
    pendingLines = 0;
    if (broken) {
      drop(lines);
      return;
    }
    lastWrite = new Promise<void>((resolve) => {
      try {
        stream.write(text, (error) => {
          if (error) {
            broken = true;
            drop(lines);
          }
          resolve();
        });
      } catch {
        broken = true;
        drop(lines);
        resolve();
      }
    });
  };

  return {
    write(line) {
      if (ended) return;
      if (broken || stream.writableLength + pending.length + line.length > maxPendingBytes) {
        drop(1);
        return;
      }
      pending += line;
      pendingLines++;
      if (!scheduled) {
        scheduled = true;
        setImmediate(flush);
      }
    },
    get dropped() {
      return dropped;
    },
    onDropped(next) {
      listener = next;
      if (dropped > 0) next(dropped);
    },
    async end(ms) {
      flush();
      ended = true;
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([lastWrite, new Promise<void>((r) => (timer = setTimeout(r, ms)))]);
      clearTimeout(timer);
    },
  };
}
