import { LRUCache } from 'lru-cache';
import { credentialHash, randomCredential, secureRandom, type RandomSource } from '../crypto';
import { AuthenticationError, PermissionError, ValidationError } from '../errors';
import type { Storage } from '../storage/storage';
import type { TokenRecord } from '../storage/tokens';
import { AccessManager } from './access-manager';
import { ACCESS_ACTIONS } from './actions';
import { AdminKeys } from './admin-keys';

/**
 * Prefix of every access token, so leaked tokens are easy to recognise and scan for.
 *
 * @example
 * ```ts
 * const leaked = new RegExp(`${ACCESS_TOKEN_PREFIX}[A-Za-z0-9_-]{43}`); // the prefix, then 256 bits in base64url
 * const logLine = `token ${ACCESS_TOKEN_PREFIX}${'A'.repeat(43)} issued`;
 * if (leaked.test(logLine)) console.warn('an access token reached the logs');
 * ```
 */
export const ACCESS_TOKEN_PREFIX = 'abk_at_';

/**
 * Options of {@link TokenService}.
 *
 * @example
 * ```ts
 * const options: TokenServiceOptions = { storage, accesses, defaultLifetimeSeconds: 900, maxLifetimeSeconds: 3600, cacheTtlMs: 500 };
 * const tokens = new TokenService(options);
 * ```
 */
export interface TokenServiceOptions {
  /** Where the issued tokens live (hashed). */
  storage: Storage;
  /**
   * The accesses tokens are issued for; its revocations clear this service's cache at once.
   * @defaultValue `new AccessManager({ storage })`
   */
  accesses?: AccessManager;
  /**
   * Lifetime of a token requested without `expiresIn`, or with 0, in seconds.
   * @defaultValue `3600` (1 hour)
   */
  defaultLifetimeSeconds?: number;
  /**
   * Longest lifetime, in seconds; a longer request is clamped to it (the response states the real value).
   * @defaultValue `86400` (24 hours)
   */
  maxLifetimeSeconds?: number;
  /**
   * How long a verified token is trusted without re-reading the store, in milliseconds: the
   * delay before a revocation made by another instance takes effect here.
   * @defaultValue `2000`
   */
  cacheTtlMs?: number;
  /** Maximum verified tokens kept in memory (LRU). @defaultValue `10000` */
  cacheSize?: number;
  /** Current time in epoch milliseconds. @defaultValue the clock of `Date.now` */
  clock?: () => number;
  /** Random bytes for tokens. @defaultValue Web Crypto `getRandomValues` */
  random?: RandomSource;
  /**
   * Admin credentials {@link TokenService.authorize} also accepts, with every action on every
   * account and environment (the admin API's keys, so that scripts and the console use the
   * remote-control routes). @defaultValue none
   */
  adminKeys?: AdminKeys;
}

/**
 * What {@link TokenService.issue} takes (the client-credentials grant).
 *
 * @example
 * ```ts
 * const input: IssueTokenInput = { accountId: 'acme', clientId, clientSecret, scope: 'campaigns.read', expiresIn: 900 };
 * const { accessToken } = await tokens.issue(input);
 * ```
 */
export interface IssueTokenInput {
  accountId: string;
  clientId: string;
  clientSecret: string;
  /** `*` (every action of the access) or a space-separated subset. @defaultValue `'*'` */
  scope?: string;
  /** Requested lifetime in seconds: absent or 0 = default; above the maximum = clamped. */
  expiresIn?: number;
}

/**
 * An issued token (RFC 6749 §5.1 in library form).
 *
 * @example
 * ```ts
 * const token: IssuedToken = await tokens.issue({ accountId: 'acme', clientId, clientSecret });
 * const headers = { authorization: `${token.tokenType} ${token.accessToken}` }; // valid for token.expiresIn seconds
 * ```
 */
