/**
 * A simulator of shoppers for search analytics and experiments on search (#27): sessions over a
 * judged query set, each searching one query and browsing the answer with a cascade click model
 * whose attractiveness follows the judged grades. Deterministic: a session's draws come from the
 * seed and its index alone, so two rankings compared on the same seed see the same shoppers (the
 * same queries, the same uniform draws at each position: common random numbers).
 *
 * The cascade: the shopper examines the first result, then goes down the list. At an examined
 * position holding an item of grade g, they click with probability `attractiveness[g]`; after a
 * click they buy with probability `conversion[g]` and stop, else they are satisfied and stop with
 * probability `satisfaction[g]`; if they go on, they examine the next position with probability
 * `patience` (so, without clicks, position p is examined with probability patience^(p−1): the
 * position bias). Unjudged items have grade 0.
 */
import { normalizeQuery } from '../../src/search/behaviour';
import type { JudgedQuery } from '../bench/relevance-judgments';
import { seededRandom } from '../bench/relevance-metrics';

/** Probabilities per judged grade 0..3. */
export type ByGrade = readonly [number, number, number, number];

/** The cascade's parameters. */
export interface ClickModel {
  /** P(click | examined), by grade. */
  readonly attractiveness: ByGrade;
  /** P(conversion | click), by grade. */
  readonly conversion: ByGrade;
  /** P(stop | click without conversion), by grade: the shopper found what they wanted. */
  readonly satisfaction: ByGrade;
  /** P(examine the next position | going on): the position bias. */
  readonly patience: number;
}

/**
 * The model the measurements use: an exact match is clicked 8 times in 10 when seen, an
 * irrelevant result 2 times in 100; a click on an exact match converts 3 times in 10; shoppers
 * read one result more 8 times in 10 (position 5 is seen 41 % of the time without a click).
 */
export const DEFAULT_CLICK_MODEL: ClickModel = {
  attractiveness: [0.02, 0.1, 0.4, 0.8],
  conversion: [0.005, 0.03, 0.1, 0.3],
  satisfaction: [0.1, 0.2, 0.4, 0.6],
  patience: 0.8,
};

/** One click (or conversion) at a 1-based position of the page shown. */
export interface Click {
  readonly itemId: string;
  readonly position: number;
}

/** What a shopper did with one ranked list. */
export interface Browse {
  /** Positions examined (0 for an empty list). */
  readonly depth: number;
  readonly clicks: readonly Click[];
  /** The click that converted, which ended the session, if any. */
  readonly conversion: Click | null;
}

type Grade = 0 | 1 | 2 | 3;

/** An item's judged grade, 0 when unjudged (grades outside 0..3 are clamped). */
const gradeOf = (judged: ReadonlyMap<string, number> | undefined, id: string): Grade =>
  Math.max(0, Math.min(3, Math.round(judged?.get(id) ?? 0))) as Grade;

/** Checks a model's numbers (each a probability), throwing a TypeError naming the bad one. */
export function checkClickModel(model: ClickModel): ClickModel {
  const probability = (v: number, name: string) => {
    if (!(typeof v === 'number' && v >= 0 && v <= 1)) throw new TypeError(`click model: ${name} must be a probability in [0, 1], got ${v}`);
  };
  for (const key of ['attractiveness', 'conversion', 'satisfaction'] as const) {
    if (model[key]?.length !== 4) throw new TypeError(`click model: ${key} must hold 4 probabilities (grades 0..3)`);
    model[key].forEach((v, g) => probability(v, `${key}[${g}]`));
  }
  probability(model.patience, 'patience');
  return model;
}

/**
 * One shopper browsing `ranked` (item ids, best first) with the cascade, drawing from `random`:
 * at each examined position one draw for the click, and after a click one for the conversion and
 * one for satisfaction; one draw for going on.
 */
export function browse(
  ranked: readonly string[],
  judged: ReadonlyMap<string, number> | undefined,
  random: () => number,
  model: ClickModel = DEFAULT_CLICK_MODEL,
): Browse {
  const clicks: Click[] = [];
  let depth = 0;
  for (let i = 0; i < ranked.length; i++) {
    depth = i + 1;
    const itemId = ranked[i]!;
    const g = gradeOf(judged, itemId);
    if (random() < model.attractiveness[g]) {
      const click = { itemId, position: i + 1 };
      clicks.push(click);
      if (random() < model.conversion[g]) return { depth, clicks, conversion: click };
      if (random() < model.satisfaction[g]) break;
    }
    if (random() >= model.patience) break;
  }
  return { depth, clicks, conversion: null };
}

