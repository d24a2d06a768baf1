/**
 * Login attempts per fixed window, per client address and in all: guessing a key costs a
 * window per few tries, and the counters take bounded memory (the oldest address is forgotten
 * when the table is full).
 */
export class AttemptLimiter {
  readonly #perAddress: number;
  readonly #global: number;
  readonly #windowMs: number;
  readonly #maxAddresses: number;
  readonly #clock: () => number;
  readonly #byAddress = new Map<string, { start: number; count: number }>();
  #all = { start: 0, count: 0 };

  constructor(options: { perAddress: number; global: number; windowMs: number; maxAddresses: number; clock: () => number }) {
    this.#perAddress = options.perAddress;
    this.#global = options.global;
    this.#windowMs = options.windowMs;
    this.#maxAddresses = options.maxAddresses;
    this.#clock = options.clock;
  }

  /**
   * Counts an attempt from `address` (undefined: no per-address count); answers the seconds to
   * wait when over a limit (the attempt is then not counted), else 0.
   */
  attempt(address: string | undefined): number {
    const now = this.#clock();
    if (now - this.#all.start >= this.#windowMs) this.#all = { start: now, count: 0 };
    let entry: { start: number; count: number } | undefined;
    if (address !== undefined) {
      entry = this.#byAddress.get(address);
      if (!entry || now - entry.start >= this.#windowMs) {
        this.#byAddress.delete(address);
        if (this.#byAddress.size >= this.#maxAddresses) this.#byAddress.delete(this.#byAddress.keys().next().value!);
        entry = { start: now, count: 0 };
        this.#byAddress.set(address, entry);
      }
      if (entry.count >= this.#perAddress) return Math.max(1, Math.ceil((entry.start + this.#windowMs - now) / 1000));
    }
    if (this.#all.count >= this.#global) return Math.max(1, Math.ceil((this.#all.start + this.#windowMs - now) / 1000));
    this.#all.count++;
    if (entry) entry.count++;
    return 0;
  }

  /** Addresses currently counted. */
  get addresses(): number {
    return this.#byAddress.size;
  }
}
