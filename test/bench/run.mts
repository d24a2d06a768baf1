/** `npm run bench`: every benchmark, with ratios against a baseline measured in the same run. */
import { benchDecision } from './decision';
import { print } from './measure';

print('Decisions, 100-campaign environment', await benchDecision());
