/** Requests that once broke something: each must get a clean answer. */
import type { IncomingMessage } from 'node:http';
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { nodeRequest } from '../../node/request';
import { AccessManager, CatalogRegistry, createHandler, DecisionEngine, SearchService, TokenService, memoryStorage } from '../../src/index';
import { config } from '../helpers/configs';
import { item } from '../helpers/stack';

describe('hardening', () => {
  it('ids from the URL with line breaks or non-Latin-1 characters never break the WWW-Authenticate header', async () => {
    const engine = new DecisionEngine({ storage: memoryStorage() });
    await engine.load(config([{ id: 'c1', split: [100] }]), { environment: 'prod', account: 'acme' });
    const accesses = new AccessManager({ storage: engine.storage });
    const { clientId, clientSecret } = await accesses.createAccess({ account: 'acme', name: 'n', actions: ['campaigns.read'] });
    const tokens = new TokenService({ storage: engine.storage, accesses });
    const { accessToken } = await tokens.issue({ accountId: 'acme', clientId, clientSecret });
    const errors: unknown[] = [];
    const handler = createHandler({ decision: engine, access: tokens, onError: (e) => errors.push(e) });
    for (const account of ['x%0Ay', 'x%E2%82%ACy', 'x%22y']) {
      const res = await handler(
        new Request(`http://x/v1/accounts/${account}/environments/prod/configuration`, {
          headers: { authorization: `Bearer ${accessToken}` },
        }),
      );
      expect(res.status).toBe(403);
      expect(res.headers.get('www-authenticate')).toMatch(
        /^Bearer realm="abkit", error="insufficient_scope", error_description="[\x20-\x7e]*", scope="campaigns.read"$/,
      );
    }
    expect(errors).toEqual([]);
  });

  it('only the first 10 terms of a query count, and text is at most 512 characters', async () => {
    const { catalog } = await new CatalogRegistry({ storage: memoryStorage() }).create({ identifier: 'shop' });
    await catalog.batch(
      Array.from({ length: 500 }, (_, i) => ({ operation: 'create-replace' as const, product: item(`p${i}`, { brand: `brand${i % 7}` }) })),
    );
    await catalog.sync();
    const search = new SearchService({ catalog });
    // Terms past the tenth are ignored: 'brand3' at position 11 changes nothing.
    const text = [...Array.from({ length: 10 }, () => 'item'), 'brand3'].join(' ');
    const result = await search.search({ text });
    expect(result.totalHits).toBe(500);
    expect(result.totalHits).toBe((await search.search({ text: 'item' })).totalHits);
    await expect(search.search({ text: 'x'.repeat(513) })).rejects.toThrow(/text must be at most 512 characters/);
  });

  it('a custom field named __proto__ keeps its facet', async () => {
    const { catalog } = await new CatalogRegistry({ storage: memoryStorage() }).create({ identifier: 'shop' });
    await catalog.put(JSON.parse(JSON.stringify(item('a')).replace('}', ',"__proto__":"x"}')));
    await catalog.sync();
    const { facets } = await new SearchService({ catalog }).search({ text: '' });
    expect(Object.keys(facets)).toContain('__proto__');
    expect(Object.getPrototypeOf(facets)).toBe(Object.prototype);
  });

  it("a Web body whose stream fails (its connection closed) is the client's doing: a 499, not a 500 or a reported error", async () => {
    const errors: unknown[] = [];
    const tokens = new TokenService({ storage: memoryStorage(), accesses: new AccessManager({ storage: memoryStorage() }) });
    const handler = createHandler({ access: tokens, onError: (e) => errors.push(e) });
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(new TextEncoder().encode('{"grant_type":'));
        controller.error(new Error('other side closed'));
      },
    });
    const res = await handler(
      new Request('http://x/acme/token', {
        method: 'POST',
        body,
        duplex: 'half',
        headers: { 'content-type': 'application/json' },
      } as RequestInit),
    );
    expect(res.status).toBe(499);
    expect(errors).toEqual([]);
  });

  it('a malformed Host header still gives a Request', () => {
    const req = Object.assign(Readable.from([]), { url: '/health', method: 'GET', headers: { host: 'a b' } }) as unknown as IncomingMessage;
    expect(new URL(nodeRequest(req).url).href).toBe('http://localhost/health');
  });

  it('options are checked where they are given', () => {
    const registry = new CatalogRegistry({ storage: memoryStorage() });
    expect(() => new CatalogRegistry({ storage: memoryStorage(), clock: 'now' as never })).toThrow(
      'CatalogRegistry: clock must be a function',
    );
    expect(() => new TokenService({ storage: memoryStorage(), clock: 'x' as never })).toThrow('TokenService: clock must be a function');
    expect(() => createHandler({ requestIdHeader: 'bad header' })).toThrow(/requestIdHeader must be a header name/);
    return registry.create({ identifier: 'shop' }).then(({ catalog }) => {
      expect(() => new SearchService({ catalog, searchableFields: 'name' as never })).toThrow(
        'SearchService: searchableFields must be an array of field names',
      );
      expect(() => new SearchService({ catalog, facets: 'brand' as never })).toThrow(/facets must be an array/);
    });
  });
});
