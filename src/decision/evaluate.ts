/**
 * The pure core of a decision: given a compiled configuration, a visitor and its stored
 * assignments, which variation of which campaign does the visitor get, and why.
 *
 * @module
 */
import { NO_ASSIGNMENTS, type Assignments } from '../storage/assignments';
import { hashPrefix, KeyHasher, pickVariation } from './bucketing';
import type { Assigned, AssignmentSource, CompiledCampaign, CompiledConfig, CompiledGroup } from './compile';
import { firstFailure, targetedValue } from './targeting';
import type { ContextValue, VisitorContext } from './visitor-values';

/**
 * Why a campaign was or was not served.
 *
 * @example
 * ```ts
 * const { campaigns } = await engine.explain({ visitorId: 'v1' });
 * const outcomes: Outcome[] = campaigns.map((c) => c.outcome); // e.g. ['assigned', 'not_targeted']
 * ```
 */
export type Outcome = 'assigned' | 'panic' | 'outside_bucket_ranges' | 'not_targeted' | 'untracked' | 'one_visitor_one_test';

/**
 * A targeting that failed, with the value the visitor had.
 *
 * @example
 * ```ts
 * const { campaigns } = await engine.explain({ visitorId: 'v1', context: { plan: 'free' } });
 * const failure: TargetingFailure | undefined = campaigns[0]?.failures?.[0];
 * if (failure) console.log(`${failure.key} ${failure.operator} ${JSON.stringify(failure.expected)}; visitor has ${failure.actual}`);
 * ```
 */
export interface TargetingFailure {
  readonly variationGroupId: string;
  readonly targetingGroup: number;
  readonly key: string;
  readonly operator: string;
  readonly expected: unknown;
  /** The visitor's value, or undefined when the key is missing. */
  readonly actual: ContextValue | undefined;
}

/**
 * One step of the allocation walk.
 *
 * @example
 * ```ts
 * const { campaigns } = await engine.explain({ visitorId: 'v1' });
 * const steps: readonly AllocationStep[] = campaigns[0]?.allocation ?? [];
 * for (const s of steps) console.log(s.variationId, s.allocation, s.cumulative);
 * ```
 */
export interface AllocationStep {
  readonly variationId: string;
  readonly allocation: number;
  /** Running total; the visitor gets the first variation whose total exceeds the bucket. */
  readonly cumulative: number;
}

/**
 * The explanation of one campaign's outcome for a visitor (see `DecisionEngine.explain`).
 *
 * @example
 * ```ts
 * const { campaigns } = await engine.explain({ visitorId: 'v1', context: { country: 'fr' } });
 * const skipped: CampaignExplanation[] = campaigns.filter((c) => c.outcome !== 'assigned');
 * for (const c of skipped) console.log(c.campaignId, c.outcome, c.reason);
 * ```
 */
export interface CampaignExplanation {
  readonly campaignId: string;
  readonly type: string;
  readonly outcome: Outcome;
  /** A sentence a person can read. */
  readonly reason: string;
  readonly variationGroupId?: string;
  readonly variationId?: string;
  readonly source?: AssignmentSource;
  /** Index of the targeting group that matched. */
  readonly matchedTargetingGroup?: number;
  /** For `not_targeted`: the first failing targeting of each targeting group. */
  readonly failures?: readonly TargetingFailure[];
  /** `murmur3(variationGroupId + visitorId) % 100`, when the hash was used. */
  readonly bucket?: number;
  /** `murmur3(visitorId) % 100`, when the campaign has bucket ranges. */
  readonly campaignBucket?: number;
  readonly allocation?: readonly AllocationStep[];
}

/** What the pure evaluation needs about the visitor. */
export interface EvaluationInput {
  readonly visitorId: string;
  readonly context: VisitorContext;
  /** Sticky assignments (already merged with the anonymous id's under experience continuity). */
  readonly stored: Assignments;
  /** Campaign id → variation id, overriding everything else. Must be validated beforehand. */
  readonly forced: Readonly<Record<string, string>> | undefined;
  /** Only evaluate this campaign (single-campaign route); other `ab` campaigns still count for 1V1T. */
  readonly only?: CompiledCampaign;
}

