import { ConflictError } from '../../src/errors';
import type { AccessRecord, AccessStore } from '../../src/storage/accesses';
import type { EnvironmentRecord, EnvironmentStore, EnvironmentWrite } from '../../src/storage/environments';
import type { DecidedWrite, DecisionWrite, Storage } from '../../src/storage/storage';
import type { TokenRecord, TokenStore } from '../../src/storage/tokens';
import { frozenCopy } from '../../src/freeze';
import { MemoryAccountStore, MemoryAuditStore, MemoryCatalogSettingsStore } from './admin';
import { MemoryActivationStore } from './activations';
import { MemoryAssignmentStore } from './assignments';
import { MemoryCatalogStore } from './catalog';
import { MemoryEventStore } from './events';
import { MemorySearchAnalyticsStore } from './search-analytics';

// Stored rows are frozen copies: callers can neither alias nor mutate stored state.
const snapshot = frozenCopy;

class MemoryEnvironmentStore implements EnvironmentStore {
  readonly #rows = new Map<string, EnvironmentRecord>();
  #changes = 0;

  changes(): number {
    return this.#changes;
  }

  async get(id: string): Promise<EnvironmentRecord | undefined> {
    return this.#rows.get(id);
  }

  async version(id: string): Promise<number | undefined> {
    return this.#rows.get(id)?.version;
  }

  async list(accountId?: string): Promise<EnvironmentRecord[]> {
    return [...this.#rows.values()]
      .filter((r) => accountId === undefined || r.accountId === accountId)
      .sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  }

  async put(write: EnvironmentWrite, options: { expectedVersion?: number; now?: number } = {}): Promise<EnvironmentRecord> {
    const current = this.#rows.get(write.id);
    if (current && current.accountId !== write.accountId) {
      throw new ConflictError(`environment "${write.id}" belongs to another account`);
    }
    const version = current?.version ?? 0;
    if (options.expectedVersion !== undefined && options.expectedVersion !== version) {
      throw new ConflictError(`environment "${write.id}" is at version ${version}, not ${options.expectedVersion}`);
    }
    const record = snapshot<EnvironmentRecord>({
      id: write.id,
      accountId: write.accountId,
      apiKeyHash: write.apiKeyHash === undefined ? (current?.apiKeyHash ?? null) : write.apiKeyHash,
      config: write.config,
      version: version + 1,
      updatedAt: options.now ?? Date.now(),
    });
    this.#rows.set(write.id, record);
    this.#changes++;
    return record;
  }

  async delete(id: string): Promise<boolean> {
    this.#changes++;
    return this.#rows.delete(id);
  }
}

class MemoryAccessStore implements AccessStore {
  readonly #byId = new Map<string, AccessRecord>();
  readonly #byClient = new Map<string, string>();

