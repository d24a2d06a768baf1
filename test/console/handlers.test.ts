import { describe, expect, it } from 'vitest';
import { ADMIN_KEY, consoleFixture, quokkaItem as item } from './fixture';

type Handler = (request: Request) => Promise<Response>;

/** A browser of the console: keeps its cookie, reads CSRF tokens from the pages it got. */
function browser(handler: Handler, origin = 'http://localhost') {
  let cookie: string | undefined;
  let csrf: string | undefined;
  const send = async (method: string, path: string, form?: Record<string, string | string[]>, headers: Record<string, string> = {}) => {
    const body =
      form && new URLSearchParams(Object.entries(form).flatMap(([k, v]) => (Array.isArray(v) ? v.map((x) => [k, x]) : [[k, v]])));
    const response = await handler(
      new Request(`${origin}${path}`, {
        method,
        headers: {
          ...(cookie ? { cookie } : {}),
          ...(body ? { 'content-type': 'application/x-www-form-urlencoded', origin } : {}),
          ...headers,
        },
        body,
        redirect: 'manual',
      }),
    );
    const setCookie = response.headers.get('set-cookie');
    if (setCookie) cookie = setCookie.split(';')[0];
    const text = await response.text();
    csrf = /name="_csrf" value="([^"]+)"/.exec(text)?.[1] ?? csrf;
    return { status: response.status, headers: response.headers, text };
  };
  return {
    get: (path: string, headers?: Record<string, string>) => send('GET', path, undefined, headers),
    /** A form POST carrying the CSRF token of the last page read (unless the form sets `_csrf`). */
    post: (path: string, form: Record<string, string | string[]> = {}, headers?: Record<string, string>) =>
      send('POST', path, { _csrf: csrf ?? '', ...form }, headers),
    login: async (key = ADMIN_KEY) => send('POST', '/console/login', { key }),
    get cookie() {
      return cookie;
    },
    /** Follows one redirect. */
    async follow(response: { headers: Headers }) {
      return send('GET', new URL(response.headers.get('location')!, origin).pathname);
    },
  };
}

