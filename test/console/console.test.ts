/**
 * The console in a real browser (Debian's chromium driven by playwright-core) against the
 * handler on node:http: sign in, create an access and read its secret once, get a token with
 * it, revoke it, edit an allocation and see /v2 follow, create a campaign, read a results chart,
 * add catalog items and search them, search the playground, read a catalog's search analytics; axe-core finds no serious or critical violation on any page; each page is
 * screenshotted into test/.screenshots/.
 */
import { existsSync, mkdirSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { type Browser, chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll, expect } from 'vitest';
import { createNodeListener } from '../../node/listener';
import { describeIf, itIf, need } from '../helpers/skip';
import { ADMIN_KEY, consoleFixture, quokkaItem as item } from './fixture';

const CHROMIUM = '/usr/bin/chromium';
if (!existsSync(CHROMIUM) && process.env.CI === 'true') throw new Error(`${CHROMIUM} is absent and CI=true (.ci/run installs chromium)`);
const chromiumHere = need(existsSync(CHROMIUM), `${CHROMIUM} is absent (apt-get install chromium)`);
const SHOTS = join(__dirname, '../.screenshots');
const AXE = join(__dirname, '../../node_modules/axe-core/axe.min.js');

describeIf(chromiumHere, 'console in a browser', () => {
  let server: Server;
  let origin: string;
  let browser: Browser;
  let fixture: Awaited<ReturnType<typeof consoleFixture>>;

  beforeAll(async () => {
    fixture = await consoleFixture();
    server = createServer(createNodeListener(fixture.handler));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: ['--no-sandbox', '--disable-background-networking', '--disable-component-update', '--no-first-run'],
    });
    mkdirSync(SHOTS, { recursive: true });
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await new Promise((resolve) => server?.close(resolve));
  });

  /** Every request the page made went to this server. */
  const offHost: string[] = [];
  const watch = (page: Page) => {
    page.on('request', (r) => {
      if (!r.url().startsWith(origin)) offHost.push(r.url());
    });
    return page;
  };

  const shot = (page: Page, name: string) => page.screenshot({ path: join(SHOTS, `${name}.png`), fullPage: true });

  /** axe-core on the current page in a CSP-bypassing context with the same cookies: no serious or critical violation. */
  async function accessible(page: Page): Promise<void> {
    const context = await browser.newContext({ bypassCSP: true });
    await context.addCookies(await page.context().cookies());
    const probe = await context.newPage();
    await probe.goto(page.url());
    await probe.addScriptTag({ path: AXE });
    const violations = (await probe.evaluate(async () => {
      const result = await (globalThis as any).axe.run(document);
      return result.violations.map((v: any) => ({
        id: v.id,
        impact: v.impact,
        nodes: v.nodes.map((n: any) => n.target.join(' ')).slice(0, 3),
      }));
    })) as { id: string; impact: string }[];
    await context.close();
    expect([page.url(), violations.filter((v) => v.impact === 'serious' || v.impact === 'critical')]).toEqual([page.url(), []]);
  }

  itIf(
    chromiumHere,
    'signs in, creates, uses and revokes an access, edits an allocation, reads results and searches',
    async () => {
      const page = watch(await (await browser.newContext()).newPage());
      const csp: string[] = [];
      page.on('response', (r) => {
        if (r.url().startsWith(`${origin}/console`)) csp.push(r.headers()['content-security-policy'] ?? '(none)');
      });

      // Sign in.
      await page.goto(`${origin}/console`);
      await shot(page, 'login');
      await accessible(page);
      await page.getByLabel('Admin key').fill(ADMIN_KEY);
      await page.getByRole('button', { name: 'Sign in' }).click();
      await expect.poll(() => page.url()).toBe(`${origin}/console/accounts`);
      await shot(page, 'accounts');
      await accessible(page);

      // Create an access; read its secret once.
      await page.goto(`${origin}/console/accounts/acme/accesses`);
      await page.getByLabel('Name').fill('deploy-bot');
      await page.getByLabel('prod').check();
      await page.getByLabel('campaigns.read').check();
      await page.getByRole('button', { name: 'Create', exact: true }).click();
      await page.waitForURL(`${origin}/console/once`);
      await shot(page, 'access-created');
      await accessible(page);
      const clientId = (await page.locator('#once-0').textContent())!;
      const secret = (await page.locator('#once-1').textContent())!;
      expect(secret).toMatch(/^abk_/);
      expect(await page.getByText('it will not be shown again').count()).toBe(1);
      await page.reload();
      expect(await page.content()).not.toContain(secret);
      await shot(page, 'access-gone');

      // A token with it.
      const token = async () =>
        fetch(`${origin}/acme/token`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ grant_type: 'client_credentials', client_id: clientId, client_secret: secret }),
        });
      const issued = await token();
      expect(issued.status).toBe(200);
      const { access_token } = (await issued.json()) as { access_token: string };
      const check = () =>
        fetch(`${origin}/v1/accounts/acme/environments/prod/campaigns`, { headers: { authorization: `Bearer ${access_token}` } });
      expect((await check()).status).toBe(200);

      // The list shows it; revoke it (confirmed) and see the token refused.
      await page.goto(`${origin}/console/accounts/acme/accesses`);
      expect(await page.content()).not.toContain(secret);
      await shot(page, 'accesses');
      await accessible(page);
      await page.getByRole('link', { name: 'Revoke deploy-bot' }).click();
      await shot(page, 'access-revoke-confirm');
      await accessible(page);
      await page.getByRole('button', { name: 'Revoke' }).click();
      await page.waitForURL(`${origin}/console/accounts/acme/accesses`);
      expect((await check()).status).toBe(401);
      expect((await token()).status).toBe(401);

      // Environment, campaign: edit the allocation and see /v2 follow.
      await page.goto(`${origin}/console/accounts/acme/environments/prod`);
      await shot(page, 'environment');
      await accessible(page);
      await page.getByRole('link', { name: 'checkout', exact: true }).click();
      await page.getByLabel('checkout-v0').fill('70');
      await page.getByRole('button', { name: 'Save allocations' }).click();
      await expect.poll(() => page.locator('.error').count()).toBeGreaterThan(0);
      await shot(page, 'campaign-error');
      await accessible(page);
      await page.getByLabel('checkout-v0').fill('0');
      await page.getByLabel('checkout-v1').fill('100');
      await page.getByRole('button', { name: 'Save allocations' }).click();
      await page.waitForURL(`${origin}/console/accounts/acme/environments/prod/campaigns/checkout`);
      await shot(page, 'campaign');
      for (const visitor of ['a', 'b', 'c', 'd']) {
        const decision = await fetch(`${origin}/v2/prod/campaigns`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ visitor_id: visitor, context: {}, trigger_hit: false }),
        });
        const body = (await decision.json()) as { campaigns: { id: string; variation: { id: string } }[] };
        expect(body.campaigns.find((c) => c.id === 'checkout')?.variation.id).toBe('checkout-v1');
      }

      // A new campaign from the environment page: a bad id first, then one /v2 serves.
      await page.goto(`${origin}/console/accounts/acme/environments/prod`);
      await page.getByLabel('Campaign id').fill('x'.repeat(256));
      await page.getByLabel('Flag key').fill('color');
      await page.getByRole('button', { name: 'Create campaign' }).click();
      await expect.poll(() => page.locator('#new-campaign-id-error').count()).toBe(1);
      await shot(page, 'campaign-new-error');
      await accessible(page);
      await page.getByLabel('Campaign id').fill('hero');
      await page.getByLabel('Type').selectOption('toggle');
      await page.getByLabel('Value of each variation').fill('red\nblue');
      await page.getByRole('button', { name: 'Create campaign' }).click();
      await page.waitForURL(`${origin}/console/accounts/acme/environments/prod/campaigns/hero`);
      await shot(page, 'campaign-new');
      const hero = await fetch(`${origin}/v2/prod/campaigns`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ visitor_id: 'hero-visitor', context: {}, trigger_hit: false }),
      });
      const heroBody = (await hero.json()) as { campaigns: { id: string; variation: { id: string } }[] };
      expect(heroBody.campaigns.find((c) => c.id === 'hero')?.variation.id).toMatch(/^hero-[ab]$/);

      // A search A/B: a bad setting is named at its line, then searches with visitor ids follow it
      // and the results page compares search click-through per variation.
      await page.goto(`${origin}/console/accounts/acme/environments/prod`);
      await page.getByLabel('Campaign id').fill('ranking');
      await page.getByLabel('Variations change').selectOption('search');
      await page.getByLabel('Catalog (search settings').fill('shop');
      await page.getByLabel('Value of each variation').fill('{}\n{"rankingRules": ["customRanking", "wordz"]}');
      await page.getByRole('button', { name: 'Create campaign' }).click();
      await expect.poll(() => page.locator('#new-campaign-values-error').count()).toBe(1);
      expect(await page.locator('#new-campaign-values-error').textContent()).toContain('line 2: rankingRules.1: Invalid option');
      await shot(page, 'campaign-search-error');
      await accessible(page);
      await page
        .getByLabel('Value of each variation')
        .fill('{}\n{"rankingRules": ["customRanking", "words"], "customRanking": ["price:asc"]}');
      await page.getByRole('button', { name: 'Create campaign' }).click();
      await page.waitForURL(`${origin}/console/accounts/acme/environments/prod/campaigns/ranking`);
      await shot(page, 'campaign-search');
      const clicks: { type: string; visitorId: string }[] = [];
      const orders = new Map<string, string>();
      for (let i = 0; i < 40; i++) {
        const visitorId = `shopper-${i}`;
        const decision = await fetch(`${origin}/v2/prod/campaigns`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ visitor_id: visitorId, context: {}, trigger_hit: false }),
        });
        const variation = ((await decision.json()) as { campaigns: { id: string; variation: { id: string } }[] }).campaigns.find(
          (c) => c.id === 'ranking',
        )!.variation.id;
        const found = (await (await fetch(`${origin}/search?text=running+shoe&visitorId=${visitorId}`)).json()) as {
          hits: { id: string }[];
        };
        orders.set(variation, found.hits.map((h) => h.id).join(','));
        // The variation's shoppers find the socks first and click more often.
        if (variation === 'ranking-b' || i % 4 === 0) clicks.push({ type: 'click', visitorId });
      }
      expect(orders.get('ranking-b')).toBe('p4,p1,p2,p3');
      expect(orders.get('ranking-a')).not.toBe(orders.get('ranking-b'));
      expect(await fixture.abkit.searchExperiments.track('shop', clicks)).toBe(clicks.length);
      await page.getByRole('link', { name: 'Results' }).click();
      await page.getByRole('link', { name: 'Search clicks' }).click();
      await page.waitForURL(/metric=search_click/);
      expect(await page.getByRole('columnheader', { name: 'Clicks per visitor' }).count()).toBe(1);
      expect(await page.locator('svg[data-chart="rates"] rect.bar').count()).toBe(2);
      expect(await page.locator('tbody tr').count()).toBe(2);
      await shot(page, 'results-search');
      await accessible(page);

      // Preview a visitor.
      await page.goto(`${origin}/console/accounts/acme/environments/prod`);
      await page.getByLabel('Visitor id').fill('visitor-42');
      await page.getByLabel('Key 1').fill('country');
      await page.getByLabel('Value 1').fill('fr');
      await page.getByRole('button', { name: 'Preview' }).click();
      await page.waitForURL(/\/preview\?/);
      expect(await page.getByRole('cell', { name: 'banner', exact: true }).count()).toBe(1);
      await shot(page, 'preview');
      await accessible(page);

      // Results with their chart.
      await page.goto(`${origin}/console/accounts/acme/environments/prod/campaigns/checkout/results?metric=purchase`);
      const chart = page.locator('svg[data-chart="rates"]');
      expect(await chart.count()).toBe(1);
      expect(await chart.locator('rect.bar').count()).toBe(2);
      expect(await page.locator('svg[data-chart="timeline"] path').count()).toBe(2);
      await shot(page, 'results');
      await accessible(page);

      // Catalogs and the search playground.
      await page.goto(`${origin}/console/catalogs`);
      await shot(page, 'catalogs');
      await accessible(page);
      await page.goto(`${origin}/console/catalogs/shop`);
      await shot(page, 'catalog');
      await accessible(page);
      // Add items (synced by default): a bad one is named, then search finds them.
      await page.locator('#items').fill(JSON.stringify([item('q1', 'Quokka bag', 30), item('q2', 'Quokka tote', 'cheap')]));
      await page.getByRole('button', { name: 'Add items' }).click();
      await expect.poll(() => page.locator('#items-error li').count()).toBe(1);
      expect(await page.locator('#items-error').textContent()).toContain('item 2: item "q2"');
      await shot(page, 'catalog-items-error');
      await accessible(page);
      await page.locator('#items').fill(JSON.stringify([item('q1', 'Quokka bag', 30), item('q2', 'Quokka tote', 25)]));
      await page.getByRole('button', { name: 'Add items' }).click();
      await page.waitForURL(`${origin}/console/catalogs/shop`);
      await shot(page, 'catalog-items-added');
      const quokka = (await (await fetch(`${origin}/search?text=quokka`)).json()) as { hits: { id: string }[] };
      expect(quokka.hits.map((h) => h.id).sort()).toEqual(['q1', 'q2']);
      await page.getByRole('link', { name: 'Search playground' }).click();
      await page.getByLabel('Query').fill('running shoe');
      await page.getByRole('button', { name: 'Search' }).click();
      await page.waitForURL(/\/search\?/);
      expect(await page.locator('article.hit').count()).toBeGreaterThan(0);
      await page.getByLabel('Fleet').check();
      await page.getByLabel('Sort').selectOption('price:asc');
      await page.getByRole('button', { name: 'Search' }).click();
      await page.waitForURL(/sort=price%3Aasc/);
      const names = await page.locator('article.hit strong').allTextContents();
      expect(names).toEqual(['Running socks', 'Red running shoe', 'Blue running shoe']);
      await shot(page, 'playground');
      await accessible(page);

      // Merchandising: pin the last quokka first for "Quokka" (nothing given first: refused at the form), and see /search and the playground follow.
      const quokkas = async () =>
        ((await (await fetch(`${origin}/search?text=quokka`)).json()) as { hits: { id: string }[] }).hits.map((h) => h.id);
      const organic = await quokkas();
      const last = organic.at(-1)!;
      await page.goto(`${origin}/console/catalogs/shop`);
      await page.getByLabel(/^Query/).fill('Quokka');
      await page.getByRole('button', { name: 'Save rule' }).click();
      await expect.poll(() => page.locator('ul.error[role="alert"] li').count()).toBe(1);
      expect(await page.locator('ul.error[role="alert"]').textContent()).toContain('give an item id to pin or to hide');
      await shot(page, 'catalog-merchandising-error');
      await accessible(page);
      await page.getByLabel('Pin item (id)').fill(last);
      await page.getByLabel('at position').fill('1');
      await page.getByRole('button', { name: 'Save rule' }).click();
      await page.waitForURL(`${origin}/console/catalogs/shop#merchandising`);
      expect(await page.getByRole('cell', { name: 'equals:quokka', exact: true }).count()).toBe(1);
      await shot(page, 'catalog-merchandising');
      await accessible(page);
      expect((await quokkas())[0]).toBe(last);
      await page.goto(`${origin}/console/catalogs/shop/search?q=quokka`);
      expect(await page.locator('article.hit').first().textContent()).toContain(`(${last})`);
      expect(await page.locator('article.hit').first().textContent()).toContain('pinned');
      await shot(page, 'playground-pinned');
      // Behaviour ranking on, then the rule removed: /search is organic again.
      await page.goto(`${origin}/console/catalogs/shop`);
      await page.locator('#behaviour-enabled').check();
      await page.getByRole('button', { name: 'Save behaviour ranking' }).click();
      await page.waitForURL(`${origin}/console/catalogs/shop#merchandising`);
      expect(await page.locator('#behaviour-enabled').isChecked()).toBe(true);
      expect(fixture.abkit.admin.searchSettings('shop')?.behaviour).toEqual({ enabled: true });
      await page.getByRole('button', { name: 'Remove the rule equals:quokka' }).click();
      await page.waitForURL(`${origin}/console/catalogs/shop#merchandising`);
      expect(await quokkas()).toEqual(organic);
      // Search analytics: a tracked search and a click through the search interface, then the page.
      const tracked = (await (await fetch(`${origin}/search?text=quokka&clickAnalytics=true`)).json()) as { queryID: string };
      const clicked = await fetch(`${origin}/search/events`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ events: [{ type: 'click', queryID: tracked.queryID, itemId: 'q1', position: 1 }] }),
      });
      expect(clicked.status).toBe(204);
      await page.goto(`${origin}/console/catalogs/shop`);
      await page.getByRole('link', { name: 'Search analytics' }).click();
      await page.waitForURL(`${origin}/console/catalogs/shop/analytics`);
      expect(await page.locator('svg[data-chart="timeline"]').count()).toBe(2);
      expect(await page.getByRole('cell', { name: 'quokka', exact: true }).count()).toBe(1);
      expect(await page.getByRole('cell', { name: 'sandals', exact: true }).count()).toBe(2);
      await shot(page, 'analytics');
      await accessible(page);

      // The audit log names the key.
      await page.goto(`${origin}/console/audit`);
      expect(await page.getByRole('cell', { name: 'access.revoke', exact: true }).count()).toBe(1);
      await shot(page, 'audit');
      await accessible(page);

      // Log out: the console asks for the key again.
      await page.getByRole('button', { name: 'Log out' }).click();
      await page.waitForURL(`${origin}/console/login`);
      await page.goto(`${origin}/console/accounts`);
      expect(page.url()).toBe(`${origin}/console/login`);

      expect(offHost).toEqual([]);
      expect(csp.every((value) => value.startsWith("default-src 'self'"))).toBe(true);
    },
    120_000,
  );
});
