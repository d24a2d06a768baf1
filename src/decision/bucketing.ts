/**
 * Bucketing: MurmurHash3 x86_32 (seed 0) over the UTF-8 bytes of a key, modulo 100.
 * This is the hash the Flagship SDKs use, so a visitor lands in the same variation here
 * as there. For ASCII ids it equals the SDKs' char-code hash; other ids hash their UTF-8
 * bytes. The hash is computed by {@link KeyHasher} from a prefix compiled once per variation
 * group; the plain MurmurHash3 it is tested against lives in test/helpers/murmur3.ts.
 *
 * @module
 */

import { finalize, fold, mixBlock } from '../murmur';

const encoder = new TextEncoder();

/**
 * A hash prefix (a variation group id) compiled once: MurmurHash3's state after the prefix's
 * whole 4-byte blocks, and its 0–3 remaining bytes. Hashing `prefix + key` then starts there.
 *
 * @example
 * ```ts
 * const prefix = hashPrefix('vg1');
 * new KeyHasher().reset('visitor-42').hash(prefix) === hashString('vg1', 'visitor-42'); // true
 * ```
 */
export interface HashPrefix {
  /** State after the whole blocks. */
  readonly state: number;
  /** The remaining bytes, little-endian. */
  readonly tail: number;
  /** How many bytes remain (0–3). */
  readonly tailLength: number;
  /** The prefix's UTF-8 length. */
  readonly length: number;
}

/**
 * Compiles a hash prefix (see {@link HashPrefix}).
 *
 * @example
 * ```ts
 * const prefix = hashPrefix('9273bkfh2k'); // once per variation group, when a configuration compiles
 * ```
 */
export function hashPrefix(prefix: string): HashPrefix {
  const bytes = encoder.encode(prefix);
  const whole = bytes.length & ~3;
  let h = 0;
  for (let i = 0; i < whole; i += 4)
    h = fold(h, mixBlock(bytes[i]! | (bytes[i + 1]! << 8) | (bytes[i + 2]! << 16) | (bytes[i + 3]! << 24)));
  let tail = 0;
  for (let i = whole; i < bytes.length; i++) tail |= bytes[i]! << (8 * (i - whole));
  return { state: h, tail, tailLength: bytes.length - whole, length: bytes.length };
}

/**
 * Hashes `prefix + key` for one key (a visitor id) and many compiled prefixes: the key is
 * encoded once, and its blocks are mixed once per alignment (a prefix leaves 0–3 bytes that
 * shift the key's blocks), so each hash only folds prepared blocks into the prefix's state.
 * Equal to {@link hashString}`(prefix, key)`.
 *
 * @example
 * ```ts
 * const hasher = new KeyHasher().reset('visitor-42');
 * const buckets = ['vg1', 'vg2'].map((id) => hasher.hash(hashPrefix(id)) % 100);
 * ```
 */
export class KeyHasher {
  #bytes = new Uint8Array(64);
  #length = 0;
  // Mixed blocks of the key starting at byte offset 0–3, prepared on first use, and the mixed
  // 0–3 bytes after them (0 when none: MurmurHash3 then skips that step, and h ^ 0 is h).
  readonly #blocks: Int32Array[] = [new Int32Array(16), new Int32Array(16), new Int32Array(16), new Int32Array(16)];
  readonly #counts = [-1, -1, -1, -1];
  readonly #rests = [0, 0, 0, 0];

  /** Prepares for a new key. */
  reset(key: string): this {
    let buf = this.#bytes;
    if (buf.length < key.length) buf = this.#bytes = new Uint8Array(key.length * 2);
    let n = 0;
    for (let i = 0; i < key.length; i++) {
      const c = key.charCodeAt(i);
      if (c >= 0x80) {
        if (buf.length < key.length * 3) buf = this.#bytes = new Uint8Array(key.length * 3);
        n = encoder.encodeInto(key, buf).written;
        break;
      }
      buf[n++] = c;
    }
    this.#length = n;
    // Four stores instead of a call to fill: this runs once per decision.
    const counts = this.#counts;
    counts[0] = counts[1] = counts[2] = counts[3] = -1;
    return this;
  }

  #prepare(offset: number): number {
    const bytes = this.#bytes;
    const count = (this.#length - offset) >> 2;
    let blocks = this.#blocks[offset]!;
    if (blocks.length < count) blocks = this.#blocks[offset] = new Int32Array(count * 2);
    for (let j = 0, i = offset; j < count; j++, i += 4) {
      blocks[j] = mixBlock(bytes[i]! | (bytes[i + 1]! << 8) | (bytes[i + 2]! << 16) | (bytes[i + 3]! << 24));
    }
    let rest = 0;
    for (let i = offset + count * 4, shift = 0; i < this.#length; i++, shift += 8) rest |= bytes[i]! << shift;
    this.#rests[offset] = mixBlock(rest);
    this.#counts[offset] = count;
    return count;
  }

  /** MurmurHash3 x86_32 (seed 0) of the UTF-8 bytes of `prefix + key`. */
  hash(prefix: HashPrefix): number {
    return this.#hash(prefix.state, prefix.tail, prefix.tailLength, prefix.length);
  }

  /** {@link hash} of a prefix stored as four integers from `at`: state, tail, tail length, length. */
  hashAt(prefixes: Int32Array, at: number): number {
    return this.#hash(prefixes[at]!, prefixes[at + 1]!, prefixes[at + 2]!, prefixes[at + 3]!);
  }

  #hash(state: number, tail: number, t: number, length: number): number {
    const bytes = this.#bytes;
    const n = this.#length;
    let h = state;
    // Where the key's whole blocks start: after the bytes that complete the prefix's last block.
    let offset = 0;
    if (t > 0) {
      const need = 4 - t;
      let k = tail;
      if (n < need) {
        // A key too short to complete it: all its bytes join the prefix's.
        for (let i = 0; i < n; i++) k |= bytes[i]! << (8 * (t + i));
        return finalize(h ^ mixBlock(k), length + n);
      }
      for (let i = 0; i < need; i++) k |= bytes[i]! << (8 * (t + i));
      h = fold(h, mixBlock(k));
      offset = need;
    }
    let count = this.#counts[offset]!;
    if (count < 0) count = this.#prepare(offset);
    const blocks = this.#blocks[offset]!;
    for (let j = 0; j < count; j++) {
      // fold(h, blocks[j]) written out: this runs for every block of every hash, and a call to
      // an imported function checks the binding on each iteration.
      h ^= blocks[j]!;
      h = (h << 13) | (h >>> 19);
      h = (Math.imul(h, 5) + 0xe6546b64) | 0;
    }
    return finalize(h ^ this.#rests[offset]!, length + n);
  }
}

/**
 * Walks cumulative allocation thresholds: the index of the first variation whose running
 * total exceeds `bucket`, or -1 when the bucket falls in the gap (untracked).
 * `thresholds[i]` is the running total after variation i, or -1 for a variation that never
 * matches (allocation 0 or absent).
 *
 * @example
 * ```ts
 * pickVariation([50, 100], 73); // 1
 * pickVariation([10, 30], 42);  // -1: the visitor is untracked
 * ```
 */
export function pickVariation(thresholds: readonly number[], bucket: number): number {
  for (let i = 0; i < thresholds.length; i++) {
    const t = thresholds[i]!;
    if (t >= 0 && bucket < t) return i;
  }
  return -1;
}
