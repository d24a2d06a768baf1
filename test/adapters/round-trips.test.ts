/**
 * What a decision with writes costs the database, counted through the drivers (not timed): on
 * PostgreSQL every statement sent by pg, on SQLite every statement better-sqlite3 runs.
 */
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { postgresStorage } from '../../adapters/sql/postgres';
import { sqliteStorage } from '../../adapters/sql/sqlite';
import { DecisionEngine, memoryStorage, type Storage } from '../../src/index';
import { config } from '../helpers/configs';
import { dropSchema, POSTGRES_URL, postgresAvailable, testSchema } from '../helpers/postgres';
import { describeIf, need } from '../helpers/skip';

const pgUp = await postgresAvailable();
const schema = testSchema('roundtrips');
afterAll(async () => {
  if (pgUp) await dropSchema(schema);
});

// Five campaigns, each with a group every visitor enters.
const CAMPAIGNS = config(Array.from({ length: 5 }, (_, i) => ({ id: `c${i}`, split: [50, 50] })));

async function engineOn(storage: Storage): Promise<DecisionEngine> {
  const engine = new DecisionEngine({ storage, defaultEnvironment: 'prod' });
  await engine.load(CAMPAIGNS, { environment: 'prod' });
  // Warm: the compiled configuration is cached, as it is between requests.
  await engine.decide({ visitorId: 'warm-up' });
  return engine;
}

describeIf(need(pgUp, 'PostgreSQL at 127.0.0.1:5432 is unreachable'), 'PostgreSQL: round trips per decision', () => {
  it('a new visitor: one read of sticky assignments, one statement writing assignments and activations, no transaction', async () => {
    const storage = await postgresStorage({ connectionString: POSTGRES_URL, schema });
    const engine = await engineOn(storage);
    const sent: string[] = [];
    const original = pg.Client.prototype.query;
    pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
      const text = typeof args[0] === 'string' ? args[0] : (args[0] as { text?: string }).text;
      sent.push(String(text));
      return (original as (...a: unknown[]) => unknown).apply(this, args);
    } as typeof original;
    try {
      const result = await engine.decide({ visitorId: 'visitor-new' });
      expect(result.campaigns).toHaveLength(5);
      expect(sent).toHaveLength(2);
      expect(sent[0]).toMatch(/^SELECT .* FROM assignments/);
      expect(sent[1]).toMatch(/^WITH sticky AS \(INSERT INTO assignments/);
      expect(sent.some((s) => /^(BEGIN|COMMIT)/.test(s))).toBe(false);
      sent.length = 0;
      // A returning visitor with trigger_hit: its assignments hold, only activations are written.
      await engine.decide({ visitorId: 'visitor-new' });
      expect(sent).toHaveLength(2);
      expect(sent[1]).toMatch(/^INSERT INTO activations/);
    } finally {
      pg.Client.prototype.query = original;
    }
    const rows = await storage.activations.list({ environmentId: 'prod', visitorId: 'visitor-new' });
    expect(rows).toHaveLength(10);
    expect(Object.keys(await storage.assignments.get('prod', 'visitor-new'))).toHaveLength(5);
    await storage.close();
  });
});

describe('SQLite: driver calls per decision', () => {
  it('one read, then the two inserts in one transaction (in process: no network round trip)', async () => {
    const storage = await sqliteStorage({ filename: ':memory:' });
    const engine = await engineOn(storage);
    const calls: string[] = [];
    const driver = storage.driver as unknown as Record<string, (...a: unknown[]) => Promise<unknown>>;
    for (const name of ['query', 'exec', 'transaction']) {
      const original = driver[name]!.bind(driver);
      driver[name] = (...args: unknown[]) => {
        calls.push(name === 'transaction' ? 'transaction' : String(args[0]).trim().split(/\s+/)[0]!);
        return original(...args);
      };
    }
    await engine.decide({ visitorId: 'visitor-new' });
    expect(calls).toEqual(['SELECT', 'transaction']);
    calls.length = 0;
    await engine.decide({ visitorId: 'visitor-new' });
    // Returning visitor: the read, then one INSERT of activations, no transaction.
    expect(calls).toEqual(['SELECT', 'INSERT']);
    expect(await storage.activations.list({ environmentId: 'prod', visitorId: 'visitor-new' })).toHaveLength(10);
    await storage.close();
  });
});

describe('memory: the activation log is bounded', () => {
  it('keeps the newest maxActivations, however many decisions write', async () => {
    const storage = memoryStorage({ maxActivations: 1_000 });
    const engine = await engineOn(storage);
    // 100 visitors return again and again: assignments stay at 100, activations would grow.
    for (let i = 0; i < 20_000; i++) await engine.decide({ visitorId: `v${i % 100}` });
    const kept = await storage.activations.list({ environmentId: 'prod' });
    expect(kept).toHaveLength(1_000);
    // The newest are kept: the last decision's five activations are there.
    expect(kept.slice(-5).every((a) => a.visitorId === 'v99')).toBe(true);
    expect(() => memoryStorage({ maxActivations: 0 })).toThrow(/maxActivations must be a positive integer/);
  });
});
