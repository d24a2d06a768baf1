/**
 * What a decision is asked and what it answers, in library form (interfaces.md, Decision
 * request body and Campaigns list), and the quick check of a request that needs no other.
 *
 * @module
 */
import type { ErrorDetail } from '../errors';
import { failWith } from '../validation';
import type { CampaignDecision, CompiledConfig } from './compile';
import type { CampaignExplanation } from './evaluate';
import { contextProblems, contextWithinLimits, DECISION_LIMITS, idLengthProblem, requireId } from './limits';
import type { VisitorContext } from './visitor-values';

/**
 * A decision request: the library form of interfaces.md, Decision request body.
 *
 * @example
 * ```ts
 * const request: DecisionRequest = { visitorId: 'v1', anonymousId: 'anon-7', context: { plan: 'gold', age: 31 }, environment: 'prod' };
 * const result = await engine.decide(request);
 * ```
 */
export interface DecisionRequest {
  /** The visitor id; a non-empty string of at most 256 characters. */
  visitorId: string;
  /** The visitor's anonymous id, for experience continuity, at most 256 characters. `null` means none. */
  anonymousId?: string | null;
  /**
   * Targeting context: keys to boolean, number or string values; at most 200 keys of at most
   * 256 characters, string values of at most 8,192 (`DECISION_LIMITS`).
   */
  context?: VisitorContext;
  /**
   * Record an activation for each returned campaign.
   * @defaultValue `true`
   */
  triggerHit?: boolean;
  /**
   * `false`: store nothing about the visitor (no sticky assignment). Activations are still recorded.
   * @defaultValue `true`
   */
  visitorConsent?: boolean;
  /** Environment to decide in. @defaultValue the engine's `defaultEnvironment` */
  environment?: string;
  /** Campaign id → variation id forced for this request (over the engine's). */
  forcedVariations?: Readonly<Record<string, string>>;
  /** Also return sibling variations' keys with value null. @defaultValue `false` */
  exposeAllKeys?: boolean;
}

/**
 * The result of {@link abkit!DecisionEngine.decide}: interfaces.md, Campaigns list in library form.
 *
 * @example
 * ```ts
 * const result: DecisionResult = await engine.decide({ visitorId: 'v1' });
 * if (!result.panic) for (const c of result.campaigns) console.log(c.id, c.variation.id);
 * ```
 */
export interface DecisionResult {
  readonly visitorId: string;
  /** The campaigns the visitor is in, in configuration order. */
  readonly campaigns: readonly CampaignDecision[];
  /** Whether the environment is in panic mode (then `campaigns` is empty). */
  readonly panic: boolean;
}

/**
 * The result of {@link abkit!DecisionEngine.explain}.
 *
 * @example
 * ```ts
 * const why: Explanation = await engine.explain({ visitorId: 'v1', environment: 'prod' });
 * console.log(`config v${why.configVersion}`, why.campaigns.map((c) => c.outcome));
 * ```
 */
export interface Explanation {
  readonly environmentId: string;
  readonly configVersion: number;
  readonly visitorId: string;
  readonly panic: boolean;
  /** One entry per campaign of the configuration, in order. */
  readonly campaigns: readonly CampaignExplanation[];
}

/** Whether a request's ids and context are valid as they are (what the engine's request check tries first). */
export function plainRequest(request: DecisionRequest): boolean {
  const { visitorId, anonymousId, context } = request;
  if (typeof visitorId !== 'string' || visitorId === '' || visitorId.length > DECISION_LIMITS.idLength) return false;
  if (anonymousId != null && (typeof anonymousId !== 'string' || anonymousId.length > DECISION_LIMITS.idLength)) return false;
  if (context === undefined) return true;
  if (typeof context !== 'object' || context === null || Array.isArray(context)) return false;
  return contextWithinLimits(context);
}

const NO_FORCED: Readonly<Record<string, string>> = Object.freeze({});

/**
 * The full check of a decision request, naming every problem ({@link ValidationError}), and its
 * forced variations resolved: the engine's where they exist in this environment (an engine
 * serves many), the request's own strictly. What the engine runs when {@link plainRequest} did
 * not recognize the request at once.
 */
export function checkRequest(
  config: CompiledConfig,
  request: DecisionRequest,
  engineForced: Readonly<Record<string, string>>,
): Readonly<Record<string, string>> | undefined {
  const details: ErrorDetail[] = [];
  requireId(request.visitorId, ['visitorId'], details);
  idLengthProblem(request.visitorId, ['visitorId'], details);
  if (request.anonymousId != null && typeof request.anonymousId !== 'string')
    details.push({ path: ['anonymousId'], message: 'must be a string or null' });
  idLengthProblem(request.anonymousId, ['anonymousId'], details);
  const context = request.context;
  if (context !== undefined) {
    if (typeof context !== 'object' || context === null || Array.isArray(context)) {
      details.push({ path: ['context'], message: 'must be an object' });
    } else {
      contextProblems(context, ['context'], details);
    }
  }
  // The engine's forced variations apply where they resolve (it serves many environments);
  // a request's own are checked strictly.
  const requested = request.forcedVariations ?? NO_FORCED;
  const resolves = (campaignId: string, variationId: string) => {
    const campaign = config.campaignByKey.get(campaignId);
    return campaign !== undefined && campaign.id === campaignId && campaign.groups.some((g) => g.variationById.has(variationId));
  };
  let forced: Record<string, string> | undefined;
  for (const campaignId in engineForced) {
    if (!Object.hasOwn(requested, campaignId) && resolves(campaignId, engineForced[campaignId]!))
      (forced ??= {})[campaignId] = engineForced[campaignId]!;
  }
  for (const campaignId in requested) {
    const campaign = config.campaignByKey.get(campaignId);
    const variationId = requested[campaignId]!;
    if (!campaign || campaign.id !== campaignId) {
      details.push({ path: ['forcedVariations', campaignId], message: `campaign "${campaignId}" does not exist` });
    } else if (!resolves(campaignId, variationId)) {
      details.push({ path: ['forcedVariations', campaignId], message: `variation "${variationId}" is not in campaign "${campaignId}"` });
    } else (forced ??= {})[campaignId] = variationId;
  }
  if (details.length > 0) failWith(details);
  return forced;
}
