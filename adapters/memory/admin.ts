import { ConflictError } from '../../src/errors';
import { frozenCopy } from '../../src/freeze';
import type { AccountRecord, AccountStore } from '../../src/storage/accounts';
import type { AuditEntry, AuditStore, AuditWrite } from '../../src/storage/audit';
import type { CatalogSettingsRecord, CatalogSettingsStore } from '../../src/storage/catalog-settings';

const byId = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** Accounts created through the admin API. */
export class MemoryAccountStore implements AccountStore {
  readonly #rows = new Map<string, AccountRecord>();

  async create(record: AccountRecord): Promise<void> {
    if (this.#rows.has(record.id)) throw new ConflictError(`account "${record.id}" exists`);
    this.#rows.set(record.id, frozenCopy(record));
  }

  async get(id: string): Promise<AccountRecord | undefined> {
    return this.#rows.get(id);
  }

  async list(limit: number): Promise<AccountRecord[]> {
    return [...this.#rows.values()].sort((a, b) => byId(a.id, b.id)).slice(0, limit);
  }

  async setDefaultEnvironment(id: string, environment: string | null): Promise<boolean> {
    const current = this.#rows.get(id);
    if (!current) return false;
    this.#rows.set(id, frozenCopy({ ...current, defaultEnvironment: environment }));
    return true;
  }
}

/** Catalog settings set through the admin API. */
export class MemoryCatalogSettingsStore implements CatalogSettingsStore {
  readonly #rows = new Map<string, CatalogSettingsRecord>();

  async get(identifier: string): Promise<CatalogSettingsRecord | undefined> {
    return this.#rows.get(identifier);
  }

  async put(record: CatalogSettingsRecord): Promise<void> {
    this.#rows.set(record.identifier, frozenCopy(record));
  }

  async list(): Promise<CatalogSettingsRecord[]> {
    return [...this.#rows.values()].sort((a, b) => byId(a.identifier, b.identifier));
  }
}

/**
 * The audit log, keeping its newest `max` entries: admin actions come at a human pace, so the
 * default ceiling covers a long history in a few megabytes.
 */
export class MemoryAuditStore implements AuditStore {
  // Oldest first; `#start` skips the forgotten head without shifting on every append.
  #rows: AuditEntry[] = [];
  #start = 0;
  #seq = 0;

  constructor(private readonly max: number) {}

  async append(entry: AuditWrite): Promise<AuditEntry> {
    const stored = frozenCopy<AuditEntry>({ ...entry, seq: ++this.#seq });
    this.#rows.push(stored);
    if (this.#rows.length - this.#start > this.max) this.#start++;
    // Compact once the forgotten head is as long as what is kept.
    if (this.#start >= this.max) {
      this.#rows = this.#rows.slice(this.#start);
      this.#start = 0;
    }
    return stored;
  }

  async list(options: { before?: number; limit: number }): Promise<AuditEntry[]> {
    const { before, limit } = options;
    const out: AuditEntry[] = [];
    const last = this.#rows.length - 1;
    if (last < this.#start) return out;
    // Sequence numbers are consecutive: the newest entry before `before` is found by arithmetic.
    const first = this.#rows[this.#start]!.seq;
    const top = before === undefined ? last : Math.min(last, this.#start + (before - 1 - first));
    for (let i = top; i >= this.#start && out.length < limit; i--) out.push(this.#rows[i]!);
    return out;
  }
}
