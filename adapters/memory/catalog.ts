import { ConflictError, NotFoundError } from '../../src/errors';
import { frozenCopy } from '../../src/freeze';
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
}

function byId(a: CatalogItem, b: CatalogItem): number {
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}

/** In-memory catalogs. Every method runs without awaiting, so each is atomic. */
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
      else if (existing.type === null && claim.type !== null) state.fields.set(claim.name, Object.freeze({ ...existing, type: claim.type }));
    }
    state.accepted++;
    for (const operation of operations) {
      if (operation.op === 'put') state.items.set(operation.item.id, frozenCopy(operation.item));
      else state.items.delete(operation.id);
    }
  }

  async deleteAllItems(identifier: string): Promise<number> {
    const state = this.#state(identifier);
    const count = state.items.size;
    state.items.clear();
    state.accepted++;
    return count;
  }

  async deleteField(identifier: string, name: string): Promise<boolean> {
    const state = this.#state(identifier);
    if (!state.fields.delete(name)) return false;
    state.accepted++;
    for (const [id, item] of state.items) {
      if (!Object.prototype.hasOwnProperty.call(item, name)) continue;
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
    // Nothing written since the last publication: keep it (as the SQL stores do).
    if (state.visible.version > 0 && state.publishedFrom === state.accepted) {
      return { version: state.visible.version, syncedAt: state.visible.syncedAt!, count: state.visible.items.length };
    }
    state.publishedFrom = state.accepted;
    // Items are frozen: the snapshot shares them with the accepted map safely.
    const items = Object.freeze([...state.items.values()].sort(byId));
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
