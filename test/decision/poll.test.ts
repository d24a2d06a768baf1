/**
 * `DecisionEngine.loadFrom`: an engine loading its configuration from another abkit's
 * `GET /v2/{envId}/bucketing.json` (the handler itself serves as the injected fetch), polling it
 * with If-None-Match, and keeping the last good configuration when a poll fails.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { DecisionEngine, memoryStorage } from '../../src/index';
import { createDecisionHandler } from '../../src/http/decision';
import { NAMED } from '../helpers/named-config';

const API_KEY = 'poll-key-0123456789abcdef';

async function origin() {
  const server = new DecisionEngine({ storage: memoryStorage(), refreshIntervalMs: 0 });
  await server.load(NAMED, { environment: 'prod', apiKey: API_KEY });
  const handler = createDecisionHandler({ engine: server, onError: () => {} });
  const calls: { status: number; ifNoneMatch: string | null }[] = [];
  let failure: (() => Response) | undefined;
  const fetch = vi.fn(async (url: string, init: RequestInit) => {
    const request = new Request(url, init);
    const response = failure ? failure() : await handler(request);
    calls.push({ status: response.status, ifNoneMatch: request.headers.get('if-none-match') });
    return response;
  });
  return { server, fetch, calls, fail: (f: (() => Response) | undefined) => (failure = f) };
}

const URL_ = 'https://abkit.test/v2/prod/bucketing.json';
const visitors = Array.from({ length: 200 }, (_, i) => ({
  visitorId: `visitor-${i}`,
  context: (i % 3 === 0 ? { plan: 'gold' } : {}) as Record<string, string>,
}));

async function decisions(engine: DecisionEngine, environment: string) {
  const out: string[] = [];
  for (const v of visitors) {
    const { campaigns } = await engine.decide({ ...v, environment, triggerHit: false, visitorConsent: false });
    out.push(campaigns.map((c) => `${c.id}:${c.variation.id}`).join(','));
  }
  return out;
}

afterEach(() => {
  vi.useRealTimers();
});

describe('DecisionEngine.loadFrom', () => {
  it('loads the file and then decides locally exactly as the serving engine does', async () => {
    const { server, fetch } = await origin();
    const local = new DecisionEngine({ storage: memoryStorage(), defaultEnvironment: 'edge' });
    const source = await local.loadFrom(URL_, { fetch, headers: { 'x-api-key': API_KEY }, intervalMs: 0 });
    expect(source.etag).toMatch(/^"[0-9a-f]{32}"$/);
    expect((await local.configuration()).config).toEqual(NAMED);
    const served = await decisions(server, 'prod');
    expect(await decisions(local, 'edge')).toEqual(served);
    expect(new Set(served).size).toBeGreaterThan(2);
    source.stop();
  });

  it('polls with If-None-Match: a 304 keeps the configuration, a change is loaded', async () => {
    const { server, fetch, calls } = await origin();
    const local = new DecisionEngine({ storage: memoryStorage() });
    const source = await local.loadFrom(URL_, { fetch, headers: { 'x-api-key': API_KEY }, intervalMs: 0, environment: 'copy' });
    const first = source.etag;
    expect(await source.refresh()).toBe(false);
    expect(calls.map((c) => [c.status, c.ifNoneMatch])).toEqual([
      [200, null],
      [304, first],
    ]);
    await server.load({ ...NAMED, panic: true }, { environment: 'prod' });
    expect(await source.refresh()).toBe(true);
    expect(source.etag).not.toBe(first);
    expect((await local.decide({ visitorId: 'v1', environment: 'copy' })).panic).toBe(true);
  });

  it('a failed poll (status, bad JSON, invalid configuration, network) keeps the last good configuration', async () => {
    const { fetch, fail } = await origin();
    const local = new DecisionEngine({ storage: memoryStorage(), refreshIntervalMs: 0 });
    const source = await local.loadFrom(URL_, { fetch, headers: { 'x-api-key': API_KEY }, intervalMs: 0 });
    const version = (await local.configuration()).version;
    const failures: Array<[() => Response, RegExp]> = [
      [() => new Response('oops', { status: 500 }), /answered 500/],
      [() => new Response('{"campaigns": [', { status: 200 }), /not valid JSON/],
      [() => new Response('{"campaigns": [{"id": ""}]}', { status: 200 }), /campaigns\[0\]\.id/],
      [
        () => {
          throw new TypeError('fetch failed');
        },
        /fetch failed/,
      ],
    ];
    for (const [response, message] of failures) {
      fail(response);
      await expect(source.refresh()).rejects.toThrow(message);
      expect((await local.configuration()).version).toBe(version);
      expect((await local.configuration()).config).toEqual(NAMED);
    }
    fail(undefined);
    expect(await source.refresh()).toBe(false); // the ETag of the good file is still the one sent
  });

  it('polls on its interval, reports errors to onError, and stops', async () => {
    vi.useFakeTimers();
    const { server, fetch, calls, fail } = await origin();
    const errors: unknown[] = [];
    const local = new DecisionEngine({ storage: memoryStorage() });
    const source = await local.loadFrom(URL_, {
      fetch,
      headers: { 'x-api-key': API_KEY },
      intervalMs: 5_000,
      onError: (e) => errors.push(e),
    });
    expect(calls).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(4_999);
    expect(calls).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(calls).toHaveLength(2);
    fail(() => new Response('down', { status: 503 }));
    await vi.advanceTimersByTimeAsync(5_000);
    expect(errors).toHaveLength(1);
    fail(undefined);
    await server.load({ ...NAMED, panic: true }, { environment: 'prod' });
    await vi.advanceTimersByTimeAsync(5_000);
    expect((await local.decide({ visitorId: 'v1' })).panic).toBe(true);
    source.stop();
    const count = calls.length;
    await vi.advanceTimersByTimeAsync(60_000);
    expect(calls).toHaveLength(count);
  });

  it('rejects when the first load fails, and checks its options', async () => {
    const { fetch } = await origin();
    const local = new DecisionEngine({ storage: memoryStorage() });
    await expect(local.loadFrom(URL_, { fetch, intervalMs: 0 })).rejects.toThrow(/answered 401/);
    await expect(local.loadFrom('ftp://x/bucketing.json', { fetch })).rejects.toThrow(/url must be an http\(s\) URL/);
    await expect(local.loadFrom(URL_, { fetch, intervalMs: 10 })).rejects.toThrow(/intervalMs must be 0 or from 1000 to 3600000, got 10/);
    await expect(local.loadFrom(URL_, { fetch, intervalMs: 7_200_000 })).rejects.toThrow(/intervalMs/);
    await expect(local.loadFrom(URL_, { fetch, headers: { 'x-api-key': API_KEY }, maxBytes: 100, intervalMs: 0 })).rejects.toThrow(
      /larger than maxBytes \(100\)/,
    );
    expect(fetch).toHaveBeenCalledTimes(2);
  });
});
