import { describe, expect, it } from 'vitest';
import { DecisionEngine, memoryStorage } from '../../src/index';
import { pickVariation } from '../../src/decision/bucketing';
import { variationBucket } from '../helpers/murmur3';
import { config } from '../helpers/configs';

// Random visitor ids from a seeded generator, so a failure is reproducible.
function* visitors(count: number, seed: number): Generator<string> {
  let s = seed >>> 0;
  for (let i = 0; i < count; i++) {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    const t = (Math.imul(s ^ (s >>> 15), 2246822507) >>> 0).toString(36);
    yield `${t}-${i.toString(36)}`;
  }
}

function shares(split: number[], groupId: string, n: number, seed: number): number[] {
  let total = 0;
  const thresholds = split.map((a) => (a > 0 ? (total += a) : -1));
  const counts = new Array(split.length + 1).fill(0);
  for (const id of visitors(n, seed)) {
    const i = pickVariation(thresholds, variationBucket(groupId, id));
    counts[i < 0 ? split.length : i]++;
  }
  return counts.map((c) => c / n);
}

describe('allocation distribution over 100,000 random visitors', () => {
  const N = 100_000;

  it('a 50/50 split lands within ±1%', () => {
    const [a, b, untracked] = shares([50, 50], 'vg-5050', N, 1);
    expect(Math.abs(a! - 0.5)).toBeLessThan(0.01);
    expect(Math.abs(b! - 0.5)).toBeLessThan(0.01);
    expect(untracked).toBe(0);
  });

  it('a 10/20/70 split lands within ±1% per variation', () => {
    const [a, b, c] = shares([10, 20, 70], 'vg-102070', N, 2);
    expect(Math.abs(a! - 0.1)).toBeLessThan(0.01);
    expect(Math.abs(b! - 0.2)).toBeLessThan(0.01);
    expect(Math.abs(c! - 0.7)).toBeLessThan(0.01);
  });

  it('a 20% gap leaves about 20% untracked', () => {
    const [a, b, untracked] = shares([40, 40], 'vg-gap', N, 3);
    expect(Math.abs(untracked! - 0.2)).toBeLessThan(0.01);
    expect(Math.abs(a! - 0.4)).toBeLessThan(0.01);
    expect(Math.abs(b! - 0.4)).toBeLessThan(0.01);
  });

  it('the engine itself reproduces the 10/20/70 split (20,000 visitors, ±2%)', async () => {
    const engine = new DecisionEngine({ storage: memoryStorage() });
    await engine.load(config([{ id: 'c', split: [10, 20, 70] }]));
    const counts = [0, 0, 0];
    for (const id of visitors(20_000, 4)) {
      const [value] = (await engine.decide({ visitorId: id, triggerHit: false, visitorConsent: false })).campaigns;
      counts[value!.variation.modifications.value.c as number]!++;
    }
    expect(counts.map((c, i) => Math.abs(c / 20_000 - [0.1, 0.2, 0.7][i]!) < 0.02)).toEqual([true, true, true]);
  });

  it('buckets of different variation groups are independent', () => {
    // Being in the first half of one group says nothing about another group.
    let both = 0;
    let first = 0;
    for (const id of visitors(N, 5)) {
      const x = variationBucket('group-x', id) < 50;
      if (x) first++;
      if (x && variationBucket('group-y', id) < 50) both++;
    }
    expect(Math.abs(both / first - 0.5)).toBeLessThan(0.015);
  });
});
