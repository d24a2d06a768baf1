/** Suites over the Best Buy data (kept apart from test/helpers/bestbuy.ts, which benchmarks import outside vitest). */
import { bestBuyAvailable } from './bestbuy';
import { describeIf, need } from './skip';

/** `describe`, skipped with the reason in its name when the Best Buy data is absent. */
export function describeWithBestBuy(name: string, suite: () => void): void {
  describeIf(need(bestBuyAvailable(), '../shared/data/bestbuy-cellphones.json is absent'), name, suite);
}
