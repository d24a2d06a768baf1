/**
 * Ranking rules, Meilisearch-style: each rule sorts the ties of the rules before it. The ranker
 * composes the configured `rankingRules` from their modules (rules/registry.ts; one module per
 * rule behind the interface of rules/rule.ts) and orders candidates by them, then `tieBreak`,
 * then id.
 *
 * `words`, `typo` and `customRanking` are known for every candidate once matched; `subject`,
 * `variant`, `proximity`, `attribute`, `exactness` and `bm25` read the document's words, so a
 * candidate first holds upper bounds of them read from the postings of the query's words (written
 * once it may reach the page: without a sort, once its bucket of `words` and `typo` is the best one left), and a
 * candidate's words are read only when its bounds reach the page asked for (see
 * {@link Ranker.ordered}): a query matching the whole catalog reads about a page of documents.
 *
 * Each of `words`, `typo`, `exactness`, `subject`, `variant`, `proximity` and `attribute` gives
 * an integer rank in [1, max]; `_rankingScore` reads those before the first rule ordering by
 * values it does not score (`bm25`, `customRanking`'s criteria, a price) in rule order as nested shares of
 * [0, 1] (Meilisearch's construction): a higher rule outweighs every lower one, each lower rule
 * splits the share its betters left, and the score is 1 only when every rule is at its best
 * (every term matched exactly, without typo, naming what the item is, next to each other, at the
 * start of the best field, which equals the query). The `words` share counts matched terms (all
 * of them: the top m/(m+1) of [0, 1]), so a full match with a poor exactness scores about 0.9,
 * not 0.9997.
 *
 * @module
 */
import { compareValues } from './fields';
import type { Candidates, MatchingStrategy, QueryMatch } from './matching';
import type { SortCriterion } from './query';
import { type RankStore, rankStore, releaseRankStore } from './rank-arrays';
import { readDocument } from './reading/document';
import { readPositions } from './reading/positions';
import { type PostingFacts, readPostings, stillValid } from './reading/postings';
import { type RankQuery, rankQuery, releaseRankQuery } from './reading/query-context';
import type { RankingScoreDetails } from './rules/details';
import { type RankingRule, RULES } from './rules/registry';
import type { RankArray, RuleRanking, Span } from './rules/rule';
import { type TieBreakKey, tieBreakDetails, tieBreakKeys } from './rules/tie-break';
import type { SearchIndex } from './search-index';
import { keysOf } from './sort-keys';
import type { SearchWork } from './work';

export type { RankingScoreDetails } from './rules/details';
export { PROFILE_RANKING_RULES, RANKING_RULES, type RankingRule } from './rules/registry';
export { PROFILE_TIE_BREAK, TIE_BREAK } from './rules/tie-break';

/** Buckets of the leading ranks heapified one at a time before the rest of the candidates are heapified at once (see {@link Ranker.ordered}). */
const MAX_REFILLS = 4;

/** Scores this close to a threshold are computed exactly, not decided from bounds (floating-point error is far smaller). */
const SCORE_MARGIN = 1e-12;

/** What a ranker is given besides the query's candidates. */
export interface RankerOptions {
  readonly rules: readonly RankingRule[];
  readonly customRanking: readonly SortCriterion[];
  readonly tieBreak: readonly SortCriterion[];
  readonly strategy: MatchingStrategy;
  readonly sort: readonly SortCriterion[];
  readonly stopWords: ReadonlySet<string>;
  readonly priceField?: string | undefined;
  /**
   * Per document: 1 boosted, -1 buried by merchandising (merchandising.ts), ordered after `sort`
   * and before the rules; undefined when no rule boosts or buries.
   */
  readonly group?: Int8Array | undefined;
  /** Each document's behaviour signal (see RuleOptions). */
  readonly signal?: ((doc: number) => number) | undefined;
}

/** The score's span (scores are computed synchronously). */
const SPAN: Span = { lo: 0, width: 1 };

/** Compares candidates by each of `ranks` in turn, the higher first. */
function higherFirst(ranks: readonly RankArray[]): (a: number, b: number) => number {
  return (a, b) => {
    for (let k = 0; k < ranks.length; k++) {
      const values = ranks[k]!;
      const d = values[b]! - values[a]!;
      if (d !== 0) return d;
    }
    return 0;
  };
}

/** Compares candidates by each of `ranks` in turn, the higher first where `signs[k]` is 1, the lower where it is -1. */
function inTurn(ranks: readonly RankArray[], signs: readonly number[]): (a: number, b: number) => number {
  if (signs.every((s) => s === 1)) return higherFirst(ranks);
  return (a, b) => {
    for (let k = 0; k < ranks.length; k++) {
      const values = ranks[k]!;
      const d = values[b]! - values[a]!;
      if (d !== 0) return d * signs[k]!;
    }
    return 0;
  };
}

