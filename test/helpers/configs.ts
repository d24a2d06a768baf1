/** Small builders of bucketing configurations for tests. */
import type { BucketingConfig } from '../../src/index';

type Targeting = { key: string; operator: string; value?: unknown };

export const ALL_USERS: Targeting[][] = [[{ key: 'fs_all_users', operator: 'EQUALS', value: '' }]];

export interface CampaignSpec {
  id: string;
  type?: string;
  slug?: string;
  /** Allocation per variation; `undefined` leaves the allocation out. */
  split: (number | undefined)[];
  targeting?: Targeting[][];
  bucketRanges?: [number, number][];
  groupId?: string;
}

/** A campaign with one variation group; variation i is `${id}-v${i}` with flag `${id}` = i. */
export function campaign(spec: CampaignSpec): BucketingConfig['campaigns'][number] {
  return {
    id: spec.id,
    type: spec.type ?? 'ab',
    ...(spec.slug ? { slug: spec.slug } : {}),
    ...(spec.bucketRanges ? { bucketRanges: spec.bucketRanges.map((r) => ({ r })) } : {}),
    variationGroups: [
      {
        id: spec.groupId ?? `${spec.id}-vg`,
        targeting: { targetingGroups: structuredClone(spec.targeting ?? ALL_USERS).map((targetings) => ({ targetings })) },
        variations: spec.split.map((allocation, i) => ({
          id: `${spec.id}-v${i}`,
          reference: i === 0,
          ...(allocation === undefined ? {} : { allocation }),
          modifications: { type: 'FLAG', value: { [spec.id]: i, [`${spec.id}-only-v${i}`]: true } },
        })),
      },
    ],
  } as BucketingConfig['campaigns'][number];
}

export function config(campaigns: CampaignSpec[], extra: Partial<BucketingConfig> = {}): BucketingConfig {
  return { campaigns: campaigns.map(campaign), ...extra } as BucketingConfig;
}
