/**
 * Merchandising and behaviour ranking as catalog search settings (#27): stored through the admin
 * API (audited), read back as written, refused naming the field, and followed by /search at the
 * next request; behaviour ranking reads the source the host gives the handler.
 */
import { describe, expect, it } from 'vitest';
import { AdminKeys, newAdminKey } from '../../src/access/admin-keys';
import { createAdminHandler } from '../../src/http/admin';
import { createAbkit } from '../../src/index';
import type { BehaviourSource } from '../../src/search/behaviour';
import { item } from '../helpers/search';

const KEY = newAdminKey();

async function setup() {
  const keys = new AdminKeys([{ name: 'ops', key: KEY }]);
  const abkit = createAbkit({ tokens: { adminKeys: keys } });
  const admin = createAdminHandler({ abkit, keys });
  // Feedback for "phone": p3 clicked far more than the others for its examinations.
  const source: BehaviourSource = {
    itemSignals: () => new Map([['p2', 7]]),
    queryFeedback: (catalog, query) =>
      catalog === 'shop' && query === 'phone'
        ? new Map([
            ['p0', { clicks: 0, examined: 40 }],
            ['p1', { clicks: 0, examined: 30 }],
            ['p3', { clicks: 30, examined: 30 }],
          ])
        : undefined,
  };
  const api = abkit.handler({ search: { behaviour: source } });
  const call = async (method: string, path: string, body?: unknown) => {
    const response = await admin(
      new Request(`http://localhost${path}`, {
        method,
        headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
      }),
    );
    const text = await response.text();
    return { status: response.status, body: text === '' ? undefined : JSON.parse(text) };
  };
  await call('POST', '/admin/v1/catalogs', { identifier: 'shop' });
  await abkit.admin.addItems(
    'ops',
    'shop',
    Array.from({ length: 6 }, (_, i) => item(`p${i}`, 'Phone', { brand: i % 2 ? 'Zeta' : 'Acme' })),
  );
  await call('POST', '/admin/v1/catalogs/shop/sync');
  const search = async (query: string) =>
    (await (await api(new Request(`http://localhost/search?${query}`))).json()) as { hits: { id: string }[]; totalHits: number };
  return { abkit, call, search };
}

describe('merchandising and behaviour ranking as catalog search settings', () => {
  it('round-trip through the admin API and apply to /search at the next request', async () => {
    const { abkit, call, search } = await setup();
    const ids = async (q: string) => (await search(q)).hits.map((h) => h.id);
    expect(await ids('text=phone')).toEqual(['p0', 'p1', 'p2', 'p3', 'p4', 'p5']);
    const settings = {
      merchandising: [{ id: 'promo', query: { equals: 'phone' }, pin: [{ itemId: 'p5', position: 1 }], hide: ['p4'] }],
      behaviour: { enabled: false, rerank: { maxShift: 2 } },
    };
    const put = await call('PUT', '/admin/v1/catalogs/shop/settings', { search: settings });
    expect(put.status).toBe(200);
    expect((await call('GET', '/admin/v1/catalogs/shop/settings')).body.search).toEqual(settings);
    expect(await ids('text=phone')).toEqual(['p5', 'p0', 'p1', 'p2', 'p3']);
    expect((await search('text=phone')).totalHits).toBe(5);
    // Behaviour on: p3's clicks move it up and p0's and p1's examinations without a click down
    // (p2, without feedback, takes the query's mean), none by more than maxShift (2); the pin stays.
    await call('PUT', '/admin/v1/catalogs/shop/settings', {
      search: { ...settings, behaviour: { enabled: true, rerank: { maxShift: 2 } } },
    });
    expect(await ids('text=phone')).toEqual(['p5', 'p2', 'p3', 'p0', 'p1']);
    // And the item signal through customRanking, on a query without feedback.
    await call('PUT', '/admin/v1/catalogs/shop/settings', { search: { behaviour: true, customRanking: ['_behaviour:desc'] } });
    expect((await ids('text='))[0]).toBe('p2');
    const audit = await abkit.admin.audit({});
    expect(audit.entries.filter((e) => e.action === 'catalog.settings')).toHaveLength(3);
  });

  it('refuses bad rules with a 400 naming search.merchandising[i].field, storing nothing', async () => {
    const { call } = await setup();
    const bad = await call('PUT', '/admin/v1/catalogs/shop/settings', {
      search: { merchandising: [{ id: 'a', query: { equals: 'x' }, pin: [{ itemId: 'p1', position: 0 }] }] },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.details).toEqual([{ field: 'search.merchandising[0].pin[0].position', reason: 'must be an integer from 1 to 1000' }]);
    const tooMany = await call('PUT', '/admin/v1/catalogs/shop/settings', {
      search: { merchandising: Array.from({ length: 101 }, (_, i) => ({ id: `r${i}`, query: { equals: 'x' }, hide: ['p1'] })) },
    });
    expect(tooMany.status).toBe(400);
    expect(tooMany.body.details).toEqual([{ field: 'search.merchandising', reason: 'must hold at most 100 rules' }]);
    const rerank = await call('PUT', '/admin/v1/catalogs/shop/settings', { search: { behaviour: { rerank: { maxShift: 99 } } } });
    expect(rerank.status).toBe(400);
    expect(rerank.body.details).toContainEqual({ field: 'search.behaviour.rerank.maxShift', reason: 'must be an integer from 0 to 50' });
    expect((await call('GET', '/admin/v1/catalogs/shop/settings')).body.search).toBeNull();
  });
});
