/**
 * The campaign configuration: the Flagship bucketing-file format, validated by zod.
 * Unknown members are kept (real files carry names and settings abkit does not use),
 * so reading a configuration back returns what was written.
 *
 * @module
 */
import { z } from 'zod';
import { PayloadTooLargeError } from '../errors';
import { nestingExceeds, parseWith } from '../validation';
import { SEARCH_MODIFICATION_TYPE, searchModificationSchema } from './search-settings';
import { parseSemver } from './semver';

/**
 * Every targeting operator, in the order the Flagship documentation lists them.
 *
 * @example
 * ```ts
 * const semver = TARGETING_OPERATORS.filter((op) => op.startsWith('SEMVER_')); // 6 operators
 * console.log(TARGETING_OPERATORS.length); // 18
 * ```
 */
export const TARGETING_OPERATORS = [
  'EQUALS',
  'NOT_EQUALS',
  'CONTAINS',
  'NOT_CONTAINS',
  'STARTS_WITH',
  'ENDS_WITH',
  'LOWER_THAN',
  'LOWER_THAN_OR_EQUALS',
  'GREATER_THAN',
  'GREATER_THAN_OR_EQUALS',
  'EXISTS',
  'NOT_EXISTS',
  'SEMVER_EQUALS',
  'SEMVER_NOT_EQUALS',
  'SEMVER_LOWER_THAN',
  'SEMVER_LOWER_THAN_OR_EQUALS',
  'SEMVER_GREATER_THAN',
  'SEMVER_GREATER_THAN_OR_EQUALS',
] as const;

/**
 * A targeting operator name.
 *
 * @example
 * ```ts
 * const operator: TargetingOperator = 'STARTS_WITH';
 * const rule: Targeting = { key: 'locale', operator, value: 'fr' }; // fr-FR, fr-BE...
 * ```
 */
export type TargetingOperator = (typeof TARGETING_OPERATORS)[number];

/**
 * Limits of a configuration, so that what one write stores can always be copied, served and
 * deleted, and one decision's cost is bounded by a configuration a shop could really have:
 *
 * - `depth`: arrays and objects nested (a campaign written alone counts as two levels down);
 *   `valueDepth` and `valueBytes`: levels and bytes of JSON of each modification value.
 * - `idLength`: campaign, variation group and variation ids, slugs and targeting keys, as the
 *   ids a request may name (`DECISION_LIMITS.idLength`): Flagship's ids are 20 characters.
 * - `campaigns`, `variationGroups`: per environment. Every campaign may be decided (and
 *   activated) on each request, so these bound one decision's work and answer. Shops run tens of
 *   experiments at once, the largest programmes a few hundred; a thousand live campaigns in one
 *   environment is past any of them (2,600 campaigns made one decision answer 425 KB).
 *   Personalization campaigns hold a group per segment, hence twice as many groups.
 * - `variationsPerGroup`: A/B/n tests have a handful of variations; 100 is past any.
 * - `targetingValues`: values of one targeting list (a list of beta testers' ids, of SKUs);
 *   `targetingBytes`: characters of JSON of every targeting value of the configuration. Lists
 *   are matched through structures built once per configuration (a set, an automaton), so
 *   these bound the memory of a compiled configuration and the size of its bucketing file,
 *   not a decision's time. GrowthBook moves larger id lists to saved groups for the same reason.
 * - `configBytes`: bytes of JSON of the whole configuration, what `bucketing.json` serves to
 *   every polling client; 4 MiB is under the remote-control body limit (5 MiB), so the write
 *   is refused by this limit, naming it. A breach is a 413.
 *
 * @example
 * ```ts
 * const deep = { modifications: { type: 'JSON', value: { a: [[[[['...']]]]] } } };
 * console.log(CONFIG_LIMITS.valueDepth); // 32: a value nested deeper is a 400 naming the limit
 * ```
 */
export const CONFIG_LIMITS = Object.freeze({
  depth: 48,
  valueDepth: 32,
  valueBytes: 65_536,
  idLength: 256,
  campaigns: 1000,
  variationGroups: 2000,
  variationsPerGroup: 100,
  targetingValues: 10_000,
  targetingBytes: 1_048_576,
  configBytes: 4 * 1_048_576,
});

