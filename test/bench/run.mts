/** `npm run bench`: every benchmark, with ratios against a baseline measured in the same run. */
import { benchCatalog } from './catalog';
import { benchDecision } from './decision';
import { benchSearch } from './search';
import { benchStorage } from './storage';
import { print } from './measure';
import { benchTokens } from './tokens';

const only = process.argv[2];
if (!only || only === 'decision') print('Decisions, 100-campaign environment', await benchDecision());
if (!only || only === 'tokens') print('Remote control tokens', await benchTokens());
if (!only || only === 'catalog') print('Catalog batches', await benchCatalog());
if (!only || only === 'search') print('Search latency (ops/s = 1000 / p50 ms)', await benchSearch());
if (!only || only === 'storage') await benchStorage();
