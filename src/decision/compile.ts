/**
 * Compiles a stored configuration once per version: targetings parsed and lower-cased,
 * allocation thresholds summed, and every possible campaign value built and frozen, so a
 * decision only walks arrays and returns prebuilt objects.
 *
 * @module
 */
import type { EnvironmentRecord } from '../storage/environments';
import type { Campaign, Targeting, Variation, VariationGroup } from '../model/bucketing-config';
import { compileMatcher, compileTargeting, type CompiledTargeting, type CompiledTargetingGroup, type Matcher } from './targeting';
import { hashPrefix, type HashPrefix } from './bucketing';
import { deepFreeze } from '../freeze';

/**
 * Modifications of a variation: a type and a map of flag keys to values.
 *
 * @example
 * ```ts
 * const decision = await engine.decideCampaign('new-checkout', { visitorId: 'v1' });
 * const modifications: Modifications | undefined = decision?.variation.modifications;
 * console.log(modifications?.type, modifications?.value.buttonColor); // e.g. 'JSON' 'green'
 * ```
 */
export interface Modifications {
  readonly type: string;
  readonly value: Readonly<Record<string, unknown>>;
}

/**
 * The variation part of a {@link CampaignDecision}.
 *
 * @example
 * ```ts
 * const { campaigns } = await engine.decide({ visitorId: 'v1' });
 * const variation: DecidedVariation | undefined = campaigns[0]?.variation;
 * if (variation && !variation.reference) console.log(variation.id, variation.modifications.value);
 * ```
 */
export interface DecidedVariation {
  readonly id: string;
  readonly reference: boolean;
  readonly modifications: Modifications;
}

/**
 * A campaign value (interfaces.md, Campaign value): the campaign a visitor is in and the variation it got, plus the
 * campaign's `type` and `slug`. Returned objects are frozen and shared between decisions.
 *
 * @example
 * ```ts
 * const decision: CampaignDecision | null = await engine.decideCampaign('new-checkout', { visitorId: 'v1' });
 * const color = decision?.variation.modifications.value.buttonColor ?? 'blue';
 * ```
 */
export interface CampaignDecision {
  readonly id: string;
  readonly variationGroupId: string;
  readonly variation: DecidedVariation;
  readonly type: string;
  readonly slug: string | null;
}

/**
 * Each prebuilt campaign value carries its JSON text under this (non-enumerable) symbol, so the
 * HTTP layer writes a response by concatenation instead of serializing the same objects again.
 */
export const SERIALIZED: unique symbol = Symbol('abkit.serialized');

/**
 * How a visitor got its variation.
 *
 * @example
 * ```ts
 * const { campaigns } = await engine.explain({ visitorId: 'v1' });
 * const source: AssignmentSource | undefined = campaigns[0]?.source; // 'hash', 'sticky' or 'forced'
 * ```
 */
export type AssignmentSource = 'hash' | 'sticky' | 'forced';

/** One campaign the visitor is in. */
export interface Assigned {
  readonly campaign: CompiledCampaign;
  readonly group: CompiledGroup;
  readonly variation: CompiledVariation;
  readonly source: AssignmentSource;
  // Copies of what a decision reads for every campaign it serves, on this object itself: at a
  // thousand campaigns, following `variation` and `group` for them cost more than the rest.
  readonly campaignId: string;
  readonly variationGroupId: string;
  readonly variationId: string;
  /** The campaign value served, and the one with the sibling variations' keys (`exposeAllKeys`). */
  readonly decision: CampaignDecision;
  readonly decisionAllKeys: CampaignDecision;
}

/** The JSON text of a campaign value: the prebuilt one when available. */
export function serializeDecision(value: CampaignDecision): string {
  return (value as { [SERIALIZED]?: string })[SERIALIZED] ?? JSON.stringify(value);
}

/**
 * Where a flag's value comes from: the campaign and variation that serve it (the metadata of
 * Flagship's `POST /v2/flags`). Names are null when the configuration gives none.
 *
 * @example
 * ```ts
 * const { flags } = await engine.decideFlags({ visitorId: 'v1' });
 * const meta: FlagMetadata | undefined = flags.buttonColor?.metadata;
 * console.log(meta?.campaignId, meta?.variationId, meta?.reference);
 * ```
 */