function inRanges(ranges: readonly (readonly [number, number])[], bucket: number): boolean {
  for (const [lo, hi] of ranges) if (bucket >= lo && bucket < hi) return true;
  return false;
}

function forcedVariation(campaign: CompiledCampaign, variationId: string): Assigned | undefined {
  for (const group of campaign.groups) {
    const variation = group.variationById.get(variationId);
    if (variation) return variation.assigned.forced;
  }
  return undefined;
}

function allocationSteps(group: CompiledGroup): AllocationStep[] {
  return group.variations.map((v, i) => ({ variationId: v.id, allocation: v.allocation, cumulative: group.thresholds[i]! }));
}

/**
 * What one evaluation computes once and reuses across campaigns. Evaluation is synchronous, so
 * one scratch instance serves every call.
 */
class Scratch {
  readonly hasher = new KeyHasher();
  /** Per distinct rule: 0 not evaluated yet, 1 matches, 2 fails. */
  memo = new Uint8Array(64);
  /** `murmur3(visitorId) % 100`, or -1 until a campaign with bucket ranges needs it. */
  rangeBucket = -1;
  /** Whether the visitor may have a stored assignment (else no lookup is made). */
  hasStored = false;

  reset(config: CompiledConfig, input: EvaluationInput): this {
    this.hasher.reset(input.visitorId);
    const size = config.rules.length;
    if (this.memo.length < size) this.memo = new Uint8Array(size * 2);
    else {
      // A loop: configurations have few distinct rules, and a call to fill costs more.
      const memo = this.memo;
      for (let i = 0; i < size; i++) memo[i] = 0;
    }
    this.rangeBucket = -1;
    this.hasStored = input.stored !== NO_ASSIGNMENTS;
    return this;
  }
}

let scratch: Scratch | undefined = new Scratch();
const VISITOR_ONLY = hashPrefix('');

/**
 * {@link evaluate}'s loop for the common decision (nothing forced or traced, every campaign),
 * over the configuration's flat plan: the same outcome as {@link decideCampaign} campaign by
 * campaign, and it allocates nothing but what it pushes to `out`.
 */
function evaluatePlan(config: CompiledConfig, input: EvaluationInput, state: Scratch, out: Assigned[]): void {
  const { groupStart, ranged, targetingStart, ruleStart, rules, prefixes, variationStart, thresholds, assigned } = config.plan;
  const { context, visitorId, stored } = input;
  const hasStored = state.hasStored;
  const matchers = config.plan.matchers;
  const memo = state.memo;
  const hasher = state.hasher;
  const campaigns = groupStart.length - 1;
  for (let c = 0; c < campaigns; c++) {
    if (ranged[c] === 1) {
      if (state.rangeBucket < 0) state.rangeBucket = hasher.hash(VISITOR_ONLY) % 100;
      if (!inRanges(config.campaigns[c]!.ranges!, state.rangeBucket)) continue;
    }
    for (let g = groupStart[c]!, groupEnd = groupStart[c + 1]!; g < groupEnd; g++) {
      // The first targeting group whose rules all match (each distinct rule evaluated once);
      // a targeting group without rules matches nobody.
      let matched = false;
      targeting: for (let tg = targetingStart[g]!, tgEnd = targetingStart[g + 1]!; tg < tgEnd; tg++) {
        const from = ruleStart[tg]!;
        const to = ruleStart[tg + 1]!;
        if (from === to) continue;
        for (let i = from; i < to; i++) {
          const r = rules[i]!;
          let m = memo[r]!;
          if (m === 0) m = memo[r] = matchers[r]!(context, visitorId) ? 1 : 2;
          if (m === 2) continue targeting;
        }
        matched = true;
        break;
      }
      if (!matched) continue;
      if (hasStored) {
        // A stored assignment wins while its variation still exists.
        const stickyId = stored[config.plan.groupIds[g]!];
        if (stickyId !== undefined) {
          const ids = config.plan.variationIds;
          let v = variationStart[g]!;
          const end = variationStart[g + 1]!;
          while (v < end && ids[v] !== stickyId) v++;
          if (v < end) {
            out.push(config.plan.sticky[v]!);
            break;
          }
        }
      }
      const bucket = hasher.hashAt(prefixes, g * 4) % 100;
      for (let v = variationStart[g]!, end = variationStart[g + 1]!; v < end; v++) {
        const t = thresholds[v]!;
        if (t >= 0 && bucket < t) {
          out.push(assigned[v]!);
          break;
        }
      }
      // The first targeted group is the only one considered (untracked when no variation took the bucket).
      break;
    }
  }
}

