/**
 * A remote-control access as stored: never its secret, only the secret's hash.
 *
 * @example
 * ```ts
 * const access: AccessRecord = await accesses.verifyClient('acme', clientId, clientSecret);
 * console.log(access.id, access.actions, access.revokedAt === null);
 * ```
 */
export interface AccessRecord {
  /** Access id (not secret), used to revoke. */
  readonly id: string;
  readonly accountId: string;
  readonly name: string;
  /** Environment ids; empty means every environment of the account, present and future. */
  readonly environments: readonly string[];
  /** Authorized actions (see `ACCESS_ACTIONS`). */
  readonly actions: readonly string[];
  /** Public client id, unique across accounts. */
  readonly clientId: string;
  /** Keyed SHA-256 (hex) of the client secret. */
  readonly secretHash: string;
  /** Epoch milliseconds. */
  readonly createdAt: number;
  /** Epoch milliseconds of revocation, or null while active. */
  readonly revokedAt: number | null;
  /** Epoch milliseconds of the last token issued for it, or null before the first. */
  readonly lastUsedAt: number | null;
}

/**
 * Port: remote-control accesses.
 *
 * @example
 * ```ts
 * const store: AccessStore = storage.accesses;
 * const access = await store.getByClientId(clientId);
 * if (access && access.revokedAt === null) await store.revoke(access.id, Date.now());
 * ```
 */
export interface AccessStore {
  /** Stores a new access; `ConflictError` when its id or client id is taken. */
  create(record: AccessRecord): Promise<void>;
  /** By access id. */
  get(id: string): Promise<AccessRecord | undefined>;
  /** By client id. */
  getByClientId(clientId: string): Promise<AccessRecord | undefined>;
  /** Every access of an account (revoked ones too), oldest first. */
  list(accountId: string): Promise<AccessRecord[]>;
  /** Marks the access revoked at `at` (kept for audit); false when unknown or already revoked. */
  revoke(id: string, at: number): Promise<boolean>;
  /** Replaces the secret's hash (rotation); false when the access is unknown or revoked. */
  rotateSecret(id: string, secretHash: string): Promise<boolean>;
  /** Records that a token was issued for the access at `at` (kept when a later time is stored). */
  touch(id: string, at: number): Promise<void>;
}
