/**
 * Experiments on search: which search settings a visitor's campaigns give for a catalog, the
 * exposure they record, and search clicks and conversions as conversion events, so the
 * experiment results compare search behaviour per variation (docs/interfaces.md, Experiments on
 * search).
 *
 * @module
 */
import { LRUCache } from 'lru-cache';
import type { CompiledCampaign, CompiledConfig } from '../decision/compile';
import type { DecisionEngine } from '../decision/engine';
import { DECISION_LIMITS } from '../decision/limits';
import { ValidationError } from '../errors';
import type { VisitorContext } from '../decision/visitor-values';
import { SEARCH_MODIFICATION_TYPE, type SearchModification } from '../model/search-settings';
import type { ExperimentService } from '../results/experiments';
import { MAX_EVENTS_PER_CALL, type TrackInput } from '../results/track';
import type { BehaviourSource } from '../search/behaviour';
import { behaviourSourced } from '../search/behaviour-ranking';
import type { SearchViewSettings } from '../search/service';

/**
 * The conversion events search behaviour is recorded as, for `ExperimentService.results`:
 * `search_click` for a click on a result, `search_conversion` for a conversion after a search.
 *
 * @example
 * ```ts
 * const ctr = await experiments.results({ campaignId: 'ranking-test', metric: SEARCH_METRICS.click });
 * ```
 */
export const SEARCH_METRICS = Object.freeze({ click: 'search_click', conversion: 'search_conversion' } as const);

/**
 * Options of {@link SearchExperiments}.
 *
 * @example
 * ```ts
 * const options: SearchExperimentsOptions = { engine, experiments, environment: 'prod' };
 * const searchExperiments = new SearchExperiments(options);
 * ```
 */
export interface SearchExperimentsOptions {
  /** The engine deciding the campaigns (the same bucketing, stickiness and targeting as `/v2`). */
  engine: DecisionEngine;
  /** Where exposures and search events are recorded. */
  experiments: ExperimentService;
  /** The environment whose campaigns apply. @defaultValue the engine's `defaultEnvironment` */
  environment?: string;
  /**
   * Where a variation turning behaviour ranking on (`behaviour: true` or `{ … }`) reads item
   * signals and click feedback, when the catalog's own settings give none.
   * @defaultValue none (`createAbkit` gives search analytics' `behaviour`)
   */
  behaviour?: BehaviourSource;
  /**
   * Exposures remembered as recorded, so a visitor's next searches write none (an exposure
   * counts a visitor once in the results anyway); the least recently seen are forgotten, and
   * recorded again at their next search. @defaultValue `100000`
   */
  maxRememberedExposures?: number;
}

/**
 * The campaign variation a search was decided into.
 *
 * @example
 * ```ts
 * const decided = await searchExperiments.decide('acme', 'v1');
 * const variations: readonly SearchVariation[] = decided?.variations ?? [];
 * ```
 */
export interface SearchVariation {
  readonly campaignId: string;
  readonly variationGroupId: string;
  readonly variationId: string;
  /** Whether it is its group's reference (the catalog's own settings, usually). */
  readonly reference: boolean;
}

/**
 * What the campaigns give a visitor's searches of a catalog.
 *
 * @example
 * ```ts
 * const decided: SearchDecision | undefined = await searchExperiments.decide('acme', 'v1');
 * const view = decided ? search.withSettings(decided.settings) : search;
 * ```
 */
export interface SearchDecision {
  /** Settings replacing the catalog's (for `SearchService.withSettings`); empty for a reference. */
  readonly settings: SearchViewSettings;
  /** The `semanticRatio` searches take instead of the request's, when a variation sets one. */
  readonly semanticRatio: number | undefined;
  /** The variations applied, in configuration order (a later one's setting wins over an earlier one's). */
  readonly variations: readonly SearchVariation[];
}

/**
 * A search event as `POST /search/events` takes it: what {@link SearchExperiments.track} reads of it.
 *
 * @example
 * ```ts
 * const event: SearchEventInput = { type: 'click', visitorId: 'v1' };
 * await searchExperiments.track('acme', [event]);
 * ```
 */
export interface SearchEventInput {
  /** `view` (not recorded here), `click` or `conversion`. */
  readonly type: string;
  /** The visitor; events without one cannot be attributed to a variation and are skipped. */
  readonly visitorId?: string | null;
  /** When it happened, epoch milliseconds. @defaultValue now */
  readonly timestamp?: number;
}