/** Index of the first targeting group whose rules all match (each distinct rule evaluated once), or -1. */
function matchRuleGroups(config: CompiledConfig, groups: readonly (readonly number[])[], input: EvaluationInput, memo: Uint8Array): number {
  outer: for (let g = 0; g < groups.length; g++) {
    const rules = groups[g]!;
    // A group with no targetings matches nobody (as in the Flagship SDKs).
    if (rules.length === 0) continue;
    for (let i = 0; i < rules.length; i++) {
      const r = rules[i]!;
      let m = memo[r]!;
      if (m === 0) m = memo[r] = config.plan.matchers[r]!(input.context, input.visitorId) ? 1 : 2;
      if (m === 2) continue outer;
    }
    return g;
  }
  return -1;
}

/**
 * Decides one campaign for a visitor. Returns the assignment or undefined; when `trace` is
 * given, pushes the explanation there. Without a trace it allocates nothing.
 */
function decideCampaign(
  config: CompiledConfig,
  campaign: CompiledCampaign,
  input: EvaluationInput,
  trace: CampaignExplanation[] | undefined,
  state: Scratch,
): Assigned | undefined {
  const forcedId = input.forced === undefined ? undefined : input.forced[campaign.id];
  if (forcedId !== undefined) {
    const assigned = forcedVariation(campaign, forcedId)!;
    trace?.push({
      campaignId: campaign.id,
      type: campaign.type,
      outcome: 'assigned',
      source: 'forced',
      variationGroupId: assigned.group.id,
      variationId: assigned.variation.id,
      reason: `forced to variation ${forcedId}`,
    });
    return assigned;
  }
  let rangeBucket: number | undefined;
  if (campaign.ranges) {
    if (state.rangeBucket < 0) state.rangeBucket = state.hasher.hash(VISITOR_ONLY) % 100;
    rangeBucket = state.rangeBucket;
    if (!inRanges(campaign.ranges, rangeBucket)) {
      trace?.push({
        campaignId: campaign.id,
        type: campaign.type,
        outcome: 'outside_bucket_ranges',
        campaignBucket: rangeBucket,
        reason: `visitor bucket ${rangeBucket} is outside the campaign's bucket ranges ${JSON.stringify(campaign.ranges)}`,
      });
      return undefined;
    }
  }
  let group: CompiledGroup | undefined;
  let matched = -1;
  const groups = campaign.groups;
  for (let i = 0; i < groups.length; i++) {
    matched = matchRuleGroups(config, groups[i]!.ruleGroups, input, state.memo);
    if (matched >= 0) {
      group = groups[i];
      break;
    }
  }
  if (!group) {
    if (trace) traceNotTargeted(campaign, input, rangeBucket, trace);
    return undefined;
  }
  if (state.hasStored) {
    const stickyId = input.stored[group.id];
    const sticky = stickyId === undefined ? undefined : group.variationById.get(stickyId);
    if (sticky) {
      trace?.push({
        campaignId: campaign.id,
        type: campaign.type,
        outcome: 'assigned',
        source: 'sticky',
        variationGroupId: group.id,
        variationId: sticky.id,
        matchedTargetingGroup: matched,
        campaignBucket: rangeBucket,
        reason: `kept the stored assignment to variation ${sticky.id}`,
      });
      return sticky.assigned.sticky;
    }
  }
  const bucket = state.hasher.hash(group.prefix) % 100;
  const index = pickVariation(group.thresholds, bucket);
  if (index < 0) {
    trace?.push({
      campaignId: campaign.id,
      type: campaign.type,
      outcome: 'untracked',
      variationGroupId: group.id,
      matchedTargetingGroup: matched,
      bucket,
      campaignBucket: rangeBucket,
      allocation: allocationSteps(group),
      reason: `bucket ${bucket} falls beyond the allocated ${Math.max(0, ...group.thresholds)}%: the visitor is untracked`,
    });
    return undefined;
  }
  const variation = group.variations[index]!;
  trace?.push({
    campaignId: campaign.id,
    type: campaign.type,
    outcome: 'assigned',
    source: 'hash',
    variationGroupId: group.id,
    variationId: variation.id,
    matchedTargetingGroup: matched,
    bucket,
    campaignBucket: rangeBucket,
    allocation: allocationSteps(group),
    reason: `bucket ${bucket} is below the running allocation ${group.thresholds[index]} of variation ${variation.id}`,
  });
  return variation.assigned.hash;
}

