import fc from 'fast-check';
import { describe, expect, it, vi } from 'vitest';
import { DecisionEngine, memoryStorage } from '../../src/index';
import { config } from '../helpers/configs';
import { runConformance } from './conformance';
import type { MemoryAssignmentStore } from '../../adapters/memory/assignments';
import { PUBLISH_SLICE_MOVES, PUBLISH_SORT_RUN } from '../../adapters/memory/catalog';
import { countTurns } from '../helpers/turns';

runConformance('memory', async () => memoryStorage());

describe('memory storage: bounded event log', () => {
  const event = (i: number) => ({ environmentId: 'env', visitorId: `v${i % 3}`, event: 'purchase', value: i, timestamp: i });

  it('keeps the newest maxEvents events; aggregation sees only those', async () => {
    const storage = memoryStorage({ maxEvents: 3 });
    await storage.activations.record(
      [0, 1, 2].map((i) => ({
        environmentId: 'env',
        visitorId: `v${i}`,
        anonymousId: null,
        campaignId: 'c',
        variationGroupId: 'g',
        variationId: 'a',
        timestamp: 0,
      })),
    );
    await storage.events.record([event(0), event(1), event(2)]);
    await storage.events.record([event(3), event(4)]);
    expect((await storage.events.list({ environmentId: 'env' })).map((e) => e.value)).toEqual([2, 3, 4]);
    const [row] = await storage.events.aggregate({ environmentId: 'env', campaignId: 'c', event: 'purchase' });
    expect(row).toMatchObject({ exposed: 3, converted: 3, valued: 3, valueSum: 9, valueSumSquares: 4 + 9 + 16 });
  });

  it('forgets in bulk without growing (10,000 events through a bound of 100)', async () => {
    const storage = memoryStorage({ maxEvents: 100 });
    for (let i = 0; i < 10_000; i += 50) await storage.events.record(Array.from({ length: 50 }, (_, j) => event(i + j)));
    const kept = await storage.events.list({ environmentId: 'env' });
    expect(kept.map((e) => e.value)).toEqual(Array.from({ length: 100 }, (_, j) => 9_900 + j));
  });

  it.each([0, -1, 1.5, Number.NaN])('refuses maxEvents %s', (maxEvents) => {
    expect(() => memoryStorage({ maxEvents })).toThrow(/maxEvents must be a positive integer/);
  });
});