export interface IssuedToken {
  readonly accessToken: string;
  readonly tokenType: 'Bearer';
  /** The real lifetime in seconds, after defaulting and clamping. */
  readonly expiresIn: number;
  /** Space-separated actions the token carries. */
  readonly scope: string;
  /** Epoch milliseconds. */
  readonly expiresAt: number;
}

/**
 * What a valid token carries.
 *
 * @example
 * ```ts
 * const info: TokenInfo = await tokens.authorize(accessToken, { account: 'acme', action: 'campaigns.read' });
 * console.log(info.clientId, info.actions, new Date(info.exp * 1000));
 * ```
 */
export interface TokenInfo {
  readonly accessId: string;
  readonly accountId: string;
  readonly clientId: string;
  readonly actions: readonly string[];
  /** Empty means every environment of the account. */
  readonly environments: readonly string[];
  /** Epoch seconds. */
  readonly iat: number;
  /** Epoch seconds. */
  readonly exp: number;
}

/**
 * The token check (RFC 7662 in library form).
 *
 * @example
 * ```ts
 * const check: Introspection = await tokens.introspect(accessToken);
 * if (check.active) console.log(check.accountId, check.scope, new Date(check.exp * 1000));
 * ```
 */
export type Introspection = ({ readonly active: true } & TokenInfo & { readonly scope: string }) | { readonly active: false };

/**
 * What a call needs from a token.
 *
 * @example
 * ```ts
 * const need: Requirement = { account: 'acme', action: 'panic.write', environment: 'prod' };
 * const claims = await tokens.authorize(accessToken, need); // PermissionError when the token lacks it
 * ```
 */
export interface Requirement {
  /** Account in the URL; the token must belong to it. */
  account: string;
  /** Action the endpoint requires. */
  action: string;
  /**
   * Environment acted on. A token of an access with no environment list accepts any id here:
   * the caller checks that the environment belongs to `account` (as {@link abkit!RemoteControl} does).
   */
  environment?: string;
}

// How often issuing a token also deletes expired ones.
const PURGE_INTERVAL_MS = 3_600_000;

function positiveInteger(value: number, name: string): number {
  if (!Number.isInteger(value) || value < 1) throw new TypeError(`TokenService: ${name} must be a positive integer, got ${value}`);
  return value;
}

/**
 * Bearer tokens for remote control: issued for client credentials, checked, and used to
 * authorize actions on environments. Tokens are opaque (`abk_at_` + 256 random bits), stored
 * only as hashes, and refused once expired or once their access is revoked.
 *
 * Lifetimes: `expiresIn` absent or 0 gives `defaultLifetimeSeconds`; above `maxLifetimeSeconds`
 * it is clamped; the issued token states the real value.
 *
 * @example
 * ```ts
 * const tokens = new TokenService({ storage, accesses });
 * const { accessToken } = await tokens.issue({ accountId: 'acme', clientId, clientSecret, scope: '*' });
 * await tokens.authorize(accessToken, { account: 'acme', action: 'campaigns.write', environment: 'prod' });
 * ```
 */
export class TokenService {
  /** The access manager whose accesses this service issues tokens for. */
  readonly accesses: AccessManager;
  readonly #storage: Storage;
  readonly #defaultLifetime: number;
  readonly #maxLifetime: number;
  readonly #clock: () => number;
  readonly #random: RandomSource;
  readonly #cache: LRUCache<string, TokenRecord>;
  // A revocation through `accesses` clears the cache at once (compared, not subscribed, so a
  // discarded service is not kept alive by the manager).
  #seenRevocations: number;
  #lastPurge = -Infinity;
  readonly #adminKeys: AdminKeys | undefined;

