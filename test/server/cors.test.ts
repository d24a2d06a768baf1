import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { corsPolicy } from '../../server/cors';
import { createMetrics } from '../../server/metrics';
import { observe } from '../../server/observe';
import { memoryStorage } from '../../src/index';
import { json } from '../../src/http/respond';

/** The edge of `abkit serve` around a handler answering 200 everywhere, with CORS for `origins`. */
function edge(origins: string[]) {
  return observe({
    handler: async () => json({ ok: true }),
    storage: memoryStorage(),
    logger: pino({ level: 'silent' }),
    metrics: createMetrics(),
    cors: corsPolicy(origins),
    draining: () => false,
  });
}

const get = (path: string, origin?: string) => new Request(`http://abkit.test${path}`, { headers: origin === undefined ? {} : { origin } });

describe('CORS answers (issue #23)', () => {
  it('carry Vary: Origin on every answer of a browser-facing route, whether the origin is allowed, refused or absent', async () => {
    for (const origins of [['https://shop.example'], ['*']]) {
      const serve = edge(origins);
      for (const path of ['/search?text=x', '/v2/campaigns', '/autocomplete?text=x']) {
        for (const origin of ['https://shop.example', 'https://evil.example', undefined]) {
          const res = await serve(get(path, origin));
          expect(res.headers.get('vary'), `${origins} ${path} ${origin}`).toBe('Origin');
          const allowed = origin !== undefined && (origins[0] === '*' || origin === 'https://shop.example');
          expect(res.headers.get('access-control-allow-origin')).toBe(allowed ? (origins[0] === '*' ? '*' : origin) : null);
        }
      }
      // A preflight from a refused origin is not answered as one, but still varies.
      const refused = await serve(
        new Request('http://abkit.test/search', {
          method: 'OPTIONS',
          headers: { origin: 'https://evil.example', 'access-control-request-method': 'GET' },
        }),
      );
      if (origins[0] !== '*') expect(refused.headers.get('vary')).toBe('Origin');
      const preflight = await serve(
        new Request('http://abkit.test/search', {
          method: 'OPTIONS',
          headers: { origin: 'https://shop.example', 'access-control-request-method': 'GET' },
        }),
      );
      expect(preflight.status).toBe(204);
      expect(preflight.headers.get('vary')).toBe('Origin');
    }
  });

  it('add nothing to server-to-server routes, nor anywhere when no origin is configured', async () => {
    const on = edge(['https://shop.example']);
    for (const path of ['/indexes/catalog/p1', '/acme/token', '/v1/accounts/acme/environments/prod/configuration']) {
      const res = await on(get(path, 'https://shop.example'));
      expect(res.headers.get('vary')).toBeNull();
      expect(res.headers.get('access-control-allow-origin')).toBeNull();
    }
    const off = edge([]);
    const res = await off(get('/search?text=x', 'https://shop.example'));
    expect(res.headers.get('vary')).toBeNull();
    expect(res.headers.get('access-control-allow-origin')).toBeNull();
  });
});
