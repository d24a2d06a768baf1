/**
 * Flag views of a decision: one value per modification key (Flagship's `POST /v2/flags`) and the
 * merged `simple` form of `/v2/campaigns?mode=simple|full`. Pure functions over what the engine
 * assigned.
 *
 * @module
 */
import type { CampaignDecision, FlagMetadata } from './compile';
import type { Assigned, AssignmentSource } from './compile';

/**
 * One flag as the engine resolved it for a visitor.
 *
 * @example
 * ```ts
 * const { flags } = await engine.decideFlags({ visitorId: 'v1' });
 * const flag: ResolvedFlag | undefined = flags.buttonColor;
 * if (flag) console.log(flag.value, flag.metadata.variationId, flag.source);
 * ```
 */
export interface ResolvedFlag {
  /** The variation's value for the key (null for a sibling key under `exposeAllKeys`). */
  readonly value: unknown;
  /** The campaign and variation that serve it. */
  readonly metadata: FlagMetadata;
  /** How the visitor got the variation: the hash, a stored (sticky) assignment, or forced. */
  readonly source: AssignmentSource;
  /** Whether the variation group splits visitors (several allocated variations, or a gap). */
  readonly split: boolean;
}

/**
 * What {@link abkit!DecisionEngine.decideFlags} returns.
 *
 * @example
 * ```ts
 * const result: FlagsResult = await engine.decideFlags({ visitorId: 'v1', environment: 'prod' });
 * const known = result.keys.has('buttonColor'); // defined by some campaign, served or not
 * ```
 */
export interface FlagsResult {
  /** The environment decided in. */
  readonly environmentId: string;
  readonly visitorId: string;
  /** Whether the environment is in panic mode (then `flags` is empty). */
  readonly panic: boolean;
  /** Flag key → resolved flag; when two campaigns set a key, the first in configuration order serves it. */
  readonly flags: Readonly<Record<string, ResolvedFlag>>;
  /** Every flag key some variation of the environment sets, served to this visitor or not. */
  readonly keys: ReadonlySet<string>;
}

/** Flag key → flag, the first campaign (in configuration order) winning a key. */
export function flagsOf(assigned: readonly Assigned[], exposeAllKeys: boolean): Record<string, ResolvedFlag> {
  // Keys come from configurations: a null prototype keeps "__proto__" an ordinary key.
  const out: Record<string, ResolvedFlag> = Object.create(null);
  for (const a of assigned) {
    const decision = exposeAllKeys ? a.variation.decisionAllKeys : a.variation.decision;
    const values = decision.variation.modifications.value;
    for (const key in values) {
      if (Object.hasOwn(out, key)) continue;
      out[key] = { value: values[key], metadata: a.variation.metadata, source: a.source, split: a.group.split };
    }
  }
  return out;
}

/**
 * The `simple` form of a campaigns list: every campaign's modifications merged into one object
 * (a key set by several campaigns takes the last one's value, as Flagship's decision API does)
 * and the campaign → variation pairs.
 *
 * @example
 * ```ts
 * const { campaigns } = await engine.decide({ visitorId: 'v1' });
 * const { mergedModifications, campaignsVariation } = simpleView(campaigns);
 * ```
 */
export function simpleView(campaigns: readonly CampaignDecision[]): {
  mergedModifications: Record<string, unknown>;
  campaignsVariation: { campaignId: string; variationId: string }[];
} {
  const mergedModifications: Record<string, unknown> = Object.create(null);
  const campaignsVariation: { campaignId: string; variationId: string }[] = [];
  for (const c of campaigns) {
    campaignsVariation.push({ campaignId: c.id, variationId: c.variation.id });
    const values = c.variation.modifications.value;
    for (const key in values) mergedModifications[key] = values[key];
  }
  return { mergedModifications, campaignsVariation };
}
