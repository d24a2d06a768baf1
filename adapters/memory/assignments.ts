import { NO_ASSIGNMENTS, type Assignments, type AssignmentStore } from '../../src/storage/assignments';
import type { DecidedCampaign } from '../../src/storage/storage';
import { VisitorTable } from './visitor-table';

/** One visitor's assignments, linked in write order (oldest first) for eviction. */
interface Visitor {
  readonly environmentId: string;
  readonly id: string;
  /** The id's hash in the table of visitors. */
  readonly hash: number;
  /** The assignments as a frozen record, or null while they are only in the ring. */
  assignments: Assignments | null;
  /** Where the visitor's assignments start in the ring while they are there, else -1. */
  start: number;
  /** How many slots of the ring the visitor took (still counted until the ring reclaims them). */
  span: number;
  /** How many assignments the visitor has. */
  count: number;
  older: Visitor | null;
  newer: Visitor | null;
  /** The visitor written to the ring after this one. */
  ringNext: Visitor | null;
}

function count(assignments: Assignments): number {
  // Faster than for-in on the large dictionary-mode objects a visitor in many campaigns has.
  return Object.keys(assignments).length;
}

/**
 * Sticky assignments in memory, bounded: at most `max` assignments (visitor × variation group)
 * across environments. Beyond it, the visitors whose assignments were written longest ago are
 * forgotten whole (a write, not a read, makes a visitor recent), in O(1) per visitor.
 *
 * A new visitor's assignments, as a decision writes them, go into a ring of two columns (group
 * ids, variation ids) of `max` slots, in write order: no object or array per visitor, nothing
 * for the garbage collector to copy (a record past a dozen keys is a hash table, and most
 * visitors are never read again). A visitor's frozen record is built on its first read or
 * merge, and its slots are reclaimed when the ring comes round; a visitor whose slots are
 * needed while it is still kept gets its record then.
 */
export class MemoryAssignmentStore implements AssignmentStore {
  readonly #rows = new VisitorTable<Visitor>();
  // The last id looked up and its hash: a decision reads its visitor, then writes it.
  #lastId = '';
  #lastHash = 0;
  #oldest: Visitor | null = null;
  #newest: Visitor | null = null;
  #total = 0;
  readonly #groups: string[] = [];
  readonly #variations: string[] = [];
  // The next slot to write, and how many slots the visitors in the ring took since the oldest.
  #head = 0;
  #used = 0;
  #ringOldest: Visitor | null = null;
  #ringNewest: Visitor | null = null;

  constructor(private readonly max: number) {}

  /** How many assignments are kept (at most `max`). */
  get size(): number {
    return this.#total;
  }

  /** How many visitors have assignments kept (never more than {@link size}: a visitor with none is not kept). */
  get visitors(): number {
    return this.#rows.size;
  }

  async get(environmentId: string, visitorId: string): Promise<Assignments> {
    return this.getNow(environmentId, visitorId);
  }

