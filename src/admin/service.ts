import type { AccessManager, AccessPreview, CreatedAccess } from '../access/access-manager';
import type { TokenService } from '../access/token-service';
import { RemoteControl } from '../access/remote-control';
import type { CatalogSearchSettings } from '../bootstrap/schema';
import type { BatchResult, SyncSchedule, SyncResult } from '../catalog/catalog';
import type { CatalogRegistry } from '../catalog/registry';
import { CATALOG_KEY_PREFIX, SEARCH_KEY_PREFIX } from '../catalog/registry';
import { randomCredential, secureRandom, type RandomSource } from '../crypto';
import type { DecisionEngine } from '../decision/engine';
import { ConflictError, NotFoundError, type ErrorDetail } from '../errors';
import type { AccessRecord } from '../storage/accesses';
import type { AccountRecord } from '../storage/accounts';
import type { CatalogSettingsRecord } from '../storage/catalog-settings';
import type { EnvironmentRecord } from '../storage/environments';
import type { Storage } from '../storage/storage';
import { AuditLog, checkActor, outcomeOf, type AuditPage } from './audit-log';
import type {
  AccountView,
  CatalogKeys,
  CatalogSettingsInput,
  CatalogSettingsView,
  CreateCatalogSettings,
  CreateEnvironmentInput,
  EnvironmentView,
  UpdateEnvironmentInput,
} from './views';
import { settingsView, view } from './views';
import { ADMIN_LIMITS, checkSettings, ENVIRONMENT_KEY_PREFIX, fail, idProblem, onlyKnown, plainObject, settingsDetail } from './input';
import { itemOperations } from './input';

/**
 * Options of {@link AdminService}.
 *
 * @example
 * ```ts
 * const options: AdminServiceOptions = { storage, engine, accesses, tokens, catalogs };
 * const admin = new AdminService(options);
 * ```
 */
export interface AdminServiceOptions {
  /** Where accounts, catalog settings and the audit log live: the storage of the services below. */
  storage: Storage;
  /** Environments are created and their keys changed through it (`load`, keyed with its pepper). */
  engine: DecisionEngine;
  /** Accesses are created, listed, revoked and rotated through it. */
  accesses: AccessManager;
  /** The tokens of {@link AdminServiceOptions.accesses}: a revocation stops them at once (it must be built on the same manager). */
  tokens: TokenService;
  /** Catalogs are created and their keys rotated through it. */
  catalogs: CatalogRegistry;
  /**
   * Panic and campaigns are changed through it (it must be built on `engine`).
   * @defaultValue a `RemoteControl` over `engine` (writes to an environment still run one at a time with every other one of this process)
   */
  remote?: RemoteControl;
  /** Current time in epoch milliseconds (audit entries, accounts). @defaultValue `Date.now` */
  clock?: () => number;
  /** Random bytes for generated keys. @defaultValue Web Crypto `getRandomValues` */
  random?: RandomSource;
  /** Most accounts. @defaultValue `1000` */
  maxAccounts?: number;
  /** Most environments per account. @defaultValue `100` */
  maxEnvironmentsPerAccount?: number;
}

const positive = (value: number, name: string) => {
  if (!Number.isInteger(value) || value < 1) throw new TypeError(`AdminService: ${name} must be a positive integer, got ${value}`);
};

/**
 * The account holder's operations, each by a named actor and each written to the audit log,
 * failures included: accounts, environments and their keys, remote-control accesses, catalogs
 * and their keys and settings. What a secret appears in (a created access, a rotated key) is
 * answered once and never stored, listed, logged or audited. A class over the services it
 * is given, which it calls through their APIs.
 *
 * @example
 * ```ts
 * const admin = new AdminService({ storage, engine, accesses, tokens, catalogs });
 * await abkit.admin.createAccount('ops', { id: 'acme' });
 * await abkit.admin.createEnvironment('ops', 'acme', { id: 'prod', default: true });
 * const { clientId, clientSecret } = await abkit.admin.createAccess('ops', 'acme', { name: 'deploy', actions: ['campaigns.write'] });
 * ```
 */
export class AdminService {
  readonly #storage: Storage;
  readonly #engine: DecisionEngine;
  readonly #accesses: AccessManager;
  readonly #catalogs: CatalogRegistry;
  readonly #remote: RemoteControl;
  readonly #clock: () => number;
  readonly #random: RandomSource;
  readonly #maxAccounts: number;
  readonly #maxEnvironments: number;
  readonly #audit: AuditLog;
  readonly #schedules = new Map<string, SyncSchedule>();
  readonly #search = new Map<string, CatalogSearchSettings>();

