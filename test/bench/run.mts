/** `npm run bench`: every benchmark, with ratios against a baseline measured in the same run. */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { BESTBUY_DATA_URL } from '../helpers/bestbuy';
import { benchCatalog } from './catalog';
import { benchDecision } from './decision';
import { benchDecisionHeap } from './decision-heap';
import { benchDecisionPeers } from './decision-peers';
import { benchHttp } from './http';
import { benchRelevance } from './relevance';
import { benchRelevanceCatalogs } from './relevance-catalogs';
import { benchResults } from './results';
import { benchSearch } from './search';
import { benchSearchAnalytics } from './search-analytics';
import { benchSearchExperiments } from './search-experiments';
import { benchSearchMerchandising } from './search-merchandising';
import { benchSearchSync } from './search-sync';
import { benchStorage } from './storage';
import { print } from './measure';
import { benchMiniSearch, benchMiniSearchControl } from './minisearch';
import { benchTokens } from './tokens';

/** The search and relevance benchmarks need the shared Best Buy data; without it they say so (and fail under CI). */
async function withBestBuy(area: string, run: () => Promise<unknown>): Promise<void> {
  const path = fileURLToPath(BESTBUY_DATA_URL);
  if (existsSync(path)) {
    await run();
    return;
  }
  console.log(`\n## ${area}: SKIPPED, the Best Buy data ${path} is absent (see ../shared/data/README.md)`);
  if (process.env.CI === 'true') process.exitCode = 1;
}

const only = process.argv[2];
if (!only || only === 'decision') {
  print('Decisions, 100-campaign environment', await benchDecision());
  await benchDecisionPeers();
  await benchDecisionHeap();
}
if (only === 'http') await benchHttp();
if (!only || only === 'tokens') print('Remote control tokens', await benchTokens());
if (!only || only === 'catalog') print('Catalog batches', await benchCatalog());
if (!only || only === 'search') await withBestBuy('Search latency', benchSearch);
if (!only || only === 'search-analytics') await withBestBuy('Search analytics', benchSearchAnalytics);
if (!only || only === 'search-merchandising')
  await withBestBuy('Search with merchandising and behaviour ranking', benchSearchMerchandising);
if (only === 'search-experiments') await withBestBuy('Search experiments', benchSearchExperiments);
if (!only || only === 'search-sync') await withBestBuy('Search sync on SQL stores', benchSearchSync);
if (!only || only === 'storage') await benchStorage();
if (!only || only === 'relevance')
  await withBestBuy('Relevance', async () => {
    await benchRelevance();
    await benchRelevanceCatalogs();
  });
if (!only || only === 'results') await benchResults();
if (only === 'minisearch') await withBestBuy('Search and MiniSearch', benchMiniSearch);
if (only === 'minisearch-control') await withBestBuy('Search and MiniSearch, A/A control', benchMiniSearchControl);