describe('memory storage: bounded decision state', () => {
  const activation = (i: number) => ({
    environmentId: 'env',
    visitorId: `v${i}`,
    anonymousId: null,
    campaignId: 'c',
    variationGroupId: 'g',
    variationId: 'a',
    timestamp: i % 7,
  });

  it('keeps the newest maxActivations in recording order across the ring wrapping', async () => {
    const storage = memoryStorage({ maxActivations: 5 });
    for (let i = 0; i < 13; i += 3) await storage.activations.record([activation(i), activation(i + 1), activation(i + 2)]);
    // 15 recorded, v10..v14 kept; list sorts by timestamp, recording order breaking ties.
    const kept = await storage.activations.list({ environmentId: 'env' });
    expect(kept.map((a) => a.visitorId)).toEqual(['v14', 'v10', 'v11', 'v12', 'v13']);
    expect((await storage.activations.list({ environmentId: 'env', since: 5, limit: 1 })).map((a) => a.visitorId)).toEqual(['v12']);
    const [row] = await storage.events.aggregate({ environmentId: 'env', campaignId: 'c', event: 'none' });
    expect(row?.exposed).toBe(5);
  });

  it('hands out copies: changing a listed activation changes nothing stored', async () => {
    const storage = memoryStorage();
    await storage.activations.record([activation(1)]);
    const [first] = await storage.activations.list({ environmentId: 'env' });
    (first as { variationId: string }).variationId = 'changed';
    expect((await storage.activations.list({ environmentId: 'env' }))[0]?.variationId).toBe('a');
  });

  it('keeps at most maxAssignments sticky assignments, forgetting the visitors written longest ago', async () => {
    const storage = memoryStorage({ maxAssignments: 4 });
    await storage.assignments.save('env', 'a', { g1: 'x', g2: 'y' });
    await storage.assignments.save('env', 'b', { g1: 'x' });
    await storage.assignments.save('other', 'c', { g1: 'x' });
    // A write makes `a` the most recent; `b` is then the oldest and goes when `d` arrives.
    await storage.assignments.save('env', 'a', { g3: 'z' });
    await storage.assignments.save('env', 'd', { g1: 'w' });
    expect(await storage.assignments.get('env', 'b')).toEqual({});
    expect(await storage.assignments.get('other', 'c')).toEqual({});
    expect(await storage.assignments.get('env', 'a')).toEqual({ g1: 'x', g2: 'y', g3: 'z' });
    expect(await storage.assignments.get('env', 'd')).toEqual({ g1: 'w' });
    expect(() => memoryStorage({ maxAssignments: 0 })).toThrow(/maxAssignments must be a positive integer/);
  });

  it('keeps no entry for a visitor written with no assignments, so empty writes cannot grow it', async () => {
    const storage = memoryStorage({ maxAssignments: 4 });
    const store = storage.assignments as MemoryAssignmentStore;
    for (let i = 0; i < 1_000; i++) {
      await store.save('env', `empty-${i}`, {});
      store.saveDecidedNow('env', `none-${i}`, [], true);
    }
    expect(store.visitors).toBe(0);
    await store.save('env', 'a', { g1: 'x' });
    // A known visitor written with nothing keeps what it had.
    await store.save('env', 'a', {});
    expect(await store.get('env', 'a')).toEqual({ g1: 'x' });
    expect(await store.get('env', 'empty-1')).toEqual({});
    expect(store.visitors).toBe(1);
  });

  it('copies what it is given unless it is frozen', async () => {
    const storage = memoryStorage();
    const mutable: Record<string, string> = { g1: 'x' };
    await storage.assignments.save('env', 'v', mutable);
    mutable.g1 = 'changed';
    expect(await storage.assignments.get('env', 'v')).toEqual({ g1: 'x' });
    expect(Object.isFrozen(await storage.assignments.get('env', 'v'))).toBe(true);
  });

  it('retains bounded entries however many visitors decide, and a forgotten visitor is re-bucketed to the same variations', async () => {
    const storage = memoryStorage({ maxAssignments: 1_000, maxActivations: 2_000 });
    const engine = new DecisionEngine({ storage });
    await engine.load(config(Array.from({ length: 5 }, (_, i) => ({ id: `c${i}`, split: [30, 30, 40] }))));
    const first = await engine.decide({ visitorId: 'visitor-0' });
    for (let i = 1; i < 20_000; i++) await engine.decide({ visitorId: `visitor-${i}` });
    // Counted entry by entry: 200 visitors × 5 groups, the newest ones; 2,000 activations.
    let entries = 0;
    for (let i = 0; i < 20_000; i++) entries += Object.keys(await storage.assignments.get('default', `visitor-${i}`)).length;
    expect(entries).toBe(1_000);
    expect(Object.keys(await storage.assignments.get('default', 'visitor-19999'))).toHaveLength(5);
    expect(await storage.assignments.get('default', 'visitor-0')).toEqual({});
    expect(await storage.activations.list({ environmentId: 'default' })).toHaveLength(2_000);
    // Allocations unchanged: the hash gives the forgotten visitor what it had.
    const again = await engine.decide({ visitorId: 'visitor-0' });
    expect(again.campaigns.map((c) => c.variation.id)).toEqual(first.campaigns.map((c) => c.variation.id));
  });

  it('keeps what a record-per-visitor store would keep, whatever mix of decision writes, merges, reads and deletions', () => {
    // Decision writes of new visitors go through a ring of slots; the reference keeps a record
    // per visitor in write order and forgets the oldest while over the bound.
    type Op = { kind: 'decide' | 'save' | 'read' | 'delete'; visitor: number; groups: number[]; variation: number };
    const op = fc.record({
      kind: fc.constantFrom<Op['kind']>('decide', 'decide', 'save', 'read', 'delete'),
      visitor: fc.nat(3),
      groups: fc.uniqueArray(fc.nat(6), { minLength: 1, maxLength: 5 }),
      variation: fc.nat(2),
    });
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 6 }), fc.array(op, { maxLength: 40 }), (max, ops) => {
        const storage = memoryStorage({ maxAssignments: max });
        const reference = new Map<string, Record<string, string>>();
        const total = () => [...reference.values()].reduce((n, r) => n + Object.keys(r).length, 0);
        for (const { kind, visitor, groups, variation } of ops) {
          const id = `v${visitor}`;
          const entries = groups.map((g) => [`g${g}`, `${id}-x${variation}`] as const);
          if (kind === 'read' || kind === 'delete') {
            if (kind === 'delete') {
              void storage.assignments.delete('env', id);
              reference.delete(id);
            }
            expect(storage.assignments.getNow!('env', id)).toEqual(reference.get(id) ?? {});
            continue;
          }
          if (kind === 'decide') {
            const decided = entries.map(([variationGroupId, variationId]) => ({ campaignId: 'c', variationGroupId, variationId }));
            storage.writeDecisionNow!({ environmentId: 'env', visitorId: id, anonymousId: null, decided, assign: true, activatedAt: null });
          } else void storage.assignments.save('env', id, Object.fromEntries(entries));
          const merged = { ...reference.get(id), ...Object.fromEntries(entries) };
          reference.delete(id);
          reference.set(id, merged);
          while (total() > max && reference.size > 0) reference.delete(reference.keys().next().value!);
        }
        for (let v = 0; v <= 3; v++) expect(storage.assignments.getNow!('env', `v${v}`)).toEqual(reference.get(`v${v}`) ?? {});
        expect((storage.assignments as unknown as { size: number }).size).toBe(total());
      }),
      { numRuns: 2000 },
    );
  });

  it('keeps the newest maxActivations, whatever number of activations each decision records', async () => {
    // A decision's shared fields live in a ring of their own: it must keep every one a kept
    // activation points into, through wrapping and growth.
    const write = fc.record({ decision: fc.boolean(), campaigns: fc.nat(4) });
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 1, max: 40 }), fc.array(write, { maxLength: 120 }), async (max, writes) => {
        const storage = memoryStorage({ maxActivations: max });
        const all: { visitorId: string; campaignId: string; timestamp: number }[] = [];
        for (const [n, { decision, campaigns }] of writes.entries()) {
          const visitorId = `v${n}`;
          const rows = Array.from({ length: campaigns }, (_, c) => ({
            environmentId: 'env',
            visitorId,
            anonymousId: null,
            campaignId: `c${c}`,
            variationGroupId: `g${c}`,
            variationId: 'x',
            timestamp: n,
          }));
          if (decision) {
            const decided = rows.map((r) => ({
              campaignId: r.campaignId,
              variationGroupId: r.variationGroupId,
              variationId: r.variationId,
            }));
            storage.writeDecisionNow!({ environmentId: 'env', visitorId, anonymousId: null, decided, assign: false, activatedAt: n });
          } else await storage.activations.record(rows);
          all.push(...rows.map(({ visitorId, campaignId, timestamp }) => ({ visitorId, campaignId, timestamp })));
        }
        const kept = await storage.activations.list({ environmentId: 'env' });
        expect(kept.map(({ visitorId, campaignId, timestamp }) => ({ visitorId, campaignId, timestamp }))).toEqual(all.slice(-max));
      }),
      { numRuns: 1000 },
    );
  });
});

