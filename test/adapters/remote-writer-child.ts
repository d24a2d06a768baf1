/**
 * A process putting campaigns into one environment through RemoteControl, all at once, to
 * race another such process on the same store (test/adapters/sqlite.test.ts).
 *
 * Usage: node <bundle> <sqlite file> <campaign id prefix> <count>
 *
 * Prints `READY` once the store is open, waits for a line `GO`, then puts `<count>` campaigns
 * `<prefix>-<i>` into environment `prod` of account `acme` concurrently, and prints
 * `DONE <succeeded> <failed> <first error>`.
 */
import { createInterface } from 'node:readline';
import { sqliteStorage } from '../../adapters/sql/sqlite';
import { DecisionEngine, RemoteControl } from '../../src/index';
import { campaign } from '../helpers/configs';

const [filename, prefix, count] = process.argv.slice(2);
if (!filename || !prefix || !count) {
  console.error('usage: remote-writer-child.ts <sqlite file> <prefix> <count>');
  process.exit(2);
}

const storage = await sqliteStorage({ filename });
const remote = new RemoteControl({ engine: new DecisionEngine({ storage }) });
console.log('READY');
const lines = createInterface({ input: process.stdin });
for await (const line of lines) if (line === 'GO') break;
lines.close();
const ids = Array.from({ length: Number(count) }, (_, i) => `${prefix}-${i}`);
const results = await Promise.allSettled(ids.map((id) => remote.putCampaign('acme', 'prod', id, campaign({ id, split: [100] }))));
const failed = results.filter((r): r is PromiseRejectedResult => r.status === 'rejected');
console.log(`DONE ${results.length - failed.length} ${failed.length} ${failed[0] ? String((failed[0].reason as Error).message) : '-'}`);
await storage.close();
