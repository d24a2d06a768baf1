/** A campaign testing search settings: one group, one `search` variation per value given (the first the reference). */
import type { BucketingConfig } from '../../src/index';
import { ALL_USERS } from './configs';

type Campaign = BucketingConfig['campaigns'][number];

export function searchCampaign(
  id: string,
  values: readonly Record<string, unknown>[],
  options: { allocation?: readonly number[]; targeting?: typeof ALL_USERS; type?: string } = {},
): Campaign {
  const share = 100 / values.length;
  return {
    id,
    type: options.type ?? 'ab',
    variationGroups: [
      {
        id: `${id}-vg`,
        targeting: { targetingGroups: structuredClone(options.targeting ?? ALL_USERS).map((targetings) => ({ targetings })) },
        variations: values.map((value, i) => ({
          id: `${id}-v${i}`,
          reference: i === 0,
          allocation: options.allocation?.[i] ?? share,
          modifications: { type: 'search', value },
        })),
      },
    ],
  } as Campaign;
}
