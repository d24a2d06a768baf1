import type { Assignments, AssignmentStore } from '../../src/storage/assignments';
import type { DecidedCampaign } from '../../src/storage/storage';

/** One visitor's assignments, linked in write order (oldest first) for eviction. */
interface Visitor {
  readonly environment: Map<string, Visitor>;
  readonly id: string;
  /** The assignments as a frozen record, or null while they are only in `pairs`. */
  assignments: Assignments | null;
  /**
   * A new visitor's assignments as written by a decision: group id, variation id, group id, …
   * An array of strings is a fraction of the cost of a record with as many keys (a record past a
   * dozen keys is a hash table), and most visitors are never read again; the record is built on
   * the first read, then this is dropped.
   */
  pairs: string[] | null;
  /** How many assignments the visitor has. */
  count: number;
  older: Visitor | null;
  newer: Visitor | null;
}

const EMPTY: Assignments = Object.freeze({});

function count(assignments: Assignments): number {
  // Faster than for-in on the large dictionary-mode objects a visitor in many campaigns has.
  return Object.keys(assignments).length;
}

/**
 * Sticky assignments in memory, bounded: at most `max` assignments (visitor × variation group)
 * across environments. Beyond it, the visitors whose assignments were written longest ago are
 * forgotten whole (a write, not a read, makes a visitor recent), in O(1) per visitor.
 */
export class MemoryAssignmentStore implements AssignmentStore {
  // Nested maps: a lookup on the decision path builds no key string.
  readonly #rows = new Map<string, Map<string, Visitor>>();
  #oldest: Visitor | null = null;
  #newest: Visitor | null = null;
  #total = 0;

  constructor(private readonly max: number) {}

  /** How many assignments are kept (at most `max`). */
  get size(): number {
    return this.#total;
  }

  async get(environmentId: string, visitorId: string): Promise<Assignments> {
    return this.getNow(environmentId, visitorId);
  }

  getNow(environmentId: string, visitorId: string): Assignments {
    if (this.#total === 0) return EMPTY;
    const visitor = this.#rows.get(environmentId)?.get(visitorId);
    return visitor === undefined ? EMPTY : (visitor.assignments ?? this.#record(visitor));
  }

  /** Builds a visitor's record from its pairs (a group named twice keeps its last variation). */
  #record(visitor: Visitor): Assignments {
    const pairs = visitor.pairs!;
    const record: Record<string, string> = {};
    let n = 0;
    for (let i = 0; i < pairs.length; i += 2) {
      if (record[pairs[i]!] === undefined) n++;
      record[pairs[i]!] = pairs[i + 1]!;
    }
    this.#total += n - visitor.count;
    visitor.count = n;
    visitor.pairs = null;
    return (visitor.assignments = Object.freeze(record));
  }

  /**
   * Saves the group → variation of the decided campaigns `assign` selects (all when true), as
   * {@link saveNow} would save them as a record.
   */
  saveDecidedNow(environmentId: string, visitorId: string, decided: readonly DecidedCampaign[], assign: true | readonly boolean[]): void {
    const environment = this.#rows.get(environmentId);
    if (environment === undefined || !environment.has(visitorId)) {
      const all = assign === true;
      const pairs: string[] = all ? new Array<string>(decided.length * 2) : [];
      let n = 0;
      for (let i = 0; i < decided.length; i++) {
        if (!all && !assign[i]) continue;
        const d = decided[i]!;
        pairs[n++] = d.variationGroupId;
        pairs[n++] = d.variationId;
      }
      this.#add(environmentId, visitorId, null, pairs, n >> 1);
      return;
    }
    const record: Record<string, string> = {};
    for (let i = 0; i < decided.length; i++) {
      if (assign === true || assign[i]) record[decided[i]!.variationGroupId] = decided[i]!.variationId;
    }
    this.saveNow(environmentId, visitorId, Object.freeze(record));
  }

  async save(environmentId: string, visitorId: string, assignments: Assignments): Promise<void> {
    this.saveNow(environmentId, visitorId, assignments);
  }

  /**
   * {@link save}, synchronously. A frozen plain object is kept as it is (nobody can change it);
   * anything else is copied.
   */
  saveNow(environmentId: string, visitorId: string, assignments: Assignments): void {
    const visitor = this.#rows.get(environmentId)?.get(visitorId);
    if (visitor) {
      const merged = Object.freeze({ ...(visitor.assignments ?? this.#record(visitor)), ...assignments });
      const n = count(merged);
      this.#total += n - visitor.count;
      visitor.assignments = merged;
      visitor.count = n;
      this.#unlink(visitor);
      this.#append(visitor);
      this.#bound();
    } else {
      const owned = Object.isFrozen(assignments) && Object.getPrototypeOf(assignments) === Object.prototype;
      const kept = owned ? assignments : Object.freeze({ ...assignments });
      this.#add(environmentId, visitorId, kept, null, count(kept));
    }
  }

  #add(environmentId: string, visitorId: string, assignments: Assignments | null, pairs: string[] | null, n: number): void {
    let environment = this.#rows.get(environmentId);
    if (!environment) this.#rows.set(environmentId, (environment = new Map()));
    const added: Visitor = { environment, id: visitorId, assignments, pairs, count: n, older: null, newer: null };
    environment.set(visitorId, added);
    this.#total += n;
    this.#append(added);
    this.#bound();
  }

  #bound(): void {
    while (this.#total > this.max && this.#oldest) this.#forget(this.#oldest);
  }

  async delete(environmentId: string, visitorId: string): Promise<void> {
    const visitor = this.#rows.get(environmentId)?.get(visitorId);
    if (visitor) this.#forget(visitor);
  }

  #forget(visitor: Visitor): void {
    visitor.environment.delete(visitor.id);
    this.#total -= visitor.count;
    this.#unlink(visitor);
  }

  #append(visitor: Visitor): void {
    visitor.older = this.#newest;
    visitor.newer = null;
    if (this.#newest) this.#newest.newer = visitor;
    else this.#oldest = visitor;
    this.#newest = visitor;
  }

  #unlink(visitor: Visitor): void {
    if (visitor.older) visitor.older.newer = visitor.newer;
    else this.#oldest = visitor.newer;
    if (visitor.newer) visitor.newer.older = visitor.older;
    else this.#newest = visitor.older;
    visitor.older = visitor.newer = null;
  }
}
