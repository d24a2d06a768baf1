import { constantTimeEqual, credentialHash, randomCredential, secureRandom, type RandomSource } from '../crypto';
import { AuthenticationError, ConflictError, formatPath, NotFoundError, ValidationError, type ErrorDetail } from '../errors';
import type { AccessRecord } from '../storage/accesses';
import type { Storage } from '../storage/storage';
import { ACCESS_ACTIONS, isAccessAction, type AccessAction } from './actions';

/**
 * Prefix of generated client ids.
 *
 * @example
 * ```ts
 * const { clientId } = await accesses.createAccess({ account: 'acme', name: 'ci', actions: ['campaigns.read'] });
 * clientId.startsWith(CLIENT_ID_PREFIX); // true: 'abk_ci_...'
 * ```
 */
export const CLIENT_ID_PREFIX = 'abk_ci_';
/**
 * Prefix of generated client secrets.
 *
 * @example
 * ```ts
 * const { clientSecret } = await accesses.createAccess({ account: 'acme', name: 'ci', actions: ['campaigns.read'] });
 * clientSecret.startsWith(CLIENT_SECRET_PREFIX); // true: 'abk_cs_...'
 * ```
 */
export const CLIENT_SECRET_PREFIX = 'abk_cs_';

/**
 * Options of {@link AccessManager}.
 *
 * @example
 * ```ts
 * const options: AccessManagerOptions = { storage, pepper: process.env.ABKIT_PEPPER };
 * const accesses = new AccessManager(options);
 * ```
 */
export interface AccessManagerOptions {
  /** Where accesses live; environments are checked against it ({@link createAbkit} defaults it to `memoryStorage()`). */
  storage: Storage;
  /**
   * Server-side key mixed into the stored hash of every secret (HMAC-SHA-256). Changing it
   * invalidates every stored secret. @defaultValue none (plain SHA-256)
   */
  pepper?: string;
  /** Current time in epoch milliseconds. @defaultValue `Date.now` */
  clock?: () => number;
  /** Random bytes for ids and secrets. @defaultValue Web Crypto `getRandomValues` */
  random?: RandomSource;
  /**
   * Most accesses one account may have, revoked ones included (they are kept for audit);
   * {@link AccessManager.createAccess} refuses more with a `ConflictError`.
   * @defaultValue `1000`
   */
  maxAccessesPerAccount?: number;
}

/**
 * What {@link AccessManager.createAccess} takes.
 *
 * @example
 * ```ts
 * const input: CreateAccessInput = { account: 'acme', name: 'ci-deploy', environments: ['staging', 'prod'], actions: ['campaigns.read', 'campaigns.write'] };
 * const created = await accesses.createAccess(input);
 * ```
 */
export interface CreateAccessInput {
  /** Account the access belongs to. */
  account: string;
  /** A name to recognise it by, 1–100 characters. */
  name: string;
  /** Environments it may act on; empty or absent means every environment of the account. */
  environments?: readonly string[];
  /** Authorized actions, from {@link ACCESS_ACTIONS}; at least one. */
  actions: readonly string[];
  /** Fixed client id (bootstrap files, tests); generated when absent. 1–128 visible ASCII characters (RFC 6749 sets no minimum). */
  clientId?: string;
  /**
   * Fixed access id (a bootstrap file's accesses are `bootstrap_…`, which marks them as the file's);
   * generated (`acc_…`) when absent. 1–64 letters, digits, `_` and `-`.
   */
  id?: string;
  /** Fixed client secret (bootstrap files, tests); generated (256 random bits) when absent. At least 32 characters. */
  clientSecret?: string;
}

/**
 * A newly created access, the only time its client id and secret are shown.
 *
 * @example
 * ```ts
 * const created: CreatedAccess = await accesses.createAccess({ account: 'acme', name: 'ci-deploy', actions: ['campaigns.write'] });
 * console.log(created.clientId, created.clientSecret); // shown only now: keep them in a secret manager
 * ```
 */
export interface CreatedAccess {
  readonly id: string;
  readonly accountId: string;
  readonly name: string;
  readonly environments: readonly string[];
  readonly actions: readonly AccessAction[];
  readonly clientId: string;
  readonly clientSecret: string;
  readonly createdAt: number;
}

