import { constantTimeEqual, credentialHash, isUnpepperedHash } from '../crypto';
import { AuthenticationError, NotFoundError, ValidationError, type ErrorDetail } from '../errors';
import { rehashApiKey, type EnvironmentRecord } from '../storage/environments';
import type { DecidedWrite, Storage } from '../storage/storage';
import { NO_ASSIGNMENTS, type Assignments } from '../storage/assignments';
import { parseBucketingConfig } from '../model/bucketing-config';
import { CompiledConfigs } from './compiled-configs';
import type { Assigned, CampaignDecision, CompiledCampaign, CompiledConfig } from './compile';
import { evaluate, type CampaignExplanation } from './evaluate';
import { flagsOf, type FlagsResult } from './flags';
import { loadFrom, type BucketingSource, type BucketingSourceOptions } from './poll';
import { checkRequest, plainRequest, type DecisionRequest, type DecisionResult, type Explanation } from './request';
import { assignedAnew, decisionWrite } from './writes';
import { MIN_API_KEY_LENGTH, type LoadOptions } from './load-options';
import { idLengthProblem, requireId } from './limits';
import { failWith } from '../validation';

/**
 * Options of {@link DecisionEngine}.
 *
 * @example
 * ```ts
 * const options: DecisionEngineOptions = { storage: memoryStorage(), defaultEnvironment: 'prod', refreshIntervalMs: 5000, maxEnvironments: 100 };
 * const engine = new DecisionEngine(options);
 * ```
 */
export interface DecisionEngineOptions {
  /** Where configurations, sticky assignments and activations live ({@link createAbkit} defaults it to `memoryStorage()`). */
  storage: Storage;
  /**
   * Environment used when a request names none.
   * @defaultValue `'default'`
   */
  defaultEnvironment?: string;
  /**
   * Account that {@link DecisionEngine.load} files environments under when it is given none.
   * @defaultValue `'default'`
   */
  defaultAccount?: string;
  /**
   * Campaign id → variation id forced for every visitor (QA, tests). Per-request
   * `forcedVariations` take precedence. Forced variations override targeting, bucket ranges,
   * allocation and sticky assignments, but not panic mode. An engine serves many environments:
   * an entry applies where its campaign and variation exist and is ignored elsewhere (a
   * request's own entries must exist, else {@link ValidationError}).
   * @defaultValue `{}`
   * @example `{ 'checkout-test': 'variation-b' }`
   */
  forcedVariations?: Readonly<Record<string, string>>;
  /**
   * How long a compiled configuration is served before the engine asks the store whether its
   * version changed, in milliseconds. Writes made through this engine are seen at once;
   * writes by another instance sharing the store within this interval. 0 checks on every request.
   * A store that counts its writes (`memoryStorage()`) is not asked, nor the clock read, while
   * it has had none since the last check: the configuration served is then the current one.
   * @defaultValue `1000`
   */
  refreshIntervalMs?: number;
  /**
   * Maximum number of compiled environment configurations kept in memory (LRU; an entry
   * unused for an hour is dropped).
   * @defaultValue `1000`
   */
  maxEnvironments?: number;
  /**
   * Current time in epoch milliseconds; inject a fake clock in tests.
   * @defaultValue `Date.now`
   */
  clock?: () => number;
  /**
   * Server-side key mixed into the stored hash of environment API keys (HMAC-SHA-256), the
   * `pepper` of the AccessManager and CatalogRegistry (`ABKIT_PEPPER`). A key stored as plain
   * SHA-256 before the pepper was set still verifies, and is stored keyed at its first use.
   * Changing the pepper invalidates every stored key. @defaultValue none (plain SHA-256)
   */
  pepper?: string;
}

function checkOption(condition: boolean, message: string): void {
  if (!condition) throw new TypeError(`DecisionEngine: ${message}`);
}

/**
 * The campaign decision engine: which variation of which campaign a visitor gets.
 *
 * Configurations (Flagship bucketing-file format) live in the storage, one per environment,
 * and are compiled once per version. Decisions are in-process and need no network.
 *
 * @example
 * ```ts
 * import { DecisionEngine, memoryStorage } from 'abkit';
 *
 * const engine = new DecisionEngine({ storage: memoryStorage() });
 * await engine.load(bucketingFile);
 * const { campaigns } = await engine.decide({ visitorId: 'v1', context: { plan: 'gold' } });
 * ```
 */
