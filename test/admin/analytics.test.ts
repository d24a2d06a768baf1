import { describe, expect, it } from 'vitest';
import { AdminKeys, newAdminKey } from '../../src/access/admin-keys';
import { createAdminHandler } from '../../src/http/admin';
import { createAbkit } from '../../src/index';
import { item } from '../helpers/search';

const KEY = newAdminKey();
const NOW = Date.parse('2026-11-26T12:00:00Z');

async function setup() {
  const keys = new AdminKeys([{ name: 'ops', key: KEY }]);
  const abkit = createAbkit({ clock: () => NOW });
  const { catalog } = await abkit.catalogs.create({ identifier: 'shop' });
  await catalog.batch(
    [item('a1', 'Red lamp'), item('a2', 'Blue lamp')].map((product) => ({ operation: 'create-replace' as const, product })),
  );
  await catalog.sync();
  const api = abkit.handler();
  const admin = createAdminHandler({ abkit, keys });
  const get = async (path: string) => {
    const response = await admin(new Request(`http://localhost${path}`, { headers: { authorization: `Bearer ${KEY}` } }));
    return { status: response.status, body: (await response.json()) as Record<string, unknown> };
  };
  return { abkit, api, admin, get };
}

describe('admin API: GET /admin/v1/catalogs/{id}/analytics', () => {
  it('reports the searches and clicks made through the search interface, per UTC day', async () => {
    const { abkit, api, get } = await setup();
    const search = async (text: string) =>
      (await (await api(new Request(`http://localhost/search?text=${text}&clickAnalytics=true`))).json()) as {
        queryID: string;
        hits: { id: string }[];
      };
    const lamp = await search('lamp');
    await search('Lamp');
    await search('sofa');
    await api(
      new Request('http://localhost/search/events', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ events: [{ type: 'click', queryID: lamp.queryID, itemId: lamp.hits[0]!.id, position: 1 }] }),
      }),
    );
    const { status, body } = await get('/admin/v1/catalogs/shop/analytics?since=2026-11-25&until=2026-11-26');
    expect(status).toBe(200);
    expect(body.topQueries).toEqual([
      expect.objectContaining({ query: 'lamp', count: 2, clicks: 1, clickThroughRate: 0.5, meanClickPosition: 1 }),
      expect.objectContaining({ query: 'sofa', count: 1, clicks: 0 }),
    ]);
    expect(body.noResultQueries).toEqual([{ query: 'sofa', count: 1 }]);
    expect((body.days as { day: string; searches: number }[]).map((d) => [d.day, d.searches])).toEqual([
      ['2026-11-25', 0],
      ['2026-11-26', 3],
    ]);
    expect((await get('/admin/v1/catalogs/shop/analytics')).body).toMatchObject({ since: '2026-10-28', until: '2026-11-26' });
    await abkit.close();
  });

  it('answers 400 naming since or until, 404 for an unknown catalog, 401 without a key', async () => {
    const { admin, get } = await setup();
    const bad = await get('/admin/v1/catalogs/shop/analytics?since=yesterday');
    expect(bad.status).toBe(400);
    expect(bad.body.details).toEqual([{ field: 'since', reason: 'must be a calendar day as YYYY-MM-DD' }]);
    const reversed = await get('/admin/v1/catalogs/shop/analytics?since=2026-11-26&until=2026-11-01');
    expect(reversed.body.details).toEqual([{ field: 'since', reason: 'must not be after until (2026-11-01)' }]);
    expect((await get('/admin/v1/catalogs/shop/analytics?since=2020-01-01')).status).toBe(400);
    expect((await get('/admin/v1/catalogs/nope/analytics')).status).toBe(404);
    expect((await admin(new Request('http://localhost/admin/v1/catalogs/shop/analytics'))).status).toBe(401);
  });

  it('is a 404 when the instance has no search analytics', async () => {
    const keys = new AdminKeys([{ name: 'ops', key: KEY }]);
    const abkit = createAbkit();
    await abkit.catalogs.create({ identifier: 'shop' });
    const admin = createAdminHandler({ abkit: { admin: abkit.admin }, keys });
    const response = await admin(
      new Request('http://localhost/admin/v1/catalogs/shop/analytics', { headers: { authorization: `Bearer ${KEY}` } }),
    );
    expect(response.status).toBe(404);
  });
});
