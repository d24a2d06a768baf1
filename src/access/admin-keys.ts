import { constantTimeEqual, randomCredential, secureRandom, sha256Hex, type RandomSource } from '../crypto';

/**
 * Prefix of admin keys made by {@link newAdminKey} (`abkit admin-key`).
 *
 * @example
 * ```ts
 * const leaked = new RegExp(`${ADMIN_KEY_PREFIX}[A-Za-z0-9_-]{43}`);
 * console.log(leaked.test(newAdminKey())); // true
 * ```
 */
export const ADMIN_KEY_PREFIX = 'abk_ak_';

/**
 * Shortest admin key {@link AdminKeys} accepts: one that could not be guessed by trying.
 *
 * @example
 * ```ts
 * const key = process.env.ABKIT_ADMIN_KEY ?? '';
 * if (key.length < MIN_ADMIN_KEY_LENGTH) throw new Error('ABKIT_ADMIN_KEY is too short');
 * ```
 */
export const MIN_ADMIN_KEY_LENGTH = 32;

/**
 * Most admin keys one list holds (each presented key is compared with all of them).
 *
 * @example
 * ```ts
 * const names = ['ops', 'ci'];
 * if (names.length > MAX_ADMIN_KEYS) throw new Error('too many admin keys');
 * ```
 */
export const MAX_ADMIN_KEYS = 32;

/**
 * One admin credential: the actor's name (in the audit log) and its key.
 *
 * @example
 * ```ts
 * const keys: AdminKey[] = [{ name: 'ops', key: process.env.ADMIN_KEY_OPS! }];
 * ```
 */
export interface AdminKey {
  /** 1–100 characters: letters, digits, `.`, `_`, `-`, `@`. */
  readonly name: string;
  /** At least {@link MIN_ADMIN_KEY_LENGTH} visible ASCII characters. */
  readonly key: string;
}

const NAME = /^[A-Za-z0-9._@-]{1,100}$/;
const VISIBLE = /^[\x21-\x7e]+$/;

/**
 * A fresh admin key: {@link ADMIN_KEY_PREFIX} and 256 random bits.
 *
 * @example
 * ```ts
 * console.log(`ABKIT_ADMIN_KEY=ops=${newAdminKey()}`);
 * ```
 */
export function newAdminKey(random: RandomSource = secureRandom): string {
  return randomCredential(ADMIN_KEY_PREFIX, 32, random);
}

/**
 * The admin credentials of an instance: checked in time independent of which key matched (every
 * key's hash is compared), kept only as hashes from construction on.
 *
 * @example
 * ```ts
 * const keys = new AdminKeys([{ name: 'ops', key: newAdminKey() }]);
 * const actor = await keys.actorOf(key); // 'ops', or undefined
 * ```
 */
export class AdminKeys {
  readonly #hashes: Promise<{ name: string; hash: string }[]>;

  /** Checks the list; a bad entry throws a `TypeError` naming it (never showing the key). */
  constructor(keys: readonly AdminKey[]) {
    if (!Array.isArray(keys) || keys.length === 0 || keys.length > MAX_ADMIN_KEYS)
      throw new TypeError(`AdminKeys: keys must be a list of 1 to ${MAX_ADMIN_KEYS} { name, key }`);
    const names = new Set<string>();
    keys.forEach((entry, i) => {
      if (typeof entry?.name !== 'string' || !NAME.test(entry.name))
        throw new TypeError(`AdminKeys: keys[${i}].name must be 1 to 100 letters, digits, ".", "_", "-" or "@"`);
      if (names.has(entry.name)) throw new TypeError(`AdminKeys: keys[${i}].name "${entry.name}" is given twice`);
      names.add(entry.name);
      if (typeof entry.key !== 'string' || entry.key.length < MIN_ADMIN_KEY_LENGTH || !VISIBLE.test(entry.key))
        throw new TypeError(`AdminKeys: keys[${i}].key (${entry.name}) must be at least ${MIN_ADMIN_KEY_LENGTH} visible ASCII characters`);
    });
    // Only the hashes are kept: the list given can be dropped by the caller.
    this.#hashes = Promise.all(keys.map(async ({ name, key }) => ({ name, hash: await sha256Hex(key) })));
  }

  /** The name of the key `presented` is, or undefined. */
  async actorOf(presented: string): Promise<string | undefined> {
    if (typeof presented !== 'string' || presented.length > 1024) return undefined;
    const hash = await sha256Hex(presented);
    let actor: string | undefined;
    // No early exit: the time does not tell which key (or whether any) matched.
    for (const entry of await this.#hashes) if (constantTimeEqual(hash, entry.hash) && actor === undefined) actor = entry.name;
    return actor;
  }
}
