/** A configuration with names, a split, a toggle and a flag key shared by two campaigns. */
import type { BucketingConfig } from '../../src/index';

/** Two campaigns both setting `color` (the first wins /flags, the last wins mergedModifications), named parts, a split and a toggle. */
export const NAMED: BucketingConfig = {
  accountSettings: { enabledXPC: true, enabled1V1T: false },
  campaigns: [
    {
      id: 'c-color',
      type: 'ab',
      slug: 'color-test',
      name: 'Colour test',
      variationGroups: [
        {
          id: 'vg-color',
          name: 'Everyone',
          targeting: { targetingGroups: [{ targetings: [{ key: 'fs_all_users', operator: 'EQUALS', value: '' }] }] },
          variations: [
            { id: 'grey', name: 'Original', reference: true, allocation: 50, modifications: { type: 'FLAG', value: { color: 'grey' } } },
            { id: 'green', name: 'Green', allocation: 50, modifications: { type: 'FLAG', value: { color: 'green', cta: 'Buy now' } } },
          ],
        },
      ],
    },
    {
      id: 'c-toggle',
      type: 'toggle',
      variationGroups: [
        {
          id: 'vg-toggle',
          targeting: { targetingGroups: [{ targetings: [{ key: 'plan', operator: 'EQUALS', value: 'gold' }] }] },
          variations: [{ id: 'on', allocation: 100, modifications: { type: 'JSON', value: { color: 'gold', shipping: { free: true } } } }],
        },
      ],
    },
  ],
} as BucketingConfig;
