/**
 * A separate process that opens a shared PostgreSQL and applies a bootstrap file the way the demo
 * server does at start, for test/adapters/multiprocess.test.ts. It opens the storage (migrations
 * included), prints `READY`, waits for a line on stdin, then applies the file, so that several
 * processes can be released at the same moment.
 *
 * Usage: node --import tsx test/helpers/bootstrap-child.ts <connection string> <schema> <bootstrap file>
 * Prints `APPLIED <report as JSON>` and exits 0, or `FAILED <error>` and exits 1.
 */
import { readFile } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { postgresStorage, type SqlStorage } from '../../adapters/sql/postgres';
import { AccessManager, applyBootstrap, CatalogRegistry, DecisionEngine } from '../../src/index';

const [connectionString, schema, file] = process.argv.slice(2);
if (!connectionString || !schema || !file) {
  console.error('usage: bootstrap-child.ts <connection string> <schema> <bootstrap file>');
  process.exit(2);
}
const readJson = async (path: string): Promise<unknown> => JSON.parse(await readFile(path, 'utf8'));
const bootstrap = await readJson(file);
let storage: SqlStorage;
try {
  storage = await postgresStorage({ connectionString, schema });
} catch (error) {
  console.log(`FAILED open: ${(error as Error).message}`);
  process.exit(1);
}
console.log('READY');
const lines = createInterface({ input: process.stdin });
await new Promise<void>((go) => lines.once('line', () => go()));
lines.close();
try {
  const report = await applyBootstrap(bootstrap, {
    engine: new DecisionEngine({ storage }),
    accesses: new AccessManager({ storage }),
    catalogs: new CatalogRegistry({ storage }),
    readJsonFile: (p) => readJson(resolve(dirname(file), p)),
  });
  console.log(`APPLIED ${JSON.stringify(report)}`);
  process.exitCode = 0;
} catch (error) {
  console.log(`FAILED ${(error as Error).name}: ${(error as Error).message}`);
  process.exitCode = 1;
} finally {
  await storage.close();
}