export interface FlagMetadata {
  readonly campaignId: string;
  readonly campaignName: string | null;
  readonly slug: string | null;
  readonly type: string;
  readonly variationGroupId: string;
  readonly variationGroupName: string | null;
  readonly variationId: string;
  readonly variationName: string | null;
  readonly reference: boolean;
}

/** A variation with its two prebuilt campaign values. */
export interface CompiledVariation {
  readonly id: string;
  readonly allocation: number;
  /** The flag metadata every key of this variation carries. */
  readonly metadata: FlagMetadata;
  /** Campaign value with the variation's own keys. */
  readonly decision: CampaignDecision;
  /** Campaign value that also carries the sibling variations' keys as null (`exposeAllKeys`). */
  readonly decisionAllKeys: CampaignDecision;
  /** The evaluation's result for this variation by each source, built once (a decision allocates none). */
  readonly assigned: Readonly<Record<AssignmentSource, Assigned>>;
}

/** A variation group, compiled. */
export interface CompiledGroup {
  readonly id: string;
  readonly targetingGroups: readonly CompiledTargetingGroup[];
  /** The same targeting groups as indexes into {@link CompiledConfig.rules}. */
  readonly ruleGroups: readonly (readonly number[])[];
  /** The group id as a murmur3 prefix: the visitor's bucket is `hash(prefix + visitorId) % 100`. */
  readonly prefix: HashPrefix;
  readonly variations: readonly CompiledVariation[];
  /** Running allocation total per variation, -1 for variations that never match. */
  readonly thresholds: readonly number[];
  /** Whether the hash chooses among variations (several allocated, or a gap) rather than one taking everyone. */
  readonly split: boolean;
  readonly variationById: ReadonlyMap<string, CompiledVariation>;
}

/** A campaign, compiled. */
export interface CompiledCampaign {
  readonly id: string;
  readonly type: string;
  readonly slug: string | null;
  /** `[lo, hi)` ranges of `murmur3(visitorId) % 100`, or null for every visitor. */
  readonly ranges: readonly (readonly [number, number])[] | null;
  readonly groups: readonly CompiledGroup[];
}

/** A whole environment's configuration, compiled for one version. */
export interface CompiledConfig {
  readonly environmentId: string;
  readonly accountId: string;
  readonly version: number;
  readonly apiKeyHash: string | null;
  readonly panic: boolean;
  readonly experienceContinuity: boolean;
  readonly oneVisitorOneTest: boolean;
  readonly campaigns: readonly CompiledCampaign[];
  /** Campaigns by id and by slug. */
  readonly campaignByKey: ReadonlyMap<string, CompiledCampaign>;
  /** Variation groups by id, with their campaign. */
  readonly groupById: ReadonlyMap<string, { campaign: CompiledCampaign; group: CompiledGroup }>;
  /**
   * Every distinct targeting rule of the configuration, once: campaigns often repeat a rule
   * (a country, a platform), and a decision evaluates each distinct rule at most once.
   */
  readonly rules: readonly CompiledTargeting[];
  /** Every flag (modification) key some variation sets. */
  readonly flagKeys: ReadonlySet<string>;
  /** The same campaigns as flat arrays, for the common decision. */
  readonly plan: DecisionPlan;
  /** The stored record this was compiled from (served as the bucketing file). */
  readonly record: EnvironmentRecord;
}

/**
 * The campaigns of a configuration as flat arrays, in order: what a decision walks when nothing
 * is forced or traced. A campaign reads a few entries of each array, side by side with
 * the previous campaign's, instead of chasing five objects scattered over the heap (at a
 * thousand campaigns those reads were most of a decision's time). Each `…Start` array has one
 * entry more than the things it delimits: item `i` spans `[start[i], start[i + 1])`.
 */
