/**
 * A/B (and A/A) tests of search settings driven by simulated shoppers: each session's visitor is
 * decided by the engine (the same bucketing as /v2), exposed once through ExperimentService,
 * searches with its variation's settings and browses; a session with a click tracks
 * `search_click`, one with a conversion `search_conversion`, and the results' statistics
 * (src/results) compare the variations at checkpoints.
 *
 * Two ways to search: {@link inProcessArms} decides and searches here (one SearchService per
 * variation); an HTTP search (`GET /search?visitorId=`) decides in the handler, and its events
 * reach ExperimentService through the search events hook. Both are a {@link Search} and a
 * {@link Recorder}.
 */
import { createSearchHandler, SearchAnalytics, SearchExperiments } from '../../src/http/index';
import {
  type Catalog,
  type CatalogRegistry,
  DecisionEngine,
  ExperimentService,
  memoryStorage,
  SearchService,
  type SearchServiceOptions,
} from '../../src/index';
import { SEARCH_MODIFICATION_TYPE } from '../../src/model/search-settings';
import type { ActivationInput } from '../../src/results/experiments';
import type { TrackInput } from '../../src/results/track';
import { type Search, type SearchEvent, searchEvents, type Session, type Shoppers } from '../helpers/shoppers';
import { httpSearch, postEvents } from './http';

/** The campaign every simulated test runs. */
export const CAMPAIGN = 'search-ab';
export const GROUP = `${CAMPAIGN}-vg`;
/** The metrics tracked per visitor: at least one click, at least one conversion after exposure. */
export const METRICS = { click: 'search_click', conversion: 'search_conversion' } as const;

/** One variation: its id and the search settings it applies over the catalog's. */
export interface Arm {
  readonly id: string;
  readonly settings: Omit<SearchServiceOptions, 'catalog'>;
}

/**
 * A bucketing configuration with one 50/50 campaign over `arms` (the first the reference). Each
 * variation carries `modification` of its arm: a flag until search modifications exist, then the
 * settings themselves.
 */
export function abConfig(
  arms: readonly [Arm, Arm],
  modification: (arm: Arm) => unknown = (arm) => ({ type: 'FLAG', value: { arm: arm.id } }),
) {
  return {
    campaigns: [
      {
        id: CAMPAIGN,
        type: 'ab',
        variationGroups: [
          {
            id: GROUP,
            targeting: { targetingGroups: [{ targetings: [{ key: 'fs_all_users', operator: 'EQUALS', value: '' }] }] },
            variations: arms.map((arm, i) => ({ id: arm.id, reference: i === 0, allocation: 50, modifications: modification(arm) })),
          },
        ],
      },
    ],
  };
}

/** What records a session's outcome for the results: in process, or the HTTP events route. */
export type Recorder = (session: Session) => Promise<void>;

/** An engine and experiment service over a fresh memory store, with a clock the simulation advances (one ms per session). */
export async function experimentOf(config: unknown): Promise<{ engine: DecisionEngine; experiments: ExperimentService; tick: () => void }> {
  let now = Date.parse('2026-11-01T00:00:00Z');
  const engine = new DecisionEngine({ storage: memoryStorage(), defaultEnvironment: 'prod', clock: () => now });
  await engine.load(config, { environment: 'prod' });
  return { engine, experiments: new ExperimentService({ engine }), tick: () => void now++ };
}

/** A SearchService per settings over one catalog, and its pages per text (a service's answer to a text does not change during a run). */
export class CachedSearches {
  readonly #catalog: Catalog;
  readonly #services = new Map<string, { service: SearchService; pages: Map<string, { ids: string[]; totalHits: number }> }>();

  constructor(catalog: Catalog) {
    this.#catalog = catalog;
  }

  /** The service for `settings` (built once). */
  service(settings: Arm['settings']): SearchService {
    return this.#entry(settings).service;
  }

  /** The page for `text` under `settings`, searched once. */
  async page(settings: Arm['settings'], text: string, hitsPerPage: number): Promise<{ ids: string[]; totalHits: number }> {
    const { service, pages } = this.#entry(settings);
    const key = `${hitsPerPage}\u0000${text}`;
    let page = pages.get(key);
    if (!page) {
      const answer = await service.search({ text, hitsPerPage });
      pages.set(key, (page = { ids: answer.hits.map((h) => h.id), totalHits: answer.totalHits }));
    }
    return page;
  }

  #entry(settings: Arm['settings']) {
    const key = JSON.stringify(settings);
    let entry = this.#services.get(key);
    if (!entry)
      this.#services.set(key, (entry = { service: new SearchService({ ...settings, catalog: this.#catalog }), pages: new Map() }));
    return entry;
  }
}

/**
 * Deciding and searching in process: the engine decides the visitor's variation, its first
 * decision is recorded as an activation, and the variation's settings answer through `searches`.
 * Outcomes are tracked in batches; `flush()` writes what is pending, before reading results.
 */
