import { AbkitError, ValidationError } from '../errors';
import type { AuditEntry, AuditStore } from '../storage/audit';

/**
 * Limits of the audit log: an entry's fields and a page.
 *
 * @example
 * ```ts
 * const page = await abkit.admin.audit({ limit: AUDIT_LIMITS.pageSize });
 * console.log(page.entries.length <= AUDIT_LIMITS.pageSize); // true
 * ```
 */
export const AUDIT_LIMITS = Object.freeze({
  /** Characters of an actor's name. */
  actorLength: 100,
  /** Characters of a target path (longer ones are cut, ending in `…`). */
  targetLength: 300,
  /** Characters of an entry's detail as JSON (a longer one is replaced by a note saying so). */
  detailLength: 2000,
  /** Entries of one page, the most `limit` may ask. */
  pageSize: 100,
  /** Entries of a page when `limit` is not given. */
  defaultPageSize: 50,
});

/**
 * A page of the audit log, newest first, and the cursor of the next (older) page.
 *
 * @example
 * ```ts
 * let page: AuditPage = await abkit.admin.audit({ limit: 100 });
 * while (page.next !== null) page = await abkit.admin.audit({ limit: 100, before: page.next });
 * ```
 */
export interface AuditPage {
  readonly entries: readonly AuditEntry[];
  /** Pass as `before` for the older entries; null when this page is the last. */
  readonly next: number | null;
}

/** Checks an actor's name: what every admin call takes first. */
export function checkActor(actor: unknown): asserts actor is string {
  if (typeof actor !== 'string' || actor.trim() === '' || actor.length > AUDIT_LIMITS.actorLength || /\p{Cc}/u.test(actor)) {
    throw new ValidationError(`actor must be 1 to ${AUDIT_LIMITS.actorLength} printable characters`, [
      { path: ['actor'], message: `must be 1 to ${AUDIT_LIMITS.actorLength} printable characters` },
    ]);
  }
}

/** The outcome an error gives an entry: its stable code, or `internal_error`. */
export function outcomeOf(error: unknown): string {
  return error instanceof AbkitError ? error.code : 'internal_error';
}

/**
 * Writes entries within the limits: the target cut to its length, a detail over its length
 * replaced by a note. Callers build details from what they know holds no secret (names, ids,
 * actions, the hint of a client id); nothing here inspects values.
 */
export class AuditLog {
  constructor(
    private readonly store: AuditStore,
    private readonly clock: () => number,
  ) {}

  async record(actor: string, action: string, target: string, outcome: string, detail: Record<string, unknown> | null): Promise<void> {
    const cut = target.length > AUDIT_LIMITS.targetLength ? `${target.slice(0, AUDIT_LIMITS.targetLength - 1)}…` : target;
    const fits = detail === null || JSON.stringify(detail).length <= AUDIT_LIMITS.detailLength;
    await this.store.append({
      actor,
      action,
      target: cut,
      time: this.clock(),
      outcome,
      detail: fits ? detail : { note: `detail omitted: over ${AUDIT_LIMITS.detailLength} characters` },
    });
  }

  /** A page, newest first; `limit` and `before` are checked and named when wrong. */
  async page(options: { before?: unknown; limit?: unknown } = {}): Promise<AuditPage> {
    const { before, limit = AUDIT_LIMITS.defaultPageSize } = options;
    const problems = [];
    if (!Number.isInteger(limit) || (limit as number) < 1 || (limit as number) > AUDIT_LIMITS.pageSize)
      problems.push({ path: ['limit'], message: `must be an integer from 1 to ${AUDIT_LIMITS.pageSize}` });
    if (before !== undefined && (!Number.isSafeInteger(before) || (before as number) < 1))
      problems.push({ path: ['before'], message: 'must be a positive integer (the `next` of the previous page)' });
    if (problems.length > 0)
      throw new ValidationError(`invalid audit page: ${problems.map((p) => `${p.path[0]} ${p.message}`).join('; ')}`, problems);
    const entries = await this.store.list({ before: before as number | undefined, limit: limit as number });
    return { entries, next: entries.length === limit ? entries[entries.length - 1]!.seq : null };
  }
}
