import type { MemoryActivationStore } from './activations';
import type { ConversionEvent, EventQuery, EventStore, ExposureQuery, VariationAggregate } from '../../src/storage/events';

interface Row {
  readonly event: ConversionEvent;
  readonly seq: number;
}

/** Where the first activation of a visitor in the window put it. */
interface Exposure {
  at: number;
  group: string;
  variation: string;
  several: boolean;
}

interface Sums {
  group: string | null;
  variation: string | null;
  exposed: number;
  converted: number;
  valued: number;
  valueSum: number;
  valueSumSquares: number;
}

/**
 * The conversion log in memory, bounded: it keeps the newest `maxEvents` recorded events and
 * forgets the earliest recorded ones beyond that (the adapter keeps nothing across restarts
 * anyway; SQLite and PostgreSQL keep every event).
 */
export class MemoryEventStore implements EventStore {
  // Recording order, oldest first; `#head` rows at the front are already forgotten.
  readonly #rows: Row[] = [];
  #head = 0;
  #seq = 0;
  // environment → event → visitor → rows in recording order: what `aggregate` walks.
  readonly #index = new Map<string, Map<string, Map<string, Row[]>>>();

  constructor(
    private readonly activations: MemoryActivationStore,
    private readonly maxEvents: number,
  ) {}

  async record(events: readonly ConversionEvent[]): Promise<void> {
    for (const e of events) {
      const row: Row = { event: Object.freeze({ ...e }), seq: this.#seq++ };
      this.#rows.push(row);
      let byEvent = this.#index.get(e.environmentId);
      if (!byEvent) this.#index.set(e.environmentId, (byEvent = new Map()));
      let byVisitor = byEvent.get(e.event);
      if (!byVisitor) byEvent.set(e.event, (byVisitor = new Map()));
      const list = byVisitor.get(e.visitorId);
      if (list) list.push(row);
      else byVisitor.set(e.visitorId, [row]);
    }
    while (this.#rows.length - this.#head > this.maxEvents) this.#forget(this.#rows[this.#head++]!);
    // Compact now and then so forgotten rows are released.
    if (this.#head > 4096 && this.#head * 2 > this.#rows.length) {
      this.#rows.splice(0, this.#head);
      this.#head = 0;
    }
  }

  // The earliest recorded row is the first of its visitor's list.
  #forget(row: Row): void {
    const { environmentId, event, visitorId } = row.event;
    const byEvent = this.#index.get(environmentId)!;
    const byVisitor = byEvent.get(event)!;
    const list = byVisitor.get(visitorId)!;
    list.shift();
    if (list.length > 0) return;
    byVisitor.delete(visitorId);
    if (byVisitor.size > 0) return;
    byEvent.delete(event);
    if (byEvent.size === 0) this.#index.delete(environmentId);
  }

  async list(query: EventQuery): Promise<ConversionEvent[]> {
    const rows: Row[] = [];
    for (let i = this.#head; i < this.#rows.length; i++) {
      const row = this.#rows[i]!;
      const e = row.event;
      if (
        e.environmentId === query.environmentId &&
        (query.visitorId === undefined || e.visitorId === query.visitorId) &&
        (query.event === undefined || e.event === query.event) &&
        (query.since === undefined || e.timestamp >= query.since) &&
        (query.until === undefined || e.timestamp < query.until)
      ) {
        rows.push(row);
      }
    }
    rows.sort((a, b) => a.event.timestamp - b.event.timestamp || a.seq - b.seq);
    return rows.slice(0, query.limit ?? rows.length).map((r) => r.event);
  }

  /** One pass over the activation log, then one look-up per exposed visitor. */
  async aggregate(query: ExposureQuery): Promise<VariationAggregate[]> {
    const since = query.since ?? -Infinity;
    const until = query.until ?? Infinity;
    const exposures = new Map<string, Exposure>();
    this.activations.scan(query.environmentId, query.campaignId, (a) => {
      if (a.timestamp < since || a.timestamp >= until) return;
      const seen = exposures.get(a.visitorId);
      if (!seen) {
        exposures.set(a.visitorId, { at: a.timestamp, group: a.variationGroupId, variation: a.variationId, several: false });
        return;
      }
      if (a.timestamp < seen.at) seen.at = a.timestamp;
      if (a.variationGroupId !== seen.group || a.variationId !== seen.variation) seen.several = true;
    });
    const events = this.#index.get(query.environmentId)?.get(query.event);
    const sums = new Map<string, Sums>();
    for (const [visitorId, x] of exposures) {
      const group = x.several ? null : x.group;
      const variation = x.several ? null : x.variation;
      const key = x.several ? '' : `${x.group}\u0000${x.variation}`;
      let s = sums.get(key);
      if (!s) sums.set(key, (s = { group, variation, exposed: 0, converted: 0, valued: 0, valueSum: 0, valueSumSquares: 0 }));
      s.exposed++;
      if (x.several) continue;
      let hits = 0;
      let total = 0;
      for (const { event: e } of events?.get(visitorId) ?? []) {
        if (e.timestamp < x.at || e.timestamp >= until) continue;
        hits++;
        if (e.value !== null) {
          s.valued++;
          total += e.value;
        }
      }
      if (hits > 0) s.converted++;
      s.valueSum += total;
      s.valueSumSquares += total * total;
    }
    return [...sums.values()].map((s) => ({
      variationGroupId: s.group,
      variationId: s.variation,
      exposed: s.exposed,
      converted: s.converted,
      valued: s.valued,
      valueSum: s.valueSum,
      valueSumSquares: s.valueSumSquares,
    }));
  }
}
