/**
 * Behaviour ranking (docs/ranking.md, Behaviour ranking): the `_behaviour` item signal that
 * `customRanking` reads, and the query-level re-ranking of the first hits from click feedback,
 * within guardrails (evidence, shrinkage toward the query's mean, a cap on how far an item moves).
 *
 * Search reads behaviour and records none: a {@link BehaviourSource} answers from its snapshots.
 *
 * @module
 */
import { rerankSchema } from '../model/behaviour-settings';
import type { BehaviourSource, QueryFeedback } from './behaviour';

export { behaviourSettingsSchema } from '../model/behaviour-settings';

/**
 * Guardrails of query-level re-ranking.
 *
 * @example
 * ```ts
 * const rerank: RerankOptions = { minExamined: 20, maxShift: 2, depth: 30, priorExamined: 10 };
 * ```
 */
export interface RerankOptions {
  /**
   * Examinations (impressions weighted by how likely they were read, see `QueryFeedback`) an item needs for its clicks to count:
   * below, the item keeps the query's mean as its estimate and moves only as others pass it.
   * @defaultValue `5`
   */
  minExamined?: number;
  /** Most positions an item moves up or down. @defaultValue `3` */
  maxShift?: number;
  /** How many of the first hits may be reordered; the hits after them never move. @defaultValue `50` */
  depth?: number;
  /**
   * Weight of the prior, in examinations: an item's estimate is
   * `(clicks + priorExamined · mean) / (examined + priorExamined)`, `mean` being the query's
   * clicks over its examinations, so little evidence stays near the mean.
   * @defaultValue `10`
   */
  priorExamined?: number;
}

/**
 * Behaviour ranking's option (opt-in): `true` or `{ enabled: true }` turns it on with the
 * defaults; the host injects the `source`.
 *
 * @example
 * ```ts
 * const source: BehaviourSource = { itemSignals: () => new Map([['sku-1', 4.5]]), queryFeedback: () => undefined };
 * const behaviour: BehaviourOptions = { source, rerank: { maxShift: 2 } };
 * const ranked = new SearchService({ catalog, behaviour, customRanking: ['_behaviour:desc'] });
 * ```
 */
export interface BehaviourOptions {
  /** Whether behaviour ranking applies: false keeps the settings without applying them. @defaultValue `true` */
  enabled?: boolean;
  /** Where signals and feedback come from. @defaultValue none: every signal is 0 and no query has feedback */
  source?: BehaviourSource;
  /** Query-level re-ranking from click feedback: `false` turns it off, an object sets its guardrails. @defaultValue `true` (the defaults of {@link RerankOptions}) */
  rerank?: boolean | RerankOptions;
}

/** Behaviour ranking as a service applies it. */
export interface Behaviour {
  readonly source: BehaviourSource | undefined;
  readonly rerank: Required<RerankOptions> | undefined;
}

/** Checks the `behaviour` option; undefined when off. A problem throws `fail('behaviour.…')`. */
export function behaviourOf(option: boolean | BehaviourOptions | undefined, fail: (message: string) => never): Behaviour | undefined {
  if (option === undefined || option === false) return undefined;
  if (option === true) return { source: undefined, rerank: { ...RERANK_DEFAULTS } };
  if (option === null || typeof option !== 'object')
    return fail(`behaviour must be true, false or { enabled, source, rerank }, got ${JSON.stringify(option)}`);
  const { enabled = true, source, rerank = true } = option;
  if (typeof enabled !== 'boolean') fail(`behaviour.enabled must be true or false, got ${JSON.stringify(enabled)}`);
  if (source !== undefined && (typeof source?.itemSignals !== 'function' || typeof source.queryFeedback !== 'function'))
    fail('behaviour.source must be a BehaviourSource: { itemSignals(catalog), queryFeedback(catalog, query) }');
  if (typeof rerank !== 'boolean') {
    const parsed = rerankSchema.safeParse(rerank);
    if (!parsed.success) {
      const issue = parsed.error.issues[0]!;
      const name = issue.path.length > 0 ? `.${issue.path.join('.')}` : '';
      const value = name ? (rerank as Record<string, unknown>)[String(issue.path[0])] : rerank;
      fail(`behaviour.rerank${name}: ${issue.message}, got ${JSON.stringify(value)}`);
    }
  }
  if (!enabled) return undefined;
  return { source, rerank: rerank === false ? undefined : { ...RERANK_DEFAULTS, ...(rerank === true ? {} : rerank) } };
}