export interface DecisionPlan {
  /** Per campaign: its variation groups. */
  readonly groupStart: Int32Array;
  /** Per campaign: 1 when it has bucket ranges (then read from the campaign). */
  readonly ranged: Uint8Array;
  /** Per variation group: its targeting groups. */
  readonly targetingStart: Int32Array;
  /** Per targeting group: its rules in `rules`. */
  readonly ruleStart: Int32Array;
  /** Indexes into {@link CompiledConfig.rules}. */
  readonly rules: Int32Array;
  /** Per distinct rule (as {@link CompiledConfig.rules}): its test, specialized once. */
  readonly matchers: readonly Matcher[];
  /** Per variation group: its hash prefix as state, tail, tail length and length. */
  readonly prefixes: Int32Array;
  /** Per variation group: its variations. */
  readonly variationStart: Int32Array;
  /** Per variation: running allocation total (allocations may be fractional), -1 for a variation that never matches. */
  readonly thresholds: Float64Array;
  /** Per variation: the evaluation's result when the hash picks it. */
  readonly assigned: readonly Assigned[];
  /** Per variation group: its id (the key of a stored assignment). */
  readonly groupIds: readonly string[];
  /** Per variation: its id, and the evaluation's result when a stored assignment names it. */
  readonly variationIds: readonly string[];
  readonly sticky: readonly Assigned[];
}

function buildPlan(campaigns: readonly CompiledCampaign[], rules: readonly CompiledTargeting[]): DecisionPlan {
  const groups = campaigns.flatMap((c) => c.groups);
  const targetingGroups = groups.flatMap((g) => g.ruleGroups);
  const variations = groups.flatMap((g) => g.variations);
  const starts = <T>(items: readonly T[], size: (item: T) => number): Int32Array => {
    const start = new Int32Array(items.length + 1);
    items.forEach((item, i) => {
      start[i + 1] = start[i]! + size(item);
    });
    return start;
  };
  const prefixes = new Int32Array(groups.length * 4);
  groups.forEach((g, i) => {
    prefixes.set([g.prefix.state, g.prefix.tail, g.prefix.tailLength, g.prefix.length], i * 4);
  });
  return {
    groupStart: starts(campaigns, (c) => c.groups.length),
    ranged: Uint8Array.from(campaigns, (c) => (c.ranges ? 1 : 0)),
    targetingStart: starts(groups, (g) => g.ruleGroups.length),
    ruleStart: starts(targetingGroups, (rules) => rules.length),
    rules: Int32Array.from(targetingGroups.flat()),
    matchers: rules.map(compileMatcher),
    prefixes,
    variationStart: starts(groups, (g) => g.variations.length),
    thresholds: Float64Array.from(groups.flatMap((g) => g.thresholds)),
    assigned: variations.map((v) => v.assigned.hash),
    groupIds: groups.map((g) => g.id),
    variationIds: variations.map((v) => v.id),
    sticky: variations.map((v) => v.assigned.sticky),
  };
}

function compileVariation(campaign: Campaign, group: VariationGroup, variation: Variation, allKeys: readonly string[]): CompiledVariation {
  const build = (value: Record<string, unknown>): CampaignDecision => {
    const decision = {
      id: campaign.id,
      variationGroupId: group.id,
      variation: {
        id: variation.id,
        reference: variation.reference ?? false,
        modifications: { type: variation.modifications.type, value },
      },
      type: campaign.type,
      slug: campaign.slug ?? null,
    };
    Object.defineProperty(decision, SERIALIZED, { value: JSON.stringify(decision), enumerable: false });
    return deepFreeze(decision);
  };
  const own = structuredClone(variation.modifications.value);
  const withSiblings: Record<string, unknown> = {};
  for (const key of allKeys) withSiblings[key] = null;
  Object.assign(withSiblings, structuredClone(own));
  // Names are kept unknown members of the configuration (validated files may carry any value).
  const name = (x: object) => {
    const n = (x as { name?: unknown }).name;
    return typeof n === 'string' ? n : null;
  };
  const metadata: FlagMetadata = Object.freeze({
    campaignId: campaign.id,
    campaignName: name(campaign),
    slug: campaign.slug ?? null,
    type: campaign.type,
    variationGroupId: group.id,
    variationGroupName: name(group),
    variationId: variation.id,
    variationName: name(variation),
    reference: variation.reference ?? false,
  });
  return {
    id: variation.id,
    allocation: variation.allocation ?? 0,
    metadata,
    decision: build(own),
    decisionAllKeys: build(withSiblings),
    assigned: undefined as never, // set by compileConfig once the campaign exists
  };
}