export class DecisionEngine {
  /** The storage the engine reads and writes. */
  readonly storage: Storage;
  /** The environment used when a request names none. */
  readonly defaultEnvironment: string;
  readonly #defaultAccount: string;
  readonly #forced: Readonly<Record<string, string>>;
  readonly #noForced: boolean;
  readonly #clock: () => number;
  /** The engine's `clock` option: what it stamps decisions' activations with. */
  readonly clock: () => number;
  readonly #pepper: string | undefined;
  readonly #configs: CompiledConfigs;

  /**
   * Creates an engine; options are checked here and a bad one throws a `TypeError` prefixed
   * `DecisionEngine:` that names it.
   */
  constructor(options: DecisionEngineOptions) {
    const {
      storage,
      defaultEnvironment = 'default',
      defaultAccount = 'default',
      forcedVariations = {},
      refreshIntervalMs = 1000,
      maxEnvironments = 1000,
      clock = Date.now,
      pepper,
    } = options;
    checkOption(
      typeof storage?.environments?.get === 'function',
      'storage must be a Storage (memoryStorage(), sqliteStorage() or postgresStorage())',
    );
    checkOption(typeof defaultEnvironment === 'string' && defaultEnvironment !== '', 'defaultEnvironment must be a non-empty string');
    checkOption(typeof defaultAccount === 'string' && defaultAccount !== '', 'defaultAccount must be a non-empty string');
    checkOption(
      Number.isFinite(refreshIntervalMs) && refreshIntervalMs >= 0,
      `refreshIntervalMs must be a number >= 0, got ${refreshIntervalMs}`,
    );
    checkOption(
      Number.isInteger(maxEnvironments) && maxEnvironments >= 1,
      `maxEnvironments must be an integer >= 1, got ${maxEnvironments}`,
    );
    checkOption(typeof clock === 'function', 'clock must be a function returning epoch milliseconds');
    checkOption(
      pepper === undefined || (typeof pepper === 'string' && pepper.length >= 16),
      'pepper must be a string of at least 16 characters',
    );
    checkOption(
      typeof forcedVariations === 'object' &&
        forcedVariations !== null &&
        Object.values(forcedVariations).every((v) => typeof v === 'string'),
      'forcedVariations must map campaign ids to variation id strings',
    );
    this.storage = storage;
    this.defaultEnvironment = defaultEnvironment;
    this.#defaultAccount = defaultAccount;
    this.#forced = { ...forcedVariations };
    this.#noForced = Object.keys(this.#forced).length === 0;
    this.#clock = clock;
    this.clock = clock;
    this.#pepper = pepper;
    this.#configs = new CompiledConfigs(storage, { defaultEnvironment, refreshIntervalMs, maxEnvironments, clock });
  }

