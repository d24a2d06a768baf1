import type { Assignments, AssignmentStore } from '../../src/storage/assignments';

/** One visitor's assignments, linked in write order (oldest first) for eviction. */
interface Visitor {
  readonly environment: Map<string, Visitor>;
  readonly id: string;
  assignments: Assignments;
  /** How many assignments `assignments` holds. */
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
    return this.#rows.get(environmentId)?.get(visitorId)?.assignments ?? EMPTY;
  }

  async save(environmentId: string, visitorId: string, assignments: Assignments): Promise<void> {
    this.saveNow(environmentId, visitorId, assignments);
  }

  /**
   * {@link save}, synchronously. A frozen plain object is kept as it is (nobody can change it);
   * anything else is copied.
   */
  saveNow(environmentId: string, visitorId: string, assignments: Assignments): void {
    let environment = this.#rows.get(environmentId);
    if (!environment) this.#rows.set(environmentId, (environment = new Map()));
    const visitor = environment.get(visitorId);
    if (visitor) {
      const merged = Object.freeze({ ...visitor.assignments, ...assignments });
      const n = count(merged);
      this.#total += n - visitor.count;
      visitor.assignments = merged;
      visitor.count = n;
      this.#unlink(visitor);
      this.#append(visitor);
    } else {
      const owned = Object.isFrozen(assignments) && Object.getPrototypeOf(assignments) === Object.prototype;
      const kept = owned ? assignments : Object.freeze({ ...assignments });
      const added: Visitor = { environment, id: visitorId, assignments: kept, count: count(kept), older: null, newer: null };
      environment.set(visitorId, added);
      this.#total += added.count;
      this.#append(added);
    }
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