/** Ranking of the candidates of one query. */
export class Ranker {
  readonly #q: RankQuery;
  /** The rules applied (a placeholder search applies those ordering placeholders), and their rankings. */
  readonly #rules: readonly RankingRule[];
  readonly #rankings: readonly RuleRanking[];
  /** The rankings in `_rankingScore`, in rule order. */
  readonly #scored: readonly RuleRanking[];
  /** The rankings whose ranks are bounds until the candidate is read, and those the positions of the query's words make exact. */
  readonly #reading: readonly RuleRanking[];
  readonly #peeking: readonly RuleRanking[];
  readonly #sort: readonly SortCriterion[];
  readonly #sortKeys: ArrayLike<unknown>[];
  readonly #group: Int8Array | undefined;
  readonly #tieBreak: readonly TieBreakKey[];
  /** Per candidate: 1 once read. */
  readonly #done: Uint8Array;
  /** Whether the rules read documents' words: candidates then hold bounds until read (see {@link Ranker.ordered}). */
  readonly #lazy: boolean;
  /** The arrays the rank arrays view, given back on release. */
  #store: RankStore | undefined;
  /** Per candidate: 1 once its ranks the positions tell are exact (see {@link Ranker.ordered}). */
  #near1: Uint8Array | undefined;
  /**
   * The postings' facts, and the rules bounding from them the candidates that may reach the
   * page (see {@link Ranker.ordered}); per candidate, 1 once bounded.
   */
  #facts: PostingFacts | undefined;
  readonly #bounding: readonly RuleRanking[] = [];
  #bounded: Uint8Array | undefined;

  /** Candidates whose words were read. */
  documentsRead = 0;

