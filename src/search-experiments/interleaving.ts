/**
 * Team-draft interleaving (Radlinski, Kurup and Joachims, "How does clickthrough data reflect
 * retrieval quality?", CIKM 2008): two rankings merged into one list shown to a shopper, each
 * item credited to the ranking ("team") that drafted it, so the rankings compete on the same
 * query for the same person and the clicks say which one is preferred. Differences between
 * shoppers and between queries then weigh on both rankings alike, which is why published
 * comparisons (Chapelle, Joachims, Radlinski and Yue, 2012) found interleaving to need far fewer
 * queries than an A/B test of click-through between two groups of visitors. The functions here
 * are the building blocks (the merge, the credit of clicks, the test); serving an interleaved
 * page needs the clicks tied to its impression (the `queryID` of search events).
 *
 * @module
 */
import { normalCdf } from '../results/distributions';

/**
 * A merged list and the team that drafted each of its entries.
 *
 * @example
 * ```ts
 * const { items, teams }: Interleaved<string> = teamDraft(['a', 'b', 'c'], ['c', 'a', 'd'], 4, Math.random);
 * // items e.g. ['c', 'a', 'b', 'd'], teams ['B', 'A', 'A', 'B']
 * ```
 */
export interface Interleaved<T> {
  readonly items: readonly T[];
  /** `A` or `B` for each entry of `items`: the ranking that drafted it. */
  readonly teams: readonly ('A' | 'B')[];
}

/**
 * Merges rankings `a` and `b` into at most `length` entries by team draft: in each round the
 * team with fewer picks (a coin when even) picks its highest-ranked entry not yet in the list.
 * Entries are compared by `key` (for hits, their id). Its cost is linear in the lists' lengths.
 *
 * @example
 * ```ts
 * const byPopularity = search.withSettings({ customRanking: ['popularity:desc'] });
 * const [pageA, pageB] = await Promise.all([search.search({ text: 'phone' }), byPopularity.search({ text: 'phone' })]);
 * const shown = teamDraft(pageA.hits, pageB.hits, 10, Math.random, (hit) => hit.id);
 * ```
 */
export function teamDraft<T>(
  a: readonly T[],
  b: readonly T[],
  length: number,
  random: () => number,
  key: (item: T) => unknown = (item) => item,
): Interleaved<T> {
  const items: T[] = [];
  const teams: ('A' | 'B')[] = [];
  const taken = new Set<unknown>();
  const next = { A: 0, B: 0 };
  let picksA = 0;
  let picksB = 0;
  const pick = (team: 'A' | 'B'): boolean => {
    const list = team === 'A' ? a : b;
    while (next[team] < list.length && taken.has(key(list[next[team]]!))) next[team]++;
    if (next[team] >= list.length) return false;
    const item = list[next[team]++]!;
    taken.add(key(item));
    items.push(item);
    teams.push(team);
    return true;
  };
  while (items.length < length) {
    const first: 'A' | 'B' = picksA < picksB || (picksA === picksB && random() < 0.5) ? 'A' : 'B';
    const other = first === 'A' ? 'B' : 'A';
    // A team whose list is spent lets the other one go on alone.
    const team = pick(first) ? first : pick(other) ? other : undefined;
    if (team === undefined) break;
    if (team === 'A') picksA++;
    else picksB++;
  }
  return { items, teams };
}

/**
 * Which team an impression's clicks prefer: the one whose entries got more clicks, or `tie`.
 *
 * @example
 * ```ts
 * const shown = teamDraft(['a', 'b', 'c'], ['c', 'd', 'a'], 4, Math.random);
 * interleavingWinner(shown.teams, [0, 3]); // clicks at positions 0 and 3 (0-based)
 * ```
 */
export function interleavingWinner(teams: readonly ('A' | 'B')[], clickedPositions: Iterable<number>): 'A' | 'B' | 'tie' {
  let a = 0;
  let b = 0;
  for (const p of new Set(clickedPositions)) {
    if (teams[p] === 'A') a++;
    else if (teams[p] === 'B') b++;
  }
  return a > b ? 'A' : b > a ? 'B' : 'tie';
}

/**
 * The comparison of interleaved impressions (or of visitors, each counted by the team most of
 * their impressions preferred: impressions of one shopper are not independent).
 *
 * @example
 * ```ts
 * const result: InterleavingResult = interleavingResult({ A: 120, B: 160, tie: 900 });
 * if (result.pValue !== null && result.pValue < 0.05) console.log(result.preference > 0 ? 'B wins' : 'A wins');
 * ```
 */
export interface InterleavingResult {
  readonly winsA: number;
  readonly winsB: number;
  readonly ties: number;
  /** `(winsB − winsA) / (winsA + winsB + ties)`, in [−1, 1]: positive when B is preferred. */
  readonly preference: number;
  /** Two-sided sign test of winsB against winsA (ties left out); null without any win. */
  readonly pValue: number | null;
}

/**
 * The preference and its sign test from win counts: exact binomial up to 1,000 decided
 * comparisons, the normal approximation with continuity correction beyond.
 *
 * @example
 * ```ts
 * interleavingResult({ A: 40, B: 62, tie: 300 }).pValue; // about 0.037
 * ```
 */
export function interleavingResult(wins: { readonly A: number; readonly B: number; readonly tie: number }): InterleavingResult {
  const { A, B, tie } = wins;
  for (const [name, n] of Object.entries(wins))
    if (!(Number.isSafeInteger(n) && n >= 0)) throw new RangeError(`interleavingResult: ${name} must be a count, got ${n}`);
  const total = A + B + tie;
  const decided = A + B;
  return {
    winsA: A,
    winsB: B,
    ties: tie,
    preference: total === 0 ? 0 : (B - A) / total,
    pValue: decided === 0 ? null : signTest(Math.min(A, B), decided),
  };
}

/** Two-sided P(X ≤ k or X ≥ n − k) for X ~ Binomial(n, 1/2), with k ≤ n / 2. */
function signTest(k: number, n: number): number {
  if (n > 1000) return Math.min(1, 2 * normalCdf((k + 0.5 - n / 2) / Math.sqrt(n / 4)));
  // Sum of the lower tail in log space: C(n, i) / 2^n.
  let logTerm = -n * Math.LN2; // i = 0
  let tail = Math.exp(logTerm);
  for (let i = 1; i <= k; i++) {
    logTerm += Math.log((n - i + 1) / i);
    tail += Math.exp(logTerm);
  }
  return Math.min(1, 2 * tail);
}
