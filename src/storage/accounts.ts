/**
 * An account as the admin API created it. Accounts that only ever existed through
 * environments (`engine.load`, a bootstrap file) have no record: an account exists when it has
 * a record or an environment.
 *
 * @example
 * ```ts
 * const account: AccountRecord | undefined = await storage.accounts.get('acme');
 * console.log(account?.defaultEnvironment ?? 'no default environment');
 * ```
 */
export interface AccountRecord {
  /** Account id: 1–128 characters. */
  readonly id: string;
  /** Epoch milliseconds. */
  readonly createdAt: number;
  /** The environment marked default for this account, or null. */
  readonly defaultEnvironment: string | null;
}

/**
 * Port: accounts created through the admin API.
 *
 * @example
 * ```ts
 * const accounts: AccountStore = storage.accounts;
 * await accounts.create({ id: 'acme', createdAt: Date.now(), defaultEnvironment: null });
 * await accounts.setDefaultEnvironment('acme', 'prod');
 * ```
 */
export interface AccountStore {
  /** Stores a new account; `ConflictError` when the id is taken. */
  create(record: AccountRecord): Promise<void>;
  /** The account, or undefined. */
  get(id: string): Promise<AccountRecord | undefined>;
  /** Accounts ordered by id, at most `limit`. */
  list(limit: number): Promise<AccountRecord[]>;
  /** Sets (or, with null, clears) the account's default environment; false when the account has no record. */
  setDefaultEnvironment(id: string, environment: string | null): Promise<boolean>;
}