  /** Creates the service; a bad option throws a `TypeError` prefixed `AdminService:`. */
  constructor(options: AdminServiceOptions) {
    const {
      storage,
      engine,
      accesses,
      tokens,
      catalogs,
      remote: given,
      clock = Date.now,
      random = secureRandom,
      maxAccounts = ADMIN_LIMITS.accounts,
      maxEnvironmentsPerAccount = ADMIN_LIMITS.environmentsPerAccount,
    } = options ?? ({} as AdminServiceOptions);
    if (typeof storage?.audit?.append !== 'function' || typeof storage.accounts?.get !== 'function')
      throw new TypeError(
        'AdminService: storage must be a Storage with accounts and an audit log (memoryStorage(), sqliteStorage(…), postgresStorage(…))',
      );
    if (typeof engine?.load !== 'function') throw new TypeError('AdminService: engine must be a DecisionEngine');
    if (typeof accesses?.createAccess !== 'function') throw new TypeError('AdminService: accesses must be an AccessManager');
    if (tokens?.accesses !== accesses)
      throw new TypeError(
        'AdminService: tokens must be the TokenService built on `accesses` (so that a revocation stops its tokens at once)',
      );
    if (typeof catalogs?.create !== 'function') throw new TypeError('AdminService: catalogs must be a CatalogRegistry');
    const remote = given ?? new RemoteControl({ engine });
    if (remote?.engine !== engine) throw new TypeError('AdminService: remote must be a RemoteControl built on `engine`');
    if (typeof clock !== 'function') throw new TypeError('AdminService: clock must be a function returning epoch milliseconds');
    if (typeof random !== 'function') throw new TypeError('AdminService: random must be a function returning random bytes');
    positive(maxAccounts, 'maxAccounts');
    positive(maxEnvironmentsPerAccount, 'maxEnvironmentsPerAccount');
    this.#storage = storage;
    this.#engine = engine;
    this.#accesses = accesses;
    this.#catalogs = catalogs;
    this.#remote = remote;
    this.#clock = clock;
    this.#random = random;
    this.#maxAccounts = maxAccounts;
    this.#maxEnvironments = maxEnvironmentsPerAccount;
    this.#audit = new AuditLog(storage.audit, clock);
  }

  // ---- accounts ----

