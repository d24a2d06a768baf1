/**
 * `abkit/openfeature`: an OpenFeature server provider over abkit's decision engine, for
 * `@openfeature/server-sdk` (an optional peer dependency). A flag key is a modification key of
 * the environment's campaigns; the evaluation context's `targetingKey` is the visitor id and its
 * other attributes are the targeting context.
 *
 * @module abkit/openfeature
 */
import {
  FlagNotFoundError,
  GeneralError,
  InvalidContextError,
  StandardResolutionReasons,
  TargetingKeyMissingError,
  TypeMismatchError,
  type EvaluationContext,
  type FlagMetadata as OpenFeatureFlagMetadata,
  type JsonValue,
  type Provider,
  type ResolutionDetails,
  type TrackingEventDetails,
} from '@openfeature/server-sdk';
import type { DecisionEngine } from '../decision/engine';
import { ExperimentService } from '../results/experiments';
import type { ResolvedFlag } from '../decision/flags';
import type { VisitorContext } from '../decision/visitor-values';

/**
 * Options of {@link AbkitProvider}.
 *
 * @example
 * ```ts
 * import { OpenFeature } from '@openfeature/server-sdk';
 * const options: AbkitProviderOptions = { engine, environment: 'prod', recordExposures: true };
 * await OpenFeature.setProviderAndWait(new AbkitProvider(options));
 * ```
 */
export interface AbkitProviderOptions {
  /** The engine that decides. */
  engine: DecisionEngine;
  /**
   * Records exposures and `track()` events (`abkit.experiments` when composed by `createAbkit`).
   * @defaultValue an `ExperimentService` over `engine`
   */
  experiments?: ExperimentService;
  /** Environment flags are read from. @defaultValue the engine's `defaultEnvironment` */
  environment?: string;
  /**
   * Record an activation (exposure) for the campaign serving each evaluated flag; only that
   * campaign, not every campaign the visitor is in. @defaultValue `true`
   */
  recordExposures?: boolean;
  /** Called when `track()` could not record its event. @defaultValue `console.error` */
  onError?: (error: unknown) => void;
}

type Kind = 'boolean' | 'string' | 'number' | 'object';

function kindOf(value: unknown): Kind | 'null' {
  if (value === null) return 'null';
  if (typeof value === 'object') return 'object';
  return typeof value as Kind;
}

/** The evaluation context as abkit's visitor and targeting context. */
function visitorOf(context: EvaluationContext): { visitorId: string; context: VisitorContext } {
  const { targetingKey, ...attributes } = context;
  if (typeof targetingKey !== 'string' || targetingKey === '')
    throw new TargetingKeyMissingError('the evaluation context needs a targetingKey (the visitor id)');
  const out: Record<string, string | number | boolean> = {};
  for (const [key, value] of Object.entries(attributes)) {
    if (value === undefined) continue;
    if (typeof value === 'string' || typeof value === 'boolean' || (typeof value === 'number' && Number.isFinite(value))) out[key] = value;
    else if (value instanceof Date) out[key] = value.toISOString();
    else throw new InvalidContextError(`context attribute "${key}" must be a boolean, a finite number, a string or a date`);
  }
  return { visitorId: targetingKey, context: out };
}

function metadataOf(flag: ResolvedFlag): OpenFeatureFlagMetadata {
  const out: OpenFeatureFlagMetadata = {};
  for (const [key, value] of Object.entries(flag.metadata)) if (value !== null) out[key] = value;
  return out;
}

/**
 * The OpenFeature server provider for abkit. Reasons: `TARGETING_MATCH` (the visitor's targeting
 * matched a variation group serving everyone it targets), `SPLIT` (the hash chose among
 * variations, or kept a sticky assignment so made), `STATIC` (a forced variation), `DEFAULT` (a
 * known flag the visitor gets no value for: not targeted, untracked, or a null value), `DISABLED`
 * (the environment is in panic mode), and `ERROR` with `FLAG_NOT_FOUND` (no campaign sets the
 * key), `TYPE_MISMATCH`, `TARGETING_KEY_MISSING`, `INVALID_CONTEXT` or `GENERAL`. Flag metadata
 * carries the campaign and variation (ids, names when set, type, slug, reference); the variant
 * is the variation id. `track(event, context, { value })` records a conversion event
 * (`experiments.track`).
 *
 * @example
 * ```ts
 * import { OpenFeature } from '@openfeature/server-sdk';
 * import { AbkitProvider } from 'abkit/openfeature';
 *
 * await OpenFeature.setProviderAndWait(new AbkitProvider({ engine, environment: 'prod' }));
 * const client = OpenFeature.getClient();
 * const color = await client.getStringValue('buttonColor', 'grey', { targetingKey: 'visitor-1', plan: 'gold' });
 * client.track('purchase', { targetingKey: 'visitor-1' }, { value: 42.5 });
 * ```
 */