/** A non-empty id of at most `CONFIG_LIMITS.idLength` characters. */
const id = () => z.string().min(1).max(CONFIG_LIMITS.idLength, `must be at most ${CONFIG_LIMITS.idLength} characters`);

const scalar = z.union([z.string(), z.number(), z.boolean()]);

const STRING_OPERATORS = new Set<TargetingOperator>(['CONTAINS', 'NOT_CONTAINS', 'STARTS_WITH', 'ENDS_WITH']);
const ORDER_OPERATORS = new Set<TargetingOperator>(['LOWER_THAN', 'LOWER_THAN_OR_EQUALS', 'GREATER_THAN', 'GREATER_THAN_OR_EQUALS']);

/**
 * Schema of one targeting rule `{ key, operator, value }`.
 *
 * @example
 * ```ts
 * const result = targetingSchema.safeParse({ key: 'appVersion', operator: 'SEMVER_EQUALS', value: 'latest' });
 * result.success; // false: SEMVER_EQUALS needs semantic versions such as "1.2.3"
 * ```
 */
export const targetingSchema = z
  .looseObject({
    key: id(),
    operator: z.enum(TARGETING_OPERATORS),
    value: z.union([scalar, z.array(scalar).min(1)]).optional(),
  })
  .superRefine((t, ctx) => {
    if (t.key === 'fs_all_users') return;
    const values = t.value === undefined ? [] : Array.isArray(t.value) ? t.value : [t.value];
    const problem = (message: string) => ctx.addIssue({ code: 'custom', path: ['value'], message });
    if (t.operator === 'EXISTS' || t.operator === 'NOT_EXISTS') {
      if (t.value !== undefined && typeof t.value !== 'boolean') problem(`${t.operator} takes a boolean value or none`);
      return;
    }
    if (t.value === undefined) return problem(`${t.operator} needs a value`);
    if (values.length > CONFIG_LIMITS.targetingValues) return problem(`must hold at most ${CONFIG_LIMITS.targetingValues} values`);
    for (const v of values) {
      if (STRING_OPERATORS.has(t.operator) && typeof v !== 'string') return problem(`${t.operator} needs string values`);
      if (ORDER_OPERATORS.has(t.operator) && typeof v === 'boolean') {
        return problem(`${t.operator} needs number or string values`);
      }
      if (t.operator.startsWith('SEMVER_') && (typeof v !== 'string' || !parseSemver(v))) {
        return problem(`${t.operator} needs semantic versions such as "1.2.3", got ${JSON.stringify(v)}`);
      }
    }
  });

/**
 * Schema of a variation and its modifications.
 *
 * @example
 * ```ts
 * const variation = variationSchema.parse({ id: 'var2', allocation: 50, modifications: { type: 'JSON', value: { buttonColor: 'green' } } });
 * console.log(variation.reference ?? false, variation.modifications.value.buttonColor);
 * ```
 */
export const variationSchema = z.looseObject({
  id: id(),
  reference: z.boolean().optional(),
  allocation: z.number().min(0).max(100).optional(),
  modifications: z
    .looseObject({
      type: z.string(),
      value: z.record(z.string(), z.unknown()).superRefine((value, ctx) => {
        if (nestingExceeds(value, CONFIG_LIMITS.valueDepth)) {
          ctx.addIssue({ code: 'custom', message: `nests deeper than the limit of ${CONFIG_LIMITS.valueDepth} levels` });
        } else if (new TextEncoder().encode(JSON.stringify(value)).length > CONFIG_LIMITS.valueBytes) {
          ctx.addIssue({ code: 'custom', message: `is larger than the limit of ${CONFIG_LIMITS.valueBytes} bytes of JSON` });
        }
      }),
    })
    .superRefine((m, ctx) => {
      // A type of its own: search settings are checked here, where campaigns are loaded, so a
      // bad one is refused with its path instead of failing at a visitor's search.
      if (m.type !== SEARCH_MODIFICATION_TYPE) return;
      const parsed = searchModificationSchema.safeParse(m.value);
      if (!parsed.success) for (const issue of parsed.error.issues) ctx.addIssue({ ...issue, path: ['value', ...issue.path] } as never);
    }),
});