/** Explains a campaign no variation group of which targets the visitor. */
function traceNotTargeted(
  campaign: CompiledCampaign,
  input: EvaluationInput,
  rangeBucket: number | undefined,
  trace: CampaignExplanation[],
): void {
  const failures: TargetingFailure[] = [];
  for (const g of campaign.groups) {
    g.targetingGroups.forEach((tg, index) => {
      const failing = firstFailure(tg, input.context, input.visitorId);
      if (failing) {
        failures.push({
          variationGroupId: g.id,
          targetingGroup: index,
          key: failing.key,
          operator: failing.operator,
          expected: failing.source.value,
          actual: targetedValue(failing, input.context, input.visitorId),
        });
      }
    });
  }
  const first = failures[0];
  trace.push({
    campaignId: campaign.id,
    type: campaign.type,
    outcome: 'not_targeted',
    failures,
    campaignBucket: rangeBucket,
    reason: first
      ? `targeting failed: ${first.key} ${first.operator} ${JSON.stringify(first.expected)} (visitor has ${first.actual === undefined ? 'no such key' : JSON.stringify(first.actual)})`
      : 'no targeting group has any targeting',
  });
}

const PRIORITY: Record<AssignmentSource, number> = { forced: 0, sticky: 1, hash: 2 };

/**
 * Evaluates every campaign (or `input.only`) for a visitor, in configuration order.
 * With one-visitor-one-test, a visitor keeps at most one `ab` campaign: a forced one first,
 * then one it is already assigned to, then the first in order.
 */
export function evaluate(config: CompiledConfig, input: EvaluationInput, trace?: CampaignExplanation[]): Assigned[] {
  if (config.panic) {
    if (trace) {
      for (const c of config.campaigns) {
        trace.push({ campaignId: c.id, type: c.type, outcome: 'panic', reason: 'the environment is in panic mode' });
      }
    }
    return [];
  }
  // The shared scratch is taken while in use: a context getter that decides again (re-entrant
  // evaluation) gets its own.
  const state = (scratch ?? new Scratch()).reset(config, input);
  scratch = undefined;
  const restrict = config.oneVisitorOneTest;
  const out: Assigned[] = [];
  const campaigns = config.campaigns;
  try {
    if (trace === undefined && input.forced === undefined && input.only === undefined) evaluatePlan(config, input, state, out);
    else
      for (let i = 0; i < campaigns.length; i++) {
        const campaign = campaigns[i]!;
        // 1V1T needs every ab campaign's outcome even for a single-campaign request.
        if (input.only && campaign !== input.only && !(restrict && campaign.type === 'ab')) continue;
        const assigned = decideCampaign(config, campaign, input, trace, state);
        if (assigned) out.push(assigned);
      }
  } finally {
    scratch = state;
  }
  if (restrict) {
    let keep: Assigned | undefined;
    for (const a of out) {
      if (a.campaign.type === 'ab' && (!keep || PRIORITY[a.source] < PRIORITY[keep.source])) keep = a;
    }
    for (let i = out.length - 1; i >= 0; i--) {
      const a = out[i]!;
      if (a.campaign.type !== 'ab' || a === keep) continue;
      out.splice(i, 1);
      if (trace) {
        const at = trace.findIndex((t) => t.campaignId === a.campaign.id);
        trace[at] = {
          ...trace[at]!,
          outcome: 'one_visitor_one_test',
          reason: `one visitor, one test: the visitor is already in ab campaign ${keep!.campaign.id}`,
        };
      }
    }
  }
  return input.only ? out.filter((a) => a.campaign === input.only) : out;
}
