/**
 * The rank arrays of a query's ranker: views of one Int32Array and one Float64Array, each typed
 * array of more than 64 bytes costing an allocation outside the heap; a released ranker's go to
 * the next one.
 *
 * @module
 */
import { SCRATCH_LIMIT } from './scratch';

/** The arrays a ranker's rank arrays view: `ints` integers and `floats` reals per candidate. */
export interface RankStore {
  readonly ints: Int32Array;
  readonly floats: Float64Array;
}

/** Most rank arrays of each type kept for the next ranker, per candidate (the default rules hold 7 and 3). */
const KEPT_INTS = 7;
const KEPT_FLOATS = 3;

/**
 * The rank arrays of the last released ranker, for the next one. A pool rather than scratch:
 * a hybrid search keeps its ranker across an await, while another query makes its own.
 */
let spare: RankStore | undefined;

/** Zeroed arrays for `ints` and `floats` arrays of `size` candidates: the spare ones when large enough, else new ones. */
export function rankStore(ints: number, floats: number, size: number): RankStore {
  const kept = spare;
  if (kept && kept.ints.length >= ints * size && kept.floats.length >= floats * size) {
    spare = undefined;
    kept.ints.fill(0, 0, ints * size);
    kept.floats.fill(0, 0, floats * size);
    return kept;
  }
  return { ints: new Int32Array(ints * size), floats: new Float64Array(floats * size) };
}

/** Gives a ranker's arrays back for the next one (the larger of them and the spare is kept). */
export function releaseRankStore(store: RankStore): void {
  const small = store.ints.length <= KEPT_INTS * SCRATCH_LIMIT && store.floats.length <= KEPT_FLOATS * SCRATCH_LIMIT;
  if (small && (!spare || spare.ints.length + spare.floats.length < store.ints.length + store.floats.length)) spare = store;
}