/**
 * Distinct targeting rules, each compiled once, by what they test: a list repeated by many
 * campaigns builds its set or automaton once.
 */
class RuleTable {
  readonly rules: CompiledTargeting[] = [];
  readonly #index = new Map<string, number>();

  add(rule: Targeting): number {
    const { key, operator, value } = rule;
    const id = `${key}\u0000${operator}\u0000${JSON.stringify(value)}`;
    let index = this.#index.get(id);
    if (index === undefined) {
      index = this.rules.push(compileTargeting(rule)) - 1;
      this.#index.set(id, index);
    }
    return index;
  }
}

function compileGroup(campaign: Campaign, group: VariationGroup, table: RuleTable): CompiledGroup {
  const allKeys = [...new Set(group.variations.flatMap((v) => Object.keys(v.modifications.value)))];
  const variations = group.variations.map((v) => compileVariation(campaign, group, v, allKeys));
  let total = 0;
  const thresholds = variations.map((v) => {
    if (v.allocation <= 0) return -1;
    total += v.allocation;
    return total;
  });
  const ruleGroups = group.targeting.targetingGroups.map((g) => g.targetings.map((t) => table.add(t)));
  return {
    id: group.id,
    targetingGroups: ruleGroups.map((g) => g.map((index) => table.rules[index]!)),
    ruleGroups,
    prefix: hashPrefix(group.id),
    variations,
    thresholds,
    split: total < 100 || thresholds.filter((t) => t >= 0).length > 1,
    variationById: new Map(variations.map((v) => [v.id, v])),
  };
}

/** Compiles a validated, stored environment configuration. */
export function compileConfig(record: EnvironmentRecord): CompiledConfig {
  const { config } = record;
  const table = new RuleTable();
  const campaigns = config.campaigns.map(
    (c): CompiledCampaign => ({
      id: c.id,
      type: c.type,
      slug: c.slug ?? null,
      ranges: c.bucketRanges && c.bucketRanges.length > 0 ? c.bucketRanges.map((b) => b.r) : null,
      groups: c.variationGroups.map((g) => compileGroup(c, g, table)),
    }),
  );
  for (const campaign of campaigns) {
    for (const group of campaign.groups) {
      for (const variation of group.variations) {
        const as = (source: AssignmentSource): Assigned =>
          Object.freeze({
            campaign,
            group,
            variation,
            source,
            campaignId: campaign.id,
            variationGroupId: group.id,
            variationId: variation.id,
            decision: variation.decision,
            decisionAllKeys: variation.decisionAllKeys,
          });
        (variation as { assigned: CompiledVariation['assigned'] }).assigned = Object.freeze({
          hash: as('hash'),
          sticky: as('sticky'),
          forced: as('forced'),
        });
      }
    }
  }
  const flagKeys = new Set<string>();
  for (const c of config.campaigns)
    for (const g of c.variationGroups) for (const v of g.variations) for (const key in v.modifications.value) flagKeys.add(key);
  const campaignByKey = new Map<string, CompiledCampaign>();
  const groupById = new Map<string, { campaign: CompiledCampaign; group: CompiledGroup }>();
  for (const campaign of campaigns) {
    campaignByKey.set(campaign.id, campaign);
    for (const group of campaign.groups) groupById.set(group.id, { campaign, group });
  }
  // Slugs never shadow an id.
  for (const campaign of campaigns) if (campaign.slug && !campaignByKey.has(campaign.slug)) campaignByKey.set(campaign.slug, campaign);
  return {
    environmentId: record.id,
    accountId: record.accountId,
    version: record.version,
    apiKeyHash: record.apiKeyHash,
    panic: config.panic ?? false,
    experienceContinuity: config.accountSettings?.enabledXPC ?? false,
    oneVisitorOneTest: config.accountSettings?.enabled1V1T ?? false,
    campaigns,
    campaignByKey,
    groupById,
    rules: table.rules,
    flagKeys,
    plan: buildPlan(campaigns, table.rules),
    record,
  };
}