const RERANK_DEFAULTS: Required<RerankOptions> = { minExamined: 5, maxShift: 3, depth: 50, priorExamined: 10 };

/**
 * Gives each service options object the behaviour source when its `behaviour` setting asks for
 * behaviour ranking (the stored settings are JSON: the host holds the source). The same object
 * in gives the same object out, so a search handler comparing settings by identity rebuilds nothing.
 *
 * @example
 * ```ts
 * const source: BehaviourSource = { itemSignals: () => undefined, queryFeedback: () => undefined }; // search analytics' snapshots
 * const withSource = behaviourSourced(source);
 * const handler = createSearchHandler({ registry, search: (id) => withSource(abkit.admin.searchSettings(id) ?? {}) });
 * ```
 */
export function behaviourSourced(
  source: BehaviourSource,
): <T extends { behaviour?: boolean | BehaviourOptions | undefined }>(options: T) => T {
  const made = new WeakMap<object, object>();
  return (options) => {
    const b = options.behaviour;
    if (b === undefined || b === false || (typeof b === 'object' && b.enabled === false)) return options;
    let out = made.get(options);
    if (!out) made.set(options, (out = { ...options, behaviour: { ...(b === true ? {} : b), source } }));
    return out as typeof options;
  };
}

/**
 * What re-ranking read and did for a hit, in `_rankingScoreDetails.behaviour`: its feedback, the
 * estimate it was ordered by, and positions moved (positive: up).
 *
 * @example
 * ```ts
 * const { hits } = await search.search({ text: 'tv', showRankingScoreDetails: true });
 * const moved = (hits[0]?._rankingScoreDetails?.behaviour as RerankDetail | undefined)?.moved;
 * ```
 */
export interface RerankDetail {
  /** After every rule and `tieBreak`: the number of ranking rules plus one. */
  readonly order: number;
  readonly clicks: number;
  readonly examined: number;
  readonly estimate: number;
  readonly moved: number;
}

/**
 * Reorders the first hits of a query (their item ids, in rank order) by their click feedback,
 * within the guardrails: items with at least `minExamined` examinations are ordered by their
 * shrunk click rate, the others by the query's mean, ties keeping their order, and no item moves
 * more than `maxShift` positions, nor out of its group when `groups` gives each hit's (boosted 1,
 * buried -1: merchandising's). Undefined (the order unchanged) when no item has evidence.
 */
