import { base64url, type RandomSource } from '../crypto';

/** Something shown once after a redirect (a secret, a key), then forgotten. */
export interface Flash {
  readonly title: string;
  /** Where the page that shows it lives (the only path that may take it). */
  readonly path: string;
  /** Lines of name and value; `secret` values get a copy button and the warning. */
  readonly lines: readonly { readonly label: string; readonly value: string; readonly secret?: boolean }[];
  /** Where to go afterwards. */
  readonly back: string;
}

/** A signed-in console user. */
export interface Session {
  readonly id: string;
  /** The admin key's name: the actor in the audit log. */
  readonly actor: string;
  /** The token every form of this session carries (CSRF). */
  readonly csrf: string;
  readonly expiresAt: number;
  flash?: Flash;
}

/**
 * Console sessions, in memory: random ids, a bounded count (the oldest goes first when full), a
 * fixed lifetime. A restart signs everyone out, which is what a console on one instance wants.
 */
export class SessionStore {
  readonly #sessions = new Map<string, Session>();
  readonly #max: number;
  readonly #lifetimeMs: number;
  readonly #clock: () => number;
  readonly #random: RandomSource;

  constructor(options: { maxSessions: number; lifetimeMs: number; clock: () => number; random: RandomSource }) {
    this.#max = options.maxSessions;
    this.#lifetimeMs = options.lifetimeMs;
    this.#clock = options.clock;
    this.#random = options.random;
  }

  /** Number of live sessions (expired ones are dropped first). */
  get size(): number {
    this.#sweep();
    return this.#sessions.size;
  }

  /** A new session for `actor`. */
  create(actor: string): Session {
    this.#sweep();
    // Map order is insertion order: the first key is the oldest session.
    while (this.#sessions.size >= this.#max) this.#sessions.delete(this.#sessions.keys().next().value!);
    const session: Session = {
      id: base64url(this.#random(32)),
      actor,
      csrf: base64url(this.#random(24)),
      expiresAt: this.#clock() + this.#lifetimeMs,
    };
    this.#sessions.set(session.id, session);
    return session;
  }

  /** The live session of that id, or undefined. */
  get(id: string | undefined): Session | undefined {
    if (id === undefined) return undefined;
    const session = this.#sessions.get(id);
    if (session && session.expiresAt <= this.#clock()) {
      this.#sessions.delete(id);
      return undefined;
    }
    return session;
  }

  /** Ends a session (logout). */
  delete(id: string): void {
    this.#sessions.delete(id);
  }

  /** The session's flash when it belongs to `path`, removed: a reload finds nothing. */
  takeFlash(session: Session, path: string): Flash | undefined {
    const flash = session.flash;
    if (flash?.path !== path) return undefined;
    session.flash = undefined;
    return flash;
  }

  #sweep(): void {
    const now = this.#clock();
    for (const [id, s] of this.#sessions) if (s.expiresAt <= now) this.#sessions.delete(id);
  }
}
