import { ConflictError, NotFoundError } from '../../src/errors';
import { frozenCopy } from '../../src/freeze';
import { nextTurn } from '../../src/slices';
import type {
  CatalogItem,
  CatalogOperation,
  CatalogRecord,
  CatalogStore,
  FieldClaim,
  SchemaField,
  VisibleCatalog,
} from '../../src/storage/catalog';

interface State {
  record: CatalogRecord;
  fields: Map<string, SchemaField>;
  items: Map<string, CatalogItem>;
  visible: VisibleCatalog;
  /** Grows at every write; a publication records the value it published. */
  accepted: number;
  publishedFrom: number;
  /**
   * Ids put or deleted since the last publication (`'all'`: every item may have changed), so a
   * publication merges those into the previous snapshot instead of sorting every item again.
   */
  changed: Set<string> | 'all';
  /** The publication under way, if any: publications run one after the other. */
  publishing: Promise<unknown> | undefined;
}

/** Items sorted natively per run, then moved between two turns of the event loop while runs are merged. */
export const PUBLISH_SORT_RUN = 1024;
/** Items moved between two turns of the event loop while a publication merges sorted runs. */
export const PUBLISH_SLICE_MOVES = 16_384;

function byId(a: CatalogItem, b: CatalogItem): number {
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}

/**
 * The accepted items in id order. After a few writes, the previous snapshot with the changed ids
 * merged in, synchronously: a binary search per changed id and native copies of the runs
 * between them, no sort of every item (100,000 items sorted, or even visited one by one, at each
 * sync held the event loop for milliseconds). After many, every item sorted in steps
 * ({@link sortedById}): 100,000 ids in arbitrary order took over 100 ms to sort in one go.
 */
function* snapshot(state: State): Generator<void, CatalogItem[]> {
  const { changed, items: accepted } = state;
  const previous = state.visible.items;
  if (changed === 'all' || changed.size * 8 > previous.length) return yield* sortedById([...accepted.values()]);
  // The default sort compares UTF-16 code units, as `<` does.
  const ids = [...changed].sort();
  const runs: (readonly CatalogItem[])[] = [];
  let p = 0;
  for (const id of ids) {
    const at = firstAtLeast(previous, id, p);
    runs.push(previous.slice(p, at));
    p = at < previous.length && previous[at]!.id === id ? at + 1 : at;
    const item = accepted.get(id);
    if (item) runs.push([item]);
  }
  runs.push(previous.slice(p));
  // concat copies natively; a bounded number of arguments per call.
  let items: CatalogItem[] = [];
  for (let r = 0; r < runs.length; r += 1024) items = items.concat(...runs.slice(r, r + 1024));
  return items;
}

/**
 * `items` sorted by id, in steps: runs of {@link PUBLISH_SORT_RUN} items sorted natively, then
 * merged pairwise, a step every {@link PUBLISH_SLICE_MOVES} items moved. Items already in order
 * cost one pass.
 */
function* sortedById(items: CatalogItem[]): Generator<void, CatalogItem[]> {
  const n = items.length;
  let sorted = true;
  for (let i = 1; i < n && sorted; i++) sorted = items[i - 1]!.id <= items[i]!.id;
  if (sorted) return items;
  for (let lo = 0; lo < n; lo += PUBLISH_SORT_RUN) {
    const run = items.slice(lo, lo + PUBLISH_SORT_RUN).sort(byId);
    for (let k = 0; k < run.length; k++) items[lo + k] = run[k]!;
    if ((lo / PUBLISH_SORT_RUN) % 16 === 15) yield;
  }
  let from = items;
  let to: CatalogItem[] = new Array<CatalogItem>(n);
  let moved = 0;
  for (let width = PUBLISH_SORT_RUN; width < n; width *= 2) {
    for (let lo = 0; lo < n; lo += 2 * width) {
      const mid = Math.min(lo + width, n);
      const hi = Math.min(lo + 2 * width, n);
      let a = lo;
      let b = mid;
      for (let k = lo; k < hi; k++) {
        to[k] = b >= hi || (a < mid && from[a]!.id <= from[b]!.id) ? from[a++]! : from[b++]!;
        if (++moved === PUBLISH_SLICE_MOVES) {
          moved = 0;
          yield;
        }
      }
    }
    [from, to] = [to, from];
  }
  return from;
}