export class AbkitProvider implements Provider {
  /** The provider's name, as OpenFeature shows it. */
  readonly metadata = { name: 'abkit' } as const;
  /** A server provider. */
  readonly runsOn = 'server' as const;
  /** The engine that decides. */
  readonly engine: DecisionEngine;
  /** Records exposures and events. */
  readonly experiments: ExperimentService;
  readonly #environment: string | undefined;
  readonly #recordExposures: boolean;
  readonly #onError: (error: unknown) => void;

  /** Creates the provider; a bad option throws a `TypeError` naming it. */
  constructor(options: AbkitProviderOptions) {
    if (!options?.engine || typeof options.engine.decideFlags !== 'function')
      throw new TypeError('AbkitProvider: engine must be a DecisionEngine');
    if (options.environment !== undefined && (typeof options.environment !== 'string' || options.environment === '')) {
      throw new TypeError('AbkitProvider: environment must be a non-empty string');
    }
    this.engine = options.engine;
    this.experiments = options.experiments ?? new ExperimentService({ engine: options.engine });
    this.#environment = options.environment;
    this.#recordExposures = options.recordExposures ?? true;
    this.#onError = options.onError ?? ((e) => console.error(e));
  }

  /** Resolves a boolean flag. */
  resolveBooleanEvaluation(flagKey: string, defaultValue: boolean, context: EvaluationContext): Promise<ResolutionDetails<boolean>> {
    return this.#resolve(flagKey, defaultValue, context, 'boolean');
  }

  /** Resolves a string flag. */
  resolveStringEvaluation(flagKey: string, defaultValue: string, context: EvaluationContext): Promise<ResolutionDetails<string>> {
    return this.#resolve(flagKey, defaultValue, context, 'string');
  }

  /** Resolves a number flag. */
  resolveNumberEvaluation(flagKey: string, defaultValue: number, context: EvaluationContext): Promise<ResolutionDetails<number>> {
    return this.#resolve(flagKey, defaultValue, context, 'number');
  }

  /** Resolves an object (JSON object or array) flag. */
  resolveObjectEvaluation<T extends JsonValue>(
    flagKey: string,
    defaultValue: T,
    context: EvaluationContext,
  ): Promise<ResolutionDetails<T>> {
    return this.#resolve(flagKey, defaultValue, context, 'object');
  }

  /** Records a conversion event for the context's visitor; `details.value` is its value (e.g. revenue). */
  track(trackingEventName: string, context: EvaluationContext, trackingEventDetails: TrackingEventDetails): void {
    let visitorId: string;
    try {
      visitorId = visitorOf(context).visitorId;
    } catch (error) {
      this.#onError(error);
      return;
    }
    const value = trackingEventDetails?.value;
    this.experiments
      .track({ visitorId, environment: this.#environment, event: trackingEventName, value: typeof value === 'number' ? value : null })
      .catch(this.#onError);
  }

  async #resolve<T>(flagKey: string, defaultValue: T, context: EvaluationContext, kind: Kind): Promise<ResolutionDetails<T>> {
    const visitor = visitorOf(context);
    // abkit's errors carry their own `code` ('not_found', …): OpenFeature's must be GENERAL.
    const general = (error: unknown): never => {
      throw new GeneralError(error instanceof Error ? error.message : String(error));
    };
    const result = await this.engine.decideFlags({ ...visitor, environment: this.#environment, triggerHit: false }).catch(general);
    if (result.panic) return { value: defaultValue, reason: StandardResolutionReasons.DISABLED };
    if (!result.keys.has(flagKey)) throw new FlagNotFoundError(`no campaign of the environment sets flag "${flagKey}"`);
    const flag = Object.hasOwn(result.flags, flagKey) ? result.flags[flagKey] : undefined;
    if (!flag || flag.value === null) return { value: defaultValue, reason: StandardResolutionReasons.DEFAULT };
    const actual = kindOf(flag.value);
    if (actual !== kind) throw new TypeMismatchError(`flag "${flagKey}" is a ${actual}, not a ${kind}`);
    if (this.#recordExposures) {
      await this.experiments
        .activate({
          environmentId: result.environmentId,
          visitorId: visitor.visitorId,
          variationGroupId: flag.metadata.variationGroupId,
          variationId: flag.metadata.variationId,
        })
        .catch(general);
    }
    const reason =
      flag.source === 'forced'
        ? StandardResolutionReasons.STATIC
        : flag.split
          ? StandardResolutionReasons.SPLIT
          : StandardResolutionReasons.TARGETING_MATCH;
    return { value: flag.value as T, variant: flag.metadata.variationId, reason, flagMetadata: metadataOf(flag) };
  }
}