describe('memory storage: decision writes', () => {
  it('records a decision of more activations than the log had room for, across its growth', () => {
    const storage = memoryStorage({ maxActivations: 5_000 });
    const decided = Array.from({ length: 1_500 }, (_, c) => ({ campaignId: `c${c}`, variationGroupId: `g${c}`, variationId: 'x' }));
    for (let n = 0; n < 5; n++)
      storage.writeDecisionNow!({ environmentId: 'env', visitorId: `v${n}`, anonymousId: null, decided, assign: false, activatedAt: n });
    return storage.activations.list({ environmentId: 'env' }).then((kept) => {
      const all = [0, 1, 2, 3, 4].flatMap((n) => decided.map((d) => `v${n}/${d.campaignId}`));
      expect(kept.map((a) => `${a.visitorId}/${a.campaignId}`)).toEqual(all.slice(-5_000));
    });
  });

  it('a write that answers with a promise may read the decided campaigns after the decision answered', async () => {
    // The engine hands the evaluation's array to the answer only when the write returned at once:
    // a wrapper that queues the write (resolving before it runs) still reads what was decided.
    const storage = memoryStorage();
    const seen: string[] = [];
    const queued = {
      ...storage,
      writeDecisionNow: (write: Parameters<NonNullable<typeof storage.writeDecisionNow>>[0]) => {
        setTimeout(() => {
          seen.push(...write.decided.map((d) => `${d.campaignId}:${d.variationId}`));
          storage.writeDecisionNow!(write);
        }, 0);
        return Promise.resolve();
      },
    };
    const engine = new DecisionEngine({ storage: queued });
    await engine.load(
      config([
        { id: 'c1', split: [50, 50] },
        { id: 'c2', split: [50, 50] },
      ]),
    );
    const { campaigns } = await engine.decide({ visitorId: 'v1' });
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(campaigns).toHaveLength(2);
    expect(seen).toEqual(campaigns.map((c) => `${c.id}:${c.variation.id}`));
  });
});