  /**
   * Ranks `cands` (a placeholder search when `match` is undefined: only the rules ordering
   * placeholders apply).
   */
  constructor(index: SearchIndex, match: QueryMatch | undefined, cands: Candidates, options: RankerOptions) {
    const rules = (this.#rules = match ? options.rules : options.rules.filter((r) => RULES[r].placeholder));
    const modules = rules.map((r) => RULES[r]);
    const q = (this.#q = rankQuery(index, match, cands, options, {
      head: modules.some((r) => r.needs?.head === true),
      variants: modules.some((r) => r.needs?.variants === true),
    }));
    const size = q.size;
    // Views of one array per type, those of the last released ranker when large enough: each
    // typed array of more than 64 bytes costs an allocation outside the heap.
    const store = (this.#store = rankStore(
      modules.reduce((s, r) => s + r.ints, 0),
      modules.reduce((s, r) => s + r.floats, 0),
      size,
    ));
    let ints = 0;
    let floats = 0;
    this.#rankings = modules.map((rule) =>
      rule.rank(
        q,
        Array.from({ length: rule.ints }, () => store.ints.subarray(ints * size, ++ints * size)),
        Array.from({ length: rule.floats }, () => store.floats.subarray(floats * size, ++floats * size)),
      ),
    );
    // The score reads the rules before the first one ordering by values it does not score (bm25,
    // customRanking's criteria, a price): a rule after it must not raise a hit it put lower.
    const unscored = this.#rankings.findIndex((r) => r.score === undefined && (r.ranks.length > 0 || r.steps.length > 0));
    this.#scored = this.#rankings.slice(0, unscored < 0 ? undefined : unscored).filter((r) => r.score !== undefined);
    this.#reading = this.#rankings.filter((r) => r.exact !== undefined);
    this.#peeking = this.#rankings.filter((r) => r.peek !== undefined);
    this.#sort = options.sort;
    this.#sortKeys = keysOf(index, cands.docs, options.sort);
    this.#group = options.group;
    this.#tieBreak = match ? tieBreakKeys(index, options.tieBreak) : [];
    this.#done = new Uint8Array(size);
    this.#lazy = match !== undefined && this.#reading.length > 0;
    // Rules reading documents bound their ranks from the postings, for the candidates that may
    // reach the page; a rule without `exact` (words') takes every candidate's exact ranks from them now.
    const bounded = this.#rankings.filter((r) => r.bound !== undefined);
    if (match !== undefined && bounded.length > 0) {
      const facts = (this.#facts = readPostings(q));
      for (const r of bounded) if (!r.exact) r.bound!(facts);
      this.#bounding = bounded.filter((r) => r.exact);
    }
  }

  /**
   * Writes the bounds of the candidates of `some` (every candidate when undefined) not bounded
   * or read yet: they are needed for the candidates that enter the heap (see
   * {@link Ranker.ordered}), or for a threshold, not for those that stay below the page.
   */
  #bound(some?: Int32Array): void {
    let facts = this.#facts;
    if (!facts || this.#bounding.length === 0) return;
    // Another ranker read its postings since (its facts reuse the arrays): read them again, as they were.
    if (!stillValid(facts)) facts = this.#facts = readPostings(this.#q);
    const bounded = (this.#bounded ??= new Uint8Array(this.size));
    const done = this.#done;
    const count = some ? some.length : this.size;
    const todo = new Int32Array(count);
    let length = 0;
    for (let k = 0; k < count; k++) {
      const c = some ? some[k]! : k;
      if (bounded[c] === 0 && done[c] === 0) {
        bounded[c] = 1;
        todo[length++] = c;
      }
    }
    if (length === 0) return;
    const list = todo.subarray(0, length);
    for (const r of this.#bounding) r.bound!(facts, list);
  }

  /** Work done for this query so far. */
  get work(): SearchWork {
    const q = this.#q;
    return {
      dictionaryNodes: q.match?.work.nodes ?? 0,
      wordsReached: q.match?.work.words ?? 0,
      postingsRead: (q.match?.work.postings ?? 0) + q.cands.postingsRead + q.counts.boundPostings,
      candidates: q.size,
      documentsRead: this.documentsRead,
      fieldStartsRead: q.counts.startsRead,
      positionsRead: q.counts.positionsRead,
      variantWordsRead: (q.statistics?.wordsRead ?? 0) - q.variantsRead,
    };
  }

  /** The words each query term reaches (undefined for a placeholder search). */
  get match(): QueryMatch | undefined {
    return this.#q.match;
  }

  /** Number of candidates. */
  get size(): number {
    return this.#q.size;
  }

  /** The candidates' document numbers, ascending (candidate c is document `docs[c]`). */
  get docs(): Int32Array {
    return this.#q.cands.docs;
  }

  /** The document number of candidate `c`. */
  doc(c: number): number {
    return this.#q.cands.docs[c]!;
  }

  /** A configured rule's rank arrays (its bounds for a candidate not read yet), for tests. */
  ranksOf(rule: RankingRule): readonly RankArray[] {
    this.#bound();
    const k = this.#rules.indexOf(rule);
    return k < 0 ? [] : this.#rankings[k]!.ranks;
  }

  /** Releases the shared word scratch and the rank arrays (the next ranker reuses them); call once done with this ranker. */
  release(): void {
    if (!this.#store) return;
    releaseRankQuery(this.#q);
    releaseRankStore(this.#store);
    this.#store = undefined;
  }

  /**
   * The candidates (those of `keep` when given) in rank order, lazily: each `next()` gives the
   * next one, -1 after the last. Candidates wait in a heap ordered by their ranks, the bounds of
   * those not read yet (see rules/rule.ts); the first one is read when it holds bounds, and given
   * when it is read and still first: every one left ranks at most as its bounds, below it. So a
   * page reads the candidates whose bounds reach it, not every candidate tied on `words` and
   * `typo` (Meilisearch's buckets, each rule ranking only what the page still needs). The heap
   * takes one such bucket at a time, the best one left, and only its candidates are bounded.
   */
  ordered(keep?: Uint8Array): { next(): number } {
    const size = this.size;
    const lists = new Int32Array(2 * size);
    const heap = lists.subarray(0, size);
    let length = 0;
    // The leading ranks known for every candidate from the start (words, typo), when the order
    // begins with them: only the candidates holding the best of them enter the heap, the others
    // wait for it to empty. A page then heapifies its best bucket, often a few dozen
    // candidates of thousands, and the comparisons within it skip the ranks they tie on.
    const lead = this.#leading();
    const waiting = lists.subarray(size);
    let waits = 0;
    let refills = 0;
    let before = this.#comparator(lead ? lead.arrays : 0);
    const down = (k: number): void => {
      const x = heap[k]!;
      for (;;) {
        let child = 2 * k + 1;
        if (child >= length) break;
        if (child + 1 < length && before(heap[child + 1]!, heap[child]!) < 0) child++;
        if (before(heap[child]!, x) >= 0) break;
        heap[k] = heap[child]!;
        k = child;
      }
      heap[k] = x;
    };
    const fill = (): void => {
      if (lead && refills < MAX_REFILLS) {
        refills++;
        // Compared inline, without a call per candidate: these two passes see every candidate left.
        const { ranks, signs } = lead;
        const r = ranks.length;
        let best = waiting[0]!;
        for (let k = 1; k < waits; k++) {
          const c = waiting[k]!;
          for (let j = 0; j < r; j++) {
            const d = ranks[j]![c]! - ranks[j]![best]!;
            if (d !== 0) {
              if (d * signs[j]! > 0) best = c;
              break;
            }
          }
        }
        let still = 0;
        for (let k = 0; k < waits; k++) {
          const c = waiting[k]!;
          let j = 0;
          while (j < r && ranks[j]![c] === ranks[j]![best]) j++;
          if (j === r) heap[length++] = c;
          else waiting[still++] = c;
        }
        waits = still;
      } else {
        // Past a few buckets (a long listing), every candidate left in one heap: each pass over the waiting ones costs them all.
        if (lead) before = this.#comparator();
        for (let k = 0; k < waits; k++) heap[length++] = waiting[k]!;
        waits = 0;
      }
      this.#bound(heap.subarray(0, length));
      for (let k = (length >> 1) - 1; k >= 0; k--) down(k);
    };
    for (let c = 0; c < size; c++) if (!keep || keep[c] === 1) waiting[waits++] = c;
    const lazy = this.#lazy;
    // Proximity has no bound but its best, bm25's is above the exact value when a term's words
    // share a field, subject's when a model run or a word's code would not count: the query words'
    // positions are read first, for far less than the document.
    const near = lazy && this.#rankings.some((r) => r.peeks) ? (this.#near1 ??= new Uint8Array(size)) : undefined;
    return {
      next: () => {
        for (;;) {
          if (length === 0) {
            if (waits === 0) return -1;
            fill();
          }
          const top = heap[0]!;
          if (lazy && !this.#done[top]) {
            // Its exact ranks are at most its bounds: it may sink.
            if (near && near[top] === 0) {
              near[top] = 1;
              this.#positions(top);
            } else this.describe(top);
            down(0);
            continue;
          }
          heap[0] = heap[--length]!;
          if (length > 0) down(0);
          return top;
        }
      },
    };
  }

  /**
   * The comparison of the rank arrays the order begins with that are known for every candidate
   * once ranked (of rules reading no document, such as words and typo), and how many they are;
   * undefined when the order begins otherwise (a sort, merchandising's groups, a rule reading
   * documents).
   */
  #leading(): { ranks: readonly RankArray[]; signs: readonly number[]; arrays: number } | undefined {
    if (this.#sort.length > 0 || this.#group) return undefined;
    const ranks: RankArray[] = [];
    const signs: number[] = [];
    for (const ranking of this.#rankings) {
      if (ranking.exact || ranking.peek) break;
      for (const values of ranking.ranks) {
        ranks.push(values);
        signs.push(ranking.direction === 'desc' ? 1 : -1);
      }
      if (ranking.steps.length > 0) break;
    }
    return ranks.length === 0 ? undefined : { ranks, signs, arrays: ranks.length };
  }

  /** Every candidate read and sorted: the order {@link Ranker.ordered} gives, computed eagerly (hybrid search blends every score). */
  eagerOrder(): Int32Array {
    const size = this.size;
    for (let c = 0; c < size; c++) this.describe(c);
    const order = new Int32Array(size);
    for (let c = 0; c < size; c++) order[c] = c;
    return order.sort(this.#comparator());
  }

  /**
   * Per candidate, 1 when its score is at least `threshold`. The score grows with the ranks in
   * rule order, so a candidate whose bounds score below the threshold is out, and one whose
   * least ranks score above it is in, both without reading it; the others have the positions of
   * the query's words read, and are read only if that did not tell.
   */
  passing(threshold: number): Uint8Array {
    const size = this.size;
    const keep = new Uint8Array(size);
    // Every score is in [0, 1].
    if (threshold <= 0) return keep.fill(1);
    this.#bound();
    const peeked = (this.#near1 ??= new Uint8Array(size));
    // Out (0), in (1), or undecided (-1) by its bounds, then by the least ranks it can have (see RuleScore.least).
    const side = (c: number): number => {
      if (this.#scoreOf(c) + SCORE_MARGIN < threshold) return 0;
      return this.#scoreOf(c, peeked) - SCORE_MARGIN >= threshold ? 1 : -1;
    };
    for (let c = 0; c < size; c++) {
      if (this.#lazy && !this.#done[c]) {
        let known = side(c);
        if (known < 0 && !peeked[c]) {
          // The positions first: far less than the document.
          peeked[c] = 1;
          this.#positions(c);
          known = side(c);
        }
        if (known >= 0) {
          keep[c] = known;
          continue;
        }
      }
      if (this.score(c) >= threshold) keep[c] = 1;
    }
    return keep;
  }

  /** Reads a candidate's words: its rules' exact ranks (once per candidate). */
  describe(c: number): void {
    if (this.#done[c] || !this.#q.match) return;
    this.#done[c] = 1;
    if (this.#reading.length === 0) return;
    this.documentsRead++;
    const read = readDocument(this.#q, c);
    for (const r of this.#reading) r.exact!(c, read);
  }

  /** Sets a candidate's ranks the positions of the query's words alone tell (see {@link Ranker.ordered}). */
  #positions(c: number): void {
    const read = readPositions(this.#q, c);
    for (const r of this.#peeking) r.peek!(c, read);
  }

  /** The score of a candidate: the rules' ranks read as nested shares of [0, 1] (see the module comment). */
  score(c: number): number {
    if (!this.#q.match) return 1;
    this.describe(c);
    return this.#scoreOf(c);
  }

  /**
   * The score of candidate `c`'s ranks (its bounds while not read), or with `peeked`, of the
   * least ranks it can have (see RuleScore.least; `peeked[c]`: its positions were read).
   */
  #scoreOf(c: number, peeked?: Uint8Array): number {
    // Each rule narrows the span [lo, lo + width) to its rank's share; the score is the span's top.
    const span = SPAN;
    span.lo = 0;
    span.width = 1;
    let perfect = true;
    for (const ranking of this.#scored) {
      const score = ranking.score!;
      const max = score.max;
      if (max <= 1) continue;
      let r = ranking.ranks[0]![c]!;
      if (peeked && !(score.least === 'exact' || (score.least === 'positions' && peeked[c]))) r = 1;
      if (r < max) perfect = false;
      if (score.share) score.share(span, r);
      else {
        span.width /= max;
        span.lo += span.width * (r - 1);
      }
    }
    // Exactly 1 for a perfect match, whatever the rounding of the spans.
    return perfect ? 1 : Math.min(span.lo + span.width, 1 - Number.EPSILON);
  }

  /** What each rule counted for a candidate. */
  details(c: number): RankingScoreDetails {
    this.describe(c);
    const out: Record<string, unknown> = {};
    const read = this.#q.match ? readDocument(this.#q, c) : undefined;
    this.#rankings.forEach((ranking, order) => {
      ranking.details(c, read, order, out);
    });
    if (read && this.#tieBreak.length > 0) out.tieBreak = tieBreakDetails(this.#tieBreak, this.doc(c), this.#rules.length);
    return out as RankingScoreDetails;
  }

  /**
   * Compares two candidates: `sort`, merchandising's groups, the rules, `tieBreak`, then id;
   * without the first `skip` rank arrays, for candidates known to tie on them (see {@link Ranker.ordered}).
   */
  #comparator(skip = 0): (a: number, b: number) => number {
    const steps: ((a: number, b: number) => number)[] = [];
    this.#sort.forEach((cr, k) => {
      const keys = this.#sortKeys[k]!;
      const sign = cr.direction === 'asc' ? 1 : -1;
      steps.push((a, b) => compareValues(keys[a], keys[b], sign));
    });
    const group = this.#group;
    if (group) {
      // Boosted first, buried last: known for every candidate, so the heap's bounds hold within each group.
      const docs = this.#q.cands.docs;
      steps.push((a, b) => group[docs[b]!]! - group[docs[a]!]!);
    }
    // Consecutive rules' rank arrays compare in one step: a heap compares often, and a call per
    // rule through a site seeing a dozen closures cost more than the comparisons themselves.
    let ranks: RankArray[] = [];
    let signs: number[] = [];
    const flush = () => {
      if (ranks.length > 0) steps.push(inTurn(ranks, signs));
      ranks = [];
      signs = [];
    };
    let skipped = 0;
    for (const ranking of this.#rankings) {
      for (const values of ranking.ranks) {
        if (skipped < skip) {
          skipped++;
          continue;
        }
        ranks.push(values);
        signs.push(ranking.direction === 'desc' ? 1 : -1);
      }
      if (ranking.steps.length > 0) {
        flush();
        steps.push(...ranking.steps);
      }
    }
    flush();
    const docs = this.#q.cands.docs;
    const tieBreak = this.#tieBreak;
    return (a, b) => {
      for (const step of steps) {
        const d = step(a, b);
        if (d !== 0) return d;
      }
      // Hits equal on every rule: the tieBreak criteria, then, as a last resort, the id.
      for (const { compare } of tieBreak) {
        const d = compare(docs[a]!, docs[b]!);
        if (d !== 0) return d;
      }
      // Items are sorted by id: the document number breaks the last ties by id.
      return docs[a]! - docs[b]!;
    };
  }
}
