import type { Activation, ActivationQuery, ActivationStore } from '../../src/storage/activations';
import type { DecidedWrite } from '../../src/storage/storage';

/**
 * The activation log in memory, bounded: a ring of the newest `max` activations, the oldest
 * overwritten beyond that, so a long-running process does not grow without end.
 *
 * Stored as columns (one array per field, the strings shared with the caller's), not as one
 * object per activation: recording copies seven values and allocates nothing once the ring is
 * full, and the garbage collector has no per-activation object to trace. Reads build objects.
 */
export class MemoryActivationStore implements ActivationStore {
  readonly #environment: string[] = [];
  readonly #visitor: string[] = [];
  readonly #anonymous: (string | null)[] = [];
  readonly #campaign: string[] = [];
  readonly #group: string[] = [];
  readonly #variation: string[] = [];
  readonly #timestamp: number[] = [];
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
      this.#put(a.environmentId, a.visitorId, a.anonymousId, a.campaignId, a.variationGroupId, a.variationId, a.timestamp);
    }
    return Promise.resolve();
  }

  /** Records one activation per decided campaign of a decision (none when `activatedAt` is null). */
  recordDecided(write: DecidedWrite): void {
    const { decided, activatedAt } = write;
    if (activatedAt === null) return;
    for (let i = 0; i < decided.length; i++) {
      const d = decided[i]!;
      this.#put(write.environmentId, write.visitorId, write.anonymousId, d.campaignId, d.variationGroupId, d.variationId, activatedAt);
    }
  }

  #put(environment: string, visitor: string, anonymous: string | null, campaign: string, group: string, variation: string, timestamp: number): void {
    const at = this.#next;
    this.#environment[at] = environment;
    this.#visitor[at] = visitor;
    this.#anonymous[at] = anonymous;
    this.#campaign[at] = campaign;
    this.#group[at] = group;
    this.#variation[at] = variation;
    this.#timestamp[at] = timestamp;
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
    return {
      environmentId: this.#environment[at]!,
      visitorId: this.#visitor[at]!,
      anonymousId: this.#anonymous[at]!,
      campaignId: this.#campaign[at]!,
      variationGroupId: this.#group[at]!,
      variationId: this.#variation[at]!,
      timestamp: this.#timestamp[at]!,
    };
  }

  /** Calls `visit` with each kept activation of an environment and campaign, in recording order. */
  scan(environmentId: string, campaignId: string, visit: (row: Activation) => void): void {
    for (let i = 0; i < this.#size; i++) {
      const at = this.#slot(i);
      if (this.#environment[at] === environmentId && this.#campaign[at] === campaignId) visit(this.#row(at));
    }
  }

  async list(query: ActivationQuery): Promise<Activation[]> {
    const matches: { row: Activation; seq: number }[] = [];
    for (let i = 0; i < this.#size; i++) {
      const at = this.#slot(i);
      if (this.#environment[at] !== query.environmentId) continue;
      if (query.visitorId !== undefined && this.#visitor[at] !== query.visitorId) continue;
      if (query.since !== undefined && this.#timestamp[at]! < query.since) continue;
      matches.push({ row: this.#row(at), seq: i });
    }
    matches.sort((a, b) => a.row.timestamp - b.row.timestamp || a.seq - b.seq);
    return matches.slice(0, query.limit ?? matches.length).map((m) => m.row);
  }
}