  /** Creates a service; a bad option throws a `TypeError` prefixed `TokenService:`. */
  constructor(options: TokenServiceOptions) {
    const {
      storage,
      accesses = new AccessManager({ storage }),
      defaultLifetimeSeconds = 3600,
      maxLifetimeSeconds = 86_400,
      cacheTtlMs = 2000,
      cacheSize = 10_000,
      clock = Date.now,
      random = secureRandom,
      adminKeys,
    } = options;
    if (adminKeys !== undefined && !(adminKeys instanceof AdminKeys)) throw new TypeError('TokenService: adminKeys must be an AdminKeys');
    positiveInteger(defaultLifetimeSeconds, 'defaultLifetimeSeconds');
    positiveInteger(maxLifetimeSeconds, 'maxLifetimeSeconds');
    positiveInteger(cacheTtlMs, 'cacheTtlMs');
    positiveInteger(cacheSize, 'cacheSize');
    if (typeof clock !== 'function') throw new TypeError('TokenService: clock must be a function returning epoch milliseconds');
    if (typeof random !== 'function') throw new TypeError('TokenService: random must be a function returning random bytes');
    if (typeof storage?.tokens?.get !== 'function')
      throw new TypeError('TokenService: storage must be a Storage (memoryStorage(), sqliteStorage() or postgresStorage())');
    if (!(accesses instanceof AccessManager)) throw new TypeError('TokenService: accesses must be an AccessManager');
    if (defaultLifetimeSeconds > maxLifetimeSeconds) {
      throw new TypeError(
        `TokenService: defaultLifetimeSeconds (${defaultLifetimeSeconds}) exceeds maxLifetimeSeconds (${maxLifetimeSeconds})`,
      );
    }
    this.#storage = storage;
    this.accesses = accesses;
    this.#defaultLifetime = defaultLifetimeSeconds;
    this.#maxLifetime = maxLifetimeSeconds;
    this.#clock = clock;
    this.#random = random;
    // ttlResolution 0: expiry follows the injected clock exactly, even a fake one.
    this.#cache = new LRUCache({ max: cacheSize, ttl: cacheTtlMs, ttlResolution: 0, perf: { now: () => this.#clock() } });
    this.#seenRevocations = accesses.revocations;
    this.#adminKeys = adminKeys;
  }

