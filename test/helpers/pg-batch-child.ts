/**
 * A separate process writing catalog batches to a shared PostgreSQL, for
 * test/adapters/multiprocess.test.ts. Rounds are released by the parent, so that several
 * processes write at the same instant.
 *
 * Usage: node --import tsx test/helpers/pg-batch-child.ts <connection string> <schema> <catalog> <label> <forward|reverse>
 *   <batches per round> <new fields per round> <items per batch>
 * Prints `READY` once open. On each stdin line `GO <round>` it runs its batches of that round at
 * once (items `<label>-<round>-<batch>-<i>`, each holding the round's new fields `f_<round>_<k>`
 * in forward or reverse key order), then prints `RESULT <round> <JSON { ok, errors }>`.
 * On `END` it closes and exits.
 */
import { createInterface } from 'node:readline';
import { postgresStorage } from '../../adapters/sql/postgres';
import { CatalogRegistry } from '../../src/index';

const [connectionString, schema, identifier, label, order, batchesArg, fieldsArg, itemsArg] = process.argv.slice(2);
if (
  !connectionString ||
  !schema ||
  !identifier ||
  !label ||
  (order !== 'forward' && order !== 'reverse') ||
  !batchesArg ||
  !fieldsArg ||
  !itemsArg
) {
  console.error('usage: pg-batch-child.ts <connection string> <schema> <catalog> <label> <forward|reverse> <batches> <fields> <items>');
  process.exit(2);
}
const [batches, fields, items] = [batchesArg, fieldsArg, itemsArg].map(Number) as [number, number, number];
const storage = await postgresStorage({ connectionString, schema });
const catalog = await new CatalogRegistry({ storage }).get(identifier);
console.log('READY');

async function round(r: number): Promise<{ ok: number; errors: string[] }> {
  const names = Array.from({ length: fields }, (_, k) => `f_${r}_${k}`);
  if (order === 'reverse') names.reverse();
  const spec = Object.fromEntries(names.map((n) => [n, 'x']));
  const results = await Promise.allSettled(
    Array.from({ length: batches }, (_, b) =>
      catalog.batch(
        Array.from({ length: items }, (_, i) => ({
          operation: 'create-replace' as const,
          product: {
            id: `${label}-${r}-${b}-${i}`,
            is_recommendable: true,
            name: `Item ${i}`,
            absolute_link: null,
            img_link: null,
            price: 1,
            categories_ids: [],
            ...spec,
          },
        })),
      ),
    ),
  );
  const errors = results.flatMap((x) =>
    x.status === 'rejected' ? [`${(x.reason as { code?: string }).code ?? ''} ${(x.reason as Error).message}`] : [],
  );
  return { ok: results.length - errors.length, errors };
}

const lines = createInterface({ input: process.stdin });
for await (const line of lines) {
  const m = /^GO (\d+)$/.exec(line.trim());
  if (m) {
    console.log(`RESULT ${m[1]} ${JSON.stringify(await round(Number(m[1])))}`);
    continue;
  }
  if (line.trim() === 'END') break;
}
lines.close();
await storage.close();