export function inProcessArms(searches: CachedSearches, arms: readonly Arm[], engine: DecisionEngine, experiments: ExperimentService) {
  const settings = new Map(arms.map((a) => [a.id, a.settings]));
  const exposed = new Set<string>();
  let activations: ActivationInput[] = [];
  let events: TrackInput[] = [];
  const flush = async () => {
    for (let i = 0; i < activations.length; i += 1000) await experiments.activate(activations.slice(i, i + 1000));
    for (let i = 0; i < events.length; i += 1000) await experiments.track(events.slice(i, i + 1000));
    activations = [];
    events = [];
  };
  const search: Search = async ({ text, visitorId, hitsPerPage }) => {
    const decision = await engine.decideCampaign(CAMPAIGN, { visitorId, environment: 'prod' });
    if (!decision) throw new Error(`${visitorId} is in no variation of ${CAMPAIGN}`);
    const arm = decision.variation.id;
    if (!exposed.has(visitorId)) {
      exposed.add(visitorId);
      activations.push({ environmentId: 'prod', visitorId, variationGroupId: GROUP, variationId: arm });
    }
    return searches.page(settings.get(arm)!, text, hitsPerPage);
  };
  const record: Recorder = async (s) => {
    if (s.browse.clicks.length > 0) events.push({ visitorId: s.visitorId, environment: 'prod', event: METRICS.click });
    if (s.browse.conversion) events.push({ visitorId: s.visitorId, environment: 'prod', event: METRICS.conversion });
  };
  return { search, record, flush };
}

/** One metric's comparison at a checkpoint. */
export interface Comparison {
  readonly rates: readonly [number, number];
  readonly pValue: number | null;
  readonly uplift: number | null;
}

/** The results read at one checkpoint. */
export interface Checkpoint {
  readonly sessions: number;
  readonly exposed: readonly [number, number];
  readonly sampleRatioMismatch: boolean;
  readonly click: Comparison;
  readonly conversion: Comparison;
}

/** Reads both metrics' results for the campaign through ExperimentService.results. */
export async function readResults(experiments: ExperimentService, sessions: number): Promise<Checkpoint> {
  const read = async (metric: string) => (await experiments.results({ environment: 'prod', campaignId: CAMPAIGN, metric })).groups[0]!;
  const click = await read(METRICS.click);
  const conversion = await read(METRICS.conversion);
  const compare = (g: typeof click): Comparison => {
    const [a, b] = g.variations;
    const c = b!.comparison!.conversionRate;
    return { rates: [a!.conversionRate ?? 0, b!.conversionRate ?? 0], pValue: c.pValue, uplift: c.uplift?.estimate ?? null };
  };
  const [a, b] = click.variations;
  return {
    sessions,
    exposed: [a!.exposed, b!.exposed],
    sampleRatioMismatch: click.sampleRatio?.mismatch ?? false,
    click: compare(click),
    conversion: compare(conversion),
  };
}

/**
 * Runs `shoppers` session by session through `search` and `record`, reading the results at each
 * checkpoint (session counts, ascending) after `flush`.
 */
export async function runCheckpoints(
  shoppers: Shoppers,
  search: Search,
  record: Recorder,
  flush: () => Promise<void>,
  read: (sessions: number) => Promise<Checkpoint>,
  checkpoints: readonly number[],
  tick: () => void = () => {},
): Promise<Checkpoint[]> {
  const out: Checkpoint[] = [];
  let done = 0;
  for (const at of checkpoints) {
    await shoppers.run(search, at - done, done, async (s) => {
      tick();
      await record(s);
    });
    done = at;
    await flush();
    out.push(await read(at));
  }
  return out;
}

/**
 * Over HTTP: the same campaign with `search` modifications (the reference variation the
 * catalog's own settings), a search handler with SearchAnalytics and SearchExperiments deciding
 * `GET /search?visitorId=…`, and the sessions' events posted to `POST /search/events`, which
 * tracks them for the results.
 */
export async function httpArms(registry: CatalogRegistry, catalog: string, arms: readonly [Arm, Arm]) {
  const { engine, experiments } = await experimentOf(
    abConfig(arms, (arm) => ({ type: SEARCH_MODIFICATION_TYPE, value: { catalog, ...arm.settings } })),
  );
  const analytics = new SearchAnalytics({ storage: memoryStorage(), flushIntervalMs: 60_000 });
  const handler = createSearchHandler({
    registry,
    analytics,
    experiments: new SearchExperiments({ engine, experiments, environment: 'prod' }),
  });
  let events: SearchEvent[] = [];
  const record: Recorder = async (s) => {
    events.push(...searchEvents(s));
  };
  const flush = async () => {
    await postEvents(handler, catalog, events);
    events = [];
  };
  return {
    search: httpSearch(handler, catalog),
    record,
    flush,
    read: (n: number) => readResults(experiments, n),
    close: () => analytics.close(),
  };
}