describe('memory storage: catalog publication', () => {
  const record = (identifier: string) => ({
    identifier,
    catalogKeyHash: identifier.padEnd(64, 'c'),
    searchKeyHash: identifier.padEnd(64, 's'),
    createdAt: 1,
  });
  const item = (id: string, price: number) => ({
    id,
    is_recommendable: true,
    name: id,
    absolute_link: null,
    img_link: null,
    price,
    categories_ids: null,
  });
  const ids = ['A', 'a', 'a-b', 'aB', 'a_b', 'b', 'é', 'z', '~', '\u{1F600}', '\uFFFD', 'a0', 'a10', 'a9'];

  it('a publication after any writes shows every accepted item once, in JavaScript string order', async () => {
    type Step = { op: 'put'; id: string; price: number } | { op: 'delete'; id: string } | { op: 'publish' } | { op: 'deleteAll' };
    const step = fc.oneof(
      fc.record({ op: fc.constant('put' as const), id: fc.constantFrom(...ids), price: fc.integer({ min: 0, max: 9 }) }),
      fc.record({ op: fc.constant('delete' as const), id: fc.constantFrom(...ids) }),
      fc.constant({ op: 'publish' as const }),
      fc.constant({ op: 'deleteAll' as const }),
    );
    await fc.assert(
      fc.asyncProperty(fc.array(step, { maxLength: 60 }), async (steps: Step[]) => {
        const storage = memoryStorage();
        await storage.catalogs.createCatalog(record('acme'));
        const model = new Map<string, number>();
        let published: [string, number][] = [];
        for (const s of [...steps, { op: 'publish' } as Step]) {
          if (s.op === 'put') {
            await storage.catalogs.applyBatch('acme', [], [{ op: 'put', item: item(s.id, s.price) }], 1);
            model.set(s.id, s.price);
          } else if (s.op === 'delete') {
            await storage.catalogs.applyBatch('acme', [], [{ op: 'delete', id: s.id }], 1);
            model.delete(s.id);
          } else if (s.op === 'deleteAll') {
            await storage.catalogs.deleteAllItems('acme');
            model.clear();
          } else {
            await storage.catalogs.publish('acme', 1);
            published = [...model].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
          }
          expect((await storage.catalogs.visibleItems('acme')).items.map((i) => [i.id, i.price])).toEqual(published);
        }
      }),
      { numRuns: 200 },
    );
  });

  /** `n` items in a fixed pseudo-random order of ids. */
  const shuffled = (n: number) => {
    const list = Array.from({ length: n }, (_, i) => item(`s${i}`, i));
    let seed = 7;
    for (let i = n - 1; i > 0; i--) {
      seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
      const j = seed % (i + 1);
      [list[i], list[j]] = [list[j]!, list[i]!];
    }
    return list;
  };

  it('a publication of many items in any order sorts them in steps: native sorts of a run at most, turns of the event loop between', async () => {
    const storage = memoryStorage();
    await storage.catalogs.createCatalog(record('acme'));
    const items = shuffled(16 * PUBLISH_SORT_RUN + 17);
    await storage.catalogs.applyBatch(
      'acme',
      [],
      items.map((it) => ({ op: 'put' as const, item: it })),
      1,
    );
    const sorted: number[] = [];
    const original = Array.prototype.sort;
    const sort = vi.spyOn(Array.prototype, 'sort').mockImplementation(function (
      this: unknown[],
      compare?: (a: unknown, b: unknown) => number,
    ) {
      sorted.push(this.length);
      return original.call(this, compare);
    });
    const turns = countTurns();
    try {
      expect((await storage.catalogs.publish('acme', 1)).count).toBe(items.length);
    } finally {
      sort.mockRestore();
    }
    // Five rounds of merges (17 runs), each moving every item: a turn at least every PUBLISH_SLICE_MOVES moves.
    expect(turns.stop()).toBeGreaterThanOrEqual(Math.floor((5 * items.length) / PUBLISH_SLICE_MOVES));
    expect(Math.max(...sorted)).toBeLessThanOrEqual(PUBLISH_SORT_RUN);
    const ids = (await storage.catalogs.visibleItems('acme')).items.map((i) => i.id);
    expect(ids).toEqual(items.map((i) => i.id).sort());
  });

  it('writes landing while a publication sorts go to the next one; publications run one after the other', async () => {
    const storage = memoryStorage();
    await storage.catalogs.createCatalog(record('acme'));
    const items = shuffled(4 * PUBLISH_SORT_RUN);
    await storage.catalogs.applyBatch(
      'acme',
      [],
      items.map((it) => ({ op: 'put' as const, item: it })),
      1,
    );
    const first = storage.catalogs.publish('acme', 1);
    await storage.catalogs.applyBatch(
      'acme',
      [],
      [
        { op: 'put', item: item('late', 1) },
        { op: 'delete', id: 's3' },
      ],
      2,
    );
    const second = storage.catalogs.publish('acme', 2);
    const third = storage.catalogs.publish('acme', 3);
    expect(await first).toEqual({ version: 1, syncedAt: 1, count: items.length });
    expect(await second).toEqual({ version: 2, syncedAt: 2, count: items.length });
    // Nothing written after the second: kept.
    expect(await third).toEqual({ version: 2, syncedAt: 2, count: items.length });
    const visible = (await storage.catalogs.visibleItems('acme')).items.map((i) => i.id);
    expect(visible).toContain('late');
    expect(visible).not.toContain('s3');
    expect(visible).toEqual([...visible].sort());
  });

  it('a publication after a one-item write sorts no list longer than the changed ids (no sort of every item)', async () => {
    const storage = memoryStorage();
    await storage.catalogs.createCatalog(record('acme'));
    const n = 5_000;
    // Written in reverse, so that the first publication really sorts.
    await storage.catalogs.applyBatch(
      'acme',
      [],
      Array.from({ length: n }, (_, i) => ({ op: 'put' as const, item: item(`i${String(n - i).padStart(5, '0')}`, i) })),
      1,
    );
    await storage.catalogs.publish('acme', 1);
    // The length of every list sorted during the next publication.
    const sorted: number[] = [];
    const original = Array.prototype.sort;
    const sort = vi.spyOn(Array.prototype, 'sort').mockImplementation(function (
      this: unknown[],
      compare?: (a: unknown, b: unknown) => number,
    ) {
      sorted.push(this.length);
      return original.call(this, compare);
    });
    try {
      await storage.catalogs.applyBatch(
        'acme',
        [],
        [
          { op: 'put', item: item('i00007', -1) },
          { op: 'delete', id: 'i00009' },
        ],
        2,
      );
      await storage.catalogs.publish('acme', 2);
    } finally {
      sort.mockRestore();
    }
    expect(Math.max(0, ...sorted)).toBeLessThanOrEqual(2);
    const visible = (await storage.catalogs.visibleItems('acme')).items;
    expect(visible.length).toBe(n - 1);
    expect(visible.find((i) => i.id === 'i00007')?.price).toBe(-1);
    expect(visible.some((i) => i.id === 'i00009')).toBe(false);
  });
});

describe('memory storage: bounded audit log', () => {
  const entry = (n: number) => ({ actor: 'ops', action: 'access.revoke', target: `t${n}`, time: n, outcome: 'ok', detail: null });

  it('keeps the newest maxAuditEntries entries and pages through them after the oldest are forgotten', async () => {
    const storage = memoryStorage({ maxAuditEntries: 3 });
    for (let n = 1; n <= 10; n++) await storage.audit.append(entry(n));
    const page = await storage.audit.list({ limit: 10 });
    expect(page.map((e) => e.target)).toEqual(['t10', 't9', 't8']);
    expect((await storage.audit.list({ before: page[0]!.seq, limit: 10 })).map((e) => e.target)).toEqual(['t9', 't8']);
    expect(await storage.audit.list({ before: page[2]!.seq, limit: 10 })).toEqual([]);
    // A cursor from beyond the newest entry starts at the newest.
    expect((await storage.audit.list({ before: 1000, limit: 1 })).map((e) => e.target)).toEqual(['t10']);
  });

  it('refuses a bad ceiling', () => {
    expect(() => memoryStorage({ maxAuditEntries: 0 })).toThrow(/maxAuditEntries must be a positive integer/);
  });
});