/**
 * Schema of a variation group: its targeting and its variations.
 *
 * @example
 * ```ts
 * const flag = { type: 'FLAG', value: { enabled: true } };
 * const result = variationGroupSchema.safeParse({ id: 'vg1', targeting: { targetingGroups: [] },
 *   variations: [{ id: 'a', allocation: 60, modifications: flag }, { id: 'b', allocation: 60, modifications: flag }] });
 * result.success; // false: allocations sum to 120, more than 100
 * ```
 */
export const variationGroupSchema = z.looseObject({
  id: id(),
  targeting: z.looseObject({
    targetingGroups: z.array(z.looseObject({ targetings: z.array(targetingSchema) })),
  }),
  variations: z
    .array(variationSchema)
    .min(1)
    .max(CONFIG_LIMITS.variationsPerGroup, `must hold at most ${CONFIG_LIMITS.variationsPerGroup} variations`)
    .superRefine((variations, ctx) => {
      const total = variations.reduce((sum, v) => sum + (v.allocation ?? 0), 0);
      if (total > 100 + 1e-9) ctx.addIssue({ code: 'custom', message: `allocations sum to ${total}, more than 100` });
      duplicates(
        variations.map((v) => v.id),
        'variation id',
        [],
        ctx,
      );
      searchGroupProblems(variations, ctx);
    }),
});

/**
 * Schema of a campaign.
 *
 * @example
 * ```ts
 * const campaign = campaignSchema.parse(JSON.parse(text)); // throws a ZodError naming each bad field
 * await remote.putCampaign('acme', 'prod', campaign.id, campaign);
 * ```
 */
export const campaignSchema = z
  .looseObject({
    id: id(),
    type: z.string().min(1),
    slug: id().nullable().optional(),
    name: z.string().optional(),
    bucketRanges: z
      .array(
        z.looseObject({
          r: z
            .tuple([z.number().min(0).max(100), z.number().min(0).max(100)])
            .refine(([lo, hi]) => lo < hi, 'range [lo, hi) needs lo < hi'),
        }),
      )
      .optional(),
    variationGroups: z.array(variationGroupSchema).min(1),
  })
  .superRefine((campaign, ctx) => {
    // Unknown members are kept, so they are bounded too; a campaign sits two levels down.
    if (nestingExceeds(campaign, CONFIG_LIMITS.depth - 2))
      ctx.addIssue({ code: 'custom', message: `nests deeper than the configuration limit of ${CONFIG_LIMITS.depth} levels` });
  });

/**
 * Schema of a whole bucketing configuration (what `DecisionEngine.load` takes).
 *
 * @example
 * ```ts
 * const config = bucketingConfigSchema.parse(JSON.parse(text));
 * ```
 */
