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
  *concat(): Generator<void, Uint32Array> {
    const out = new Uint32Array(this.#length);
    for (let c = 0; c < this.#chunks.length; c++) {
      const chunk = this.#chunks[c]!;
      out.set(c === this.#chunks.length - 1 ? chunk.subarray(0, this.#used) : chunk, c * CHUNK);
      yield;
    }
    this.#chunks.length = 0;
    return out;
  }
}
