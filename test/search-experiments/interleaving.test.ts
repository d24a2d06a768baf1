import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { prng } from '../../examples/demo/generate-products';
import { interleavingResult, interleavingWinner, teamDraft } from '../../src/http/index';

/** A ranking: distinct ids drawn from a small alphabet, so the two rankings overlap. */
const ranking = fc.uniqueArray(fc.integer({ min: 0, max: 30 }), { maxLength: 25 });

describe('team-draft interleaving', () => {
  it('merges without duplicates, keeps each team in its ranking order, and balances the teams', () => {
    fc.assert(
      fc.property(ranking, ranking, fc.integer({ min: 0, max: 40 }), fc.integer(), (a, b, length, seed) => {
        const { items, teams } = teamDraft(a, b, length, prng(seed));
        expect(new Set(items).size).toBe(items.length);
        expect(items.length).toBe(Math.min(length, new Set([...a, ...b]).size));
        for (const [team, list] of [
          ['A', a],
          ['B', b],
        ] as const) {
          const picked = items.filter((_, i) => teams[i] === team);
          // Each pick is the team's best entry not yet shown: its picks come in its own order.
          const positions = picked.map((x) => list.indexOf(x));
          expect(positions.every((p) => p >= 0)).toBe(true);
          expect(positions).toEqual([...positions].sort((x, y) => x - y));
        }
        // While both teams have entries left, their counts differ by at most one.
        const spent = (list: readonly number[], upTo: number) => list.every((x) => items.slice(0, upTo).includes(x));
        let countA = 0;
        let countB = 0;
        for (let i = 0; i < items.length; i++) {
          if (spent(a, i) || spent(b, i)) break;
          if (teams[i] === 'A') countA++;
          else countB++;
          expect(Math.abs(countA - countB)).toBeLessThanOrEqual(1);
        }
      }),
    );
  });

  it('shows the one ranking when both are the same, crediting both teams', () => {
    const list = ['a', 'b', 'c', 'd', 'e', 'f'];
    const { items, teams } = teamDraft(list, list, 6, prng(3));
    expect(items).toEqual(list);
    expect(teams.filter((t) => t === 'A')).toHaveLength(3);
  });

  it('compares by id with a key', () => {
    const a = [{ id: 'x' }, { id: 'y' }];
    const b = [{ id: 'y' }, { id: 'z' }];
    const { items } = teamDraft(
      a,
      b,
      3,
      () => 0,
      (hit) => hit.id,
    );
    expect(items.map((h) => h.id)).toEqual(['x', 'y', 'z']);
  });

  it('credits clicks to the team that drafted the clicked entry', () => {
    expect(interleavingWinner(['A', 'B', 'A', 'B'], [1, 3])).toBe('B');
    expect(interleavingWinner(['A', 'B', 'A', 'B'], [0, 1])).toBe('tie');
    expect(interleavingWinner(['A', 'B'], [0, 0, 7])).toBe('A');
    expect(interleavingWinner(['A', 'B'], [])).toBe('tie');
  });

  it('tests the preference with an exact sign test, the normal one past 1,000 decided comparisons', () => {
    expect(interleavingResult({ A: 40, B: 62, tie: 300 }).pValue).toBeCloseTo(0.037066767438560536, 12);
    expect(interleavingResult({ A: 0, B: 5, tie: 0 })).toEqual({ winsA: 0, winsB: 5, ties: 0, preference: 1, pValue: 0.0625 });
    expect(interleavingResult({ A: 3, B: 3, tie: 4 }).pValue).toBe(1);
    expect(interleavingResult({ A: 0, B: 0, tie: 4 })).toMatchObject({ preference: 0, pValue: null });
    // Either side of 1,000 the two computations agree closely.
    const exact = interleavingResult({ A: 470, B: 530, tie: 0 }).pValue!;
    const normal = interleavingResult({ A: 471, B: 531, tie: 0 }).pValue!;
    expect(Math.abs(exact - normal)).toBeLessThan(0.005);
    expect(() => interleavingResult({ A: -1, B: 2, tie: 0 })).toThrow('interleavingResult: A must be a count, got -1');
  });

  it('finds a ranking better for simulated shoppers, and is silent between equal ones', () => {
    // Shoppers click an entry with the chance its relevance gives, scanning from the top (cascade).
    const relevance = (item: number) => (item < 5 ? 0.4 : 0.02);
    const good = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9];
    const worse = [5, 0, 6, 1, 7, 2, 8, 3, 9, 4];
    const run = (a: number[], b: number[], seed: number) => {
      const random = prng(seed);
      const wins = { A: 0, B: 0, tie: 0 };
      for (let q = 0; q < 400; q++) {
        const { items, teams } = teamDraft(a, b, 10, random);
        const clicked: number[] = [];
        for (let p = 0; p < items.length; p++) if (random() < relevance(items[p]!) / (1 + p * 0.2)) clicked.push(p);
        wins[interleavingWinner(teams, clicked)]++;
      }
      return interleavingResult(wins);
    };
    const better = run(worse, good, 1);
    expect(better.preference).toBeGreaterThan(0);
    expect(better.pValue!).toBeLessThan(0.05);
    let falsePositives = 0;
    for (let seed = 0; seed < 40; seed++) if (run(good, good, 100 + seed).pValue! < 0.05) falsePositives++;
    expect(falsePositives).toBeLessThanOrEqual(4);
  });
});
