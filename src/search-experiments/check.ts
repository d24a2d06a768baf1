/**
 * The settings of `search` modifications that only the search layer can check: merchandising
 * rules and behaviour ranking, by the same schemas as a catalog's own search settings. The
 * bucketing schema (src/model) checks the rest where any configuration is loaded; remote
 * control (hence the admin API and the console) and the bootstrap file run this as well.
 *
 * @module
 */
import type { z } from 'zod';
import type { ErrorDetail } from '../errors';
import { SEARCH_MODIFICATION_TYPE } from '../model/search-settings';
import { behaviourSettingsSchema } from '../search/behaviour-ranking';
import { merchandisingSchema } from '../search/merchandising';
import { failWith, zodDetails } from '../validation';

const SCHEMAS: readonly [string, z.ZodType][] = [
  ['merchandising', merchandisingSchema],
  ['behaviour', behaviourSettingsSchema],
];

/**
 * Throws a {@link abkit!ValidationError} naming the JSON path of every bad merchandising rule or
 * behaviour setting of a configuration's `search` modifications; anything else is left to the
 * bucketing schema (this reads only what has the shape it expects).
 *
 * @example
 * ```ts
 * checkSearchModifications({ campaigns: [campaign] }); // before remote.replaceConfiguration(…)
 * ```
 */
export function checkSearchModifications(config: unknown): void {
  const details: ErrorDetail[] = [];
  const list = (x: unknown, name: string): unknown[] => {
    const v = x !== null && typeof x === 'object' ? (x as Record<string, unknown>)[name] : undefined;
    return Array.isArray(v) ? v : [];
  };
  const campaigns = list(config, 'campaigns');
  for (let c = 0; c < campaigns.length; c++) {
    const groups = list(campaigns[c], 'variationGroups');
    for (let g = 0; g < groups.length; g++) {
      const variations = list(groups[g], 'variations');
      for (let v = 0; v < variations.length; v++) {
        const m = (variations[v] as { modifications?: { type?: unknown; value?: unknown } } | null)?.modifications;
        if (m?.type !== SEARCH_MODIFICATION_TYPE || m.value === null || typeof m.value !== 'object') continue;
        const value = m.value as Record<string, unknown>;
        for (const [key, schema] of SCHEMAS) {
          if (value[key] === undefined) continue;
          const parsed = schema.safeParse(value[key]);
          const at = ['campaigns', c, 'variationGroups', g, 'variations', v, 'modifications', 'value', key];
          if (!parsed.success) details.push(...zodDetails(parsed.error, at));
        }
      }
    }
  }
  if (details.length > 0) failWith(details, 'invalid search settings');
}