  /**
   * Every account, by id: those created here and those that hold environments (loaded by code or
   * a bootstrap file), each with its environments.
   */
  async listAccounts(): Promise<{ accounts: AccountView[] }> {
    const [records, environments] = await Promise.all([this.#storage.accounts.list(this.#maxAccounts), this.#storage.environments.list()]);
    const byId = new Map<string, { record?: AccountRecord; environments: EnvironmentRecord[] }>();
    for (const r of records) byId.set(r.id, { record: r, environments: [] });
    for (const e of environments) {
      let entry = byId.get(e.accountId);
      if (!entry) byId.set(e.accountId, (entry = { environments: [] }));
      entry.environments.push(e);
    }
    const ids = [...byId.keys()].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
    return {
      accounts: ids.map((id) => {
        const { record, environments: envs } = byId.get(id)!;
        const defaultEnvironment = record?.defaultEnvironment ?? null;
        return { id, createdAt: record?.createdAt ?? null, defaultEnvironment, environments: envs.map((e) => view(e, defaultEnvironment)) };
      }),
    };
  }

  /** Creates an account; `ConflictError` when it exists (created here or holding environments) or when the ceiling is reached. */
  async createAccount(actor: string, input: { id: string }): Promise<AccountView> {
    checkActor(actor);
    const id = typeof input?.id === 'string' ? input.id : '';
    return this.#audited(actor, 'account.create', `accounts/${id}`, async () => {
      const body = plainObject(input, 'account');
      onlyKnown(body, ['id'], 'account');
      const problem = idProblem(body.id, 'id');
      if (problem) fail('account', [problem]);
      if (await this.#accountExists(id)) throw new ConflictError(`account "${id}" exists`);
      const { accounts } = await this.listAccounts();
      if (accounts.length >= this.#maxAccounts)
        throw new ConflictError(`there are ${accounts.length} accounts, the most allowed (${this.#maxAccounts})`);
      const record: AccountRecord = { id, createdAt: this.#clock(), defaultEnvironment: null };
      await this.#storage.accounts.create(record);
      return { id, createdAt: record.createdAt, defaultEnvironment: null, environments: [] };
    });
  }

  // ---- environments ----

  /**
   * Creates an environment of an account with an empty configuration (no campaign); with
   * `apiKey: true` a key is generated, required by its decisions, and answered this once.
   */
  async createEnvironment(actor: string, account: string, input: CreateEnvironmentInput): Promise<EnvironmentView> {
    checkActor(actor);
    const id = typeof input?.id === 'string' ? input.id : '';
    return this.#audited(
      actor,
      'environment.create',
      `accounts/${account}/environments/${id}`,
      async () => {
        const body = plainObject(input, 'environment');
        onlyKnown(body, ['id', 'default', 'apiKey'], 'environment');
        const problems: ErrorDetail[] = [];
        const problem = idProblem(body.id, 'id');
        if (problem) problems.push(problem);
        for (const flag of ['default', 'apiKey'] as const)
          if (body[flag] !== undefined && typeof body[flag] !== 'boolean')
            problems.push({ path: [flag], message: 'must be true or false' });
        if (problems.length > 0) fail('environment', problems);
        const record = await this.#account(account);
        const existing = await this.#storage.environments.list(account);
        if (existing.length >= this.#maxEnvironments)
          throw new ConflictError(`account "${account}" has ${existing.length} environments, the most allowed (${this.#maxEnvironments})`);
        const apiKey = input.apiKey === true ? randomCredential(ENVIRONMENT_KEY_PREFIX, 32, this.#random) : undefined;
        // Version 0 expected: an id taken by any account is a ConflictError.
        const stored = await this.#engine
          .load({ campaigns: [] }, { environment: id, account, apiKey: apiKey ?? null, expectedVersion: 0 })
          .catch((error: unknown) => {
            if (error instanceof ConflictError) throw new ConflictError(`environment "${id}" exists`);
            throw error;
          });
        let defaultEnvironment = record?.defaultEnvironment ?? null;
        if (input.default === true) defaultEnvironment = await this.#setDefault(account, id);
        return { ...view(stored, defaultEnvironment), ...(apiKey ? { apiKey } : {}) };
      },
      () => ({ default: input?.default === true, apiKey: input?.apiKey === true }),
    );
  }

  /** Sets an environment as its account's default, or rotates or removes its API key (a new key is answered this once). */
  async updateEnvironment(actor: string, account: string, environment: string, input: UpdateEnvironmentInput): Promise<EnvironmentView> {
    checkActor(actor);
    return this.#audited(
      actor,
      'environment.update',
      `accounts/${account}/environments/${environment}`,
      async () => {
        const body = plainObject(input, 'environment change');
        onlyKnown(body, ['default', 'apiKey'], 'environment change');
        const problems: ErrorDetail[] = [];
        if (body.default !== undefined && typeof body.default !== 'boolean')
          problems.push({ path: ['default'], message: 'must be true or false' });
        if (body.apiKey !== undefined && body.apiKey !== 'rotate' && body.apiKey !== 'remove')
          problems.push({ path: ['apiKey'], message: 'must be "rotate" or "remove"' });
        if (body.default === undefined && body.apiKey === undefined)
          problems.push({ path: [], message: 'must hold default or apiKey (or both)' });
        if (problems.length > 0) fail('environment change', problems);
        let record = await this.#environment(account, environment);
        const accountRecord = await this.#storage.accounts.get(account);
        let defaultEnvironment = accountRecord?.defaultEnvironment ?? null;
        let apiKey: string | undefined;
        if (input.apiKey !== undefined) {
          apiKey = input.apiKey === 'rotate' ? randomCredential(ENVIRONMENT_KEY_PREFIX, 32, this.#random) : undefined;
          record = await this.#engine.load(record.config, {
            environment,
            account,
            apiKey: apiKey ?? null,
            expectedVersion: record.version,
          });
        }
        if (input.default === true) defaultEnvironment = await this.#setDefault(account, environment);
        else if (input.default === false && defaultEnvironment === environment) defaultEnvironment = await this.#setDefault(account, null);
        return { ...view(record, defaultEnvironment), ...(apiKey ? { apiKey } : {}) };
      },
      () => ({ ...(input?.default !== undefined ? { default: input.default } : {}), ...(input?.apiKey ? { apiKey: input.apiKey } : {}) }),
    );
  }

  /** Switches an environment's panic mode (while on, its decisions serve no campaign), through the remote control. */
  async setPanic(actor: string, account: string, environment: string, panic: boolean): Promise<EnvironmentRecord> {
    checkActor(actor);
    const target = `accounts/${account}/environments/${environment}`;
    return this.#audited(
      actor,
      'environment.panic',
      target,
      () => this.#remote.setPanic(account, environment, panic),
      () => (typeof panic === 'boolean' ? { panic } : null),
    );
  }

  /** Creates or replaces one campaign of an environment through the remote control (see `RemoteControl.putCampaign`). */
  async putCampaign(
    actor: string,
    account: string,
    environment: string,
    campaignId: string,
    campaign: unknown,
  ): Promise<EnvironmentRecord> {
    checkActor(actor);
    const target = `accounts/${account}/environments/${environment}/campaigns/${campaignId}`;
    return this.#audited(actor, 'campaign.put', target, () => this.#remote.putCampaign(account, environment, campaignId, campaign));
  }

  // ---- accesses ----

  /** Creates a remote-control access of an account; its client id and secret are answered this once. */
  async createAccess(
    actor: string,
    account: string,
    input: { name: string; environments?: readonly string[]; actions: readonly string[] },
  ): Promise<CreatedAccess> {
    checkActor(actor);
    let hint: string | undefined;
    let id = '';
    return this.#audited(
      actor,
      'access.create',
      `accounts/${account}/accesses`,
      async () => {
        const body = plainObject(input, 'access');
        onlyKnown(body, ['name', 'environments', 'actions'], 'access');
        await this.#account(account);
        const created = await this.#accesses.createAccess({
          account,
          name: body.name as string,
          environments: body.environments as string[] | undefined,
          actions: body.actions as string[],
        });
        hint = `…${created.clientId.slice(-4)}`;
        id = created.id;
        return created;
      },
      () => ({
        ...(id ? { id } : {}),
        ...(typeof input?.name === 'string' ? { name: input.name.slice(0, 100) } : {}),
        ...(Array.isArray(input?.environments) ? { environments: input.environments.slice(0, 20).map(String) } : {}),
        ...(Array.isArray(input?.actions) ? { actions: input.actions.slice(0, 10).map(String) } : {}),
        ...(hint ? { clientIdHint: hint } : {}),
      }),
    );
  }

  /** An account's accesses, oldest first: the preview (no client id, no secret). */
  async listAccesses(account: string): Promise<{ accesses: AccessPreview[] }> {
    await this.#account(account);
    return { accesses: await this.#accesses.listAccesses(account) };
  }

  /** Revokes an access: its tokens stop at once on this instance, within the token cache lifetime elsewhere. */
  async revokeAccess(actor: string, account: string, id: string): Promise<AccessPreview> {
    checkActor(actor);
    return this.#audited(actor, 'access.revoke', `accounts/${account}/accesses/${id}`, async () => {
      await this.#access(account, id);
      await this.#accesses.revokeAccess(id);
      return (await this.#accesses.listAccesses(account)).find((a) => a.id === id)!;
    });
  }

  /** Gives an access a new secret, answered this once; the old one no longer gets tokens. */
  async rotateAccess(actor: string, account: string, id: string): Promise<{ id: string; clientIdHint: string; clientSecret: string }> {
    checkActor(actor);
    return this.#audited(actor, 'access.rotate', `accounts/${account}/accesses/${id}`, async () => {
      const access = await this.#access(account, id);
      const { clientSecret } = await this.#accesses.rotateSecret(id);
      return { id, clientIdHint: `…${access.clientId.slice(-4)}`, clientSecret };
    });
  }

  // ---- catalogs ----

  /** Creates a catalog, with optional settings; its catalog and search keys are answered this once. */
  async createCatalog(
    actor: string,
    input: CreateCatalogSettings,
  ): Promise<CatalogSettingsView & { catalogApiKey: string; searchApiKey: string }> {
    checkActor(actor);
    const identifier = typeof input?.identifier === 'string' ? input.identifier : '';
    return this.#audited(
      actor,
      'catalog.create',
      `catalogs/${identifier}`,
      async () => {
        const body = plainObject(input, 'catalog');
        onlyKnown(body, ['identifier', 'syncIntervalMs', 'search'], 'catalog');
        const settings = checkSettings(body, 'catalog');
        const { catalogApiKey, searchApiKey } = await this.#catalogs.create({ identifier });
        const record = await this.#applySettings(identifier, settings);
        return { ...settingsView(record), catalogApiKey, searchApiKey };
      },
      () => settingsDetail(input),
    );
  }

  /** Every catalog and its settings, by identifier. */
  async listCatalogs(): Promise<{ catalogs: CatalogSettingsView[] }> {
    const [identifiers, stored] = await Promise.all([this.#catalogs.identifiers(), this.#storage.catalogSettings.list()]);
    const byId = new Map(stored.map((s) => [s.identifier, s]));
    return {
      catalogs: identifiers.map((identifier) => settingsView(byId.get(identifier) ?? { identifier, syncIntervalMs: null, search: null })),
    };
  }

  /** A catalog's settings; {@link NotFoundError} for an unknown catalog. */
  async catalogSettings(identifier: string): Promise<CatalogSettingsView> {
    await this.#catalogs.get(identifier);
    return settingsView((await this.#storage.catalogSettings.get(identifier)) ?? { identifier, syncIntervalMs: null, search: null });
  }

  /**
   * Changes a catalog's settings: a new interval restarts its schedule on this instance at once;
   * search settings are read when a search handler first serves the catalog (after a restart,
   * for one already served).
   */
  async updateCatalogSettings(actor: string, identifier: string, input: CatalogSettingsInput): Promise<CatalogSettingsView> {
    checkActor(actor);
    return this.#audited(
      actor,
      'catalog.settings',
      `catalogs/${identifier}`,
      async () => {
        const body = plainObject(input, 'catalog settings');
        onlyKnown(body, ['syncIntervalMs', 'search'], 'catalog settings');
        const settings = checkSettings(body, 'catalog settings');
        await this.#catalogs.get(identifier);
        return settingsView(await this.#applySettings(identifier, settings));
      },
      () => settingsDetail(input),
    );
  }

  /**
   * New catalog key (answered this once; the old one stops at once); with `search: true` a new
   * search key too (else the search key is kept, so public search clients go on working).
   */
  async rotateCatalogKeys(actor: string, identifier: string, input: { search?: boolean } = {}): Promise<CatalogKeys> {
    checkActor(actor);
    return this.#audited(
      actor,
      'catalog.keys',
      `catalogs/${identifier}`,
      async () => {
        const body = plainObject(input, 'key rotation');
        onlyKnown(body, ['search'], 'key rotation');
        if (body.search !== undefined && typeof body.search !== 'boolean')
          fail('key rotation', [{ path: ['search'], message: 'must be true or false' }]);
        await this.#catalogs.get(identifier);
        const catalogApiKey = randomCredential(CATALOG_KEY_PREFIX, 32, this.#random);
        const searchApiKey = body.search === true ? randomCredential(SEARCH_KEY_PREFIX, 32, this.#random) : undefined;
        await this.#catalogs.ensure({ identifier, catalogApiKey, searchApiKey });
        return { identifier, catalogApiKey, ...(searchApiKey ? { searchApiKey } : {}) };
      },
      () => ({ search: input?.search === true }),
    );
  }

  /** Synchronizes a catalog now: its accepted items become the visible ones. */
  async syncCatalog(actor: string, identifier: string): Promise<SyncResult> {
    checkActor(actor);
    return this.#audited(actor, 'catalog.sync', `catalogs/${identifier}`, async () => (await this.#catalogs.get(identifier)).sync());
  }

  /** Adds or replaces items of a catalog in one all-or-nothing batch (see `Catalog.batch`); the audit entry holds their count only. */
  async addItems(actor: string, identifier: string, items: readonly Record<string, unknown>[]): Promise<BatchResult> {
    checkActor(actor);
    const work = async () => (await this.#catalogs.get(identifier)).batch(itemOperations(items));
    const count = () => ({ count: Array.isArray(items) ? items.length : 0 });
    return this.#audited(actor, 'catalog.items.add', `catalogs/${identifier}`, work, count);
  }

  /** Deletes a custom field from a catalog's schema and from every accepted item (see `Catalog.deleteSchemaField`). */
  async deleteSchemaField(actor: string, identifier: string, field: string): Promise<void> {
    checkActor(actor);
    return this.#audited(actor, 'catalog.field.delete', `catalogs/${identifier}/fields/${field}`, async () =>
      (await this.#catalogs.get(identifier)).deleteSchemaField(field),
    );
  }

  /**
   * The search settings stored for a catalog, as this instance last read or wrote them
   * (undefined when none): a search handler's `options` reads it.
   */
  searchSettings(identifier: string): CatalogSearchSettings | undefined {
    return this.#search.get(identifier);
  }

  /**
   * Reads every catalog's stored settings and starts the synchronization schedules they ask
   * for; the host calls it at start. Returns the identifiers that have settings, so a host
   * leaves their schedules to this service.
   */
  async start(): Promise<string[]> {
    const all = await this.#storage.catalogSettings.list();
    for (const record of all) await this.#follow(record);
    return all.map((r) => r.identifier);
  }

  /** Stops the schedules this service started. */
  stop(): void {
    for (const schedule of this.#schedules.values()) schedule.stop();
    this.#schedules.clear();
  }

  // ---- audit ----

  /** The audit log, newest first, a page at a time (`limit` up to 100, `before` the previous page's `next`). */
  async audit(options: { before?: number; limit?: number } = {}): Promise<AuditPage> {
    return this.#audit.page(options);
  }

  // ---- helpers ----

  async #audited<T>(
    actor: string,
    action: string,
    target: string,
    work: () => Promise<T>,
    detail: () => Record<string, unknown> | null = () => null,
  ): Promise<T> {
    let result: T;
    try {
      result = await work();
    } catch (error) {
      // The refusal is recorded too; a failing audit store must not hide the first error.
      await this.#audit.record(actor, action, target, outcomeOf(error), detail()).catch(() => undefined);
      throw error;
    }
    await this.#audit.record(actor, action, target, 'ok', detail());
    return result;
  }

  async #accountExists(id: string): Promise<boolean> {
    return (await this.#storage.accounts.get(id)) !== undefined || (await this.#storage.environments.list(id)).length > 0;
  }

  /** The account's record (undefined for one that exists only through its environments); NotFoundError when it does not exist. */
  async #account(id: string): Promise<AccountRecord | undefined> {
    const record = await this.#storage.accounts.get(id);
    if (record) return record;
    if ((await this.#storage.environments.list(id)).length > 0) return undefined;
    throw new NotFoundError(`account "${id}" does not exist`);
  }

  async #environment(account: string, id: string): Promise<EnvironmentRecord> {
    const record = await this.#engine.getEnvironment(id);
    if (!record || record.accountId !== account) throw new NotFoundError(`environment "${id}" does not exist in account "${account}"`);
    return record;
  }

  async #access(account: string, id: string): Promise<AccessRecord> {
    const access = await this.#storage.accesses.get(id);
    if (!access || access.accountId !== account) throw new NotFoundError(`access "${id}" does not exist in account "${account}"`);
    return access;
  }

  /** Records the account's default; an account that existed only through environments gets its record now. */
  async #setDefault(account: string, environment: string | null): Promise<string | null> {
    if (!(await this.#storage.accounts.setDefaultEnvironment(account, environment))) {
      await this.#storage.accounts.create({ id: account, createdAt: this.#clock(), defaultEnvironment: environment }).catch((error) => {
        if (!(error instanceof ConflictError)) throw error;
        return this.#storage.accounts.setDefaultEnvironment(account, environment);
      });
    }
    return environment;
  }

  async #applySettings(identifier: string, settings: CatalogSettingsInput): Promise<CatalogSettingsRecord> {
    const current = await this.#storage.catalogSettings.get(identifier);
    const record: CatalogSettingsRecord = {
      identifier,
      syncIntervalMs: settings.syncIntervalMs !== undefined ? settings.syncIntervalMs : (current?.syncIntervalMs ?? null),
      search: settings.search !== undefined ? settings.search : (current?.search ?? null),
      updatedAt: this.#clock(),
    };
    if (current || settings.syncIntervalMs !== undefined || settings.search !== undefined) {
      await this.#storage.catalogSettings.put(record);
      await this.#follow(record);
    }
    return record;
  }

  /** Applies stored settings on this instance: the schedule (restarted at its interval) and the search settings. */
  async #follow(record: CatalogSettingsRecord): Promise<void> {
    if (record.search) this.#search.set(record.identifier, record.search as CatalogSearchSettings);
    else this.#search.delete(record.identifier);
    this.#schedules.get(record.identifier)?.stop();
    this.#schedules.delete(record.identifier);
    if (record.syncIntervalMs === null) return;
    // A catalog deleted behind this instance's back keeps no schedule.
    const catalog = await this.#catalogs.get(record.identifier).catch(() => undefined);
    // Another change may have started one meanwhile: the last one wins.
    this.#schedules.get(record.identifier)?.stop();
    if (catalog) this.#schedules.set(record.identifier, catalog.startSync({ intervalMs: record.syncIntervalMs }));
  }
}