  async create(record: AccessRecord): Promise<void> {
    if (this.#byId.has(record.id)) throw new ConflictError(`access id "${record.id}" is taken`);
    if (this.#byClient.has(record.clientId)) throw new ConflictError('client id is taken');
    this.#byId.set(record.id, snapshot(record));
    this.#byClient.set(record.clientId, record.id);
  }

  async get(id: string): Promise<AccessRecord | undefined> {
    return this.#byId.get(id);
  }

  async getByClientId(clientId: string): Promise<AccessRecord | undefined> {
    const id = this.#byClient.get(clientId);
    return id === undefined ? undefined : this.#byId.get(id);
  }

  async list(accountId: string): Promise<AccessRecord[]> {
    return [...this.#byId.values()].filter((a) => a.accountId === accountId).sort((a, b) => a.createdAt - b.createdAt);
  }

  async revoke(id: string, at: number): Promise<boolean> {
    const current = this.#byId.get(id);
    if (!current || current.revokedAt !== null) return false;
    this.#byId.set(id, snapshot({ ...current, revokedAt: at }));
    return true;
  }

  async rotateSecret(id: string, secretHash: string): Promise<boolean> {
    const current = this.#byId.get(id);
    if (!current || current.revokedAt !== null) return false;
    this.#byId.set(id, snapshot({ ...current, secretHash }));
    return true;
  }

  async touch(id: string, at: number): Promise<void> {
    const current = this.#byId.get(id);
    if (current && (current.lastUsedAt === null || current.lastUsedAt < at)) this.#byId.set(id, snapshot({ ...current, lastUsedAt: at }));
  }
}

class MemoryTokenStore implements TokenStore {
  readonly #rows = new Map<string, TokenRecord>();

  async save(record: TokenRecord): Promise<void> {
    if (this.#rows.has(record.tokenHash)) throw new ConflictError('token hash collision');
    this.#rows.set(record.tokenHash, snapshot(record));
  }

  async get(tokenHash: string): Promise<TokenRecord | undefined> {
    return this.#rows.get(tokenHash);
  }

  async deleteExpired(now: number): Promise<number> {
    let n = 0;
    for (const [hash, row] of this.#rows) {
      if (row.expiresAt < now) {
        this.#rows.delete(hash);
        n++;
      }
    }
    return n;
  }
}

/**
 * Options of {@link memoryStorage}.
 *
 * @example
 * ```ts
 * const options: MemoryStorageOptions = { maxEvents: 100_000 };
 * const engine = new DecisionEngine({ storage: memoryStorage(options) });
 * ```
 */
export interface MemoryStorageOptions {
  /**
   * Most conversion events kept; beyond it the earliest recorded are forgotten, so results
   * cover only the newest events. About 200 bytes each.
   * @defaultValue `1000000`
   */
  maxEvents?: number;
  /**
   * Most activations kept; beyond it the oldest are forgotten (so `listActivations` and results
   * cover only the newest), and the heap stays flat however many decisions are made. About 30
   * bytes each, plus about 30 per decision that recorded them. @defaultValue `1000000`
   */
  maxActivations?: number;
  /**
   * Most sticky assignments kept (one per visitor and variation group it was assigned in).
   * Beyond it, the visitors whose assignments were written longest ago are forgotten whole.
   * A forgotten visitor is bucketed by the hash again on its next decision, so it gets the
   * same variations as long as the campaigns' allocations have not changed since; after an
   * allocation change it may move, which is what stickiness otherwise prevents. Keep this
   * above your active visitors × campaigns, or use `abkit/sqlite` or `abkit/postgres`, which
   * keep every assignment. About 40 bytes each when visitors are in ten campaigns, 22 in a
   * hundred (a visitor's entry is shared by its assignments); a visitor decided again also
   * keeps them as a record, up to about 85 bytes each. @defaultValue `2000000`
   */
  maxAssignments?: number;
  /**
   * Most audit log entries kept; beyond it the oldest are forgotten. Admin actions come at a
   * human pace: 10,000 is months of them, about 3 MB. @defaultValue `10000`
   */
  maxAuditEntries?: number;
}

/**
 * In-memory storage: the default, and the reference implementation of every port.
 * Nothing survives the process; use `abkit/sqlite` or `abkit/postgres` to keep data.
 * The conversion event log is bounded by `maxEvents`, the activation log by `maxActivations`,
 * sticky assignments by `maxAssignments`: the heap stays flat however many decisions are made.
 *
 * @example
 * ```ts
 * const storage = memoryStorage();
 * const engine = new DecisionEngine({ storage });
 * ```
 */
export function memoryStorage(options: MemoryStorageOptions = {}): Storage {
  const { maxEvents = 1_000_000, maxActivations = 1_000_000, maxAssignments = 2_000_000, maxAuditEntries = 10_000 } = options;
  if (!Number.isInteger(maxAuditEntries) || maxAuditEntries < 1)
    throw new TypeError(`memoryStorage: maxAuditEntries must be a positive integer, got ${maxAuditEntries}`);
  if (!Number.isInteger(maxEvents) || maxEvents < 1)
    throw new TypeError(`memoryStorage: maxEvents must be a positive integer, got ${maxEvents}`);
  if (!Number.isInteger(maxActivations) || maxActivations < 1)
    throw new TypeError(`memoryStorage: maxActivations must be a positive integer, got ${maxActivations}`);
  if (!Number.isInteger(maxAssignments) || maxAssignments < 1)
    throw new TypeError(`memoryStorage: maxAssignments must be a positive integer, got ${maxAssignments}`);
  const activations = new MemoryActivationStore(maxActivations);
  const assignments = new MemoryAssignmentStore(maxAssignments);
  return {
    environments: new MemoryEnvironmentStore(),
    assignments,
    activations,
    // Synchronous: one decision's writes land together.
    writeDecisionNow(write: DecidedWrite): void {
      if (write.assign !== false) assignments.saveDecidedNow(write.environmentId, write.visitorId, write.decided, write.assign);
      activations.recordDecided(write);
    },
    async writeDecision(write: DecisionWrite): Promise<void> {
      if (write.assignments) assignments.saveNow(write.environmentId, write.visitorId, write.assignments);
      if (write.activations && write.activations.length > 0) void activations.record(write.activations);
    },
    events: new MemoryEventStore(activations, maxEvents),
    accesses: new MemoryAccessStore(),
    tokens: new MemoryTokenStore(),
    catalogs: new MemoryCatalogStore(),
    accounts: new MemoryAccountStore(),
    catalogSettings: new MemoryCatalogSettingsStore(),
    audit: new MemoryAuditStore(maxAuditEntries),
    searchAnalytics: new MemorySearchAnalyticsStore(),
    async close() {},
  };
}
