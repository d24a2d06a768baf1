/**
 * MurmurHash3 x86_32 written out plainly, with the bucket functions over it: the reference the
 * engine's compiled hashing (src/decision/bucketing.ts, KeyHasher) is tested against, and the
 * decision benchmark's bare-hash baseline. Test code only.
 */
const encoder = new TextEncoder();
// One growable scratch buffer: hashing allocates nothing, like the engine.
let scratch = new Uint8Array(256);

function ensure(size: number): Uint8Array {
  if (scratch.length < size) scratch = new Uint8Array(Math.max(size, scratch.length * 2));
  return scratch;
}

/** Writes `a + b` as UTF-8 into the scratch buffer and returns the byte length. */
function writeUtf8(a: string, b: string): number {
  const total = a.length + b.length;
  const buf = ensure(total);
  let n = 0;
  for (let i = 0; i < a.length; i++) {
    const c = a.charCodeAt(i);
    if (c >= 0x80) return encodeSlow(a + b);
    buf[n++] = c;
  }
  for (let i = 0; i < b.length; i++) {
    const c = b.charCodeAt(i);
    if (c >= 0x80) return encodeSlow(a + b);
    buf[n++] = c;
  }
  return n;
}

function encodeSlow(text: string): number {
  // A UTF-16 code unit becomes at most 3 UTF-8 bytes.
  const buf = ensure(text.length * 3);
  return encoder.encodeInto(text, buf).written;
}

/**
 * MurmurHash3 x86_32 of the first `length` bytes of `bytes`. Written out as one plain function, not
 * from src/murmur.ts's steps: it is the reference the engine's hashing is tested against, and
 * the benchmarks' bare-hash baseline.
 *
 * @example
 * ```ts
 * murmur3(new TextEncoder().encode('hello'), 5); // 613153351
 * ```
 */
export function murmur3(bytes: Uint8Array, length = bytes.length, seed = 0): number {
  const c1 = 0xcc9e2d51;
  const c2 = 0x1b873593;
  let h = seed | 0;
  const tail = length & ~3;
  for (let i = 0; i < tail; i += 4) {
    let k = bytes[i]! | (bytes[i + 1]! << 8) | (bytes[i + 2]! << 16) | (bytes[i + 3]! << 24);
    k = Math.imul(k, c1);
    k = (k << 15) | (k >>> 17);
    k = Math.imul(k, c2);
    h ^= k;
    h = (h << 13) | (h >>> 19);
    h = (Math.imul(h, 5) + 0xe6546b64) | 0;
  }
  const rest = length & 3;
  if (rest > 0) {
    let k = bytes[tail]!;
    if (rest > 1) k ^= bytes[tail + 1]! << 8;
    if (rest > 2) k ^= bytes[tail + 2]! << 16;
    k = Math.imul(k, c1);
    k = (k << 15) | (k >>> 17);
    k = Math.imul(k, c2);
    h ^= k;
  }
  h ^= length;
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

/**
 * MurmurHash3 x86_32 (seed 0) of the UTF-8 bytes of `prefix + key`, without building the
 * concatenated string for ASCII input.
 *
 * @example
 * ```ts
 * hashString('vg1', 'visitor-42') === hashString('vg1visitor-42', ''); // true
 * ```
 */
export function hashString(prefix: string, key = ''): number {
  const length = writeUtf8(prefix, key);
  return murmur3(scratch, length);
}

/**
 * The bucket (0–99) of a visitor in a variation group: `murmur3(variationGroupId + visitorId) % 100`.
 *
 * @example
 * ```ts
 * const bucket = variationBucket('9273bkfh2k', 'visitor-1'); // an integer in [0, 100)
 * ```
 */
export function variationBucket(variationGroupId: string, visitorId: string): number {
  return hashString(variationGroupId, visitorId) % 100;
}

/**
 * The bucket (0–99) of a visitor for campaign `bucketRanges`: `murmur3(visitorId) % 100`.
 *
 * @example
 * ```ts
 * const inRange = campaignBucket('visitor-1') < 50;
 * ```
 */
export function campaignBucket(visitorId: string): number {
  return hashString(visitorId) % 100;
}
