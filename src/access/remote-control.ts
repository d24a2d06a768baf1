import { campaignSchema, type BucketingConfig, type Campaign } from '../model/bucketing-config';
import { checkSearchModifications } from '../search-experiments/check';
import type { DecisionEngine } from '../decision/engine';
import { ConflictError, NotFoundError, ValidationError } from '../errors';
import type { Activation, ActivationQuery } from '../storage/activations';
import type { EnvironmentRecord } from '../storage/environments';
import { ExperimentService } from '../results/experiments';
import type { ExperimentResults, ResultsQuery } from '../results/results';
import { parseWith } from '../validation';
import { OneAtATime } from './one-at-a-time';

/**
 * Options of {@link RemoteControl}.
 *
 * @example
 * ```ts
 * const options: RemoteControlOptions = { engine, maxAttempts: 30 };
 * const remote = new RemoteControl(options);
 * ```
 */
export interface RemoteControlOptions {
  /** The engine whose configurations are managed; its storage is written and its cache refreshed. */
  engine: DecisionEngine;
  /**
   * Where activations and results are read.
   * @defaultValue an `ExperimentService` over `engine`
   */
  experiments?: ExperimentService;
  /**
   * Attempts of a write that did not ask for a version (one campaign, panic, a configuration
   * without `expectedVersion`) when another process changed the configuration between its read
   * and its write. Writes through this process never collide: they run one at a time per
   * environment. Each failed attempt means another writer succeeded.
   * @defaultValue `20`
   */
  maxAttempts?: number;
}

/**
 * The queues of the writes in flight, per environment store: every RemoteControl over one
 * storage in this process (a handler builds its own) shares them.
 */
const writeQueues = new WeakMap<object, OneAtATime>();

/**
 * One line of {@link RemoteControl.listCampaigns}. `status` is `active`, or `panic` while the
 * environment is in panic mode (every campaign then serves no one).
 *
 * @example
 * ```ts
 * const summaries: CampaignSummary[] = await remote.listCampaigns('acme', 'prod');
 * console.log(summaries.map((c) => `${c.slug ?? c.id} (${c.type}, ${c.status})`).join('\n'));
 * ```
 */
export interface CampaignSummary {
  readonly id: string;
  readonly slug: string | null;
  readonly name: string | null;
  readonly type: string;
  readonly status: 'active' | 'panic';
}

/**
 * Campaign administration: what a remote-control token authorizes. Every method takes the
 * account and environment from the URL and answers {@link NotFoundError} when the environment
 * does not exist in that account. Writes are validated as a whole configuration and reach the
 * decision engine on its next request (other instances: within their `refreshIntervalMs`).
 * Authorization is the caller's job (see {@link TokenService.authorize}).
 *
 * @example
 * ```ts
 * const remote = new RemoteControl({ engine });
 * await remote.setPanic('acme', 'prod', true);
 * ```
 */
export class RemoteControl {
  /** The engine whose configurations this manages. */
  readonly engine: DecisionEngine;
  /** Where activations and results are read. */
  readonly experiments: ExperimentService;
  readonly #attempts: number;

  /** Creates the service; a bad option throws a `TypeError` prefixed `RemoteControl:`. */
  constructor(options: RemoteControlOptions) {
    if (!options?.engine || typeof options.engine.invalidate !== 'function')
      throw new TypeError('RemoteControl: engine must be a DecisionEngine');
    const { maxAttempts = 20 } = options;
    if (!Number.isInteger(maxAttempts) || maxAttempts < 1)
      throw new TypeError(`RemoteControl: maxAttempts must be a positive integer, got ${maxAttempts}`);
    this.engine = options.engine;
    this.experiments = options.experiments ?? new ExperimentService({ engine: options.engine });
    this.#attempts = maxAttempts;
  }

  /** The environment's stored configuration and version. */
  async getConfiguration(account: string, environment: string): Promise<EnvironmentRecord> {
    const record = await this.engine.getEnvironment(environment);
    if (!record || record.accountId !== account)
      throw new NotFoundError(`environment "${environment}" does not exist in account "${account}"`);
    return record;
  }

  /**
   * Replaces the whole configuration (validated). With `expectedVersion`, refuses with
   * {@link ConflictError} when the stored version differs; without, it succeeds whatever other
   * writers did meanwhile (the last write wins).
   */
  async replaceConfiguration(
    account: string,
    environment: string,
    config: unknown,
    options: { expectedVersion?: number } = {},
  ): Promise<EnvironmentRecord> {
    const { expectedVersion } = options;
    if (expectedVersion === undefined) return this.#update(account, environment, () => config);
    return this.#serially(environment, async () => this.#write(await this.getConfiguration(account, environment), config, expectedVersion));
  }