/** The keys of a `search` modification that are settings of a search view. */
const VIEW_KEYS = ['rankingRules', 'customRanking', 'synonyms', 'merchandising', 'behaviour', 'substitutes'] as const;

/** Search campaigns of a compiled configuration, per catalog asked ('' holding those for every catalog). */
const searchCampaigns = new WeakMap<CompiledConfig, Map<string, readonly CompiledCampaign[]>>();

/**
 * Experiments on search: decides which search settings a visitor gets for a catalog through the
 * engine (only campaigns with a `search` modification for it; the decision is `/v2`'s for the
 * same visitor), records the exposure through `ExperimentService.activate`, and records search
 * clicks and conversions as conversion events for the results.
 *
 * @example
 * ```ts
 * const searchExperiments = new SearchExperiments({ engine, experiments });
 * const decided = await searchExperiments.decide('acme', 'visitor-1', { country: 'fr' });
 * const page = await (decided ? search.withSettings(decided.settings) : search).search({ text: 'phone' });
 * await searchExperiments.track('acme', [{ type: 'click', visitorId: 'visitor-1' }]);
 * ```
 */
export class SearchExperiments {
  /** The engine deciding. */
  readonly engine: DecisionEngine;
  /** Where exposures and events go. */
  readonly experiments: ExperimentService;
  /** The environment whose campaigns apply. */
  readonly environment: string;
  readonly #exposed: LRUCache<string, true>;
  readonly #sourced: (settings: SearchViewSettings) => SearchViewSettings;

  /** Creates the service; a bad option throws a `TypeError` prefixed `SearchExperiments:` naming it. */
  constructor(options: SearchExperimentsOptions) {
    const fail = (message: string): never => {
      throw new TypeError(`SearchExperiments: ${message}`);
    };
    const { engine, experiments, environment = engine?.defaultEnvironment, maxRememberedExposures = 100_000, behaviour } = options ?? {};
    if (typeof engine?.decideCampaign !== 'function') fail('engine must be a DecisionEngine');
    if (typeof experiments?.activate !== 'function') fail('experiments must be an ExperimentService');
    if (typeof environment !== 'string' || environment === '' || environment.length > DECISION_LIMITS.idLength)
      fail(`environment must be an id of 1 to ${DECISION_LIMITS.idLength} characters, got ${JSON.stringify(environment)}`);
    if (!Number.isInteger(maxRememberedExposures) || maxRememberedExposures < 1)
      fail(`maxRememberedExposures must be a positive integer, got ${maxRememberedExposures}`);
    if (behaviour !== undefined && (typeof behaviour.itemSignals !== 'function' || typeof behaviour.queryFeedback !== 'function'))
      fail('behaviour must be a BehaviourSource: { itemSignals(catalog), queryFeedback(catalog, query) }');
    this.#sourced = behaviour ? behaviourSourced(behaviour) : (settings) => settings;
    this.engine = engine;
    this.experiments = experiments;
    this.environment = environment;
    this.#exposed = new LRUCache({ max: maxRememberedExposures });
  }