  /**
   * Validates a bucketing configuration and stores it for an environment (creating or
   * replacing it). Throws {@link ValidationError} naming the JSON path of every problem.
   *
   * @example
   * ```ts
   * await engine.load(JSON.parse(text), { environment: 'prod', account: 'acme', apiKey: process.env.DECISION_API_KEY });
   * ```
   */
  async load(config: unknown, options: LoadOptions = {}): Promise<EnvironmentRecord> {
    const { apiKey } = options;
    if (apiKey !== undefined && apiKey !== null && (typeof apiKey !== 'string' || apiKey.length < MIN_API_KEY_LENGTH)) {
      throw new ValidationError(`apiKey must be a string of at least ${MIN_API_KEY_LENGTH} characters`, [
        { path: ['apiKey'], message: `shorter than ${MIN_API_KEY_LENGTH} characters` },
      ]);
    }
    const id = options.environment ?? this.defaultEnvironment;
    const account = options.account ?? this.#defaultAccount;
    // Both are stored with the configuration, and the environment id with every activation.
    const names: ErrorDetail[] = [];
    requireId(id, ['environment'], names);
    requireId(account, ['account'], names);
    idLengthProblem(id, ['environment'], names);
    idLengthProblem(account, ['account'], names);
    if (names.length > 0) failWith(names);
    const parsed = parseBucketingConfig(config);
    const apiKeyHash =
      options.apiKey === undefined ? undefined : options.apiKey === null ? null : await credentialHash(options.apiKey, this.#pepper);
    const record = await this.storage.environments.put(
      { id, accountId: account, config: parsed, apiKeyHash },
      { now: this.#clock(), expectedVersion: options.expectedVersion },
    );
    this.invalidate(id);
    return record;
  }

  /**
   * An environment's stored configuration, version and account, or undefined when it does not
   * exist (read from the store, not the compiled cache).
   *
   * @example
   * ```ts
   * const prod = await engine.getEnvironment('prod');
   * if (prod?.config.panic) console.warn(`prod is in panic mode since version ${prod.version}`);
   * ```
   */
  async getEnvironment(environment: string): Promise<EnvironmentRecord | undefined> {
    return this.storage.environments.get(environment);
  }

  /** Drops compiled configurations (one environment, or all) so the next request re-reads the store. */
  invalidate(environmentId?: string): void {
    this.#configs.invalidate(environmentId);
  }

  /**
   * Decides every campaign for a visitor.
   *
   * @example
   * ```ts
   * const result = await engine.decide({ visitorId: 'v1', context: { isVip: true }, triggerHit: false });
   * for (const c of result.campaigns) console.log(c.id, c.variation.id, c.variation.modifications.value);
   * ```
   */
  async decide(request: DecisionRequest): Promise<DecisionResult> {
    const config = this.#configs.fresh(request.environment) ?? (await this.#configs.get(request.environment));
    const run = this.#run(config, request, undefined);
    const assigned = Array.isArray(run) ? run : await run;
    const all = !!request.exposeAllKeys;
    // Nothing was written, or the write is done (a synchronous run: a store that writes at once
    // copies what it keeps): the evaluation's own new array, which nothing else holds, becomes
    // the answer's, one array fewer per decision. A pending write may still read it.
    const campaigns =
      run === assigned || (request.triggerHit === false && request.visitorConsent === false)
        ? (assigned as unknown as CampaignDecision[])
        : new Array<CampaignDecision>(assigned.length);
    for (let i = 0; i < assigned.length; i++) {
      const a = assigned[i]!;
      campaigns[i] = all ? a.decisionAllKeys : a.decision;
    }
    return { visitorId: request.visitorId, campaigns, panic: config.panic };
  }

  /**
   * Decides every campaign for a visitor and returns one value per flag (modification) key, with
   * the campaign and variation serving it and how the visitor got it; the view behind
   * `POST /v2/flags` and the OpenFeature provider. Records activations as {@link decide} does.
   *
   * @example
   * ```ts
   * const { flags, keys } = await engine.decideFlags({ visitorId: 'v1', triggerHit: false });
   * const color = flags.buttonColor?.value ?? 'grey';
   * if (!keys.has('buttonColour')) console.warn('no campaign defines buttonColour');
   * ```
   */
  async decideFlags(request: DecisionRequest): Promise<FlagsResult> {
    const config = this.#configs.fresh(request.environment) ?? (await this.#configs.get(request.environment));
    const assigned = await this.#run(config, request, undefined);
    return {
      environmentId: config.environmentId,
      visitorId: request.visitorId,
      panic: config.panic,
      flags: flagsOf(assigned, request.exposeAllKeys === true),
      keys: config.flagKeys,
    };
  }

  /**
   * The environment's stored configuration as the engine currently serves it (re-read from the
   * store at most every `refreshIntervalMs`); throws {@link NotFoundError} for an unknown one.
   *
   * @example
   * ```ts
   * const { config, version, updatedAt } = await engine.configuration('prod');
   * console.log(config.accountSettings?.enabledXPC ?? false, version, new Date(updatedAt));
   * ```
   */
  async configuration(environment?: string): Promise<EnvironmentRecord> {
    return (await this.#configs.get(environment)).record;
  }

  /**
   * Loads an environment's configuration from a bucketing-file URL (such as abkit's
   * `GET /v2/{envId}/bucketing.json`), then polls it every `intervalMs` with `If-None-Match`, so
   * a browser or edge worker decides locally. Rejects when the first load fails; later failures
   * go to `onError` and the last good configuration keeps serving.
   *
   * @example
   * ```ts
   * const engine = new DecisionEngine({ storage: memoryStorage(), defaultEnvironment: 'prod' });
   * const source = await engine.loadFrom('https://abkit.example.com/v2/prod/bucketing.json', { headers: { 'x-api-key': key } });
   * const { campaigns } = await engine.decide({ visitorId: 'v1', triggerHit: false });
   * source.stop();
   * ```
   */
  loadFrom(url: string, options?: BucketingSourceOptions): Promise<BucketingSource> {
    return loadFrom((config, environment) => this.load(config, { environment }), url, options);
  }

  /**
   * Decides one campaign, named by id or slug. Returns null when the visitor is not targeted,
   * untracked, or the environment is in panic mode; throws {@link ValidationError} for an
   * unknown campaign.
   *
   * @example
   * ```ts
   * const value = await engine.decideCampaign('new-checkout', { visitorId: 'v1' });
   * ```
   */
  async decideCampaign(campaign: string, request: DecisionRequest): Promise<CampaignDecision | null> {
    const config = await this.#configs.get(request.environment);
    const only = this.#campaign(config, campaign);
    const [assigned] = await this.#run(config, request, only);
    if (!assigned) return null;
    return request.exposeAllKeys ? assigned.variation.decisionAllKeys : assigned.variation.decision;
  }

  /**
   * Explains, campaign by campaign, why a visitor gets what it gets: the targeting that matched
   * or the one that failed (with the visitor's value), the bucket and the allocation walked, or
   * a sticky or forced assignment. Stores and records nothing.
   *
   * @example
   * ```ts
   * const why = await engine.explain({ visitorId: 'v1', context: { country: 'fr' } });
   * console.log(why.campaigns.map((c) => `${c.campaignId}: ${c.reason}`).join('\n'));
   * ```
   */
  async explain(request: DecisionRequest): Promise<Explanation> {
    const config = await this.#configs.get(request.environment);
    const trace: CampaignExplanation[] = [];
    await this.#run(config, { ...request, triggerHit: false, visitorConsent: false }, undefined, trace);
    return {
      environmentId: config.environmentId,
      configVersion: config.version,
      visitorId: request.visitorId,
      panic: config.panic,
      campaigns: trace,
    };
  }

  /**
   * The environment's compiled configuration, or undefined when it does not exist (what the
   * experiment service checks activations and events against). @internal
   */
  async find(environmentId: string): Promise<CompiledConfig | undefined> {
    try {
      return await this.#configs.get(environmentId);
    } catch (e) {
      if (e instanceof NotFoundError) return undefined;
      throw e;
    }
  }

  /**
   * Checks the API key an environment may require. Resolves when the environment needs none or
   * `apiKey` matches (constant-time comparison of hashes); throws {@link AuthenticationError}
   * otherwise and {@link NotFoundError} for an unknown environment.
   */
  async checkApiKey(environment: string | undefined, apiKey: string | null): Promise<void> {
    // Every decision request asks this first: the configuration it is about to serve answers
    // without the LRU, the clock or a second async frame, as in `decide`.
    const config = this.#configs.fresh(environment) ?? (await this.#configs.get(environment));
    if (config.apiKeyHash === null) return;
    if (apiKey === null || apiKey === '') throw new AuthenticationError('this environment requires an x-api-key header');
    const presented = await credentialHash(apiKey, this.#pepper);
    if (constantTimeEqual(presented, config.apiKeyHash)) return;
    if (!(await isUnpepperedHash(apiKey, config.apiKeyHash, this.#pepper))) throw new AuthenticationError('invalid x-api-key');
    // Stored before the pepper was set: it verifies, and is stored keyed from now on.
    if (await rehashApiKey(this.storage.environments, config.environmentId, config.apiKeyHash, presented))
      this.invalidate(config.environmentId);
  }

  #campaign(config: CompiledConfig, key: string): CompiledCampaign {
    const campaign = config.campaignByKey.get(key);
    if (!campaign)
      throw new ValidationError(
        `campaign ${key} is paused or doesn't exist`,
        [{ path: ['id'], message: 'unknown campaign' }],
        'unknown_campaign',
      );
    return campaign;
  }

  /**
   * Checks a request and resolves its forced variations. The common request (valid, nothing
   * forced) is recognized without allocating; anything else takes the full check, which names
   * every problem.
   */
  #validate(config: CompiledConfig, request: DecisionRequest): Readonly<Record<string, string>> | undefined {
    if (this.#noForced && request.forcedVariations === undefined && plainRequest(request)) return undefined;
    return checkRequest(config, request, this.#forced);
  }

  /**
   * Evaluates and writes one decision. Synchronous when the assignment store answers from memory
   * (`getNow`) and nothing is written; otherwise a promise.
   */
  #run(
    config: CompiledConfig,
    request: DecisionRequest,
    only: CompiledCampaign | undefined,
    trace?: CampaignExplanation[],
  ): Assigned[] | Promise<Assigned[]> {
    const forced = this.#validate(config, request);
    const { visitorId } = request;
    const env = config.environmentId;
    const anonymousId = request.anonymousId ?? undefined;
    const continuity = config.experienceContinuity && anonymousId !== undefined && anonymousId !== visitorId;
    const store = this.storage.assignments;
    if (store.getNow) {
      const own = store.getNow(env, visitorId);
      const previous = continuity ? store.getNow(env, anonymousId) : undefined;
      // A wrapper may have turned the method asynchronous: then wait like for `get`.
      if (!(own instanceof Promise) && !(previous instanceof Promise))
        return this.#decideAndWrite(config, request, only, trace, forced, own, previous);
    }
    return (async () => {
      const own = await store.get(env, visitorId);
      const previous = continuity ? await store.get(env, anonymousId) : undefined;
      return this.#decideAndWrite(config, request, only, trace, forced, own, previous);
    })();
  }

  #decideAndWrite(
    config: CompiledConfig,
    request: DecisionRequest,
    only: CompiledCampaign | undefined,
    trace: CampaignExplanation[] | undefined,
    forced: Readonly<Record<string, string>> | undefined,
    own: Assignments,
    previous: Assignments | undefined,
  ): Assigned[] | Promise<Assigned[]> {
    const { visitorId } = request;
    const env = config.environmentId;
    const anonymousId = request.anonymousId ?? undefined;
    let stored = own;
    // The visitor's own assignments win; the anonymous id's fill the gaps.
    if (previous !== undefined && previous !== NO_ASSIGNMENTS) stored = own === NO_ASSIGNMENTS ? previous : { ...previous, ...own };
    const assigned = evaluate(config, { visitorId, context: request.context ?? {}, stored, forced, only }, trace);
    if (assigned.length === 0) return assigned;
    // New hash assignments, and ones inherited from the anonymous id, become the visitor's own.
    const assign = request.visitorConsent === false ? false : assignedAnew(assigned, own, stored !== own);
    const activatedAt = request.triggerHit === false ? null : this.#clock();
    if (assign === false && activatedAt === null) return assigned;
    const decided: DecidedWrite = {
      environmentId: env,
      visitorId,
      anonymousId: anonymousId ?? null,
      decided: assigned,
      assign,
      activatedAt,
    };
    if (this.storage.writeDecisionNow) {
      // A wrapper may have turned the method asynchronous: then wait like for `writeDecision`.
      const done: unknown = this.storage.writeDecisionNow(decided);
      return done instanceof Promise ? done.then(() => assigned) : assigned;
    }
    const write = decisionWrite(decided);
    // One write where the storage offers it (PostgreSQL: one statement, one round trip).
    const assignments = this.storage.assignments;
    const written = this.storage.writeDecision
      ? this.storage.writeDecision(write)
      : Promise.all([
          write.assignments && assignments.save(env, visitorId, write.assignments),
          write.activations && this.storage.activations.record(write.activations),
        ]);
    return written.then(() => assigned);
  }
}
