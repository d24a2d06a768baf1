/**
 * Loading an environment's configuration from a bucketing-file URL (abkit's
 * `GET /v2/{envId}/bucketing.json`, or any server of the format) and keeping it fresh with
 * conditional requests, so a browser or an edge worker decides locally with abkit's engine.
 *
 * @module
 */
import { PayloadTooLargeError } from '../errors';
import { bodyReader, parseJsonBody } from '../body';

/**
 * Options of {@link abkit!DecisionEngine.loadFrom}.
 *
 * @example
 * ```ts
 * const options: BucketingSourceOptions = { environment: 'prod', headers: { 'x-api-key': key }, intervalMs: 30_000 };
 * const source = await engine.loadFrom('https://abkit.example.com/v2/prod/bucketing.json', options);
 * ```
 */
export interface BucketingSourceOptions {
  /** Environment the file is loaded into. @defaultValue the engine's `defaultEnvironment` */
  environment?: string;
  /**
   * Time between polls, in milliseconds, from {@link MIN_POLL_INTERVAL_MS} to
   * {@link MAX_POLL_INTERVAL_MS}; `0` loads once and never polls.
   * @defaultValue `60000`
   */
  intervalMs?: number;
  /** Headers sent with every request, e.g. `{ 'x-api-key': … }`. @defaultValue `{}` */
  headers?: Readonly<Record<string, string>>;
  /** The fetch function (inject one in tests). @defaultValue `globalThis.fetch` */
  fetch?: (input: string, init: RequestInit) => Promise<Response>;
  /** Largest file accepted, in bytes. @defaultValue `16777216` (16 MiB) */
  maxBytes?: number;
  /** Called with each failed poll; the last good configuration keeps serving. @defaultValue `console.error` */
  onError?: (error: unknown) => void;
}

/**
 * A configuration kept fresh from a URL (see {@link abkit!DecisionEngine.loadFrom}).
 *
 * @example
 * ```ts
 * const source: BucketingSource = await engine.loadFrom(url, { environment: 'prod' });
 * await source.refresh(); // poll now; true when a new configuration was loaded
 * source.stop();
 * ```
 */
export interface BucketingSource {
  /** The `ETag` of the configuration in use, or null when the server sends none. */
  readonly etag: string | null;
  /** Epoch milliseconds of the last successful poll (200 or 304). */
  readonly checkedAt: number;
  /** Polls now: resolves true when a new configuration was loaded, false on 304; rejects on failure (the last good configuration stays). */
  refresh(): Promise<boolean>;
  /** Stops polling. */
  stop(): void;
}

/**
 * Shortest polling interval {@link abkit!DecisionEngine.loadFrom} accepts, in milliseconds.
 *
 * @example
 * ```ts
 * await engine.loadFrom(url, { intervalMs: Math.max(MIN_POLL_INTERVAL_MS, 100) });
 * ```
 */
export const MIN_POLL_INTERVAL_MS = 1_000;

/**
 * Longest polling interval {@link abkit!DecisionEngine.loadFrom} accepts, in milliseconds (one hour).
 *
 * @example
 * ```ts
 * await engine.loadFrom(url, { intervalMs: Math.min(MAX_POLL_INTERVAL_MS, 2 * 3_600_000) });
 * ```
 */
export const MAX_POLL_INTERVAL_MS = 3_600_000;

function option(condition: boolean, message: string): void {
  if (!condition) throw new TypeError(`DecisionEngine.loadFrom: ${message}`);
}

/** Loads once (rejecting when that fails), then polls. */
export async function loadFrom(
  load: (config: unknown, environment: string | undefined) => Promise<unknown>,
  url: string,
  options: BucketingSourceOptions = {},
): Promise<BucketingSource> {
  const {
    environment,
    intervalMs = 60_000,
    headers = {},
    maxBytes = 16 * 1024 * 1024,
    onError = (e: unknown) => console.error(e),
  } = options;
  const fetcher = options.fetch ?? ((input: string, init: RequestInit) => globalThis.fetch(input, init));
  option(typeof url === 'string' && /^https?:\/\//i.test(url), `url must be an http(s) URL, got ${JSON.stringify(url)}`);
  option(
    intervalMs === 0 || (Number.isFinite(intervalMs) && intervalMs >= MIN_POLL_INTERVAL_MS && intervalMs <= MAX_POLL_INTERVAL_MS),
    `intervalMs must be 0 or from ${MIN_POLL_INTERVAL_MS} to ${MAX_POLL_INTERVAL_MS}, got ${intervalMs}`,
  );
  option(Number.isInteger(maxBytes) && maxBytes > 0, `maxBytes must be a positive integer, got ${maxBytes}`);
  option(typeof fetcher === 'function', 'fetch must be a function');

  let etag: string | null = null;
  let checkedAt = 0;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let stopped = false;
  let inFlight: Promise<boolean> | undefined;

  async function poll(): Promise<boolean> {
    const response = await fetcher(url, {
      method: 'GET',
      headers: { accept: 'application/json', ...headers, ...(etag ? { 'if-none-match': etag } : {}) },
    });
    if (response.status === 304) {
      await response.body?.cancel();
      checkedAt = Date.now();
      return false;
    }
    if (response.status !== 200) {
      await response.body?.cancel();
      throw new Error(`bucketing file ${url} answered ${response.status}`);
    }
    let config: unknown;
    try {
      config = parseJsonBody(await bodyReader(response, maxBytes).text());
    } catch (error) {
      if (error instanceof PayloadTooLargeError) throw new Error(`bucketing file ${url} is larger than maxBytes (${maxBytes})`);
      throw error;
    }
    // Validates before storing: a bad file throws here and the previous configuration stays.
    await load(config, environment);
    etag = response.headers.get('etag');
    checkedAt = Date.now();
    return true;
  }

  const refresh = () => (inFlight ??= poll().finally(() => (inFlight = undefined)));

  function schedule(): void {
    if (stopped || intervalMs === 0) return;
    timer = setTimeout(() => {
      refresh().catch(onError).finally(schedule);
    }, intervalMs);
    // A poller never keeps a Node process alive by itself.
    (timer as { unref?: () => void }).unref?.();
  }

  await refresh();
  schedule();
  return {
    get etag() {
      return etag;
    },
    get checkedAt() {
      return checkedAt;
    },
    refresh,
    stop() {
      stopped = true;
      if (timer !== undefined) clearTimeout(timer);
    },
  };
}
