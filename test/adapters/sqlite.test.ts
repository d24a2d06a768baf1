import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { sqliteStorage } from '../../adapters/sql/sqlite';
import { SLICE_OPERATIONS } from '../../src/slices';
import { countTurns } from '../helpers/turns';
import { runConformance } from './conformance';

const dir = mkdtempSync(join(tmpdir(), 'abkit-sqlite-'));
let n = 0;
afterAll(() => rmSync(dir, { recursive: true, force: true }));

runConformance('sqlite :memory:', () => sqliteStorage({ filename: ':memory:' }));
runConformance('sqlite file', () => sqliteStorage({ filename: join(dir, `conformance-${n++}.db`) }));

describe('visible items of a large catalog', () => {
  it('are parsed in slices, giving the event loop a turn every SLICE_OPERATIONS rows, and come in id order', async () => {
    const storage = await sqliteStorage({ filename: ':memory:' });
    try {
      await storage.catalogs.createCatalog({ identifier: 'big', catalogKeyHash: 'c'.padEnd(64, '0'), searchKeyHash: 's'.padEnd(64, '0'), createdAt: 1000 });
      const N = 4 * SLICE_OPERATIONS + 10;
      const items = Array.from({ length: N }, (_, i) => ({ id: `i${(N - i) * 7919 % 100_003}`, is_recommendable: true, name: `Item ${i}`, absolute_link: null, img_link: null, price: i, categories_ids: null }));
      await storage.catalogs.applyBatch('big', [], items.map((item) => ({ op: 'put' as const, item })), 1);
      await storage.catalogs.publish('big', 2000);
      const turns = countTurns();
      const visible = await storage.catalogs.visibleItems('big');
      expect(turns.stop()).toBeGreaterThanOrEqual(Math.floor(N / SLICE_OPERATIONS));
      expect(visible.items.map((i) => i.id)).toEqual(items.map((i) => i.id).sort());
    } finally {
      await storage.close();
    }
  });
});
