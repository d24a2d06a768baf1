/** A full garbage collection on demand, for benchmarks (the flag is set at run time, so no `node --expose-gc`). */
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

/** Collects garbage fully (twice: the first pass may leave finalizable objects for a second). */
export function collectGarbage(): void {
  gc();
  gc();
}
