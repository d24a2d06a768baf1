/**
 * Long synchronous work cut into slices, so that other requests run in between (ARCHITECTURE.md,
 * Reliability: a decision is not kept waiting behind a batch). The work is
 * written once as a generator that yields at slice boundaries; {@link runInSlices} gives the
 * event loop a turn at each, {@link runAtOnce} runs it straight through.
 *
 * @module
 */

/** Operations (or array elements) handled between two turns of the event loop. */
export const SLICE_OPERATIONS = 250;

/** Characters of text scanned between two turns of the event loop. */
export const SLICE_CHARACTERS = 1 << 18;

/** Resolves on a later turn of the event loop, after pending timers and I/O. */
export function nextTurn(): Promise<void> {
  return new Promise((resolve) => (typeof setImmediate === 'function' ? setImmediate(resolve) : setTimeout(resolve, 0)));
}

/** Runs sliced work, giving the event loop a turn at every slice boundary. */
export async function runInSlices<T>(work: Generator<void, T>): Promise<T> {
  for (;;) {
    const step = work.next();
    if (step.done) return step.value;
    await nextTurn();
  }
}

/** Runs sliced work straight through (callers with nothing else to serve). */
export function runAtOnce<T>(work: Generator<void, T>): T {
  for (;;) {
    const step = work.next();
    if (step.done) return step.value;
  }
}
