/**
 * Crash safety of the SQLite adapter: a process killed with SIGKILL in the middle of a
 * 10,000-operation batch leaves the catalog with all or none of that batch, and an intact file.
 *
 * test/helpers/batch-child.ts writes the batch; this file kills it at various moments after it
 * prints BATCH-START, then reopens the file here. The child's markers (TX-BEGIN, TX-WRITTEN,
 * TX-BODY-DONE, BATCH-DONE) tell where each kill landed.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { sqliteStorage } from '../../adapters/sql/sqlite';
import { CatalogRegistry } from '../../src/index';
import { runScript } from '../helpers/child-script';

const PRE_BATCH = 1_000;
const BATCH = 10_000;
const CHILD = 'test/helpers/batch-child.ts';

const dir = mkdtempSync(join(tmpdir(), 'abkit-sigkill-'));
const file = join(dir, 'abkit.db');
afterAll(() => rmSync(dir, { recursive: true, force: true }));

type Phase = 'before-tx' | 'in-tx' | 'committing' | 'done';

interface Run {
  label: string;
  delay: number | 'hold';
  phase: Phase;
  exit: number | string | null;
  markers: Record<string, number>;
  outcome: 'none' | 'all' | 'partial';
}

function markers(output: string): Record<string, number> {
  const found: Record<string, number> = {};
  for (const m of output.matchAll(/^([A-Z-]+) (\d+(?:\.\d+)?)$/gm)) found[m[1]!] = Number(m[2]);
  return found;
}

function phaseOf(m: Record<string, number>): Phase {
  if ('BATCH-DONE' in m) return 'done';
  if ('TX-BODY-DONE' in m) return 'committing';
  if ('TX-BEGIN' in m) return 'in-tx';
  return 'before-tx';
}

/** Runs the child; kills it with SIGKILL `delay` ms after BATCH-START (after TX-WRITTEN for `hold`), or never. */
async function run(
  label: string,
  delay: number | 'hold' | 'never',
): Promise<{ exit: number | string | null; markers: Record<string, number>; output: string }> {
  const child = runScript(CHILD, delay === 'hold' ? [file, label, 'hold'] : [file, label]);
  if (delay !== 'never') {
    await child.waitFor(delay === 'hold' ? /^TX-WRITTEN / : /^BATCH-START /);
    if (delay === 'hold' || delay === 0) child.child.kill('SIGKILL');
    else setTimeout(() => child.child.kill('SIGKILL'), delay);
  }
  // Resolves once the pipes are drained too: markers printed just before the kill are read.
  const exit = await child.exited;
  return { exit, markers: markers(child.output()), output: child.output() };
}

/** Reopens the file in this process: total items, items of one run, integrity. */
async function inspect(label: string): Promise<{ total: number; ofRun: number; integrity: unknown }> {
  const storage = await sqliteStorage({ filename: file });
  try {
    const total = await storage.catalogs.countItems('shop');
    const [row] = await storage.driver.query<{ n: number }>(
      "SELECT COUNT(*) AS n FROM catalog_items WHERE identifier = 'shop' AND id LIKE ?",
      [`${label}-%`],
    );
    const integrity = await storage.driver.query('PRAGMA integrity_check');
    return { total, ofRun: Number(row!.n), integrity };
  } finally {
    await storage.close();
  }
}

describe('SQLite: SIGKILL during a 10,000-operation batch', () => {
  it('leaves all or none of the batch after reopening, and an intact, readable catalog', async () => {
    const started = Date.now();
    // Calibration: one batch to its end, to place kills within its transaction.
    const calibration = await run('cal', 'never');
    expect(calibration.exit, calibration.output).toBe(0);
    const { 'TX-BEGIN': txBegin, 'BATCH-DONE': done } = calibration.markers;
    expect(txBegin).toBeTypeOf('number');
    expect(done).toBeTypeOf('number');
    let expected = PRE_BATCH + BATCH;
    expect(await inspect('cal')).toEqual({ total: expected, ofRun: BATCH, integrity: [{ integrity_check: 'ok' }] });

    const spread = [0.1, 0.3, 0.5, 0.7, 0.9, 1, 1.15, 1.3, 1.6].map((f) => Math.round(txBegin! + f * (done! - txBegin!)));
    const delays: (number | 'hold')[] = [0, 5, 20, 50, 100, ...spread, 250, 'hold'];
    const runs: Run[] = [];
    for (const [i, delay] of delays.entries()) {
      const label = `r${i}`;
      const result = await run(label, delay);
      const state = await inspect(label);
      const phase = phaseOf(result.markers);
      const outcome = state.ofRun === 0 ? 'none' : state.ofRun === BATCH ? 'all' : 'partial';
      runs.push({ label, delay, phase, exit: result.exit, markers: result.markers, outcome });
      const where = `run ${label} (kill after ${delay} ms, phase ${phase}, exit ${result.exit}):\n${result.output}`;
      expect(state.integrity, where).toEqual([{ integrity_check: 'ok' }]);
      expect([0, BATCH], where).toContain(state.ofRun);
      // Nothing else changed: the earlier runs' items are all there.
      expect(state.total, where).toBe(expected + state.ofRun);
      // What the markers prove: no COMMIT ran before TX-BODY-DONE; BATCH-DONE follows the COMMIT.
      if (phase === 'before-tx' || phase === 'in-tx') expect(outcome, where).toBe('none');
      if (phase === 'done') expect(outcome, where).toBe('all');
      if (outcome !== 'all') expect(result.exit, where).toBe('SIGKILL');
      expected += state.ofRun;
    }

    const table = runs.map(
      (r) => `${r.label.padEnd(4)} kill +${String(r.delay).padEnd(5)} ${r.phase.padEnd(11)} exit ${String(r.exit).padEnd(8)} ${r.outcome}`,
    );
    const none = runs.filter((r) => r.outcome === 'none').length;
    const all = runs.filter((r) => r.outcome === 'all').length;
    console.info(
      `SIGKILL runs: ${none} none, ${all} all, ${runs.filter((r) => r.outcome === 'partial').length} partial ` +
        `(batch: TX-BEGIN at ${txBegin} ms, BATCH-DONE at ${done} ms after BATCH-START; ${Date.now() - started} ms in all)\n${table.join('\n')}`,
    );
    // The held run was killed inside the open transaction, every row written: none of it stays.
    expect(runs.at(-1)).toMatchObject({ delay: 'hold', phase: 'in-tx', outcome: 'none', exit: 'SIGKILL' });
    expect(runs.filter((r) => r.phase === 'in-tx').length).toBeGreaterThanOrEqual(1);

    // The catalog is readable and usable after all those crashes.
    const storage = await sqliteStorage({ filename: file });
    try {
      const catalog = await new CatalogRegistry({ storage }).get('shop');
      expect(await catalog.count()).toBe(expected);
      expect((await catalog.get('pre-999'))?.brand).toBe('brand-49');
      expect((await catalog.get('cal-9999'))?.name).toBe('Product cal-9999 with a reasonably long descriptive name');
      expect(
        (
          await catalog.put({
            id: 'after',
            is_recommendable: true,
            name: 'After',
            absolute_link: null,
            img_link: null,
            price: 1,
            categories_ids: [],
          })
        ).accepted,
      ).toBe(1);
      const synced = await catalog.sync();
      expect(synced.count).toBe(expected + 1);
      expect((await catalog.visible()).items).toHaveLength(expected + 1);
      expect(await storage.driver.query('PRAGMA integrity_check')).toEqual([{ integrity_check: 'ok' }]);
    } finally {
      await storage.close();
    }
  }, 60_000);
});