  /**
   * The search settings a visitor's campaigns give for a catalog, with the exposure recorded
   * (once per visitor and variation while remembered), or undefined when no campaign of the
   * environment tests search settings for this catalog (then nothing is decided nor written).
   * A visitor a campaign does not target, or leaves in an allocation gap, gets no variation of
   * it. Throws {@link abkit!ValidationError} for a bad visitor id or context, as a decision does.
   *
   * @example
   * ```ts
   * const decided = await searchExperiments.decide('acme', 'v1');
   * console.log(decided?.variations.map((v) => v.variationId), decided?.settings.rankingRules);
   * ```
   */
  async decide(catalog: string, visitorId: string, context?: VisitorContext): Promise<SearchDecision | undefined> {
    const campaigns = await this.#campaigns(catalog);
    if (campaigns.length === 0) return undefined;
    const settings: Record<string, unknown> = {};
    let semanticRatio: number | undefined;
    const variations: SearchVariation[] = [];
    for (const campaign of campaigns) {
      const decided = await this.engine
        .decideCampaign(campaign.id, { visitorId, context, environment: this.environment, triggerHit: false })
        .catch((error: unknown) => {
          // Removed since the configuration was read: it decides nothing, as on the next search.
          if (error instanceof ValidationError && error.code === 'unknown_campaign') return null;
          throw error;
        });
      const modifications = decided?.variation.modifications;
      if (!decided || modifications?.type !== SEARCH_MODIFICATION_TYPE) continue;
      const value = modifications.value as SearchModification;
      if (value.catalog !== undefined && value.catalog !== catalog) continue;
      for (const key of VIEW_KEYS) if (value[key] !== undefined) settings[key] = value[key];
      if (value.semanticRatio !== undefined) semanticRatio = value.semanticRatio;
      variations.push({
        campaignId: decided.id,
        variationGroupId: decided.variationGroupId,
        variationId: decided.variation.id,
        reference: decided.variation.reference,
      });
    }
    await this.#expose(visitorId, variations);
    return { settings: this.#sourced(settings as SearchViewSettings), semanticRatio, variations };
  }

  /**
   * Records search clicks and conversions of visitors as conversion events (`search_click`,
   * `search_conversion`, value 1 each) for the results of the campaigns testing this catalog's
   * search; views and events without a visitor id are skipped, and nothing is recorded when no
   * campaign tests it. Returns how many events were recorded.
   *
   * What the results then compare per variation, with their existing statistics: the share of
   * exposed visitors who clicked a result at least once (search click-through per visitor, the
   * unit bucketing randomizes, so the two-proportion z-test holds), and as the mean value the
   * clicks (or conversions) per exposed visitor (Welch's t-test).
   *
   * @example
   * ```ts
   * await searchExperiments.track('acme', [{ type: 'click', visitorId: 'v1' }, { type: 'conversion', visitorId: 'v1' }]);
   * const clicks = await experiments.results({ campaignId: 'ranking-test', metric: 'search_click' });
   * ```
   */
  async track(catalog: string, events: readonly SearchEventInput[]): Promise<number> {
    if ((await this.#campaigns(catalog)).length === 0) return 0;
    const rows: TrackInput[] = [];
    for (const e of events) {
      const metric = e.type === 'click' ? SEARCH_METRICS.click : e.type === 'conversion' ? SEARCH_METRICS.conversion : undefined;
      if (metric === undefined || typeof e.visitorId !== 'string' || e.visitorId === '') continue;
      rows.push({
        visitorId: e.visitorId,
        environment: this.environment,
        event: metric,
        value: 1,
        ...(e.timestamp === undefined ? {} : { timestamp: e.timestamp }),
      });
    }
    for (let i = 0; i < rows.length; i += MAX_EVENTS_PER_CALL) await this.experiments.track(rows.slice(i, i + MAX_EVENTS_PER_CALL));
    return rows.length;
  }

  /** Records the exposures not remembered as recorded, in one call. */
  async #expose(visitorId: string, variations: readonly SearchVariation[]): Promise<void> {
    const keyOf = (v: SearchVariation) => `${v.variationGroupId}\u0000${v.variationId}\u0000${visitorId}`;
    const fresh = variations.filter((v) => !this.#exposed.has(keyOf(v)));
    if (fresh.length === 0) return;
    await this.experiments.activate(
      fresh.map((v) => ({ environmentId: this.environment, visitorId, variationGroupId: v.variationGroupId, variationId: v.variationId })),
    );
    for (const v of fresh) this.#exposed.set(keyOf(v), true);
  }

  /** The environment's campaigns with a search variation for the catalog, found once per configuration version. */
  async #campaigns(catalog: string): Promise<readonly CompiledCampaign[]> {
    const config = await this.engine.find(this.environment);
    if (!config || config.panic) return [];
    let byCatalog = searchCampaigns.get(config);
    if (!byCatalog) searchCampaigns.set(config, (byCatalog = new Map()));
    let found = byCatalog.get(catalog);
    if (!found) {
      found = config.campaigns.filter((c) =>
        c.groups.some((g) =>
          g.variations.some((v) => {
            const { type, value } = v.decision.variation.modifications;
            return type === SEARCH_MODIFICATION_TYPE && (value.catalog === undefined || value.catalog === catalog);
          }),
        ),
      );
      // Bounded: a catalog name asked is at most a few hundred characters, and campaigns are configured.
      if (byCatalog.size < 1000) byCatalog.set(catalog, found);
    }
    return found;
  }
}