export const bucketingConfigSchema = z
  .looseObject({
    panic: z.boolean().optional(),
    campaigns: z
      .array(campaignSchema)
      .max(CONFIG_LIMITS.campaigns, `must hold at most ${CONFIG_LIMITS.campaigns} campaigns per environment`),
    accountSettings: z.looseObject({ enabledXPC: z.boolean().optional(), enabled1V1T: z.boolean().optional() }).nullable().optional(),
  })
  .superRefine(
    (c, ctx) => {
      // Runs even when other members failed, so every problem is reported at once; hence the guards.
      // A body of `null` reaches here too.
      const campaigns: unknown[] = c !== null && typeof c === 'object' && Array.isArray(c.campaigns) ? c.campaigns : [];
      const field = (x: unknown, name: string): unknown => (x && typeof x === 'object' ? (x as Record<string, unknown>)[name] : undefined);
      const strings = (xs: unknown[]) => xs.filter((x): x is string => typeof x === 'string' && x !== '');
      duplicates(strings(campaigns.map((x) => field(x, 'id'))), 'campaign id', ['campaigns'], ctx);
      duplicates(strings(campaigns.map((x) => field(x, 'slug'))), 'campaign slug', ['campaigns'], ctx);
      // The variation group id seeds the hash, so two groups sharing one would bucket in lockstep.
      const groups = campaigns.flatMap((x) => {
        const g = field(x, 'variationGroups');
        return Array.isArray(g) ? g.map((y) => field(y, 'id')) : [];
      });
      duplicates(strings(groups), 'variation group id', ['campaigns'], ctx);
      if (groups.length > CONFIG_LIMITS.variationGroups) {
        ctx.addIssue({
          code: 'custom',
          path: ['campaigns'],
          message: `hold ${groups.length} variation groups; the limit is ${CONFIG_LIMITS.variationGroups} per environment`,
        });
      }
      const targetingBytes = targetingSize(campaigns);
      if (targetingBytes > CONFIG_LIMITS.targetingBytes) {
        ctx.addIssue({
          code: 'custom',
          path: ['campaigns'],
          message: `hold ${targetingBytes} characters of targeting values; the limit is ${CONFIG_LIMITS.targetingBytes} per environment`,
        });
      }
      // Campaigns bound themselves; the other (kept) members are bounded here.
      if (c !== null && typeof c === 'object' && nestingExceeds({ ...c, campaigns: [] }, CONFIG_LIMITS.depth)) {
        ctx.addIssue({ code: 'custom', path: [], message: `nests deeper than the configuration limit of ${CONFIG_LIMITS.depth} levels` });
      }
    },
    { when: () => true },
  );

/**
 * A validated bucketing configuration.
 *
 * @example
 * ```ts
 * const config: BucketingConfig = parseBucketingConfig(JSON.parse(text));
 * console.log(config.panic ?? false, config.campaigns.length);
 * ```
 */
export type BucketingConfig = z.infer<typeof bucketingConfigSchema>;
/**
 * A campaign of a {@link BucketingConfig}.
 *
 * @example
 * ```ts
 * const campaign: Campaign = await remote.getCampaign('acme', 'prod', 'new-checkout');
 * console.log(campaign.type, campaign.slug, campaign.variationGroups.length);
 * ```
 */
export type Campaign = z.infer<typeof campaignSchema>;
/**
 * A variation group of a {@link Campaign}.
 *
 * @example
 * ```ts
 * const group: VariationGroup = variationGroupSchema.parse(JSON.parse(text));
 * console.log(group.id, group.targeting.targetingGroups.length, group.variations.length);
 * ```
 */
export type VariationGroup = z.infer<typeof variationGroupSchema>;
/**
 * A variation of a {@link VariationGroup}.
 *
 * @example
 * ```ts
 * const campaign = await remote.getCampaign('acme', 'prod', 'new-checkout');
 * const variations: Variation[] = campaign.variationGroups.flatMap((g) => g.variations);
 * console.log(variations.map((v) => `${v.id}: ${v.allocation ?? 0}%`));
 * ```
 */
export type Variation = z.infer<typeof variationSchema>;
/**
 * One targeting rule of a variation group.
 *
 * @example
 * ```ts
 * const rule: Targeting = targetingSchema.parse({ key: 'appVersion', operator: 'SEMVER_GREATER_THAN_OR_EQUALS', value: '3.0.0' });
 * const config: BucketingConfig = { campaigns: [{ id: 'c1', type: 'ab', variationGroups: [{ id: 'vg1', targeting: { targetingGroups: [{ targetings: [rule] }] }, variations: [] }] }] };
 * ```
 */
export type Targeting = z.infer<typeof targetingSchema>;

/** Characters of JSON of every targeting value (guarded: runs on input that may be invalid). */
function targetingSize(campaigns: readonly unknown[]): number {
  const list = (x: unknown, name: string): unknown[] => {
    const v = x && typeof x === 'object' ? (x as Record<string, unknown>)[name] : undefined;
    return Array.isArray(v) ? v : [];
  };
  let total = 0;
  for (const c of campaigns) {
    for (const g of list(c, 'variationGroups')) {
      const targeting = g && typeof g === 'object' ? (g as Record<string, unknown>).targeting : undefined;
      for (const tg of list(targeting, 'targetingGroups')) {
        for (const t of list(tg, 'targetings')) {
          const value = t && typeof t === 'object' ? (t as Record<string, unknown>).value : undefined;
          // Values are scalars or lists of scalars once valid; anything else counts by its JSON.
          total += valueSize(value);
        }
      }
    }
  }
  return total;
}