export function rerank(
  ids: readonly string[],
  feedback: ReadonlyMap<string, QueryFeedback>,
  options: Required<RerankOptions>,
  after = 0,
  groups?: ArrayLike<number>,
): { order: number[]; details: Map<number, RerankDetail> } | undefined {
  const counts = (f: QueryFeedback | undefined): f is QueryFeedback => f !== undefined && f.examined > 0 && f.clicks >= 0;
  const isKnown = (f: QueryFeedback | undefined): f is QueryFeedback => counts(f) && f.examined >= options.minExamined;
  let clicks = 0;
  let examined = 0;
  // The known items' totals and least estimate, over the whole feedback, so that what a hit is
  // given does not depend on how many hits a page reads (pages agree).
  let knownClicks = 0;
  let knownExamined = 0;
  for (const f of feedback.values()) {
    if (!counts(f)) continue;
    clicks += f.clicks;
    examined += f.examined;
  }
  if (examined === 0) return undefined;
  const mean = clicks / examined;
  const shrunk = (c: number, e: number) => (c + options.priorExamined * mean) / (e + options.priorExamined);
  let least = Number.POSITIVE_INFINITY;
  for (const f of feedback.values()) {
    if (!isKnown(f)) continue;
    knownClicks += f.clicks;
    knownExamined += f.examined;
    least = Math.min(least, shrunk(f.clicks, f.examined));
  }
  const n = Math.min(ids.length, options.depth);
  const keys = new Float64Array(n);
  let evidence = false;
  // An item without evidence is given the rate of the known items not above it (shrunk as theirs
  // are), not the query's: the first hits, examined most, pull that up, and an item nobody examined
  // would pass known ones on no evidence. With no known item left below, the least of their estimates.
  let aboveClicks = 0;
  let aboveExamined = 0;
  for (let i = 0; i < n; i++) {
    const f = feedback.get(ids[i]!);
    if (isKnown(f)) {
      keys[i] = shrunk(f.clicks, f.examined);
      aboveClicks += f.clicks;
      aboveExamined += f.examined;
      evidence = true;
    } else {
      const belowExamined = knownExamined - aboveExamined;
      keys[i] = belowExamined > 1e-9 ? Math.min(mean, shrunk(knownClicks - aboveClicks, belowExamined)) : least;
    }
  }
  if (!evidence) return undefined;
  const order = displaced(keys, options.maxShift, groups);
  const details = new Map<number, RerankDetail>();
  order.forEach((i, p) => {
    const f = feedback.get(ids[i]!);
    if (f) details.set(i, { order: after, clicks: f.clicks, examined: f.examined, estimate: keys[i]!, moved: i - p });
  });
  return { order, details };
}

/**
 * The order of `keys` (higher first, ties in index order) closest to sorting in which no index
 * moves more than `shift` places: at each place, the index that would otherwise move down
 * too far, else the best index not more than `shift` places below. With `groups` (in descending
 * order along the list), the higher group is better whatever the keys, so no index leaves its group.
 */
function displaced(keys: Float64Array, shift: number, groups: ArrayLike<number> | undefined): number[] {
  const n = keys.length;
  const placed = new Uint8Array(n);
  const order: number[] = [];
  for (let p = 0; p < n; p++) {
    let pick = p - shift >= 0 && !placed[p - shift] ? p - shift : -1;
    if (pick < 0)
      for (let i = Math.max(0, p - shift); i <= Math.min(n - 1, p + shift); i++)
        if (!placed[i] && (pick < 0 || (groups && groups[i] !== groups[pick] ? groups[i]! > groups[pick]! : keys[i]! > keys[pick]!)))
          pick = i;
    placed[pick] = 1;
    order.push(pick);
  }
  return order;
}

/**
 * A list's entries with its first `depth` re-ranked by {@link rerank} (the rest in their order),
 * read from `next` (undefined after the last). Without evidence among them the order is the
 * same; the service does not call it for a query without feedback, which then reads only its page.
 */
export function reranked<T>(
  next: () => T | undefined,
  idOf: (entry: T) => string,
  feedback: ReadonlyMap<string, QueryFeedback>,
  options: Required<RerankOptions>,
  after: number,
  groupOf?: (entry: T) => number,
): { next: () => T | undefined; detail: (entry: T) => RerankDetail | undefined } {
  const head: T[] = [];
  for (let k = 0; k < options.depth; k++) {
    const entry = next();
    if (entry === undefined) break;
    head.push(entry);
  }
  const moved = rerank(head.map(idOf), feedback, options, after, groupOf && head.map(groupOf));
  const order = moved ? moved.order.map((i) => head[i]!) : head;
  const details = new Map<T, RerankDetail>();
  if (moved) for (const [i, d] of moved.details) details.set(head[i]!, d);
  let k = 0;
  return { next: () => (k < order.length ? order[k++] : next()), detail: (entry) => details.get(entry) };
}