describe('console: sign-in and sessions', () => {
  it('sends every page to /console/login without a session, and serves the login form and assets with the policy', async () => {
    const { handler } = await consoleFixture();
    const b = browser(handler);
    for (const path of ['/console', '/console/accounts', '/console/accounts/acme/accesses', '/console/audit', '/console/catalogs/shop']) {
      const res = await b.get(path);
      expect([path, res.status, res.headers.get('location')]).toEqual([path, 303, '/console/login']);
    }
    const form = await b.get('/console/login');
    expect(form.status).toBe(200);
    expect(form.headers.get('content-security-policy')).toMatch(/^default-src 'self'/);
    expect(form.text).toContain('<label class="block" for="admin-key">Admin key</label>');
    for (const asset of ['/console/assets/console.css', '/console/assets/console.js']) {
      const res = await b.get(asset);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-security-policy')).toMatch(/^default-src 'self'/);
    }
    // A POST without a session goes to the login too, and changes nothing.
    expect((await b.post('/console/accounts', { id: 'nope' })).status).toBe(303);
  });

  it('signs in with the admin key: an HttpOnly, SameSite=Strict cookie on /console with an expiry; logout ends the session', async () => {
    const { handler } = await consoleFixture();
    const b = browser(handler);
    expect((await b.login(`abk_ak_wrong-${'x'.repeat(40)}`)).status).toBe(401);
    const res = await b.login();
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe('/console/accounts');
    const cookie = res.headers.get('set-cookie')!;
    expect(cookie).toMatch(/^abkit_console=[A-Za-z0-9_-]{43}; Path=\/console; HttpOnly; SameSite=Strict; Max-Age=28800$/);
    const page = await b.get('/console/accounts');
    expect(page.status).toBe(200);
    expect(page.text).toContain('Signed in as ops');
    const out = await b.post('/console/logout');
    expect(out.status).toBe(303);
    expect(out.headers.get('set-cookie')).toContain('Max-Age=0');
    // The old cookie no longer opens anything, even if the browser kept it.
    const stale = await handler(new Request('http://localhost/console/accounts', { headers: { cookie: cookie.split(';')[0]! } }));
    expect(stale.status).toBe(303);
  });

  it('expires a session after its lifetime', async () => {
    let now = 1_000_000;
    const { handler } = await consoleFixture({ clock: () => now, sessionLifetimeMs: 60_000 });
    const b = browser(handler);
    await b.login();
    expect((await b.get('/console/accounts')).status).toBe(200);
    now += 60_000;
    expect((await b.get('/console/accounts')).status).toBe(303);
  });

  it('refuses a POST without the session CSRF token, with a wrong one, or from another origin (403), changing nothing', async () => {
    const { handler, abkit } = await consoleFixture();
    const b = browser(handler);
    await b.login();
    await b.get('/console/accounts');
    for (const [form, headers] of [
      [{ _csrf: '' }, {}],
      [{ _csrf: 'x'.repeat(32) }, {}],
      [{}, { origin: 'https://evil.example' }],
    ] as const) {
      const res = await b.post('/console/accounts', { id: 'evil', ...form }, headers);
      expect(res.status).toBe(403);
      expect(res.headers.get('content-security-policy')).toMatch(/^default-src 'self'/);
    }
    expect((await abkit.admin.listAccounts()).accounts.map((a) => a.id)).toEqual(['acme']);
    // The same form with the token is accepted, and audited under the key's name.
    expect((await b.post('/console/accounts', { id: 'globex' })).status).toBe(303);
    const { entries } = await abkit.admin.audit();
    expect(entries[0]).toMatchObject({ actor: 'ops', action: 'account.create', target: 'accounts/globex', outcome: 'ok' });
  });

  it('limits login attempts per client address and in all (429 with Retry-After), counting no more once limited', async () => {
    const { handler } = await consoleFixture({
      loginAttempts: { perAddress: 3, global: 5, windowMs: 60_000 },
      clientAddress: (request) => request.headers.get('x-test-address') ?? undefined,
    });
    const attempt = (address: string, key = `abk_ak_wrong-${'x'.repeat(40)}`) =>
      handler(
        new Request('http://localhost/console/login', {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-test-address': address },
          body: new URLSearchParams({ key }),
        }),
      );
    for (let i = 0; i < 3; i++) expect((await attempt('10.0.0.1')).status).toBe(401);
    const limited = await attempt('10.0.0.1');
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    // Even the right key waits: the limit is on attempts, not failures.
    expect((await attempt('10.0.0.1', ADMIN_KEY)).status).toBe(429);
    // Another address still may, until the global limit (5 in all) is reached.
    expect((await attempt('10.0.0.2')).status).toBe(401);
    expect((await attempt('10.0.0.3', ADMIN_KEY)).status).toBe(303);
    expect((await attempt('10.0.0.4')).status).toBe(429);
  });
});