function valueSize(value: unknown): number {
  if (value === undefined) return 0;
  if (typeof value === 'string') return value.length + 2;
  if (typeof value === 'number' || typeof value === 'boolean' || value === null) return String(value).length;
  // One level: a valid list holds scalars; anything deeper is refused by the schema anyway.
  if (Array.isArray(value)) {
    let n = 2;
    for (const v of value) n += (Array.isArray(v) || (v !== null && typeof v === 'object') ? 2 : valueSize(v)) + 1;
    return n;
  }
  return 2;
}

/**
 * A group testing search settings holds search modifications only, for one catalog: a visitor
 * of its reference (`value: {}`, the catalog's own settings) must be recognised as exposed as
 * well, and every variation must apply to the same searches.
 */
function searchGroupProblems(
  variations: readonly { modifications: { type: string; value: Record<string, unknown> } }[],
  ctx: { addIssue: (issue: { code: 'custom'; path: (string | number)[]; message: string }) => void },
): void {
  const first = variations.findIndex((v) => v.modifications.type === SEARCH_MODIFICATION_TYPE);
  if (first < 0) return;
  const catalog = variations[first]!.modifications.value.catalog;
  variations.forEach((v, i) => {
    if (v.modifications.type !== SEARCH_MODIFICATION_TYPE) {
      ctx.addIssue({
        code: 'custom',
        path: [i, 'modifications', 'type'],
        message: `must be "${SEARCH_MODIFICATION_TYPE}" like variation ${first}'s: a group testing search settings holds search modifications only (the reference's value {} keeps the catalog's settings)`,
      });
    } else if (v.modifications.value.catalog !== catalog) {
      ctx.addIssue({
        code: 'custom',
        path: [i, 'modifications', 'value', 'catalog'],
        message: `must be ${catalog === undefined ? 'absent' : JSON.stringify(catalog)} like variation ${first}'s: the variations of a group apply to the same catalog`,
      });
    }
  });
}

function duplicates(
  ids: string[],
  what: string,
  path: (string | number)[],
  ctx: { addIssue: (issue: { code: 'custom'; path: (string | number)[]; message: string }) => void },
): void {
  const seen = new Set<string>();
  for (const id of ids) {
    if (seen.has(id)) ctx.addIssue({ code: 'custom', path, message: `duplicate ${what} "${id}"` });
    seen.add(id);
  }
}

/**
 * Validates a bucketing configuration, throwing a {@link abkit!ValidationError} whose details give
 * the JSON path of each problem, or a {@link abkit!PayloadTooLargeError} when its JSON is over
 * `CONFIG_LIMITS.configBytes`.
 *
 * @example
 * ```ts
 * import { readFileSync } from 'node:fs';
 * const config = parseBucketingConfig(JSON.parse(readFileSync('bucketing.json', 'utf8')));
 * ```
 */
export function parseBucketingConfig(input: unknown): BucketingConfig {
  const config = parseWith(bucketingConfigSchema, input, 'bucketing configuration');
  // Measured once valid: validation refuses cycles, so the text exists.
  const bytes = utf8Length(JSON.stringify(config));
  if (bytes > CONFIG_LIMITS.configBytes) {
    throw new PayloadTooLargeError(
      `the bucketing configuration is ${bytes} bytes of JSON; the limit is ${CONFIG_LIMITS.configBytes} bytes per environment`,
      'configuration_too_large',
    );
  }
  return config;
}

/** UTF-8 length of a text, without encoding it. */
function utf8Length(text: string): number {
  let n = text.length;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    // Two bytes for U+0080–U+07FF, three above; a surrogate pair (4 bytes) counts 2 + 2.
    if (c >= 0x80) n += c >= 0x800 && (c < 0xd800 || c > 0xdfff) ? 2 : 1;
  }
  return n;
}
