import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { afterAll, describe, expect, it } from 'vitest';
import { sqliteStorage } from '../../adapters/sql/sqlite';
import { parseServeConfig } from '../../server/config';
import { serve } from '../../server/serve';
import { item } from '../helpers/search';

const dir = mkdtempSync(join(tmpdir(), 'abkit-serve-analytics-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('abkit serve: search analytics', () => {
  it('records searches and events, and writes what was counted when it shuts down (before the batch interval)', async () => {
    const bootstrap = join(dir, 'bootstrap.json');
    writeFileSync(
      bootstrap,
      JSON.stringify({
        catalogs: [
          {
            identifier: 'shop',
            catalogApiKey: 'catalog-key-for-the-analytics-test-01',
            items: [item('p1', 'Galaxy phone'), item('p2', 'Galaxy case')],
          },
        ],
      }),
    );
    const database = join(dir, 'abkit.db');
    const config = parseServeConfig([], {
      PORT: '0',
      ABKIT_STORAGE: `sqlite:${database}`,
      ABKIT_BOOTSTRAP: bootstrap,
      ABKIT_SEARCH_ANALYTICS_RETENTION_DAYS: '30',
    });
    expect(config.searchAnalyticsRetentionDays).toBe(30);
    const running = await serve(config, { logger: pino({ level: 'silent' }), banner: () => undefined });
    const answer = (await (await fetch(`${running.url}/search?text=galaxy&clickAnalytics=true`)).json()) as {
      queryID: string;
      hits: { id: string }[];
    };
    await fetch(`${running.url}/search?text=tablet`);
    const events = await fetch(`${running.url}/search/events`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ events: [{ type: 'click', queryID: answer.queryID, itemId: answer.hits[1]!.id, position: 2 }] }),
    });
    expect(events.status).toBe(204);
    await running.close();
    const storage = await sqliteStorage({ filename: database });
    try {
      const rows = await storage.driver.query<{ query: string; searches: number; clicks: number; zero_results: number }>(
        'SELECT query, searches, clicks, zero_results FROM search_query_days ORDER BY query',
      );
      expect(rows.map((r) => [r.query, Number(r.searches), Number(r.clicks), Number(r.zero_results)])).toEqual([
        ['galaxy', 1, 1, 0],
        ['tablet', 1, 0, 1],
      ]);
    } finally {
      await storage.close();
    }
  });

  it('refuses a retention outside 1 to 3,650 days, naming the variable', () => {
    expect(() => parseServeConfig([], { ABKIT_SEARCH_ANALYTICS_RETENTION_DAYS: '0' })).toThrow(
      'ABKIT_SEARCH_ANALYTICS_RETENTION_DAYS must be an integer from 1 to 3650, got "0"',
    );
    expect(() => parseServeConfig([], { ABKIT_SEARCH_ANALYTICS_RETENTION_DAYS: '4000' })).toThrow(/from 1 to 3650/);
  });
});
