/**
 * The experiment service: what visitors were exposed to (activations), what they did afterwards
 * (conversion events), and the results that compare the two per variation. Decisions stay in the
 * engine; this service reads the engine's compiled configurations to check what it records.
 *
 * @module
 */
import type { CompiledConfig } from '../decision/compile';
import type { DecisionEngine } from '../decision/engine';
import { DECISION_LIMITS, idLengthProblem, requireId } from '../decision/limits';
import { NotFoundError, type ErrorDetail, type ErrorPath } from '../errors';
import type { Activation, ActivationQuery } from '../storage/activations';
import type { ConversionEvent } from '../storage/events';
import type { Storage } from '../storage/storage';
import { failWith } from '../validation';
import { analyzeCampaign, resultsQueryProblems, type ExperimentResults, type ResultsQuery } from './results';
import { MAX_EVENTS_PER_CALL, trackProblems, type TrackInput } from './track';

/**
 * One activation to record (interfaces.md, Activation in library form).
 *
 * @example
 * ```ts
 * const input: ActivationInput = { environmentId: 'prod', visitorId: 'v1', variationGroupId: 'vg1', variationId: 'var2' };
 * await experiments.activate(input);
 * ```
 */
export interface ActivationInput {
  /** Environment (`cid`). */
  environmentId: string;
  /** Visitor (`vid`). */
  visitorId: string;
  /** Variation group (`caid`); must belong to the environment. */
  variationGroupId: string;
  /** Variation (`vaid`); must belong to the variation group. */
  variationId: string;
  /** Anonymous id (`aid`). */
  anonymousId?: string | null;
}

/**
 * Options of {@link ExperimentService}.
 *
 * @example
 * ```ts
 * const options: ExperimentServiceOptions = { engine, clock: () => Date.parse('2026-01-01') };
 * const experiments = new ExperimentService(options);
 * ```
 */
export interface ExperimentServiceOptions {
  /** The engine whose environments activations and events are checked against; its storage is the service's. */
  engine: DecisionEngine;
  /**
   * Current time in epoch milliseconds, stamped on activations and on events given none.
   * @defaultValue the engine's `clock`
   */
  clock?: () => number;
}

/**
 * Activations (exposures), conversion events and experiment results, over the engine's storage
 * (`createAbkit` composes it as `abkit.experiments`; `/v2/activate`, `/v2/events` and the
 * remote-control results route use it).
 *
 * @example
 * ```ts
 * import { DecisionEngine, ExperimentService, memoryStorage } from 'abkit';
 *
 * const engine = new DecisionEngine({ storage: memoryStorage(), defaultEnvironment: 'prod' });
 * const experiments = new ExperimentService({ engine });
 * await experiments.track({ visitorId: 'v1', event: 'purchase', value: 42.5 });
 * ```
 */
export class ExperimentService {
  /** The engine whose configurations the service checks against. */
  readonly engine: DecisionEngine;
  /** The engine's storage, where activations and events are kept. */
  readonly storage: Storage;
  readonly #clock: () => number;

  /** Creates the service; a bad option throws a `TypeError` prefixed `ExperimentService:` that names it. */
  constructor(options: ExperimentServiceOptions) {
    const { engine, clock = engine?.clock } = options;
    if (typeof engine?.find !== 'function') throw new TypeError('ExperimentService: engine must be a DecisionEngine');
    if (typeof clock !== 'function') throw new TypeError('ExperimentService: clock must be a function returning epoch milliseconds');
    this.engine = engine;
    this.storage = engine.storage;
    this.#clock = clock;
  }

  /**
   * Activations recorded by {@link ExperimentService.activate}, oldest first.
   *
   * @example
   * ```ts
   * const lastHour = await experiments.listActivations({ environmentId: 'prod', since: Date.now() - 3_600_000 });
   * ```
   */
  async listActivations(query: ActivationQuery): Promise<Activation[]> {
    return this.storage.activations.list(query);
  }