  getNow(environmentId: string, visitorId: string): Assignments {
    if (this.#total === 0) return NO_ASSIGNMENTS;
    // A read starts a decision: its id is a new one, hashed without comparing it to the last.
    this.#lastId = visitorId;
    const visitor = this.#rows.get(environmentId, visitorId, (this.#lastHash = this.#rows.hash(visitorId)));
    return visitor === undefined ? NO_ASSIGNMENTS : (visitor.assignments ?? this.#record(visitor));
  }

  #find(environmentId: string, visitorId: string): Visitor | undefined {
    return this.#rows.get(environmentId, visitorId, this.#hash(visitorId));
  }

  /** The table's hash of an id; the last one is kept, for a decision reads its visitor then writes it. */
  #hash(visitorId: string): number {
    // The id the decision's read just hashed (usually the very same string, which compares at once), or hash it.
    if (visitorId === this.#lastId) return this.#lastHash;
    this.#lastId = visitorId;
    return (this.#lastHash = this.#rows.hash(visitorId));
  }

  /** Builds a visitor's record from its slots in the ring (a group named twice keeps its last variation). */
  #record(visitor: Visitor): Assignments {
    const record: Record<string, string> = {};
    let n = 0;
    for (let i = 0, at = visitor.start; i < visitor.span; i++, at = at + 1 === this.max ? 0 : at + 1) {
      const group = this.#groups[at]!;
      if (record[group] === undefined) n++;
      record[group] = this.#variations[at]!;
    }
    this.#total += n - visitor.count;
    visitor.count = n;
    visitor.start = -1;
    return (visitor.assignments = Object.freeze(record));
  }

  /**
   * Saves the group → variation of the decided campaigns `assign` selects (all when true), as
   * {@link saveNow} would save them as a record.
   */
  saveDecidedNow(environmentId: string, visitorId: string, decided: readonly DecidedCampaign[], assign: true | readonly boolean[]): void {
    let n = decided.length;
    if (assign !== true) {
      n = 0;
      for (let i = 0; i < assign.length; i++) if (assign[i]) n++;
    }
    const known = this.#total > 0 && this.#find(environmentId, visitorId) !== undefined;
    // Nothing to keep for a new visitor: an entry of no assignments would count 0 and never be forgotten.
    if (n === 0 && !known) return;
    if (n <= this.max && !known) {
      // Make room first, so the ring reclaims the slots of the visitors forgotten for it.
      while (this.#total + n > this.max && this.#oldest) this.#forget(this.#oldest);
      while (this.#used + n > this.max) this.#reclaim();
      const start = this.#head;
      let at = start;
      for (let i = 0; i < decided.length; i++) {
        if (assign !== true && !assign[i]) continue;
        const d = decided[i]!;
        this.#groups[at] = d.variationGroupId;
        this.#variations[at] = d.variationId;
        at = at + 1 === this.max ? 0 : at + 1;
      }
      this.#head = at;
      this.#used += n;
      const added = this.#add(environmentId, visitorId, null, n);
      added.start = start;
      added.span = n;
      if (this.#ringNewest) this.#ringNewest.ringNext = added;
      else this.#ringOldest = added;
      this.#ringNewest = added;
      return;
    }
    const record: Record<string, string> = {};
    for (let i = 0; i < decided.length; i++) {
      if (assign === true || assign[i]) record[decided[i]!.variationGroupId] = decided[i]!.variationId;
    }
    this.saveNow(environmentId, visitorId, Object.freeze(record));
  }

  /** Frees the oldest visitor's slots in the ring; if it is still kept there, it gets its record. */
  #reclaim(): void {
    const visitor = this.#ringOldest!;
    this.#ringOldest = visitor.ringNext;
    if (this.#ringOldest === null) this.#ringNewest = null;
    visitor.ringNext = null;
    this.#used -= visitor.span;
    if (visitor.start >= 0) this.#record(visitor);
  }

  async save(environmentId: string, visitorId: string, assignments: Assignments): Promise<void> {
    this.saveNow(environmentId, visitorId, assignments);
  }

  /**
   * {@link save}, synchronously. A frozen plain object is kept as it is (nobody can change it);
   * anything else is copied.
   */
  saveNow(environmentId: string, visitorId: string, assignments: Assignments): void {
    const visitor = this.#find(environmentId, visitorId);
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
      const n = count(kept);
      if (n > 0) this.#add(environmentId, visitorId, kept, n);
    }
  }

  #add(environmentId: string, visitorId: string, assignments: Assignments | null, n: number): Visitor {
    const added: Visitor = {
      environmentId,
      id: visitorId,
      hash: this.#hash(visitorId),
      assignments,
      start: -1,
      span: 0,
      count: n,
      older: null,
      newer: null,
      ringNext: null,
    };
    this.#rows.add(added);
    this.#total += n;
    this.#append(added);
    this.#bound();
    return added;
  }

  #bound(): void {
    while (this.#total > this.max && this.#oldest) this.#forget(this.#oldest);
  }

  async delete(environmentId: string, visitorId: string): Promise<void> {
    const visitor = this.#find(environmentId, visitorId);
    if (visitor) this.#forget(visitor);
  }

  #forget(visitor: Visitor): void {
    this.#rows.delete(visitor);
    this.#total -= visitor.count;
    // Its slots in the ring, if any, are free once the ring reaches them.
    visitor.start = -1;
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