describe('console: accesses', () => {
  it('shows a created secret once (POST, redirect, GET), never in a list or again after a reload', async () => {
    const { handler, abkit } = await consoleFixture();
    const b = browser(handler);
    await b.login();
    const page = await b.get('/console/accounts/acme/accesses');
    for (const action of ['campaigns.read', 'campaigns.write', 'panic.write', 'activations.read', 'results.read'])
      expect(page.text).toContain(`<label><input type="checkbox" name="actions" value="${action}"> ${action}</label>`);
    const created = await b.post('/console/accounts/acme/accesses', {
      name: 'deploy',
      environments: ['prod'],
      actions: ['campaigns.read'],
    });
    expect(created.status).toBe(303);
    expect(created.headers.get('location')).toBe('/console/once');
    expect(created.text).not.toMatch(/abk_cs_|abk_ci_/);
    const once = await b.follow(created);
    const secret = /<code class="secret" id="once-1">([^<]+)<\/code>/.exec(once.text)?.[1];
    const clientId = /<code class="secret" id="once-0">([^<]+)<\/code>/.exec(once.text)?.[1];
    expect(secret).toBeTruthy();
    expect(once.text).toContain('it will not be shown again');
    expect(once.text).toContain('data-copy="once-1"');
    expect(once.headers.get('cache-control')).toBe('no-store');
    // The secret works: a token is issued.
    const token = await abkit.tokens.issue({ accountId: 'acme', clientId: clientId!, clientSecret: secret! });
    expect(token.accessToken).toBeTruthy();
    // A reload finds nothing; no other page holds the secret or the whole client id.
    const again = await b.get('/console/once');
    expect(again.status).toBe(200);
    expect(again.text).not.toContain(secret);
    for (const path of ['/console/accounts/acme/accesses', '/console/accounts', '/console/audit', '/console/accounts/acme']) {
      const text = (await b.get(path)).text;
      expect([path, text.includes(secret!), text.includes(clientId!)]).toEqual([path, false, false]);
    }
    const list = await b.get('/console/accounts/acme/accesses');
    expect(list.text).toContain('deploy');
    expect(list.text).toContain(`…${clientId!.slice(-4)}`);
  });

  it('shows a refused access at its fields, keeping what was given', async () => {
    const { handler } = await consoleFixture();
    const b = browser(handler);
    await b.login();
    await b.get('/console/accounts/acme/accesses');
    const res = await b.post('/console/accounts/acme/accesses', { name: 'x', environments: ['prod'], actions: [] });
    expect(res.status).toBe(400);
    expect(res.text).toMatch(/<span class="error" id="access-actions-error">[^<]+<\/span>/);
    expect(res.text).toContain('value="x"');
    expect(res.text).toContain('value="prod" checked');
  });

  it('revokes and rotates after a confirmation page; the rotated secret is shown once', async () => {
    const { handler, abkit } = await consoleFixture();
    const created = await abkit.admin.createAccess('fixture', 'acme', { name: 'ci', actions: ['campaigns.read'] });
    const b = browser(handler);
    await b.login();
    const confirm = await b.get(`/console/accounts/acme/accesses/${created.id}/rotate`);
    expect(confirm.text).toContain('Rotate the secret');
    const rotated = await b.follow(await b.post(`/console/accounts/acme/accesses/${created.id}/rotate`));
    const secret = /id="once-1">([^<]+)</.exec(rotated.text)?.[1];
    expect(secret).toMatch(/^abk_/);
    await expect(
      abkit.tokens.issue({ accountId: 'acme', clientId: created.clientId, clientSecret: created.clientSecret }),
    ).rejects.toThrow();
    await abkit.tokens.issue({ accountId: 'acme', clientId: created.clientId, clientSecret: secret! });
    expect((await b.get(`/console/accounts/acme/accesses/${created.id}/revoke`)).text).toContain('cannot be undone');
    expect((await b.post(`/console/accounts/acme/accesses/${created.id}/revoke`)).status).toBe(303);
    await expect(abkit.tokens.issue({ accountId: 'acme', clientId: created.clientId, clientSecret: secret! })).rejects.toThrow();
    const { entries } = await abkit.admin.audit();
    expect(entries.slice(0, 2).map((e) => [e.actor, e.action])).toEqual([
      ['ops', 'access.revoke'],
      ['ops', 'access.rotate'],
    ]);
  });
});

