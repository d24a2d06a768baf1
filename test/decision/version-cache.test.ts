/**
 * The cache of parsed visitor versions must not keep what visitors send: 200 decisions with a
 * unique 1 MB appVersion once retained 200 MB (1 GB for 1,000).
 */
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { compileTargeting, matchTargeting } from '../../src/decision/targeting';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

describe('parsed-version cache', () => {
  const rule = compileTargeting({ key: 'appVersion', operator: 'SEMVER_GREATER_THAN', value: '1.0.0' });

  it('retains nothing of 200 unique 1 MB versions', () => {
    gc();
    const before = process.memoryUsage().heapUsed;
    const filler = 'a'.repeat(1 << 20);
    for (let i = 0; i < 200; i++) matchTargeting(rule, { appVersion: `2.0.0-${i}${filler}` }, 'v');
    gc();
    const grown = process.memoryUsage().heapUsed - before;
    expect(grown).toBeLessThan(20 * (1 << 20));
  });

  it('a value over 256 characters is not a version; shorter ones still compare', () => {
    expect(matchTargeting(rule, { appVersion: `2.0.0-${'a'.repeat(250)}` }, 'v')).toBe(true);
    expect(matchTargeting(rule, { appVersion: `2.0.0-${'a'.repeat(251)}` }, 'v')).toBe(false);
    expect(matchTargeting(rule, { appVersion: '0.9.9' }, 'v')).toBe(false);
  });
});