  /** The environment's campaigns in configuration order: id, slug, name, type and status. */
  async listCampaigns(account: string, environment: string): Promise<CampaignSummary[]> {
    const { config } = await this.getConfiguration(account, environment);
    const status = config.panic ? 'panic' : 'active';
    return config.campaigns.map((c) => ({ id: c.id, slug: c.slug ?? null, name: c.name ?? null, type: c.type, status }));
  }

  /** One campaign of the configuration, by id. */
  async getCampaign(account: string, environment: string, campaignId: string): Promise<Campaign> {
    const record = await this.getConfiguration(account, environment);
    const campaign = record.config.campaigns.find((c) => c.id === campaignId);
    if (!campaign) throw new NotFoundError(`campaign "${campaignId}" does not exist in environment "${environment}"`);
    return campaign;
  }

  /**
   * Creates or replaces one campaign (appended when new). The body's `id`, when given, must
   * equal `campaignId`. The resulting configuration is validated as a whole.
   */
  async putCampaign(account: string, environment: string, campaignId: string, campaign: unknown): Promise<EnvironmentRecord> {
    const body = campaign !== null && typeof campaign === 'object' && !Array.isArray(campaign) ? { id: campaignId, ...campaign } : campaign;
    const parsed = parseWith(campaignSchema, body, 'campaign');
    if (parsed.id !== campaignId) {
      throw new ValidationError(`campaign id "${parsed.id}" in the body differs from "${campaignId}" in the path`, [
        { path: ['id'], message: 'differs from the path' },
      ]);
    }
    return this.#update(account, environment, (config) => {
      const at = config.campaigns.findIndex((c) => c.id === campaignId);
      const campaigns = [...config.campaigns];
      if (at < 0) campaigns.push(parsed);
      else campaigns[at] = parsed;
      return { ...config, campaigns };
    });
  }

  /** Deletes one campaign; {@link NotFoundError} when it does not exist. */
  async deleteCampaign(account: string, environment: string, campaignId: string): Promise<EnvironmentRecord> {
    return this.#update(account, environment, (config) => {
      if (!config.campaigns.some((c) => c.id === campaignId)) {
        throw new NotFoundError(`campaign "${campaignId}" does not exist in environment "${environment}"`);
      }
      return { ...config, campaigns: config.campaigns.filter((c) => c.id !== campaignId) };
    });
  }

  /** Switches panic mode: while on, the decision interface serves no campaign. */
  async setPanic(account: string, environment: string, panic: boolean): Promise<EnvironmentRecord> {
    if (typeof panic !== 'boolean')
      throw new ValidationError('panic must be a boolean', [{ path: ['panic'], message: 'must be a boolean' }]);
    return this.#update(account, environment, (config) => ({ ...config, panic }));
  }

  /** The environment's activations, oldest first. */
  async listActivations(account: string, environment: string, query: Omit<ActivationQuery, 'environmentId'> = {}): Promise<Activation[]> {
    await this.getConfiguration(account, environment);
    return this.experiments.listActivations({ ...query, environmentId: environment });
  }

  /** An experiment's results in the environment (see `ExperimentService.results`). */
  async results(account: string, environment: string, query: Omit<ResultsQuery, 'environment'>): Promise<ExperimentResults> {
    await this.getConfiguration(account, environment);
    return this.experiments.results({ ...query, environment });
  }

  /**
   * A read-modify-write that must not fail because another writer was faster: this process's
   * writes to the environment run one at a time, and a write another process made in between
   * (the version check fails) makes it read and change the new configuration again.
   */
  #update(account: string, environment: string, change: (config: BucketingConfig) => unknown): Promise<EnvironmentRecord> {
    return this.#serially(environment, async () => {
      for (let attempt = 1; ; attempt++) {
        const current = await this.getConfiguration(account, environment);
        const next = change(structuredClone(current.config) as BucketingConfig);
        try {
          return await this.#write(current, next, current.version);
        } catch (error) {
          if (!(error instanceof ConflictError) || attempt >= this.#attempts) throw error;
        }
      }
    });
  }

  #serially<T>(environment: string, task: () => Promise<T>): Promise<T> {
    const store = this.engine.storage.environments;
    let queue = writeQueues.get(store);
    if (!queue) writeQueues.set(store, (queue = new OneAtATime()));
    return queue.run(environment, task);
  }

  // The engine's own load: the same validation, write and cache refresh as any other load.
  #write(current: EnvironmentRecord, config: unknown, expectedVersion: number): Promise<EnvironmentRecord> {
    checkSearchModifications(config);
    return this.engine.load(config, { environment: current.id, account: current.accountId, expectedVersion });
  }
}
