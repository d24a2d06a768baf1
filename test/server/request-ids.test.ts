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
});
