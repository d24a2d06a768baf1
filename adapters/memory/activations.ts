import type { Activation, ActivationQuery, ActivationStore } from '../../src/storage/activations';
import type { DecidedWrite } from '../../src/storage/storage';

/**
 * The activation log in memory, bounded: a ring of the newest `max` activations, the oldest
 * overwritten beyond that, so a long-running process does not grow without end.
 *
 * Stored as columns (one array per field, the strings shared with the caller's), not as one
 * object per activation: recording copies values and allocates nothing once the ring is full,
 * and the garbage collector has no per-activation object to trace. What the activations of one
 * decision share (environment, visitor, anonymous id, time) is stored once, in a second ring of
 * "decisions" each activation points into: a decision over a thousand campaigns then stores its
 * visitor id once, not a thousand times (each such store of a new string into the old columns
 * is also an entry the next young-generation collection has to visit). Reads build objects.
 */
export class MemoryActivationStore implements ActivationStore {
  // Per activation.
  #decisionOf = new Int32Array(0);
  readonly #campaign: string[] = [];
  readonly #group: string[] = [];
  readonly #variation: string[] = [];
  // Per decision, in a ring of its own that holds the decisions kept activations point into:
  // from the oldest kept activation's decision to `#nextDecision`. It grows (doubling) only
  // when all of its slots are in use, so it stays within twice the decisions kept.
  #environment: string[] = [];
  #visitor: string[] = [];
  #anonymous: (string | null)[] = [];
  #timestamp: number[] = [];
  #decisions = 16;
  #nextDecision = 0;
  // Where the next activation goes; once the ring is full, also the oldest one.
  #next = 0;
  #size = 0;

  constructor(private readonly max: number) {}

  /** How many activations are kept (at most `max`). */
  get size(): number {
    return this.#size;
  }

  record(activations: readonly Activation[]): Promise<void> {
    for (let i = 0; i < activations.length; i++) {
      const a = activations[i]!;
      this.#put(this.#decision(a.environmentId, a.visitorId, a.anonymousId, a.timestamp), a.campaignId, a.variationGroupId, a.variationId);
    }
    return Promise.resolve();
  }

  /** Records one activation per decided campaign of a decision (none when `activatedAt` is null). */
  recordDecided(write: DecidedWrite): void {
    const { decided, activatedAt } = write;
    if (activatedAt === null || decided.length === 0) return;
    const decision = this.#decision(write.environmentId, write.visitorId, write.anonymousId, activatedAt);
    for (let i = 0; i < decided.length; i++) {
      const d = decided[i]!;
      this.#put(decision, d.campaignId, d.variationGroupId, d.variationId);
    }
  }

  #decision(environment: string, visitor: string, anonymous: string | null, timestamp: number): number {
    let at = this.#nextDecision;
    // The slot is in use when the oldest kept activation's decision is there.
    if (this.#size > 0 && this.#decisionOf[this.#slot(0)] === at) at = this.#growDecisions();
    this.#environment[at] = environment;
    this.#visitor[at] = visitor;
    this.#anonymous[at] = anonymous;
    this.#timestamp[at] = timestamp;
    this.#nextDecision = at + 1 === this.#decisions ? 0 : at + 1;
    return at;
  }

  /** Doubles the decision ring, its decisions in use moved to the front; returns the first free slot. */
  #growDecisions(): number {
    const capacity = this.#decisions;
    const oldest = this.#decisionOf[this.#slot(0)]!;
    const moved = <T>(column: T[]): T[] => {
      const out = new Array<T>(capacity);
      for (let i = 0; i < capacity; i++) out[i] = column[(oldest + i) % capacity]!;
      return out;
    };
    this.#environment = moved(this.#environment);
    this.#visitor = moved(this.#visitor);
    this.#anonymous = moved(this.#anonymous);
    this.#timestamp = moved(this.#timestamp);
    for (let i = 0; i < this.#size; i++) {
      const at = this.#slot(i);
      this.#decisionOf[at] = (this.#decisionOf[at]! - oldest + capacity) % capacity;
    }
    this.#decisions = capacity * 2;
    return capacity;
  }

  #put(decision: number, campaign: string, group: string, variation: string): void {
    const at = this.#next;
    if (at === this.#decisionOf.length) {
      const grown = new Int32Array(Math.min(this.max, Math.max(1024, at * 2)));
      grown.set(this.#decisionOf);
      this.#decisionOf = grown;
    }
    this.#decisionOf[at] = decision;
    this.#campaign[at] = campaign;
    this.#group[at] = group;
    this.#variation[at] = variation;
    this.#next = at + 1 === this.max ? 0 : at + 1;
    if (this.#size < this.max) this.#size++;
  }

  /** Slot of the `i`-th kept activation in recording order. */
  #slot(i: number): number {
    const oldest = this.#size < this.max ? 0 : this.#next;
    const at = oldest + i;
    return at >= this.max ? at - this.max : at;
  }

  #row(at: number): Activation {
    const d = this.#decisionOf[at]!;
    return {
      environmentId: this.#environment[d]!,
      visitorId: this.#visitor[d]!,
      anonymousId: this.#anonymous[d]!,
      campaignId: this.#campaign[at]!,
      variationGroupId: this.#group[at]!,
      variationId: this.#variation[at]!,
      timestamp: this.#timestamp[d]!,
    };
  }

  /** Calls `visit` with each kept activation of an environment and campaign, in recording order. */
  scan(environmentId: string, campaignId: string, visit: (row: Activation) => void): void {
    for (let i = 0; i < this.#size; i++) {
      const at = this.#slot(i);
      if (this.#environment[this.#decisionOf[at]!] === environmentId && this.#campaign[at] === campaignId) visit(this.#row(at));
    }
  }

  async list(query: ActivationQuery): Promise<Activation[]> {
    const matches: { row: Activation; seq: number }[] = [];
    for (let i = 0; i < this.#size; i++) {
      const at = this.#slot(i);
      const d = this.#decisionOf[at]!;
      if (this.#environment[d] !== query.environmentId) continue;
      if (query.visitorId !== undefined && this.#visitor[d] !== query.visitorId) continue;
      if (query.since !== undefined && this.#timestamp[d]! < query.since) continue;
      matches.push({ row: this.#row(at), seq: i });
    }
    matches.sort((a, b) => a.row.timestamp - b.row.timestamp || a.seq - b.seq);
    return matches.slice(0, query.limit ?? matches.length).map((m) => m.row);
  }
}