/**
 * An access as listed: no client id, no secret, no hash.
 *
 * @example
 * ```ts
 * const previews: AccessPreview[] = await accesses.listAccesses('acme');
 * for (const a of previews) console.log(a.name, a.clientIdHint, a.status);
 * ```
 */
export interface AccessPreview {
  readonly id: string;
  readonly accountId: string;
  readonly name: string;
  readonly environments: readonly string[];
  readonly actions: readonly string[];
  /** Last four characters of the client id, to tell accesses apart. */
  readonly clientIdHint: string;
  readonly createdAt: number;
  /** Epoch milliseconds of the last token issued with it, or null before the first. */
  readonly lastUsedAt: number | null;
  readonly revokedAt: number | null;
  readonly status: 'active' | 'revoked';
}

/**
 * A rotated access's new secret, the only time it is shown.
 *
 * @example
 * ```ts
 * const { id } = await accesses.createAccess({ account: 'acme', name: 'ci', actions: ['campaigns.read'] });
 * const rotated: RotatedSecret = await accesses.rotateSecret(id);
 * console.log(rotated.clientSecret); // the old secret no longer gets tokens
 * ```
 */
export interface RotatedSecret {
  readonly id: string;
  readonly clientSecret: string;
}

const VISIBLE_ASCII = /^[\x21-\x7e]+$/;

/**
 * Default most accesses per account (see {@link AccessManagerOptions.maxAccessesPerAccount}).
 *
 * @example
 * ```ts
 * const previews = await accesses.listAccesses('acme');
 * if (previews.length >= MAX_ACCESSES_PER_ACCOUNT) console.warn('acme cannot create another access');
 * ```
 */
export const MAX_ACCESSES_PER_ACCOUNT = 1000;

/**
 * Remote-control accesses: named credentials restricted to environments and actions.
 * Secrets are returned once by {@link AccessManager.createAccess} and stored only as hashes.
 *
 * @example
 * ```ts
 * const accesses = new AccessManager({ storage });
 * const { clientId, clientSecret } = await accesses.createAccess({
 *   account: 'acme', name: 'deploy-bot', environments: ['prod'], actions: ['campaigns.read'],
 * });
 * ```
 */
export class AccessManager {
  /** The storage the accesses live in. */
  readonly storage: Storage;
  readonly #pepper: string | undefined;
  readonly #clock: () => number;
  readonly #random: RandomSource;
  readonly #listeners = new Set<(accessId: string) => void>();
  readonly #maxPerAccount: number;
  #revocations = 0;

  /** Creates a manager; a bad option throws a `TypeError` prefixed `AccessManager:`. */
  constructor(options: AccessManagerOptions) {
    const { storage, pepper, clock = Date.now, random = secureRandom, maxAccessesPerAccount = MAX_ACCESSES_PER_ACCOUNT } = options;
    if (!Number.isInteger(maxAccessesPerAccount) || maxAccessesPerAccount < 1)
      throw new TypeError(`AccessManager: maxAccessesPerAccount must be a positive integer, got ${maxAccessesPerAccount}`);
    if (pepper !== undefined && (typeof pepper !== 'string' || pepper.length < 16)) {
      throw new TypeError('AccessManager: pepper must be a string of at least 16 characters');
    }
    if (typeof storage?.accesses?.get !== 'function')
      throw new TypeError('AccessManager: storage must be a Storage (memoryStorage(), sqliteStorage() or postgresStorage())');
    if (typeof clock !== 'function') throw new TypeError('AccessManager: clock must be a function');
    if (typeof random !== 'function') throw new TypeError('AccessManager: random must be a function');
    this.storage = storage;
    this.#pepper = pepper;
    this.#clock = clock;
    this.#random = random;
    this.#maxPerAccount = maxAccessesPerAccount;
  }