  /**
   * Issues a token for client credentials (the `client_credentials` grant). Throws
   * {@link AuthenticationError} `invalid_client` for bad credentials (unknown client, wrong
   * secret, other account, revoked access), {@link ValidationError} `invalid_scope` for a scope
   * the access does not hold, and `invalid_request` for a bad `expiresIn`.
   */
  async issue(input: IssueTokenInput): Promise<IssuedToken> {
    const { accountId, clientId, clientSecret, scope = '*', expiresIn } = input;
    for (const [name, value] of [
      ['client_id', clientId],
      ['client_secret', clientSecret],
    ] as const) {
      if (typeof value !== 'string' || value === '')
        throw new ValidationError(`${name} is required`, [{ path: [name], message: 'required' }], 'invalid_request');
    }
    if (expiresIn !== undefined && (!Number.isInteger(expiresIn) || expiresIn < 0)) {
      throw new ValidationError(
        'expires_in must be a non-negative integer number of seconds',
        [{ path: ['expires_in'], message: 'not a non-negative integer' }],
        'invalid_request',
      );
    }
    if (typeof scope !== 'string')
      throw new ValidationError('scope must be a string', [{ path: ['scope'], message: 'not a string' }], 'invalid_request');
    const access = await this.accesses.verifyClient(accountId, clientId, clientSecret);
    const requested = scope.trim() === '' || scope.trim() === '*' ? [...access.actions] : [...new Set(scope.trim().split(/\s+/))];
    const missing = requested.filter((a) => !access.actions.includes(a));
    if (missing.length > 0) {
      throw new ValidationError(
        `scope ${missing.join(' ')} is not granted to this client`,
        [{ path: ['scope'], message: `not granted: ${missing.join(' ')}` }],
        'invalid_scope',
      );
    }
    const lifetime = !expiresIn ? this.#defaultLifetime : Math.min(expiresIn, this.#maxLifetime);
    const now = this.#clock();
    const token = randomCredential(ACCESS_TOKEN_PREFIX, 32, this.#random);
    const record: TokenRecord = {
      tokenHash: await credentialHash(token, this.accesses.pepper),
      accessId: access.id,
      accountId: access.accountId,
      clientId: access.clientId,
      actions: requested,
      environments: access.environments,
      issuedAt: now,
      expiresAt: now + lifetime * 1000,
    };
    await this.#storage.tokens.save(record);
    await this.accesses.recordUse(access.id);
    // Expired tokens are useless rows: sweep them now and then, so the table does not grow forever.
    if (now - this.#lastPurge >= PURGE_INTERVAL_MS) {
      this.#lastPurge = now;
      this.purgeExpired().catch(() => undefined);
    }
    return { accessToken: token, tokenType: 'Bearer', expiresIn: lifetime, scope: requested.join(' '), expiresAt: record.expiresAt };
  }

  /** Checks a token: its claims when active, `{ active: false }` when unknown, expired or revoked. */
  async introspect(token: string): Promise<Introspection> {
    const record = await this.#verify(token);
    if (!record) return { active: false };
    return { active: true, ...info(record), scope: record.actions.join(' ') };
  }

  /**
   * Authorizes a call: resolves with the token's claims, or throws {@link AuthenticationError}
   * `invalid_token` (unknown, expired, revoked) or {@link PermissionError} `insufficient_scope`
   * (other account, action or environment not held).
   */
  async authorize(token: string, need: Requirement): Promise<TokenInfo> {
    // An admin key is no access token (it lacks the prefix): it holds every action everywhere.
    if (this.#adminKeys && typeof token === 'string' && !token.startsWith(ACCESS_TOKEN_PREFIX)) {
      const actor = await this.#adminKeys.actorOf(token);
      if (actor !== undefined) {
        const now = Math.floor(this.#clock() / 1000);
        return {
          accessId: `admin:${actor}`,
          accountId: need.account,
          clientId: actor,
          actions: ACCESS_ACTIONS,
          environments: [],
          iat: now,
          exp: now,
        };
      }
    }
    const record = await this.#verify(token);
    if (!record) throw new AuthenticationError('the access token is invalid, expired or revoked', 'invalid_token');
    if (record.accountId !== need.account)
      throw new PermissionError(`this token does not belong to account "${need.account}"`, 'insufficient_scope');
    if (!record.actions.includes(need.action))
      throw new PermissionError(`this token does not carry the action ${need.action}`, 'insufficient_scope');
    if (need.environment !== undefined && record.environments.length > 0 && !record.environments.includes(need.environment)) {
      throw new PermissionError(`this token may not act on environment "${need.environment}"`, 'insufficient_scope');
    }
    return info(record);
  }

  /** Deletes expired tokens from the store; returns how many. */
  async purgeExpired(): Promise<number> {
    return this.#storage.tokens.deleteExpired(this.#clock());
  }

  async #verify(token: string): Promise<TokenRecord | undefined> {
    if (typeof token !== 'string' || !token.startsWith(ACCESS_TOKEN_PREFIX) || token.length > 256) return undefined;
    const hash = await credentialHash(token, this.accesses.pepper);
    const now = this.#clock();
    if (this.#seenRevocations !== this.accesses.revocations) {
      this.#seenRevocations = this.accesses.revocations;
      this.#cache.clear();
    }
    let record = this.#cache.get(hash);
    if (!record) {
      const stored = await this.#storage.tokens.get(hash);
      if (!stored || !(await this.accesses.isActive(stored.accessId))) return undefined;
      record = stored;
      this.#cache.set(hash, record);
    }
    return record.expiresAt > now ? record : undefined;
  }
}

function info(record: TokenRecord): TokenInfo {
  return {
    accessId: record.accessId,
    accountId: record.accountId,
    clientId: record.clientId,
    actions: record.actions,
    environments: record.environments,
    iat: Math.floor(record.issuedAt / 1000),
    exp: Math.floor(record.expiresAt / 1000),
  };
}
