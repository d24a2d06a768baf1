import { describe, expect, it } from 'vitest';
import { requestIds } from '../../server/observe';

describe('requestIds', () => {
  it('gives distinct ids in the layout of a UUID, with a prefix of its own per generator (per process)', () => {
    const a = requestIds();
    const b = requestIds();
    const ids = Array.from({ length: 1000 }, () => a());
    expect(new Set(ids).size).toBe(1000);
    for (const id of ids) expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    const other = b();
    expect(other.slice(0, 24)).not.toBe(ids[0]!.slice(0, 24));
    expect(ids).not.toContain(other);
  });

  it('stays distinct and ordered past each 4,096 ids (where the written-out part of the counter changes)', () => {
    const next = requestIds('00000000-0000-0000-0000-');
    const ids = Array.from({ length: 10_000 }, () => next());
    expect(new Set(ids).size).toBe(10_000);
    expect([...ids].sort()).toEqual(ids);
    expect(ids[0]).toBe('00000000-0000-0000-0000-000000000000');
    expect(ids[4096]).toBe('00000000-0000-0000-0000-000000001000');
    expect(ids[9999]).toBe('00000000-0000-0000-0000-00000000270f');
  });
});
