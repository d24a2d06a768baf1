/**
 * The memory assignment store files visitors in its own hash table (linear probing, entries moved
 * back on deletion). It must find what a Map would find, through growth, wrapping probe runs
 * and deletions anywhere in a run.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { VisitorTable } from '../../adapters/memory/visitor-table';

interface Entry {
  readonly environmentId: string;
  readonly id: string;
  readonly hash: number;
}

describe('VisitorTable', () => {
  it('finds what a Map finds, whatever the adds and deletes', () => {
    const op = fc.record({ add: fc.boolean(), env: fc.constantFrom('e1', 'e2'), id: fc.string({ maxLength: 3 }) });
    fc.assert(
      fc.property(fc.array(op, { maxLength: 300 }), fc.boolean(), (ops, collide) => {
        const table = new VisitorTable<Entry>(4);
        // Hashes forced into a few values make long runs that wrap around the table.
        const hash = (id: string) => (collide ? (table.hash(id) & 3) * 7 : table.hash(id));
        const reference = new Map<string, Entry>();
        for (const { add, env, id } of ops) {
          const key = `${env}\u0000${id}`;
          const found = table.get(env, id, hash(id));
          expect(found).toBe(reference.get(key));
          if (add && !found) {
            const entry = { environmentId: env, id, hash: hash(id) };
            table.add(entry);
            reference.set(key, entry);
          } else if (!add && found) {
            table.delete(found);
            reference.delete(key);
          }
          expect(table.size).toBe(reference.size);
        }
        for (const [key, entry] of reference) {
          const [env, id] = key.split('\u0000') as [string, string];
          expect(table.get(env, id, hash(id))).toBe(entry);
        }
      }),
      { numRuns: 500 },
    );
  });

  it('hashes the same id alike, and different ids apart', () => {
    const table = new VisitorTable<Entry>();
    expect(table.hash('visitor-1')).toBe(table.hash(`visitor-${1}`));
    const hashes = new Set(Array.from({ length: 10_000 }, (_, i) => table.hash(`visitor-${i}`)));
    expect(hashes.size).toBeGreaterThan(9_990);
  });
});
