/**
 * An issued bearer token as stored: only its hash, never the token.
 *
 * @example
 * ```ts
 * const tokenHash = 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855'; // keyed SHA-256 of a token, hex
 * const record: TokenRecord | undefined = await storage.tokens.get(tokenHash);
 * if (record) console.log(record.accessId, record.actions, record.expiresAt > Date.now());
 * ```
 */
export interface TokenRecord {
  /** Keyed SHA-256 (hex) of the token. */
  readonly tokenHash: string;
  readonly accessId: string;
  readonly accountId: string;
  readonly clientId: string;
  /** Actions the token carries (a subset of its access's). */
  readonly actions: readonly string[];
  /** Copied from the access: empty means every environment of the account. */
  readonly environments: readonly string[];
  /** Epoch milliseconds. */
  readonly issuedAt: number;
  /** Epoch milliseconds. */
  readonly expiresAt: number;
}

/**
 * Port: issued tokens. Revocation is read from the access, so one write revokes them all.
 *
 * @example
 * ```ts
 * const store: TokenStore = storage.tokens;
 * const removed = await store.deleteExpired(Date.now()); // what TokenService.purgeExpired does
 * ```
 */
export interface TokenStore {
  /** Stores a token; `ConflictError` when the hash exists. */
  save(record: TokenRecord): Promise<void>;
  /** By token hash. */
  get(tokenHash: string): Promise<TokenRecord | undefined>;
  /** Deletes tokens expired before `now`; returns how many. */
  deleteExpired(now: number): Promise<number>;
}