/** The first position at or after `from` of `items` (in id order) whose id is `id` or greater. */
function firstAtLeast(items: readonly CatalogItem[], id: string, from: number): number {
  let lo = from;
  let hi = items.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (items[mid]!.id < id) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * In-memory catalogs. Every method runs without awaiting, so each is atomic; except a
 * publication of many changes, which takes the items at once and sorts them in steps, one
 * publication after the other.
 */
export class MemoryCatalogStore implements CatalogStore {
  readonly #catalogs = new Map<string, State>();

  #state(identifier: string): State {
    const state = this.#catalogs.get(identifier);
    if (!state) throw new NotFoundError(`catalog "${identifier}" does not exist`, 'unknown_catalog');
    return state;
  }

  async createCatalog(record: CatalogRecord): Promise<void> {
    if (this.#catalogs.has(record.identifier)) throw new ConflictError(`catalog "${record.identifier}" exists`);
    for (const s of this.#catalogs.values()) {
      const hashes = [s.record.catalogKeyHash, s.record.searchKeyHash];
      if (hashes.includes(record.catalogKeyHash) || hashes.includes(record.searchKeyHash)) throw new ConflictError('key already in use');
    }
    this.#catalogs.set(record.identifier, {
      record: Object.freeze({ ...record }),
      fields: new Map(),
      items: new Map(),
      visible: Object.freeze({ version: 0, syncedAt: null, items: Object.freeze([]) }),
      accepted: 0,
      publishedFrom: -1,
      changed: 'all',
      publishing: undefined,
    });
  }

  async setKeys(identifier: string, keys: { catalogKeyHash: string; searchKeyHash: string }): Promise<void> {
    const state = this.#state(identifier);
    for (const [other, s] of this.#catalogs) {
      if (other === identifier) continue;
      const hashes = [s.record.catalogKeyHash, s.record.searchKeyHash];
      if (hashes.includes(keys.catalogKeyHash) || hashes.includes(keys.searchKeyHash)) throw new ConflictError('key already in use');
    }
    state.record = Object.freeze({ ...state.record, ...keys });
  }

  async getCatalog(identifier: string): Promise<CatalogRecord | undefined> {
    return this.#catalogs.get(identifier)?.record;
  }

  async findByKeyHash(hash: string): Promise<{ catalog: CatalogRecord; role: 'catalog' | 'search' } | undefined> {
    for (const { record } of this.#catalogs.values()) {
      if (record.catalogKeyHash === hash) return { catalog: record, role: 'catalog' };
      if (record.searchKeyHash === hash) return { catalog: record, role: 'search' };
    }
    return undefined;
  }

  async listCatalogs(): Promise<CatalogRecord[]> {
    return [...this.#catalogs.values()].map((s) => s.record).sort((a, b) => (a.identifier < b.identifier ? -1 : 1));
  }

  async schema(identifier: string): Promise<SchemaField[]> {
    return [...this.#state(identifier).fields.values()].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  }

  async applyBatch(identifier: string, claims: readonly FieldClaim[], operations: readonly CatalogOperation[], now: number): Promise<void> {
    const state = this.#state(identifier);
    // Check every claim before changing anything: all or nothing.
    for (const claim of claims) {
      const existing = state.fields.get(claim.name);
      if (existing && existing.type !== null && claim.type !== null && existing.type !== claim.type) {
        throw new ConflictError(`field ${claim.name} is of type ${existing.type}, not ${claim.type}`, 'field_type_conflict', [
          { path: [claim.name], message: `is of type ${existing.type}, not ${claim.type}` },
        ]);
      }
    }
    for (const claim of claims) {
      const existing = state.fields.get(claim.name);
      if (!existing) state.fields.set(claim.name, Object.freeze({ name: claim.name, type: claim.type, createdAt: now }));
      else if (existing.type === null && claim.type !== null)
        state.fields.set(claim.name, Object.freeze({ ...existing, type: claim.type }));
    }
    state.accepted++;
    for (const operation of operations) {
      const id = operation.op === 'put' ? operation.item.id : operation.id;
      if (operation.op === 'put') state.items.set(id, frozenCopy(operation.item));
      else state.items.delete(id);
      if (state.changed !== 'all') state.changed.add(id);
    }
  }

  async deleteAllItems(identifier: string): Promise<number> {
    const state = this.#state(identifier);
    const count = state.items.size;
    state.items.clear();
    state.accepted++;
    state.changed = 'all';
    return count;
  }

  async deleteField(identifier: string, name: string): Promise<boolean> {
    const state = this.#state(identifier);
    if (!state.fields.delete(name)) return false;
    state.accepted++;
    state.changed = 'all';
    for (const [id, item] of state.items) {
      if (!Object.hasOwn(item, name)) continue;
      const copy: Record<string, unknown> = { ...item };
      delete copy[name];
      state.items.set(id, Object.freeze(copy) as CatalogItem);
    }
    return true;
  }

  async getItem(identifier: string, id: string): Promise<CatalogItem | undefined> {
    return this.#state(identifier).items.get(id);
  }

  async countItems(identifier: string): Promise<number> {
    return this.#state(identifier).items.size;
  }

  async publish(identifier: string, now: number): Promise<{ version: number; syncedAt: number; count: number }> {
    const state = this.#state(identifier);
    // With none under way it starts now, taking the items as they are at this call.
    const done = state.publishing ? state.publishing.then(() => this.#publish(state, now)) : this.#publish(state, now);
    const settled = done.then(
      () => undefined,
      () => undefined,
    );
    state.publishing = settled;
    void settled.then(() => {
      if (state.publishing === settled) state.publishing = undefined;
    });
    return done;
  }

  /**
   * One publication, after the one before it. The items are taken at its start (writes landing
   * while a large snapshot is sorted in steps go to the next publication).
   */
  async #publish(state: State, now: number): Promise<{ version: number; syncedAt: number; count: number }> {
    // Nothing written since the last publication: keep it (as the SQL stores do).
    if (state.visible.version > 0 && state.publishedFrom === state.accepted) {
      return { version: state.visible.version, syncedAt: state.visible.syncedAt!, count: state.visible.items.length };
    }
    const accepted = state.accepted;
    const work = snapshot(state);
    // The accepted items are read by the first step of the snapshot, before any later write.
    let step = work.next();
    state.changed = new Set();
    while (!step.done) {
      await nextTurn();
      step = work.next();
    }
    // Items are frozen: the snapshot shares them with the accepted map safely.
    const items = Object.freeze(step.value);
    state.publishedFrom = accepted;
    state.visible = Object.freeze({ version: state.visible.version + 1, syncedAt: now, items });
    return { version: state.visible.version, syncedAt: now, count: items.length };
  }

  async visibleVersion(identifier: string): Promise<{ version: number; syncedAt: number | null }> {
    const { visible } = this.#state(identifier);
    return { version: visible.version, syncedAt: visible.syncedAt };
  }

  async visibleItems(identifier: string): Promise<VisibleCatalog> {
    return this.#state(identifier).visible;
  }
}
