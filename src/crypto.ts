/**
 * Hashing and comparison over Web Crypto, so the core runs on any Web-standard runtime.
 *
 * @module
 */

const encoder = new TextEncoder();

interface NodeHashing {
  createHash(algorithm: 'sha256'): { update(text: string): { digest(encoding: 'hex'): string } };
  createHmac(algorithm: 'sha256', key: string): { update(text: string): { digest(encoding: 'hex'): string } };
}

// On Node, hash synchronously through node:crypto (about 30 times cheaper than a Web Crypto
// round trip), without a static import so the core still runs on any Web-standard runtime.
const nodeHashing = (globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } }).process?.getBuiltinModule?.(
  'node:crypto',
) as NodeHashing | undefined;

/** SHA-256 of `text` (UTF-8), as lower-case hex. */
export async function sha256Hex(text: string): Promise<string> {
  if (nodeHashing) return nodeHashing.createHash('sha256').update(text).digest('hex');
  return sha256HexWeb(text);
}

/** {@link sha256Hex} through Web Crypto only (the path of non-Node runtimes). */
export async function sha256HexWeb(text: string): Promise<string> {
  const digest = await globalThis.crypto.subtle.digest('SHA-256', encoder.encode(text));
  return hex(new Uint8Array(digest));
}

/** Compares two strings in time that depends only on their lengths. */
export function constantTimeEqual(a: string, b: string): boolean {
  let diff = a.length ^ b.length;
  const n = Math.max(a.length, b.length);
  for (let i = 0; i < n; i++) diff |= (a.charCodeAt(i) | 0) ^ (b.charCodeAt(i) | 0);
  return diff === 0;
}

/**
 * A source of random bytes; inject a seeded one in tests.
 *
 * @example
 * ```ts
 * let seed = 42;
 * const random: RandomSource = (size) => Uint8Array.from({ length: size }, () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) & 0xff);
 * const accesses = new AccessManager({ storage, random }); // reproducible ids and secrets in tests
 * ```
 */
export type RandomSource = (size: number) => Uint8Array;

/** Cryptographically secure random bytes from Web Crypto. */
export const secureRandom: RandomSource = (size) => globalThis.crypto.getRandomValues(new Uint8Array(size));

/** base64url without padding (RFC 4648 §5). */
export function base64url(bytes: Uint8Array): string {
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

/** `prefix` followed by `bytes` random bytes in base64url: an opaque, recognizable credential. */
export function randomCredential(prefix: string, bytes: number, random: RandomSource = secureRandom): string {
  const raw = random(bytes);
  if (!(raw instanceof Uint8Array) || raw.length !== bytes) throw new TypeError(`random source must return ${bytes} bytes`);
  return prefix + base64url(raw);
}

const hmacKeys = new Map<string, Promise<CryptoKey>>();

/**
 * Hash under which a secret or token is stored: HMAC-SHA-256 keyed with `pepper` when one is
 * configured, else SHA-256; lower-case hex. A stolen table of hashes then does not reveal
 * credentials, and with a pepper cannot even be checked offline.
 */
export async function credentialHash(secret: string, pepper?: string): Promise<string> {
  if (!pepper) return sha256Hex(secret);
  if (nodeHashing) return nodeHashing.createHmac('sha256', pepper).update(secret).digest('hex');
  return hmacHexWeb(secret, pepper);
}

/**
 * Whether `storedHash` is the plain SHA-256 of `secret` although a pepper is configured: a hash
 * stored before the pepper was (environment API keys, whose stores predate their pepper). Such
 * a hash still verifies, and its owner stores the keyed one in its place. Without a pepper there
 * is nothing older to recognize: {@link credentialHash} is then plain SHA-256 itself.
 */
export async function isUnpepperedHash(secret: string, storedHash: string, pepper: string | undefined): Promise<boolean> {
  return !!pepper && constantTimeEqual(await sha256Hex(secret), storedHash);
}

/** HMAC-SHA-256 through Web Crypto only (the path of non-Node runtimes). */
export async function hmacHexWeb(secret: string, pepper: string): Promise<string> {
  let key = hmacKeys.get(pepper);
  if (!key) {
    key = globalThis.crypto.subtle.importKey('raw', encoder.encode(pepper), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
    hmacKeys.set(pepper, key);
  }
  const mac = await globalThis.crypto.subtle.sign('HMAC', await key, encoder.encode(secret));
  return hex(new Uint8Array(mac));
}

function hex(bytes: Uint8Array): string {
  let out = '';
  for (const byte of bytes) out += byte.toString(16).padStart(2, '0');
  return out;
}