describe('console: campaigns, results, catalogs', () => {
  it('saves allocations through the API schema, showing a refusal at the field', async () => {
    const { handler, abkit } = await consoleFixture();
    const b = browser(handler);
    await b.login();
    const path = '/console/accounts/acme/environments/prod/campaigns/checkout';
    expect((await b.get(path)).text).toContain('<code>fs_all_users EQUALS &quot;&quot;</code>');
    const tooMuch = await b.post(`${path}/allocations`, {
      'variationGroups[0].variations[0].allocation': '70',
      'variationGroups[0].variations[1].allocation': '50',
    });
    expect(tooMuch.status).toBe(400);
    expect(tooMuch.text).toContain('allocations sum to 120, more than 100');
    const notNumber = await b.post(`${path}/allocations`, { 'variationGroups[0].variations[1].allocation': 'abc' });
    expect(notNumber.status).toBe(400);
    expect(notNumber.text).toMatch(/id="alloc-0-1-error">[^<]*number/);
    expect(
      (
        await b.post(`${path}/allocations`, {
          'variationGroups[0].variations[0].allocation': '20',
          'variationGroups[0].variations[1].allocation': '80',
        })
      ).status,
    ).toBe(303);
    const campaign = (await abkit.engine.getEnvironment('prod'))!.config.campaigns[0]!;
    expect(campaign.variationGroups[0]!.variations.map((v) => v.allocation)).toEqual([20, 80]);
    const { entries } = await abkit.admin.audit();
    expect(entries.slice(0, 3).map((e) => [e.actor, e.action, e.target, e.outcome])).toEqual([
      ['ops', 'campaign.put', 'accounts/acme/environments/prod/campaigns/checkout', 'ok'],
      ['ops', 'campaign.put', 'accounts/acme/environments/prod/campaigns/checkout', 'validation_error'],
      ['ops', 'campaign.put', 'accounts/acme/environments/prod/campaigns/checkout', 'validation_error'],
    ]);
  });

  it('creates a campaign from the environment page that decisions serve at once; a bad id is shown at its field and changes nothing', async () => {
    const { handler, abkit } = await consoleFixture();
    const b = browser(handler);
    await b.login();
    const path = '/console/accounts/acme/environments/prod';
    expect((await b.get(path)).text).toContain('<h2>New campaign</h2>');
    const before = (await abkit.engine.getEnvironment('prod'))!.version;
    for (const id of ['', 'x'.repeat(257)]) {
      const bad = await b.post(`${path}/campaigns`, { id, type: 'ab', variations: '2', flag: 'color', values: '' });
      expect(bad.status).toBe(400);
      expect(bad.text).toContain('id="new-campaign-id-error">must be 1 to 253 characters (its variation ids add 3)</span>');
      expect(bad.text).toContain('aria-invalid="true" aria-describedby="new-campaign-id-error"');
    }
    const badValues = await b.post(`${path}/campaigns`, { id: 'hero', type: 'ab', variations: '3', flag: 'color', values: 'red\nblue' });
    expect(badValues.text).toMatch(/id="new-campaign-values-error">needs one line per variation: 3 lines, got 2/);
    expect(badValues.text).toContain('value="hero"');
    const badType = await b.post(`${path}/campaigns`, { id: 'hero', type: 'rollout', variations: '2', flag: 'color', values: '' });
    expect(badType.text).toMatch(/id="new-campaign-type-error">must be one of ab, toggle, perso/);
    expect((await abkit.engine.getEnvironment('prod'))!.version).toBe(before);
    expect((await abkit.admin.audit()).entries.filter((e) => e.action === 'campaign.put')).toEqual([]);

    const created = await b.post(`${path}/campaigns`, {
      id: 'hero',
      name: 'Hero colour',
      type: 'ab',
      variations: '2',
      flag: 'color',
      values: 'red\nblue\n',
    });
    expect(created.status).toBe(303);
    expect(created.headers.get('location')).toBe(`${path}/campaigns/hero`);
    const page = await b.follow(created);
    expect(page.text).toContain('<code>hero-a</code>');
    expect(page.text).toContain('<code>fs_all_users EQUALS &quot;&quot;</code>');
    const hero = (await abkit.engine.getEnvironment('prod'))!.config.campaigns.find((c) => c.id === 'hero')!;
    expect(hero.variationGroups[0]!.variations.map((v) => [v.id, v.reference, v.allocation, v.modifications.value])).toEqual([
      ['hero-a', true, 50, { color: 'red' }],
      ['hero-b', false, 50, { color: 'blue' }],
    ]);
    // The decision API serves it: each visitor gets one of the two values.
    const seen = new Set<string>();
    for (let i = 0; i < 20; i++) {
      const res = await handler(
        new Request('http://localhost/v2/prod/campaigns', {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ visitor_id: `v${i}`, context: {}, trigger_hit: false, visitor_consent: true }),
        }),
      );
      expect(res.status, await res.clone().text()).toBe(200);
      const body = (await res.json()) as {
        campaigns: { id: string; variation: { id: string; modifications: { value: { color: string } } } }[];
      };
      const decided = body.campaigns.find((c) => c.id === 'hero')!;
      seen.add(`${decided.variation.id}=${decided.variation.modifications.value.color}`);
    }
    expect([...seen].sort()).toEqual(['hero-a=red', 'hero-b=blue']);
    // The same id again is refused: its page edits it.
    const again = await b.post(`${path}/campaigns`, { id: 'hero', type: 'toggle', variations: '1', flag: 'on', values: '' });
    expect(again.status).toBe(409);
    expect(again.text).toMatch(/id="new-campaign-id-error">campaign &quot;hero&quot; exists already/);
    const [entry] = (await abkit.admin.audit()).entries;
    expect([entry?.actor, entry?.action, entry?.target, entry?.outcome]).toEqual([
      'ops',
      'campaign.put',
      'accounts/acme/environments/prod/campaigns/hero',
      'ok',
    ]);
  });

  it('creates a search A/B from the environment page: settings per line checked with their line, the results page offers the search metrics', async () => {
    const { handler, abkit } = await consoleFixture();
    const b = browser(handler);
    await b.login();
    const path = '/console/accounts/acme/environments/prod';
    await b.get(path);
    const form = { id: 'ranking', type: 'ab', changes: 'search', variations: '2', flag: '', catalog: 'shop' };
    const notJson = await b.post(`${path}/campaigns`, { ...form, values: '{}\n{rankingRules: []}' });
    expect(notJson.status).toBe(400);
    expect(notJson.text).toContain('id="new-campaign-values-error">line 2: is not JSON; write an object such as');
    const badKey = await b.post(`${path}/campaigns`, { ...form, values: '[]\n{"customRanking": ["price"], "rankingRulez": []}' });
    expect(badKey.text).toContain('line 1: must be a JSON object such as');
    expect(badKey.text).toContain('line 2: unknown key(s) rankingRulez; known: catalog, rankingRules');
    expect(badKey.text).toContain('line 2: customRanking.0: must be &lt;field&gt;:asc or &lt;field&gt;:desc');
    const created = await b.post(`${path}/campaigns`, {
      ...form,
      values: '\n{"customRanking": ["price:asc"], "rankingRules": ["customRanking", "words"]}',
    });
    expect(created.status).toBe(303);
    const ranking = (await abkit.engine.getEnvironment('prod'))!.config.campaigns.find((c) => c.id === 'ranking')!;
    expect(ranking.variationGroups[0]!.variations.map((v) => [v.id, v.modifications])).toEqual([
      ['ranking-a', { type: 'search', value: { catalog: 'shop' } }],
      ['ranking-b', { type: 'search', value: { catalog: 'shop', customRanking: ['price:asc'], rankingRules: ['customRanking', 'words'] } }],
    ]);
    const results = await b.get(`${path}/campaigns/ranking/results`);
    expect(results.text).toContain('<a href="?metric=search_click">Search clicks</a>');
    expect((await b.get(`${path}/campaigns/checkout/results`)).text).not.toContain('Search clicks');
    await abkit.searchExperiments.decide('shop', 'v1');
    await abkit.searchExperiments.track('shop', [
      { type: 'click', visitorId: 'v1' },
      { type: 'click', visitorId: 'v1' },
    ]);
    const clicks = await b.get(`${path}/campaigns/ranking/results?metric=search_click`);
    expect(clicks.text).toContain('<th class="num">Clicks per visitor</th>');
    expect(clicks.text).toContain('<td class="num">2.00</td>');
  });

  it('adds items from the catalog page in one batch, synced so search finds them; a bad item is named at the field and nothing is added', async () => {
    const { handler, abkit } = await consoleFixture();
    const b = browser(handler);
    await b.login();
    const path = '/console/catalogs/shop';
    expect((await b.get(path)).text).toMatch(/<input type="checkbox" name="sync" value="true" checked>/);
    const catalog = await abkit.catalogs.get('shop');
    const bad = await b.post(`${path}/items`, {
      items: JSON.stringify([item('q1', 'Quokka bag'), item('q2', 'Quokka tote', 'cheap')]),
      sync: 'true',
    });
    expect(bad.status).toBe(400);
    expect(bad.text).toMatch(/<ul class="error" id="items-error" role="alert"><li>item 2: item &quot;q2&quot;: [^<]*price/);
    expect(bad.text).toContain('Quokka tote'); // what was given is kept
    for (const [items, message] of [
      ['{"id": ', 'items: not JSON'],
      ['{"id": "q1"}', 'items: must be a JSON array of items'],
      ['[42]', 'item 1: must be a JSON object (an item)'],
      [JSON.stringify(Array.from({ length: 1001 }, (_, i) => ({ id: `x${i}` }))), 'items: at most 1000 items in one form, got 1001'],
    ] as const)
      expect((await b.post(`${path}/items`, { items, sync: 'true' })).text).toContain(message);
    expect(await catalog.count()).toBe(4);

    // Three hundred items fit in one form (the route's body limit is raised above the other forms').
    const many = [item('q1', 'Quokka bag'), ...Array.from({ length: 299 }, (_, i) => item(`bulk-${i}`, `Bulk wombat ${i}`, i + 1))];
    expect(new URLSearchParams({ items: JSON.stringify(many) }).toString().length).toBeGreaterThan(65_536);
    const added = await b.post(`${path}/items`, { items: JSON.stringify(many), sync: 'true' });
    expect(added.status).toBe(303);
    expect(added.headers.get('location')).toBe(path);
    expect(await catalog.count()).toBe(304);
    const search = await handler(new Request('http://localhost/search?text=quokka+bag'));
    expect(search.status).toBe(200);
    const found = (await search.json()) as { totalHits: number; hits: { id: string }[] };
    expect(found.hits.map((h) => h.id)).toContain('q1');
    const { entries } = await abkit.admin.audit();
    expect(entries.slice(0, 3).map((e) => [e.actor, e.action, e.target, e.outcome, e.detail])).toEqual([
      ['ops', 'catalog.sync', 'catalogs/shop', 'ok', null],
      ['ops', 'catalog.items.add', 'catalogs/shop', 'ok', { count: 300 }],
      ['ops', 'catalog.items.add', 'catalogs/shop', 'validation_error', { count: 1 }],
    ]);
    // Without the box, the items wait for the next synchronization.
    expect((await b.post(`${path}/items`, { items: JSON.stringify([item('q9', 'Quokka hat')]) })).status).toBe(303);
    const later = (await (await handler(new Request('http://localhost/search?text=quokka+hat'))).json()) as { hits: { id: string }[] };
    expect(later.hits.map((h) => h.id)).not.toContain('q9');
  });

  it('toggles panic under the signed-in actor, written to the audit log', async () => {
    const { handler, abkit } = await consoleFixture();
    const b = browser(handler);
    await b.login();
    const path = '/console/accounts/acme/environments/prod';
    expect((await b.get(path)).text).toContain('Turn panic on');
    expect((await b.post(`${path}/panic`, { panic: 'true' })).status).toBe(303);
    expect((await abkit.engine.getEnvironment('prod'))!.config.panic).toBe(true);
    expect((await b.get(path)).text).toContain('Panic is ON');
    expect((await b.post(`${path}/panic`, { panic: 'false' })).status).toBe(303);
    expect((await abkit.engine.getEnvironment('prod'))!.config.panic).toBe(false);
    const { entries } = await abkit.admin.audit();
    expect(entries.slice(0, 2).map((e) => [e.actor, e.action, e.target, e.outcome, e.detail])).toEqual([
      ['ops', 'environment.panic', 'accounts/acme/environments/prod', 'ok', { panic: false }],
      ['ops', 'environment.panic', 'accounts/acme/environments/prod', 'ok', { panic: true }],
    ]);
  });

  it('previews a visitor with the reason of each campaign', async () => {
    const { handler } = await consoleFixture();
    const b = browser(handler);
    await b.login();
    const res = await b.get('/console/accounts/acme/environments/prod/preview?visitorId=v1&key=country&value=de&key=&value=');
    expect(res.status).toBe(200);
    expect(res.text).toMatch(/<td>banner<\/td><td>not_targeted<\/td>/);
    expect(res.text).toMatch(/<td>checkout<\/td><td>[a-z_]+<\/td><td><code>checkout-vg \/ checkout-v[01]<\/code>/);
  });

  it('shows results with the rate chart and the timeline', async () => {
    const { handler } = await consoleFixture();
    const b = browser(handler);
    await b.login();
    const res = await b.get('/console/accounts/acme/environments/prod/campaigns/checkout/results?metric=purchase');
    expect(res.status).toBe(200);
    expect(res.text).toContain('240 visitors exposed');
    expect(res.text).toMatch(/<svg class="chart" data-chart="rates"[^>]*>/);
    expect(res.text).toMatch(/<svg class="chart" data-chart="timeline"[^>]*>/);
    expect(res.text).not.toContain('style=');
    expect(res.text).not.toMatch(/<script>| on[a-z]+="/);
  });

  it('shows a catalog and searches it in the playground with ranking details', async () => {
    const { handler, abkit } = await consoleFixture();
    const b = browser(handler);
    await b.login();
    const page = await b.get('/console/catalogs/shop');
    expect(page.text).toMatch(/Items accepted<\/th><td class="num">4</);
    expect(page.text).toMatch(/Items visible \(searched\)<\/th><td class="num">4</);
    const search = await b.get('/console/catalogs/shop/search?q=running+shoe&sort=&filter.brand=Fleet');
    expect(search.status).toBe(200);
    expect(search.text).toContain('Red running shoe');
    expect(search.text).not.toContain('<strong>Trail shoe</strong>');
    expect(search.text).toContain('<img src="/img/p1.png"');
    expect(search.text).not.toContain('<img src="https://cdn.example');
    expect(search.text).toMatch(/<td>words<\/td>/);
    // Deleting a field: confirmed, then gone from the schema.
    expect((await b.get('/console/catalogs/shop/fields/brand/delete')).text).toContain('cannot be undone');
    expect((await b.post('/console/catalogs/shop/fields/brand/delete')).status).toBe(303);
    expect((await (await abkit.catalogs.get('shop')).schema()).fields.map((f) => f.name)).not.toContain('brand');
    const [entry] = (await abkit.admin.audit()).entries;
    expect([entry?.actor, entry?.action, entry?.target, entry?.outcome]).toEqual([
      'ops',
      'catalog.field.delete',
      'catalogs/shop/fields/brand',
      'ok',
    ]);
  });

  it('pins and hides an item for a query from the catalog page (audited settings) that /search and the playground follow; removes the rule; turns behaviour ranking on', async () => {
    const { handler, abkit } = await consoleFixture();
    const b = browser(handler);
    await b.login();
    const ids = async (text: string) =>
      ((await (await handler(new Request(`http://localhost/search?text=${text}`))).json()) as { hits: { id: string }[] }).hits.map(
        (h) => h.id,
      );
    const organic = await ids('running+shoe');
    const page = await b.get('/console/catalogs/shop');
    expect(page.text).toContain('No rule: every query is answered by the ranking alone.');
    // Nothing to pin or hide: the form again, with a 400 and what was given.
    const refused = await b.post('/console/catalogs/shop/merchandising', { query: 'Running  Shoe', match: 'equals', pin: '', hide: '' });
    expect(refused.status).toBe(400);
    expect(refused.text).toContain('give an item id to pin or to hide');
    expect(refused.text).toContain('value="Running  Shoe"');
    // A position out of range: the settings schema's message, nothing stored.
    const bad = await b.post('/console/catalogs/shop/merchandising', { query: 'running shoe', match: 'equals', pin: 'p4', position: '0' });
    expect(bad.status).toBe(400);
    expect(bad.text).toContain('merchandising.0.pin.0.position: must be an integer from 1 to 1000');
    expect(abkit.admin.searchSettings('shop')?.merchandising).toBeUndefined();
    const last = organic.at(-1)!;
    const saved = await b.post('/console/catalogs/shop/merchandising', {
      query: 'Running  Shoe',
      match: 'equals',
      pin: last,
      position: '1',
    });
    expect(saved.status).toBe(303);
    expect(saved.headers.get('location')).toBe('/console/catalogs/shop#merchandising');
    const hidden = organic[0]!;
    await b.post('/console/catalogs/shop/merchandising', { query: 'running shoe', match: 'equals', hide: hidden });
    expect(abkit.admin.searchSettings('shop')?.merchandising).toEqual([
      { id: 'equals:running shoe', query: { equals: 'Running  Shoe' }, pin: [{ itemId: last, position: 1 }], hide: [hidden] },
    ]);
    expect(await ids('running+shoe')).toEqual([last, ...organic.slice(1, -1)]);
    const playground = await b.get('/console/catalogs/shop/search?q=running+shoe');
    expect(playground.text.indexOf(`(${last})`)).toBeLessThan(playground.text.indexOf(`(${organic[1]})`));
    expect(playground.text).toContain('pinned: 1');
    const listed = await b.get('/console/catalogs/shop');
    expect(listed.text).toContain(`pin <code>${last}</code> at 1; hide <code>${hidden}</code>`);
    // Behaviour ranking on, then off; the rule removed.
    expect((await b.post('/console/catalogs/shop/behaviour', { enabled: 'true' })).status).toBe(303);
    expect(abkit.admin.searchSettings('shop')?.behaviour).toEqual({ enabled: true });
    expect((await b.get('/console/catalogs/shop')).text).toMatch(/id="behaviour-enabled" name="enabled" value="true" checked/);
    await b.post('/console/catalogs/shop/behaviour', {});
    expect(abkit.admin.searchSettings('shop')?.behaviour).toEqual({ enabled: false });
    await b.post('/console/catalogs/shop/merchandising/remove', { rule: 'equals:running shoe' });
    expect(abkit.admin.searchSettings('shop')?.merchandising).toBeUndefined();
    expect(await ids('running+shoe')).toEqual(organic);
    const actions = (await abkit.admin.audit()).entries.filter((e) => e.action === 'catalog.settings' && e.outcome === 'ok');
    expect(actions.map((e) => e.actor)).toEqual(['ops', 'ops', 'ops', 'ops', 'ops']);
  });

  it("shows a catalog's search analytics: summary, two charts, top and zero-result queries, clicked items; a bad range at its field", async () => {
    const { handler } = await consoleFixture();
    const b = browser(handler);
    await b.login();
    expect((await b.get('/console/catalogs/shop')).text).toContain('href="/console/catalogs/shop/analytics"');
    const page = await b.get('/console/catalogs/shop/analytics');
    expect(page.status).toBe(200);
    // 6 days of 5 to 10 searches: 45 in all, sandals (a quarter, rounded) found nothing.
    expect(page.text).toMatch(/<th>Searches<\/th><td class="num">45</);
    expect(page.text.match(/<svg class="chart" data-chart="timeline"/g)).toHaveLength(2);
    expect(page.text).toMatch(/<td><code>sandals<\/code><\/td><td class="num">\d+<\/td><\/tr>/);
    expect(page.text).toContain('<td><code>p1</code></td>');
    expect(page.text).not.toContain('style=');
    const bad = await b.get('/console/catalogs/shop/analytics?since=2026-13-01');
    expect(bad.status).toBe(400);
    expect(bad.text).toContain('<span class="error" id="since-error">must be a calendar day as YYYY-MM-DD</span>');
    expect((await b.get('/console/catalogs/nope/analytics')).status).toBe(404);
  });
});
