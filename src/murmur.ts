/**
 * MurmurHash3 x86_32's three steps, shared by the decision's key hashing (src/decision/bucketing.ts)
 * and the memory store's table of visitors (adapters/memory/visitor-table.ts). A leaf module with
 * no imports, so the adapter layer may use it without depending on a service.
 *
 * @module
 */

const C1 = 0xcc9e2d51;
const C2 = 0x1b873593;

/** One 4-byte block's contribution before it meets the running state (the per-block half of MurmurHash3). */
export function mixBlock(k: number): number {
  k = Math.imul(k, C1);
  k = (k << 15) | (k >>> 17);
  return Math.imul(k, C2);
}

/** Folds a mixed block into the running state. */
export function fold(h: number, k: number): number {
  h ^= k;
  h = (h << 13) | (h >>> 19);
  return (Math.imul(h, 5) + 0xe6546b64) | 0;
}

/** MurmurHash3's final avalanche over the state and the total byte length. */
export function finalize(h: number, length: number): number {
  h ^= length;
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}
