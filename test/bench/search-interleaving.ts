/**
 * `npm run bench -- search-experiments`, measurement 2 (continued): the same two rankings compared
 * by team-draft interleaving (src/search-experiments/interleaving.ts) instead of an A/B: every
 * shopper sees one list merged from both, the clicks credit the ranking that drafted what was
 * clicked, and the sign test of wins says which is preferred. Same shoppers, queries and click
 * model as the A/B; the draft's coin has its own seeded stream.
 */
import { interleavingResult, interleavingWinner, teamDraft } from '../../src/http/index';
import { loadBestBuy } from '../helpers/bestbuy';
import type { Search } from '../helpers/shoppers';
import { type Arm, CachedSearches } from '../sim/ab';
import { AA_RUNS, AB_RUNS, ALPHA, ARMS, shoppersOf, wilson } from './search-ranking-ab';
import { readHoldoutQueries, readJudgedQueries } from './relevance-judgments';
import { seededRandom } from './relevance-metrics';

const CHECKPOINTS = [50, 100, 250, 500, 1000, 2000] as const;
const AA_SESSIONS = 1000;

type Wins = { A: number; B: number; tie: number };

/** Runs one interleaved comparison of `arms`, returning the wins at each checkpoint. */
async function interleaved(searches: CachedSearches, arms: readonly [Arm, Arm], seed: number, checkpoints: readonly number[]) {
  const queries = [...readJudgedQueries(), ...readHoldoutQueries()];
  const shoppers = shoppersOf(queries, seed);
  const coin = seededRandom(seed ^ 0x7e4d);
  let teams: readonly ('A' | 'B')[] = [];
  const search: Search = async ({ text, hitsPerPage }) => {
    const [a, b] = await Promise.all(arms.map((arm) => searches.page(arm.settings, text, hitsPerPage)));
    const shown = teamDraft(a!.ids, b!.ids, hitsPerPage, coin);
    teams = shown.teams;
    return { ids: [...shown.items], totalHits: Math.max(a!.totalHits, b!.totalHits) };
  };
  const wins: Wins = { A: 0, B: 0, tie: 0 };
  const out: Wins[] = [];
  let done = 0;
  for (const at of checkpoints) {
    await shoppers.run(search, at - done, done, (s) => {
      wins[
        interleavingWinner(
          teams,
          s.browse.clicks.map((c) => c.position - 1),
        )
      ]++;
    });
    done = at;
    out.push({ ...wins });
  }
  return out;
}

const fmt = (n: number, d = 3) => n.toFixed(d);

/** Prints the share of runs preferring the default rules at p < ALPHA per checkpoint, and the A/A false positive rate. */
export async function benchSearchInterleaving(): Promise<{ falsePositiveRate: number }> {
  const searches = new CachedSearches((await loadBestBuy()).catalog);
  const runs: Wins[][] = [];
  for (let run = 0; run < AB_RUNS; run++) runs.push(await interleaved(searches, ARMS, 1000 + run, CHECKPOINTS));
  const prefersA = (w: Wins) => {
    const r = interleavingResult(w);
    return r.pValue !== null && r.pValue < ALPHA && r.preference < 0;
  };
  console.log(
    `\nTeam-draft interleaving of the same two rankings (the same shoppers, one merged list of 10 each; a session's clicks credit the ranking that drafted them; sign test of wins, ties left out), ${AB_RUNS} runs:`,
  );
  console.log('| sessions | wins default / bm25 / ties (run 1) | p (run 1) | runs preferring the default rules at p < 0.05 |');
  console.log('|---|---|---|---|');
  CHECKPOINTS.forEach((n, i) => {
    const w = runs[0]![i]!;
    const p = interleavingResult(w).pValue;
    console.log(
      `| ${n} | ${w.A} / ${w.B} / ${w.tie} | ${p === null ? '—' : p < 0.0001 ? '< 0.0001' : fmt(p, 4)} | ${runs.filter((r) => prefersA(r[i]!)).length}/${AB_RUNS} |`,
    );
  });
  let positives = 0;
  for (let run = 0; run < AA_RUNS; run++) {
    const [w] = await interleaved(searches, [ARMS[0], { ...ARMS[0], id: 'copy' }], 5000 + run, [AA_SESSIONS]);
    const p = interleavingResult(w!).pValue;
    if (p !== null && p < ALPHA) positives++;
  }
  const [low, high] = wilson(positives, AA_RUNS);
  console.log(
    `Interleaving A/A: ${AA_RUNS} runs of ${AA_SESSIONS} sessions interleaving the default rules with themselves: ${positives} with p < ${ALPHA}, false positive rate ${fmt((100 * positives) / AA_RUNS, 1)} % (Wilson 95 % ${fmt(100 * low, 1)}–${fmt(100 * high, 1)} %).`,
  );
  return { falsePositiveRate: positives / AA_RUNS };
}
