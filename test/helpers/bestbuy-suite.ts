/** Suites over the Best Buy data (kept apart from test/helpers/bestbuy.ts, which benchmarks import outside vitest). */
import { describe } from 'vitest';
import { bestBuyAvailable } from './bestbuy';

/** `describe`, skipped with the reason in its name when the Best Buy data is absent. */
export function describeWithBestBuy(name: string, suite: () => void): void {
  if (bestBuyAvailable()) describe(name, suite);
  else describe.skip(`${name} (skipped: ../shared/data/bestbuy-cellphones.json is absent)`, suite);
}