/** The exact probabilities of the cascade on one list. */
export interface Expected {
  /** P(position p + 1 is examined). */
  readonly examined: readonly number[];
  /** P(a click at position p + 1). */
  readonly click: readonly number[];
  /** P(the session converts). */
  readonly conversion: number;
  /** Expected clicks per session. */
  readonly clicks: number;
  /** P(at least one click). */
  readonly anyClick: number;
}

/**
 * What {@link browse} does on average, computed exactly. Two shares of shoppers reach each
 * position: those who have not clicked yet and those who have (a click that neither converted
 * nor satisfied); each goes on to the next position with probability `patience`.
 */
export function expectedBrowse(
  ranked: readonly string[],
  judged: ReadonlyMap<string, number> | undefined,
  model: ClickModel = DEFAULT_CLICK_MODEL,
): Expected {
  const examined: number[] = [];
  const click: number[] = [];
  let notClicked = ranked.length > 0 ? 1 : 0;
  let clicked = 0;
  let conversion = 0;
  let anyClick = 0;
  for (const id of ranked) {
    const g = gradeOf(judged, id);
    const a = model.attractiveness[g];
    const reach = notClicked + clicked;
    examined.push(reach);
    click.push(reach * a);
    conversion += reach * a * model.conversion[g];
    anyClick += notClicked * a;
    const clickedGoesOn = reach * a * (1 - model.conversion[g]) * (1 - model.satisfaction[g]);
    clicked = (clicked * (1 - a) + clickedGoesOn) * model.patience;
    notClicked *= (1 - a) * model.patience;
  }
  return { examined, click, conversion, clicks: click.reduce((s, c) => s + c, 0), anyClick };
}

/** What the simulator asks a search. */
export interface SearchRequest {
  readonly text: string;
  readonly visitorId: string;
  readonly hitsPerPage: number;
}

/** What a search answers the simulator: the page's item ids in order, the total, the queryID when one was given. */
export interface SearchAnswer {
  readonly ids: readonly string[];
  readonly totalHits: number;
  readonly queryID?: string;
}

/** The search under test: in process (a SearchService) or over HTTP (`GET /search`). */
export type Search = (request: SearchRequest) => Promise<SearchAnswer>;

/** Who searches what. */
export interface ShopperOptions {
  /** The judged queries shoppers search (their grades drive the clicks). */
  readonly queries: readonly JudgedQuery[];
  readonly seed: number;
  /** @defaultValue {@link DEFAULT_CLICK_MODEL} */
  readonly model?: ClickModel;
  /**
   * Query popularity: the k-th most popular query (a seeded shuffle of `queries`) is searched in
   * proportion to 1 / k^zipf; 0 is uniform. @defaultValue 1
   */
  readonly zipf?: number;
  /** Share of sessions searching a word no item holds (one of {@link NO_RESULT_QUERIES}). @defaultValue 0 */
  readonly noResultShare?: number;
  /** @defaultValue 10 */
  readonly hitsPerPage?: number;
  /** Consecutive sessions of one visitor (`<visitorPrefix><i / sessionsPerVisitor>`). @defaultValue 1 */
  readonly sessionsPerVisitor?: number;
  /** @defaultValue `'v'` */
  readonly visitorPrefix?: string;
  /**
   * Seeds the popularity order of the queries, apart from `seed`: runs with other seeds then
   * share one query mix (one shop), and differ only in their shoppers. @defaultValue 0
   */
  readonly popularitySeed?: number;
}

/** Words of no catalog, searched by the sessions drawn for no result (themselves Zipf-popular). */
export const NO_RESULT_QUERIES = ['qzxvjk', 'xxkqzv wpq', 'jzqvxw', 'vvqzkx jj', 'kqxzj', 'zzqvk xqj'] as const;

/** One simulated session: who searched what, what they were shown and what they did. */
export interface Session {
  readonly index: number;
  readonly visitorId: string;
  /** The text searched. */
  readonly text: string;
  /** Its analytics key ({@link normalizeQuery}). */
  readonly query: string;
  /** The judged query searched; null for a no-result word. */
  readonly judged: JudgedQuery | null;
  readonly answer: SearchAnswer;
  readonly browse: Browse;
}

/** MurmurHash3's 32-bit finalizer: every input bit flips about half of the output bits. */
function mix32(h: number): number {
  h = Math.imul(h ^ (h >>> 16), 0x85ebca6b);
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
  return (h ^ (h >>> 16)) >>> 0;
}

/**
 * A session's own stream of draws: a function of the seed and the index only. Both go through a
 * hash, so neighbouring sessions (or seeds) do not start from related generator states.
 */
export function sessionRandom(seed: number, index: number): () => number {
  return seededRandom(mix32(mix32(seed >>> 0) ^ Math.imul(index + 1, 0x9e3779b1)));
}

function cumulative(weights: readonly number[]): Float64Array {
  const out = new Float64Array(weights.length);
  let sum = 0;
  weights.forEach((w, i) => {
    sum += w;
    out[i] = sum;
  });
  return out.map((c) => c / sum);
}

