/**
 * `npm run bench -- results`: `experiments.results()` for a campaign with 200,000 exposed visitors
 * and 1,000,000 conversion events (half of them the metric), on SQLite (file, WAL) and
 * PostgreSQL, next to the raw SQL in the same run: the store's own aggregate statement run
 * directly through the driver (the floor `results()` can reach), and a naive hand-written join
 * that ignores the after-exposure rule and multiple exposures. Timings alternate between the
 * three, five rounds each, medians reported; memory is the JS heap growth over one call after a
 * garbage collection.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { aggregateSql } from '../../adapters/sql/event-store';
import { postgresStorage } from '../../adapters/sql/postgres';
import { sqliteStorage } from '../../adapters/sql/sqlite';
import type { SqlStorage } from '../../adapters/sql/storage';
import { prng } from '../../examples/demo/generate-products';
import { DecisionEngine, ExperimentService } from '../../src/index';
import type { Activation } from '../../src/storage/activations';
import type { ConversionEvent } from '../../src/storage/events';
import { config } from '../helpers/configs';
import { dropSchema, POSTGRES_URL, postgresAvailable, testSchema } from '../helpers/postgres';

const EXPOSED = 200_000;
const EVENTS = 1_000_000;
const VISITORS = 2 * EXPOSED; // half the visitors who send events were never exposed
const T0 = 1_750_000_000_000;
const ENV = 'bench';
const ROUNDS = 5;

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

// What one might write by hand: every activation joined with every event of the metric (an index
// seek each), with no after-exposure rule and no multiple-exposure handling.
const NAIVE_SQL = `
  SELECT a.variation_id, COUNT(DISTINCT a.visitor_id) AS exposed, COUNT(DISTINCT e.visitor_id) AS converted, SUM(e.value) AS value_sum
  FROM activations a
  LEFT JOIN events e ON e.environment_id = a.environment_id AND e.event = ? AND e.visitor_id = a.visitor_id
  WHERE a.environment_id = ? AND a.campaign_id = ?
  GROUP BY a.variation_id`;

async function load(storage: SqlStorage): Promise<number> {
  const started = performance.now();
  const random = prng(15);
  const variation: string[] = [];
  for (let start = 0; start < EXPOSED; start += 20_000) {
    const rows: Activation[] = [];
    for (let i = start; i < start + 20_000; i++) {
      variation[i] = random() < 0.5 ? 'exp-v0' : 'exp-v1';
      rows.push({
        environmentId: ENV,
        visitorId: `v${i}`,
        anonymousId: null,
        campaignId: 'exp',
        variationGroupId: 'exp-vg',
        variationId: variation[i]!,
        timestamp: T0 + i * 10,
      });
    }
    await storage.activations.record(rows);
  }
  for (let start = 0; start < EVENTS; start += 20_000) {
    const rows: ConversionEvent[] = [];
    for (let i = start; i < start + 20_000; i++) {
      const v = Math.floor(random() * VISITORS);
      let purchase = random() < 0.5;
      // The treatment converts a little more.
      if (!purchase && v < EXPOSED && variation[v] === 'exp-v1' && random() < 0.05) purchase = true;
      // From an hour before the exposure (not counted) to a week after it.
      const timestamp = T0 + Math.min(v, EXPOSED) * 10 + Math.floor((random() * 169 - 1) * 3_600_000);
      rows.push({
        environmentId: ENV,
        visitorId: `v${v}`,
        event: purchase ? 'purchase' : 'pageview',
        value: purchase ? Math.round(-40 * Math.log(1 - random()) * 100) / 100 : null,
        timestamp,
      });
    }
    await storage.events.record(rows);
  }
  return performance.now() - started;
}

interface Measure {
  ms: number[];
  heapMb: number;
}

/** JS heap growth over one call, its result kept alive (SQLite's own memory is native, outside it). */
async function heapOf(run: () => Promise<unknown>): Promise<number> {
  gc();
  const before = process.memoryUsage().heapUsed;
  const kept = await run();
  const grown = process.memoryUsage().heapUsed - before;
  void kept;
  return grown / 2 ** 20;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

export async function benchResults(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'abkit-bench-results-'));
  const schema = testSchema('bench_results');
  const adapters: [string, () => Promise<SqlStorage>][] = [
    ['sqlite (file, WAL)', () => sqliteStorage({ filename: join(dir, 'results.db') })],
  ];
  const pgUp = await postgresAvailable().catch(() => false);
  if (pgUp) adapters.push(['postgres (localhost)', () => postgresStorage({ connectionString: POSTGRES_URL, schema })]);
  else console.log('\n(PostgreSQL unreachable: its row is skipped)');
  const lines: string[] = [];
  try {
    for (const [name, open] of adapters) {
      const storage = await open();
      const engine = new DecisionEngine({ storage });
      const experiments = new ExperimentService({ engine });
      await engine.load(config([{ id: 'exp', split: [50, 50] }]), { environment: ENV });
      const loadMs = await load(storage);
      console.log(`${name}: data loaded in ${(loadMs / 1000).toFixed(1)} s`);
      if (storage.driver.dialect === 'postgres') await storage.driver.exec('ANALYZE');
      const query = { environment: ENV, campaignId: 'exp', metric: 'purchase' };
      const statement = aggregateSql({ environmentId: ENV, campaignId: 'exp', event: 'purchase' });
      const runs: Record<string, () => Promise<unknown>> = {
        'experiments.results()': () => experiments.results(query),
        'raw SQL: the store statement': () => storage.driver.query(statement.sql, statement.params),
        'raw SQL: naive join': () => storage.driver.query(NAIVE_SQL, ['purchase', ENV, 'exp']),
      };
      const measures: Record<string, Measure> = {};
      for (const [label, run] of Object.entries(runs)) measures[label] = { ms: [], heapMb: await heapOf(run) }; // also warms up
      for (let round = 0; round < ROUNDS; round++) {
        for (const [label, run] of Object.entries(runs)) {
          const t = performance.now();
          await run();
          measures[label]!.ms.push(performance.now() - t);
        }
      }
      // For scale: what loading the metric's events into the process would hold.
      const loadedMb = await heapOf(() => storage.events.list({ environmentId: ENV, event: 'purchase' }));
      const results = await experiments.results(query);
      const exposed = results.groups[0]!.variations.reduce((s, v) => s + v.exposed, 0);
      const baseline = median(measures['raw SQL: the store statement']!.ms);
      lines.push(
        `\n${name}: loaded ${EXPOSED.toLocaleString('en-US')} exposures and ${EVENTS.toLocaleString('en-US')} events in ${(loadMs / 1000).toFixed(1)} s; results() counted ${exposed.toLocaleString('en-US')} exposed visitors`,
      );
      lines.push(`  (for scale: listing the metric's events into the process takes heap +${loadedMb.toFixed(0)} MB)`);
      for (const [label, m] of Object.entries(measures)) {
        const ms = median(m.ms);
        lines.push(
          `  ${label.padEnd(30)} ${ms.toFixed(0).padStart(6)} ms  ${(ms / baseline).toFixed(2)}× the store statement   heap +${m.heapMb.toFixed(1)} MB`,
        );
      }
      await storage.close();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
    if (pgUp) await dropSchema(schema);
  }
  console.log(
    `\n## Experiment results: ${EXPOSED.toLocaleString('en-US')} exposures, ${EVENTS.toLocaleString('en-US')} events (median of ${ROUNDS}, alternated; memory: JS heap growth over one call after GC)`,
  );
  for (const line of lines) console.log(line);
}
