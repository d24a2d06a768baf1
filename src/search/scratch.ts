/**
 * Typed arrays reused from one query to the next. Queries run synchronously, so one array per
 * use serves them all; each typed array of more than 64 bytes costs an allocation outside the
 * heap, which on small catalogs cost as much as the work done in it.
 *
 * @module
 */

/** Most elements of a scratch array kept from one query to the next (larger ones: the query's work dwarfs their allocation). */
export const SCRATCH_LIMIT = 1 << 16;

/** A typed array reused by every query (queries run synchronously), grown up to SCRATCH_LIMIT elements; the caller fills it. */
export class Scratch<T extends Uint8Array | Uint16Array | Int32Array | Float64Array> {
  readonly #make: new (
    length: number,
  ) => T;
  #array: T;

  constructor(make: new (length: number) => T) {
    this.#make = make;
    this.#array = new make(0);
  }

  /** An array of `length` elements holding anything. */
  take(length: number): T {
    if (length > SCRATCH_LIMIT) return new this.#make(length);
    if (this.#array.length < length) this.#array = new this.#make(Math.min(SCRATCH_LIMIT, Math.max(length, 2 * this.#array.length)));
    return this.#array.subarray(0, length) as T;
  }
}

/**
 * `make(index)` once per index, on its first use, kept as long as the index lives: what every
 * query on one index reuses (its scratch arrays: queries run synchronously) or what is computed
 * of an index once.
 */
export function perIndex<K extends object, V>(make: (index: K) => V): (index: K) => V {
  const made = new WeakMap<K, V>();
  return (index) => {
    let value = made.get(index);
    if (value === undefined) made.set(index, (value = make(index)));
    return value;
  };
}

// Per index: the filters' two masks in turn (0, 1), and the facets' mask of the matching documents (2).
const masks = perIndex<{ readonly items: readonly unknown[] }, (Uint8Array | undefined)[]>(() => []);

/** Mask `k` of an index (one byte per document), holding anything: the caller fills it. */
export function maskScratch(index: { readonly items: readonly unknown[] }, k: number): Uint8Array {
  return (masks(index)[k] ??= new Uint8Array(index.items.length));
}