function pickFrom(cdf: Float64Array, u: number): number {
  let lo = 0;
  let hi = cdf.length - 1;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (cdf[mid]! > u) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}

/** Draws each session's visitor and query, and browses what the search answers. */
export class Shoppers {
  readonly options: Required<Omit<ShopperOptions, 'model'>> & { model: ClickModel };
  /** The queries by popularity, most popular first. */
  readonly popular: readonly JudgedQuery[];
  readonly #queries: Float64Array;
  readonly #noResult: Float64Array;

  constructor(options: ShopperOptions) {
    const { queries, seed, model = DEFAULT_CLICK_MODEL, zipf = 1, noResultShare = 0, hitsPerPage = 10 } = options;
    const { sessionsPerVisitor = 1, visitorPrefix = 'v', popularitySeed = 0 } = options;
    if (queries.length === 0) throw new TypeError('Shoppers: queries must not be empty');
    if (!(zipf >= 0)) throw new TypeError(`Shoppers: zipf must be >= 0, got ${zipf}`);
    if (!(noResultShare >= 0 && noResultShare < 1)) throw new TypeError(`Shoppers: noResultShare must be in [0, 1), got ${noResultShare}`);
    if (!(Number.isInteger(hitsPerPage) && hitsPerPage >= 1)) throw new TypeError(`Shoppers: hitsPerPage must be a positive integer`);
    if (!(Number.isInteger(sessionsPerVisitor) && sessionsPerVisitor >= 1))
      throw new TypeError('Shoppers: sessionsPerVisitor must be a positive integer');
    checkClickModel(model);
    this.options = { queries, seed, model, zipf, noResultShare, hitsPerPage, sessionsPerVisitor, visitorPrefix, popularitySeed };
    const shuffle = seededRandom(popularitySeed);
    const order = queries.map((q) => ({ q, key: shuffle() }));
    order.sort((a, b) => a.key - b.key);
    this.popular = order.map((o) => o.q);
    const zipfWeights = (n: number) => Array.from({ length: n }, (_, k) => 1 / (k + 1) ** zipf);
    this.#queries = cumulative(zipfWeights(this.popular.length));
    this.#noResult = cumulative(zipfWeights(NO_RESULT_QUERIES.length));
  }

