/**
 * Per adapter: one 10,000-operation batch and one 100,000-item sync, against the memory
 * adapter as the baseline of the same run.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { postgresStorage } from '../../adapters/sql/postgres';
import { sqliteStorage } from '../../adapters/sql/sqlite';
import { generateProducts } from '../../examples/demo/generate-products';
import { CatalogRegistry, memoryStorage, type Storage } from '../../src/index';
import { dropSchema, POSTGRES_URL, postgresAvailable, testSchema } from '../helpers/postgres';

async function time(fn: () => Promise<unknown>): Promise<number> {
  const t = performance.now();
  await fn();
  return performance.now() - t;
}

export async function benchStorage(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'abkit-bench-'));
  const schema = testSchema('bench');
  const adapters: [string, () => Promise<Storage>][] = [
    ['memory', async () => memoryStorage()],
    ['sqlite (file, WAL)', () => sqliteStorage({ filename: join(dir, 'bench.db') })],
  ];
  const pgUp = await postgresAvailable().catch(() => false);
  if (pgUp) adapters.push(['postgres (localhost)', () => postgresStorage({ connectionString: POSTGRES_URL, schema })]);
  const batch = generateProducts(10_000, 11).map((product) => ({ operation: 'create-replace' as const, product }));
  const big = generateProducts(100_000, 12);
  const rows: { name: string; batch: number; sync: number }[] = [];
  try {
    for (const [name, open] of adapters) {
      const storage = await open();
      const { catalog } = await new CatalogRegistry({ storage }).create({ identifier: `bench-${rows.length}` });
      await catalog.batch(batch.slice(0, 100)); // warm-up: statements prepared, fields created
      const batchMs = await time(() => catalog.batch(batch));
      for (let i = 0; i < big.length; i += 10_000) {
        await catalog.batch(big.slice(i, i + 10_000).map((product) => ({ operation: 'create-replace' as const, product })));
      }
      const syncMs = await time(() => catalog.sync());
      rows.push({ name, batch: batchMs, sync: syncMs });
      await storage.close();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
    if (pgUp) await dropSchema(schema);
  }
  const base = rows[0]!;
  console.log('\n## Storage adapters (one run each; ratio = time / memory time)');
  for (const r of rows) {
    console.log(
      `${r.name.padEnd(24)} 10,000-op batch ${r.batch.toFixed(0).padStart(6)} ms (${(r.batch / base.batch).toFixed(1)}×)   100,000-item sync ${r.sync.toFixed(0).padStart(6)} ms (${(r.sync / base.sync).toFixed(1)}×)`,
    );
  }
}
