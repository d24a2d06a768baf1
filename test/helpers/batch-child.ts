/**
 * A process writing one 10,000-operation batch to a SQLite file, to be killed with SIGKILL by
 * test/adapters/sigkill.test.ts.
 *
 * Usage: node --import tsx test/helpers/batch-child.ts <file> <run label> [hold]
 *
 * Opens `sqliteStorage({ filename })`, creates the catalog `shop` with a first committed batch of
 * 1,000 items (`pre-<i>`) when absent, then prints `BATCH-START` and runs one batch of 10,000
 * create-replace operations (items `<run label>-<i>`), then prints `BATCH-DONE`.
 *
 * Markers, each a line with the milliseconds since BATCH-START, show where a kill landed:
 * `TX-BEGIN` (inside the transaction, after BEGIN), `TX-WRITTEN` (the item rows are written, not
 * committed), `TX-BODY-DONE` (the driver commits next), `BATCH-DONE` (committed).
 * With `hold`, the process blocks for 10 s right after `TX-WRITTEN`: the transaction is open
 * with every row written, waiting for the kill.
 */
import { sqliteStorage } from '../../adapters/sql/sqlite';
import type { SqlDriver } from '../../adapters/sql/sqlite';
import { CatalogRegistry, type BatchOperation } from '../../src/index';

const PRE_BATCH = 1_000;
const BATCH = 10_000;

const [filename, label, mode] = process.argv.slice(2);
if (!filename || !label) {
  console.error('usage: batch-child.ts <file> <run label> [hold]');
  process.exit(2);
}

function product(id: string, i: number): Record<string, unknown> {
  return {
    id,
    is_recommendable: i % 7 !== 0,
    name: `Product ${id} with a reasonably long descriptive name`,
    absolute_link: `https://shop.example/p/${id}`,
    img_link: null,
    price: (i % 1000) + 0.99,
    categories_ids: [`cat-${i % 20}`, `cat-${i % 3}`],
    brand: `brand-${i % 50}`,
    tags: ['alpha', 'beta', `t${i % 9}`],
  };
}
const ops = (prefix: string, n: number): BatchOperation[] =>
  Array.from({ length: n }, (_, i) => ({ operation: 'create-replace', product: product(`${prefix}-${i}`, i) }));

const storage = await sqliteStorage({ filename });
const registry = new CatalogRegistry({ storage });
if (!(await registry.has('shop'))) {
  const { catalog } = await registry.create({ identifier: 'shop' });
  await catalog.batch(ops('pre', PRE_BATCH));
}
const catalog = await registry.get('shop');
const batch = ops(label, BATCH);

// Instrument the driver the catalog store writes through (the same object): markers from
// inside the batch's transaction.
const driver = storage.driver as SqlDriver;
const transaction = driver.transaction.bind(driver);
let t0 = 0;
const mark = (name: string) => process.stdout.write(`${name} ${(performance.now() - t0).toFixed(1)}\n`);
driver.transaction = <T>(fn: (tx: SqlDriver) => Promise<T>) =>
  transaction(async (tx) => {
    mark('TX-BEGIN');
    const exec: SqlDriver['exec'] = async (sql, params) => {
      const changed = await tx.exec(sql, params);
      if (/^INSERT INTO catalog_items/.test(sql)) {
        mark('TX-WRITTEN');
        // Block the thread (no commit can happen) until killed.
        if (mode === 'hold') Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 10_000);
      }
      return changed;
    };
    const result = await fn({ ...tx, exec });
    mark('TX-BODY-DONE');
    return result;
  });

// Pipes are written synchronously on Linux: the parent can read this before the batch starts.
t0 = performance.now();
process.stdout.write('BATCH-START 0\n');
await catalog.batch(batch);
mark('BATCH-DONE');
await storage.close();