  /** Each judged query's share of sessions (no-result sessions excluded: they are the rest). */
  shares(): { query: JudgedQuery; share: number }[] {
    const judged = 1 - this.options.noResultShare;
    return this.popular.map((query, k) => ({ query, share: judged * (this.#queries[k]! - (k === 0 ? 0 : this.#queries[k - 1]!)) }));
  }

  /** Session `index`'s visitor, text and judged query, and the draws left for browsing. */
  plan(index: number): { visitorId: string; text: string; judged: JudgedQuery | null; random: () => number } {
    const random = sessionRandom(this.options.seed, index);
    const visitorId = `${this.options.visitorPrefix}${Math.floor(index / this.options.sessionsPerVisitor)}`;
    const noResult = random() < this.options.noResultShare;
    const u = random();
    if (noResult) return { visitorId, text: NO_RESULT_QUERIES[pickFrom(this.#noResult, u)]!, judged: null, random };
    const judged = this.popular[pickFrom(this.#queries, u)]!;
    return { visitorId, text: judged.query, judged, random };
  }

  /** Runs session `index` against `search`. */
  async session(index: number, search: Search): Promise<Session> {
    const { visitorId, text, judged, random } = this.plan(index);
    const full = await search({ text, visitorId, hitsPerPage: this.options.hitsPerPage });
    const answer = { ...full, ids: full.ids.slice(0, this.options.hitsPerPage) };
    return {
      index,
      visitorId,
      text,
      query: normalizeQuery(text),
      judged,
      answer,
      browse: browse(answer.ids, judged?.judged, random, this.options.model),
    };
  }

  /** Runs sessions `from` … `from + count − 1` one after the other, handing each to `each` when given. */
  async run(search: Search, count: number, from = 0, each?: (s: Session) => unknown): Promise<Session[]> {
    const out: Session[] = [];
    for (let i = from; i < from + count; i++) {
      const s = await this.session(i, search);
      if (each) await each(s);
      out.push(s);
    }
    return out;
  }
}

/** A search event as `POST /search/events` takes it. */
export interface SearchEvent {
  readonly type: 'view' | 'click' | 'conversion';
  readonly queryID: string;
  readonly itemId: string;
  readonly position?: number;
  readonly visitorId?: string;
}

/** A shop's own analytics event that the catalog links to an item (Catalog.linkEvent). */
export interface LinkedEvent {
  readonly name: 'purchase' | 'pageview';
  readonly properties: Readonly<Record<string, unknown>>;
}

/**
 * The events a shop sends for a session: per click a `click` (with its position) and a `view` of
 * the item's page; the conversion's `conversion`. Empty when the search gave no queryID.
 */
export function searchEvents(s: Session): SearchEvent[] {
  const queryID = s.answer.queryID;
  if (queryID === undefined) return [];
  const out: SearchEvent[] = [];
  for (const c of s.browse.clicks) {
    out.push({ type: 'click', queryID, itemId: c.itemId, position: c.position, visitorId: s.visitorId });
    out.push({ type: 'view', queryID, itemId: c.itemId, visitorId: s.visitorId });
  }
  if (s.browse.conversion) out.push({ type: 'conversion', queryID, itemId: s.browse.conversion.itemId, visitorId: s.visitorId });
  return out;
}

/**
 * The shop's page views and purchases of a session, as the catalogs of the simulations key them
 * (`item_pageview_key` `/p/<id>`, `item_purchase_key` `<id>`: test/helpers/bestbuy.ts, catalogs.ts).
 */
export function linkedEvents(s: Session): LinkedEvent[] {
  const out: LinkedEvent[] = s.browse.clicks.map((c) => ({ name: 'pageview', properties: { page: `/p/${c.itemId}` } }));
  if (s.browse.conversion) out.push({ name: 'purchase', properties: { order_id: `o-${s.index}`, sku: s.browse.conversion.itemId } });
  return out;
}

/** Per query: what analytics must count. */
export interface QueryTally {
  searches: number;
  zeroResults: number;
  clicks: number;
  /** Σ click positions (mean click position = this / clicks). */
  clickPositions: number;
  conversions: number;
}

/** Per item: what analytics must count. */
export interface ItemTally {
  clicks: number;
  conversions: number;
  views: number;
  purchases: number;
  pageviews: number;
}

/** Per query and item: the click feedback behaviour ranking reads. */
export interface PairTally {
  clicks: number;
  /** Examination weight of the item's impressions: 1 / position in an answer never clicked, 1 down to the deepest click of a clicked one. */
  examined: number;
  conversions: number;
}

/** The simulated events, counted the plain way: what every store's rollups must equal. */
export interface Tally {
  readonly queries: Map<string, QueryTally>;
  readonly items: Map<string, ItemTally>;
  /** Query → item → feedback. */
  readonly pairs: Map<string, Map<string, PairTally>>;
  readonly totals: { searches: number; zeroResults: number; clicks: number; conversions: number };
}

/**
 * Counts sessions naively: every search, its clicks and conversions by query, by item and by
 * (query, item), and each shown item's examination weight (see {@link PairTally.examined}).
 */
export function tally(sessions: Iterable<Session>): Tally {
  const t: Tally = {
    queries: new Map(),
    items: new Map(),
    pairs: new Map(),
    totals: { searches: 0, zeroResults: 0, clicks: 0, conversions: 0 },
  };
  const item = (id: string) => {
    let v = t.items.get(id);
    if (!v) t.items.set(id, (v = { clicks: 0, conversions: 0, views: 0, purchases: 0, pageviews: 0 }));
    return v;
  };
  for (const s of sessions) {
    let q = t.queries.get(s.query);
    if (!q) t.queries.set(s.query, (q = { searches: 0, zeroResults: 0, clicks: 0, clickPositions: 0, conversions: 0 }));
    let pairs = t.pairs.get(s.query);
    if (!pairs) t.pairs.set(s.query, (pairs = new Map()));
    const pair = (id: string) => {
      let v = pairs!.get(id);
      if (!v) pairs!.set(id, (v = { clicks: 0, examined: 0, conversions: 0 }));
      return v;
    };
    q.searches++;
    t.totals.searches++;
    if (s.answer.totalHits === 0) {
      q.zeroResults++;
      t.totals.zeroResults++;
    }
    // An answer never clicked counts 1/position; a clicked one each item down to its deepest click, once.
    const deepest = Math.max(0, ...s.browse.clicks.map((c) => c.position));
    s.answer.ids.forEach((id, i) => {
      pair(id).examined += deepest === 0 ? 1 / (i + 1) : i < deepest ? 1 : 0;
    });
    for (const c of s.browse.clicks) {
      q.clicks++;
      q.clickPositions += c.position;
      t.totals.clicks++;
      item(c.itemId).clicks++;
      item(c.itemId).views++;
      item(c.itemId).pageviews++;
      pair(c.itemId).clicks++;
    }
    const conv = s.browse.conversion;
    if (conv) {
      q.conversions++;
      t.totals.conversions++;
      item(conv.itemId).conversions++;
      item(conv.itemId).purchases++;
      pair(conv.itemId).conversions++;
    }
  }
  return t;
}
