/**
 * `npm run bench -- search-sync`: the longest event-loop stall while a catalog of 100,000 items
 * (the Best Buy products repeated under new ids) is synchronized and its search index rebuilt,
 * on SQLite (a file, WAL) and PostgreSQL (when reachable: `ABKIT_TEST_POSTGRES`, a schema of its
 * own dropped after). Two cases per store: the full load (the first sync publishing every item,
 * then a new service reading and indexing them all) and a sync changing one item (the sync, then
 * the rebuild up to the first search served from the new version).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { postgresStorage } from '../../adapters/sql/postgres';
import { sqliteStorage } from '../../adapters/sql/sqlite';
import { CatalogRegistry, type Storage } from '../../src/index';
import { loadBestBuy } from '../helpers/bestbuy';
import { dropSchema, POSTGRES_URL, postgresAvailable, testSchema } from '../helpers/postgres';
import { ms, phaseLine, watchLoop, type PhaseStall } from './loop-watch';
import { fullBuildStall, LARGE, rebuildStall, repeated, type Stall } from './search';

/** Rounds of the one-item case and of the full build (`BENCH_SYNC_ROUNDS` overrides the first). */
const ROUNDS = Number(process.env.BENCH_SYNC_ROUNDS ?? 3);
const FULL_ROUNDS = 2;

export async function benchSearchSync(): Promise<void> {
  const { products } = await loadBestBuy();
  const items = repeated(products, LARGE);
  const dir = mkdtempSync(join(tmpdir(), 'abkit-sync-bench-'));
  const schema = testSchema('syncbench');
  const stores: [string, () => Promise<Storage & { close(): Promise<void> }>][] = [
    ['SQLite (file, WAL)', () => sqliteStorage({ filename: join(dir, 'sync.db') })],
  ];
  const pgUp = await postgresAvailable().catch(() => false);
  if (pgUp) stores.push(['PostgreSQL (127.0.0.1)', () => postgresStorage({ connectionString: POSTGRES_URL, schema })]);
  else console.log(`\n(PostgreSQL at ${POSTGRES_URL} unreachable: measured on SQLite only)`);
  try {
    for (const [name, open] of stores) {
      const storage = await open();
      try {
        const { catalog } = await new CatalogRegistry({ storage }).create({ identifier: 'syncbench' });
        for (let i = 0; i < items.length; i += 10_000) {
          await catalog.batch(items.slice(i, i + 10_000).map((item) => ({ operation: 'create-replace' as const, product: { ...item } })));
        }
        const watch = await watchLoop();
        const t = performance.now();
        await catalog.sync();
        const loadSyncMs = performance.now() - t;
        const loadSync = await watch.stop();
        // The one-item rounds run before the other full builds: the garbage of 100,000-item
        // indexes dropped just before would otherwise be collected during a round and counted in it.
        const full: { stall: PhaseStall; ms: number }[] = [];
        const first = await fullBuildStall(catalog);
        full.push({ stall: first.stall, ms: first.ms });
        const service = first.service;
        const stalls: Stall[] = [];
        for (let round = 0; round < ROUNDS; round++) stalls.push(await rebuildStall(catalog, service, items[round * 7]!, round));
        for (let round = 1; round < FULL_ROUNDS; round++) {
          const { stall, ms: took } = await fullBuildStall(catalog);
          full.push({ stall, ms: took });
        }
        console.log(
          `\n## ${name}: sync and index rebuild of ${LARGE.toLocaleString('en-US')} items (monitorEventLoopDelay, 1 ms resolution)`,
        );
        console.log(phaseLine(`the full-load sync (publishing every item; took ${ms(loadSyncMs)} ms)`, [loadSync], ''));
        console.log(
          phaseLine(
            `a full read and index build by a new service (${FULL_ROUNDS} rounds: ${full.map((f) => ms(f.ms)).join(', ')} ms)`,
            full.map((f) => f.stall),
            ', target ≤ 50 ms',
          ),
        );
        console.log(
          phaseLine(
            `a sync changing one item (${ROUNDS} rounds)`,
            stalls.map((s) => s.sync),
            ', target ≤ 50 ms',
          ),
        );
        console.log(
          phaseLine(
            'the read and rebuild after it, up to the first search served from the new version',
            stalls.map((s) => s.build),
            ', target ≤ 50 ms',
          ),
        );
        console.log(`new version served after: ${stalls.map((s) => ms(s.servedAfter)).join(', ')} ms`);
        console.log(
          `load average: ${loadavg()
            .map((l) => l.toFixed(1))
            .join(' ')} on ${availableParallelism()} cores`,
        );
      } finally {
        await storage.close();
      }
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
    if (pgUp) await dropSchema(schema);
  }
}