  /**
   * Records activations (all or none). Each names a known environment, one of its variation
   * groups, and a variation of that group; otherwise {@link ValidationError} names the field.
   * At most 1,000 activations per call, ids of at most 256 characters (`DECISION_LIMITS`).
   *
   * @example
   * ```ts
   * await experiments.activate({ environmentId: 'prod', visitorId: 'v1', variationGroupId: 'vg1', variationId: 'var2' });
   * ```
   */
  async activate(input: ActivationInput | readonly ActivationInput[]): Promise<void> {
    const list: readonly ActivationInput[] = Array.isArray(input) ? input : [input as ActivationInput];
    if (list.length > DECISION_LIMITS.activationsPerCall)
      failWith([{ path: [], message: `holds ${list.length} activations; at most ${DECISION_LIMITS.activationsPerCall} per call` }]);
    const details: ErrorDetail[] = [];
    const rows: Activation[] = [];
    const now = this.#clock();
    for (let i = 0; i < list.length; i++) {
      const a = list[i]!;
      const at = (field: string): ErrorPath => (Array.isArray(input) ? [i, field] : [field]);
      const before = details.length;
      requireId(a.environmentId, at('environmentId'), details);
      requireId(a.visitorId, at('visitorId'), details);
      requireId(a.variationGroupId, at('variationGroupId'), details);
      requireId(a.variationId, at('variationId'), details);
      if (a.anonymousId != null && typeof a.anonymousId !== 'string')
        details.push({ path: at('anonymousId'), message: 'must be a string' });
      // The other ids must name what the configuration holds (ids of at most as many characters);
      // checked here too, so an error never echoes a longer one.
      for (const field of ['environmentId', 'visitorId', 'variationGroupId', 'variationId', 'anonymousId'] as const)
        idLengthProblem(a[field], at(field), details);
      if (details.length > before) continue;
      const config = await this.engine.find(a.environmentId);
      if (!config) {
        details.push({ path: at('environmentId'), message: `"${a.environmentId}" is not a known environment` });
        continue;
      }
      const found = config.groupById.get(a.variationGroupId);
      if (!found) {
        details.push({
          path: at('variationGroupId'),
          message: `"${a.variationGroupId}" is not a variation group of environment "${a.environmentId}"`,
        });
        continue;
      }
      if (!found.group.variationById.has(a.variationId)) {
        details.push({
          path: at('variationId'),
          message: `"${a.variationId}" is not a variation of variation group "${a.variationGroupId}"`,
        });
        continue;
      }
      rows.push({
        environmentId: a.environmentId,
        visitorId: a.visitorId,
        anonymousId: a.anonymousId ?? null,
        campaignId: found.campaign.id,
        variationGroupId: a.variationGroupId,
        variationId: a.variationId,
        timestamp: now,
      });
    }
    if (details.length > 0) failWith(details);
    await this.storage.activations.record(rows);
  }

  /**
   * Records conversion events (all or none), e.g. a purchase and its revenue, for
   * `results()`. Each names a known environment (default: the engine's), a
   * visitor and an event name; otherwise {@link ValidationError} names the field (`[i].field` for
   * a list). At most {@link MAX_EVENTS_PER_CALL} events per call.
   *
   * @example
   * ```ts
   * await experiments.track({ visitorId: 'v1', environment: 'prod', event: 'purchase', value: 42.5 });
   * await experiments.track([{ visitorId: 'v2', event: 'signup' }, { visitorId: 'v3', event: 'signup' }]);
   * ```
   */
  async track(input: TrackInput | readonly TrackInput[]): Promise<void> {
    const batch = Array.isArray(input);
    const list: readonly TrackInput[] = batch ? input : [input as TrackInput];
    if (list.length > MAX_EVENTS_PER_CALL)
      failWith([{ path: [], message: `holds ${list.length} events; at most ${MAX_EVENTS_PER_CALL} per call` }]);
    const details: ErrorDetail[] = [];
    const rows: ConversionEvent[] = [];
    const now = this.#clock();
    const known = new Map<string, CompiledConfig | undefined>();
    for (let i = 0; i < list.length; i++) {
      const e = list[i]!;
      const prefix: ErrorPath = batch ? [i] : [];
      const before = details.length;
      trackProblems(e, prefix, details);
      if (details.length > before) continue;
      const environmentId = e.environment ?? this.engine.defaultEnvironment;
      if (!known.has(environmentId)) known.set(environmentId, await this.engine.find(environmentId));
      if (!known.get(environmentId)) {
        details.push({ path: [...prefix, 'environment'], message: `"${environmentId}" is not a known environment` });
        continue;
      }
      rows.push({ environmentId, visitorId: e.visitorId, event: e.event, value: e.value ?? null, timestamp: e.timestamp ?? now });
    }
    if (details.length > 0) failWith(details);
    await this.storage.events.record(rows);
  }

  /**
   * An experiment's results for one metric, per variation of the campaign's variation groups:
   * exposed and converted visitors, conversion rate, mean value per exposed visitor, and against
   * the group's reference: uplift with a 95% interval, p-value (two-proportion z-test for rates,
   * Welch's t-test for values), chance to beat, plus a sample-ratio-mismatch check per group.
   * The store aggregates (one SQL statement); no event is loaded into memory. Throws
   * {@link ValidationError} for a bad query and {@link NotFoundError} for an unknown environment
   * or campaign.
   *
   * @example
   * ```ts
   * const results = await experiments.results({ environment: 'prod', campaignId: 'new-checkout', metric: 'purchase' });
   * for (const v of results.groups[0]!.variations) console.log(v.variationId, v.conversionRate, v.comparison?.conversionRate.pValue);
   * ```
   */
  async results(query: ResultsQuery): Promise<ExperimentResults> {
    const details: ErrorDetail[] = [];
    resultsQueryProblems(query, details);
    if (details.length > 0) failWith(details);
    const id = query.environment ?? this.engine.defaultEnvironment;
    const config: CompiledConfig | undefined = await this.engine.find(id);
    if (!config) throw new NotFoundError(`environment "${id}" does not exist`);
    const campaign = config.campaignByKey.get(query.campaignId);
    if (!campaign) throw new NotFoundError(`campaign "${query.campaignId}" does not exist in environment "${config.environmentId}"`);
    const window = { environmentId: config.environmentId, metric: query.metric, since: query.since, until: query.until };
    const rows = await this.storage.events.aggregate({ ...window, campaignId: campaign.id, event: query.metric });
    return analyzeCampaign(campaign, rows, window);
  }
}
