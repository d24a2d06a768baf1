/**
 * `npm run bench -- search-experiments`: the shopper simulator's four measurements of issue #27
 * (test/helpers/shoppers.ts; BENCHMARKS.md, "Search analytics and experiments: simulator").
 */
import { benchSearchAb } from './search-ranking-ab';
import { benchSearchAnalyticsCounts } from './search-analytics-counts';
import { benchSearchBehaviour } from './search-behaviour';

/** Runs every measurement whose features are there, saying which are not. */
export async function benchSearchExperiments(): Promise<void> {
  await benchSearchAnalyticsCounts();
  await benchSearchAb();
  await benchSearchBehaviour();
}
