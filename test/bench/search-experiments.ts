/**
 * `npm run bench -- search-experiments`: the shopper simulator's four measurements of issue #27
 * (test/helpers/shoppers.ts; BENCHMARKS.md, "Search analytics and experiments: simulator").
 */
import { benchSearchAb } from './search-ranking-ab';
import { benchSearchAnalyticsCost } from './search-analytics-cost';
import { benchSearchAnalyticsCounts } from './search-analytics-counts';
import { benchSearchBehaviour } from './search-behaviour';
import { benchSearchInterleaving } from './search-interleaving';

/** Runs the four measurements, printing their tables (BENCHMARKS.md has a run's). */
export async function benchSearchExperiments(): Promise<void> {
  await benchSearchAnalyticsCounts();
  await benchSearchAb();
  await benchSearchInterleaving();
  await benchSearchBehaviour();
  await benchSearchAnalyticsCost();
}