  /**
   * Creates an access. Unknown environments (for that account) and unknown actions are
   * rejected by name with a {@link ValidationError}.
   */
  async createAccess(input: CreateAccessInput): Promise<CreatedAccess> {
    const details: ErrorDetail[] = [];
    const { account, name } = input ?? ({} as CreateAccessInput);
    if (typeof account !== 'string' || account === '') details.push({ path: ['account'], message: 'must be a non-empty string' });
    if (typeof name !== 'string' || name.trim() === '' || name.length > 100)
      details.push({ path: ['name'], message: 'must be 1 to 100 characters' });
    const actions = Array.isArray(input?.actions) ? input.actions : [];
    if (!Array.isArray(input?.actions) || actions.length === 0) {
      details.push({ path: ['actions'], message: `must list at least one of ${ACCESS_ACTIONS.join(', ')}` });
    }
    actions.forEach((a, i) => {
      if (!isAccessAction(a))
        details.push({ path: ['actions', i], message: `unknown action ${JSON.stringify(a)}; known: ${ACCESS_ACTIONS.join(', ')}` });
    });
    const environments = input?.environments ?? [];
    if (!Array.isArray(environments)) details.push({ path: ['environments'], message: 'must be an array of environment ids' });
    else if (typeof account === 'string' && account !== '') {
      const known = new Set((await this.storage.environments.list(account)).map((e) => e.id));
      environments.forEach((e, i) => {
        if (typeof e !== 'string' || !known.has(e))
          details.push({ path: ['environments', i], message: `unknown environment ${JSON.stringify(e)} for account "${account}"` });
      });
    }
    const { clientId, clientSecret, id } = input ?? {};
    if (id !== undefined && (typeof id !== 'string' || !/^[A-Za-z0-9_-]{1,64}$/.test(id)))
      details.push({ path: ['id'], message: 'must be 1 to 64 letters, digits, _ and -' });
    if (
      clientId !== undefined &&
      (typeof clientId !== 'string' || clientId.length < 1 || clientId.length > 128 || !VISIBLE_ASCII.test(clientId))
    ) {
      details.push({ path: ['clientId'], message: 'must be 1 to 128 visible ASCII characters' });
    }
    if (clientSecret !== undefined && (typeof clientSecret !== 'string' || clientSecret.length < 32 || !VISIBLE_ASCII.test(clientSecret))) {
      details.push({ path: ['clientSecret'], message: 'must be at least 32 visible ASCII characters' });
    }
    if (details.length > 0)
      throw new ValidationError(`invalid access: ${details.map((d) => `${formatPath(d.path)} ${d.message}`).join('; ')}`, details);

    const secret = clientSecret ?? randomCredential(CLIENT_SECRET_PREFIX, 32, this.#random);
    const record: AccessRecord = {
      id: id ?? randomCredential('acc_', 12, this.#random),
      accountId: account,
      name: name.trim(),
      environments: [...new Set(environments)],
      actions: [...new Set(actions)],
      clientId: clientId ?? randomCredential(CLIENT_ID_PREFIX, 16, this.#random),
      secretHash: await credentialHash(secret, this.#pepper),
      createdAt: this.#clock(),
      revokedAt: null,
      lastUsedAt: null,
    };
    if ((await this.storage.accesses.list(account)).length >= this.#maxPerAccount) {
      throw new ConflictError(`account "${account}" already has ${this.#maxPerAccount} accesses, the most it may have; revoked ones count`);
    }
    await this.storage.accesses.create(record);
    return {
      id: record.id,
      accountId: record.accountId,
      name: record.name,
      environments: record.environments,
      actions: record.actions as AccessAction[],
      clientId: record.clientId,
      clientSecret: secret,
      createdAt: record.createdAt,
    };
  }

  /** The account's accesses, oldest first, without client ids or secrets. */
  async listAccesses(account: string): Promise<AccessPreview[]> {
    return (await this.storage.accesses.list(account)).map((a) => ({
      id: a.id,
      accountId: a.accountId,
      name: a.name,
      environments: a.environments,
      actions: a.actions,
      clientIdHint: `…${a.clientId.slice(-4)}`,
      createdAt: a.createdAt,
      lastUsedAt: a.lastUsedAt ?? null,
      revokedAt: a.revokedAt,
      status: a.revokedAt === null ? 'active' : 'revoked',
    }));
  }

  /**
   * Revokes an access: its tokens stop working at once on this instance, and within the token
   * cache lifetime on other instances. Throws {@link NotFoundError} for an unknown id; revoking
   * twice is harmless.
   */
  async revokeAccess(id: string): Promise<void> {
    const access = await this.storage.accesses.get(id);
    if (!access) throw new NotFoundError(`access "${id}" does not exist`);
    await this.storage.accesses.revoke(id, this.#clock());
    this.#revocations++;
    for (const listener of this.#listeners) listener(id);
  }

  /**
   * Gives an active access a new secret, returned once: the old one no longer gets tokens.
   * Tokens issued before keep working until they expire (revoke the access to stop them at
   * once). Throws {@link NotFoundError} for an unknown id and `ConflictError` for a revoked access.
   *
   * @example
   * ```ts
   * const { id } = await accesses.createAccess({ account: 'acme', name: 'ci', actions: ['campaigns.read'] });
   * const { clientSecret } = await accesses.rotateSecret(id);
   * ```
   */
  async rotateSecret(id: string): Promise<RotatedSecret> {
    const access = await this.storage.accesses.get(id);
    if (!access) throw new NotFoundError(`access "${id}" does not exist`);
    const secret = randomCredential(CLIENT_SECRET_PREFIX, 32, this.#random);
    if (!(await this.storage.accesses.rotateSecret(id, await credentialHash(secret, this.#pepper))))
      throw new ConflictError(`access "${id}" is revoked: create a new one`);
    return { id, clientSecret: secret };
  }

  /** Records that a token was just issued for the access (its preview's `lastUsedAt`). @internal */
  async recordUse(id: string): Promise<void> {
    await this.storage.accesses.touch(id, this.#clock());
  }

  /**
   * How many revocations this manager has made: a cache of verified tokens compares it to tell
   * that it must forget them, without holding a listener.
   *
   * @example
   * ```ts
   * const { id } = await accesses.createAccess({ account: 'acme', name: 'ci', environments: [], actions: ['campaigns.read'] });
   * const before = accesses.revocations;
   * await accesses.revokeAccess(id);
   * accesses.revocations === before + 1; // true
   * ```
   */
  get revocations(): number {
    return this.#revocations;
  }

  /** Calls `listener` with the id of every access this manager revokes; returns an unsubscribe function. */
  onRevoke(listener: (accessId: string) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /**
   * Checks client credentials for an account; returns the active access or throws
   * {@link AuthenticationError} with code `invalid_client`, the same for every cause so a caller
   * learns nothing about which part was wrong.
   */
  async verifyClient(account: string, clientId: string, clientSecret: string): Promise<AccessRecord> {
    const access = await this.storage.accesses.getByClientId(clientId);
    // Hash even for an unknown client so both paths take the same time.
    const presented = await credentialHash(clientSecret, this.#pepper);
    const ok = access !== undefined && constantTimeEqual(presented, access.secretHash);
    if (!ok || access.accountId !== account || access.revokedAt !== null) {
      throw new AuthenticationError('client authentication failed', 'invalid_client');
    }
    return access;
  }

  /**
   * The access with this client id, revoked or not, or undefined.
   *
   * @example
   * ```ts
   * const access = await accesses.findByClientId('deploy-bot-client');
   * if (access?.revokedAt === null) console.log(`${access.name} is active`);
   * ```
   */
  async findByClientId(clientId: string): Promise<AccessRecord | undefined> {
    return this.storage.accesses.getByClientId(clientId);
  }

  /**
   * Whether an access exists and is not revoked: what a token issued for it needs to stay valid.
   *
   * @example
   * ```ts
   * const { accessId } = await tokens.authorize(accessToken, { account: 'acme', action: 'campaigns.read' });
   * if (!(await accesses.isActive(accessId))) console.log('revoked: the token no longer works');
   * ```
   */
  async isActive(id: string): Promise<boolean> {
    const access = await this.storage.accesses.get(id);
    return access !== undefined && access.revokedAt === null;
  }

  /** Whether the secret matches the stored hash (bootstrap idempotency); never reveals the hash. */
  async secretMatches(access: AccessRecord, clientSecret: string): Promise<boolean> {
    return constantTimeEqual(await credentialHash(clientSecret, this.#pepper), access.secretHash);
  }

  /** The pepper, for a {@link TokenService} built on this manager. @internal */
  get pepper(): string | undefined {
    return this.#pepper;
  }
}
