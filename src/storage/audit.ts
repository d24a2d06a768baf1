/**
 * One entry of the audit log: who did which admin action on what, when, and how it ended.
 * Never a secret: a created access's client id appears only as its hint, keys not at all.
 *
 * @example
 * ```ts
 * const [latest]: AuditEntry[] = await storage.audit.list({ limit: 1 });
 * if (latest) console.log(`${new Date(latest.time).toISOString()} ${latest.actor} ${latest.action} ${latest.target}: ${latest.outcome}`);
 * ```
 */
export interface AuditEntry {
  /** Position in the log, assigned by the store: larger is newer; the cursor of {@link AuditStore.list}. */
  readonly seq: number;
  /** Who acted: an admin key's name, the host's user, `cli`. At most 100 characters. */
  readonly actor: string;
  /** What was done, as `<object>.<verb>` (`access.create`, `environment.update`). At most 100 characters. */
  readonly action: string;
  /** What it was done to, as a path (`accounts/acme/accesses/acc_x`). At most 300 characters. */
  readonly target: string;
  /** Epoch milliseconds. */
  readonly time: number;
  /** `ok`, or the error code the action failed with (`validation_error`, `not_found`, …). */
  readonly outcome: string;
  /** What else tells the entry apart (a name, the actions granted, which settings changed); no secret. Its JSON is at most 2,000 characters. */
  readonly detail: Readonly<Record<string, unknown>> | null;
}

/**
 * What {@link AuditStore.append} takes: an entry without its position.
 *
 * @example
 * ```ts
 * const write: AuditWrite = { actor: 'ops', action: 'access.revoke', target: 'accounts/acme/accesses/acc_1', time: Date.now(), outcome: 'ok', detail: null };
 * await storage.audit.append(write);
 * ```
 */
export type AuditWrite = Omit<AuditEntry, 'seq'>;

/**
 * Port: the audit log of admin actions, append-only, read newest first a page at a time.
 *
 * @example
 * ```ts
 * const audit: AuditStore = storage.audit;
 * const first = await audit.list({ limit: 50 });
 * const next = await audit.list({ before: first.at(-1)?.seq, limit: 50 }); // the 50 before those
 * ```
 */
export interface AuditStore {
  /** Appends an entry and returns it with its position. */
  append(entry: AuditWrite): Promise<AuditEntry>;
  /**
   * Entries newest first: those older than `before` (a {@link AuditEntry.seq}) when given, at
   * most `limit` of them. A store may forget the oldest entries (the memory adapter keeps its
   * newest `maxAuditEntries`).
   */
  list(options: { before?: number; limit: number }): Promise<AuditEntry[]>;
}
