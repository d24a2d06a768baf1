/**
 * Runs tasks one at a time per key, in the order they were asked for.
 *
 * @module
 */

/**
 * A queue per key: `run(key, task)` starts `task` once every task asked for earlier under the
 * same key has settled. A key's queue is dropped when it empties, so the map holds only keys with
 * work in flight.
 */
export class OneAtATime {
  readonly #tails = new Map<string, Promise<unknown>>();

  /** Runs `task` after the earlier tasks of `key`; settles as `task` does. */
  run<T>(key: string, task: () => Promise<T>): Promise<T> {
    const previous = this.#tails.get(key) ?? Promise.resolve();
    const result = previous.then(task, task);
    const tail = result.then(
      () => undefined,
      () => undefined,
    );
    this.#tails.set(key, tail);
    void tail.then(() => {
      if (this.#tails.get(key) === tail) this.#tails.delete(key);
    });
    return result;
  }

  /** Keys with work in flight (for tests). */
  get size(): number {
    return this.#tails.size;
  }
}
