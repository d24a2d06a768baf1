/**
 * A list facet's values: the most counted first, then in facet order, as a stable sort of the
 * values in facet order by count gives them (src/search/facets.ts mostCounted), including counts
 * past those it tallies and ties across the last value taken.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { mostCounted } from '../../src/search/facets';

describe('mostCounted', () => {
  it('takes the first k of a stable sort by count (property)', () => {
    const count = fc.oneof(fc.integer({ min: 1, max: 4 }), fc.integer({ min: 1, max: 300 }), fc.integer({ min: 250, max: 100_000 }));
    fc.assert(
      fc.property(fc.array(count, { minLength: 1, maxLength: 400 }), fc.integer({ min: 1, max: 200 }), fc.integer(), (list, k, seed) => {
        const counts = Uint32Array.from(list);
        // Facet order: any order of the value numbers.
        const hit = Int32Array.from(list.keys()).sort((a, b) => ((a * 7919 + seed) % 401) - ((b * 7919 + seed) % 401) || a - b);
        const expected = [...hit].sort((a, b) => counts[b]! - counts[a]!).slice(0, k);
        expect(mostCounted(hit, counts, k)).toEqual(expected);
      }),
      { numRuns: 500 },
    );
  });

  it('takes every value counted past the tally when they are k or more', () => {
    const counts = Uint32Array.from({ length: 300 }, (_, i) => (i % 3 === 0 ? 1 : 1000 + (i % 5)));
    const hit = Int32Array.from(counts.keys());
    expect(mostCounted(hit, counts, 150)).toEqual([...hit].sort((a, b) => counts[b]! - counts[a]!).slice(0, 150));
  });
});
