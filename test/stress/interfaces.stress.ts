/**
 * Fuzz of every interface: RUNS requests per interface against the handler in process, and a
 * smaller run over real HTTP, asserting no 5xx, JSON error bodies, Object.prototype untouched and
 * nothing reported as an unexpected error.
 */
import fc from 'fast-check';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import { createNodeListener } from '../../node/listener';
import { CATALOG_KEY, ENV_KEY, SEARCH_KEY, stack } from '../helpers/stack';
import { checkAnswer, expectPrototypeUntouched, INTERFACES, requests, routesByInterface, type Credentials, type FuzzRequest } from './fuzz';

const RUNS = Number(process.env.STRESS_RUNS ?? 10_000);
const HTTP_RUNS = Number(process.env.STRESS_HTTP_RUNS ?? 500);
const figures: string[] = [];
afterAll(() => console.log(`\n${figures.join('\n')}\n`));

async function setUp() {
  const s = await stack();
  const document = (await (await s.call('GET', '/openapi.json')).json()) as { paths: Record<string, Record<string, unknown>> };
  const credentials: Credentials = {
    token: s.token,
    catalogKey: CATALOG_KEY,
    searchKey: SEARCH_KEY,
    envKey: ENV_KEY,
    clientId: s.access.clientId,
    clientSecret: s.access.clientSecret,
  };
  return { s, routes: routesByInterface(document), credentials };
}

describe('fuzz in process', async () => {
  const { s, routes, credentials } = await setUp();
  for (const name of INTERFACES) {
    it(`${name}: ${RUNS} requests, no 5xx, JSON errors, prototype untouched`, async () => {
      const statuses = new Map<number, number>();
      await fc.assert(
        fc.asyncProperty(requests(routes[name], credentials), async (r: FuzzRequest) => {
          const response = await s.handler(
            new Request(`http://shop.search.test${r.path}${r.query ? `?${r.query}` : ''}`, {
              method: r.method,
              headers: r.headers,
              body: r.body,
            }),
          );
          const status = await checkAnswer(r, response);
          statuses.set(status, (statuses.get(status) ?? 0) + 1);
        }),
        { numRuns: RUNS },
      );
      expectPrototypeUntouched();
      expect(s.errors).toEqual([]);
      const fives = [...statuses].filter(([st]) => st >= 500).reduce((n, [, c]) => n + c, 0);
      const spread = [...statuses]
        .sort(([a], [b]) => a - b)
        .map(([st, c]) => `${st}:${c}`)
        .join(' ');
      figures.push(`STRESS fuzz in process ${name}: ${RUNS} requests, ${fives} 5xx (${spread})`);
      // Not only refusals: the fuzzer reaches the working paths too.
      expect([...statuses.keys()].some((st) => st < 300)).toBe(true);
    });
  }
});

describe('fuzz over HTTP', async () => {
  const { s, routes, credentials } = await setUp();
  const server = createServer(createNodeListener(s.handler));
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  afterAll(() => new Promise<void>((r) => server.close(() => r())));

  it(`${HTTP_RUNS} requests per interface through node:http`, async () => {
    const counts: string[] = [];
    for (const name of INTERFACES) {
      let fives = 0;
      await fc.assert(
        fc.asyncProperty(requests(routes[name], credentials), async (r: FuzzRequest) => {
          // Host names the search tenant; fetch cannot set it, so the index parameter does.
          const query = name === 'search' ? `index=shop-catalog${r.query ? `&${r.query}` : ''}` : r.query;
          const response = await fetch(`${base}${r.path}${query ? `?${query}` : ''}`, {
            method: r.method,
            headers: r.headers,
            body: r.body,
          });
          if ((await checkAnswer(r, response)) >= 500) fives++;
        }),
        { numRuns: HTTP_RUNS },
      );
      counts.push(`${name} ${HTTP_RUNS} (${fives} 5xx)`);
    }
    expectPrototypeUntouched();
    expect(s.errors).toEqual([]);
    figures.push(`STRESS fuzz over HTTP: ${counts.join(', ')}`);
  });
});
