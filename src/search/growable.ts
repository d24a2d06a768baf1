/**
 * A growable list of unsigned 32-bit integers, in fixed-size typed-array chunks: an index holds a
 * few of these instead of one JavaScript array per word or per value, and growing never copies
 * what is already there (copying tens of megabytes at once would stall the event loop).
 *
 * @module
 */

const CHUNK_BITS = 16;
const CHUNK = 1 << CHUNK_BITS;

/**
 * A list of unsigned 32-bit integers, assembled into one Uint32Array at the end in steps.
 *
 * @example
 * ```ts
 * const list = new Growable();
 * for (const n of [3, 1, 4]) list.push(n);
 * runAtOnce(list.concat()); // Uint32Array [3, 1, 4]
 * ```
 */
export class Growable {
  readonly #chunks: Uint32Array[] = [new Uint32Array(CHUNK)];
  #last = this.#chunks[0]!;
  #used = 0;
  #length = 0;

  get length(): number {
    return this.#length;
  }

  push(n: number): void {
    if (this.#used === CHUNK) {
      this.#last = new Uint32Array(CHUNK);
      this.#chunks.push(this.#last);
      this.#used = 0;
    }
    this.#last[this.#used++] = n;
    this.#length++;
  }

  /** Every number pushed, in one array, copied a chunk per step. Push no more after it. */
  concat(): Generator<void, Uint32Array> {
    return this.concatInto(Uint32Array);
  }

  /** Every number pushed, in one array of type `make` (a Uint16Array when every number is below 65,536), copied a chunk per step. Push no more after it. */
  *concatInto<T extends Uint16Array | Uint32Array>(make: new (length: number) => T): Generator<void, T> {
    const out = new make(this.#length);
    for (let c = 0; c < this.#chunks.length; c++) {
      const chunk = this.#chunks[c]!;
      out.set(c === this.#chunks.length - 1 ? chunk.subarray(0, this.#used) : chunk, c * CHUNK);
      yield;
    }
    this.#chunks.length = 0;
    return out;
  }
}

/** Bytes of a new array {@link zeroed} writes per step. */
export const ZEROED_BYTES_PER_STEP = 1 << 21;

/** The typed arrays {@link zeroed} makes. */
type TypedArrayOf = Uint8Array | Uint16Array | Uint32Array | Int32Array | Float32Array | Float64Array;

/**
 * A new zero-filled typed array of `length` elements, its memory written a slice per step. The
 * operating system provides a large allocation's pages on their first write, zeroing each then:
 * an index build that scattered its first writes over 100 MB of new posting arrays spent 40–70 ms
 * of one step in page faults.
 *
 * @example
 * ```ts
 * const docs = runAtOnce(zeroed(Uint32Array, 1 << 24)); // 64 MB, written 2 MB per step
 * ```
 */
export function* zeroed<T extends TypedArrayOf>(make: new (length: number) => T, length: number): Generator<void, T> {
  const array = new make(length);
  const slice = ZEROED_BYTES_PER_STEP / array.BYTES_PER_ELEMENT;
  for (let start = 0; start < length; start += slice) {
    array.fill(0, start, Math.min(length, start + slice));
    yield;
  }
  return array;
}
