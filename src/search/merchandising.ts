/**
 * Merchandising rules: for a query, pin items at positions, hide items, boost or bury the items
 * a filter selects, inside an optional time window (docs/ranking.md, Merchandising).
 *
 * Rules are applied as functions of (rules, query, ranked list), so a service built with other
 * settings over the same index applies its own: {@link Merchandiser.forQuery} picks the rules a
 * query triggers and gives what they do to documents of one index; the service hides through its
 * filter mask, orders groups through the ranker, and {@link placePins} lays the page out.
 *
 * @module
 */
import type { z } from 'zod';
import { merchandisingSchema, type ruleFilterSchema } from '../model/merchandising';
import { normalizeQuery } from './behaviour';
import { ruleMask } from './filters';
import type { Filter } from './query';
import { perIndex } from './scratch';
import type { SearchIndex } from './search-index';

export { MERCHANDISING_LIMITS, merchandisingRuleSchema, merchandisingSchema, type MerchandisingRule } from '../model/merchandising';

/**
 * What a rule did to a hit, in `_rankingScoreDetails.merchandising` (`order` -1: it applies before
 * `sort` and every ranking rule): the 1-based position it was pinned at, or whether it was boosted
 * or buried.
 *
 * @example
 * ```ts
 * const { hits } = await search.search({ text: 'tv', showRankingScoreDetails: true });
 * const pinned = hits.filter((h) => (h._rankingScoreDetails?.merchandising as { pinned?: number } | undefined)?.pinned);
 * ```
 */
export type MerchandisingDetail = { readonly order: -1; readonly rule: string } & (
  | { readonly pinned: number }
  | { readonly boosted: true }
  | { readonly buried: true }
);

/** A rule as applied: its query key or words, its window in epoch ms, its filters parsed. */
interface Compiled {
  readonly id: string;
  readonly equals: string | undefined;
  readonly contains: readonly string[];
  readonly from: number;
  readonly until: number;
  readonly pin: readonly { readonly itemId: string; readonly position: number }[];
  readonly hide: readonly string[];
  readonly boost: Readonly<Record<string, Filter>> | undefined;
  readonly bury: Readonly<Record<string, Filter>> | undefined;
}

/** What the rules a query triggers do to one index's documents. */
export interface Merchandising {
  /** Documents removed from hits, totals and facets. */
  readonly hidden: readonly number[];
  /** Pinned documents, by 0-based position (ascending, distinct positions and documents). */
  readonly pins: readonly { readonly doc: number; readonly position: number; readonly rule: string }[];
  /** Per document: 1 boosted, -1 buried, 0 neither (undefined: no rule boosts or buries). */
  readonly group: Int8Array | undefined;
  /** What a rule did to a document (for `_rankingScoreDetails`). */
  detail(doc: number): MerchandisingDetail | undefined;
}

const toFilters = (raw: z.output<typeof ruleFilterSchema> | undefined): Record<string, Filter> | undefined => {
  if (!raw) return undefined;
  const out: Record<string, Filter> = Object.create(null);
  for (const [field, list] of Object.entries(raw)) {
    const filter: Filter = list.every((v) => typeof v !== 'object')
      ? { kind: 'list', values: list.map(String) }
      : { kind: 'range', conditions: list as Extract<Filter, { kind: 'range' }>['conditions'] };
    Object.defineProperty(out, field, { value: filter, enumerable: true });
  }
  return out;
};

/** Each item id's document in an index, computed once per index. */
const docsById = perIndex((index: SearchIndex) => new Map(index.items.map((item, doc) => [item.id, doc])));

/** The merchandising rules of a service, checked and compiled once. */
export class Merchandiser {
  readonly #byKey = new Map<string, Compiled[]>();
  readonly #containing: Compiled[] = [];
  readonly #order = new Map<Compiled, number>();
  /** Per index, per rule: its boost (1) and bury (-1) groups, marked once. */
  readonly #groups = new WeakMap<SearchIndex, Map<Compiled, Int8Array>>();

  /** Checks `rules` with {@link merchandisingSchema}; a problem throws `fail('merchandising[i].field: …')`. */
  constructor(rules: unknown, fail: (message: string) => never) {
    const parsed = merchandisingSchema.safeParse(rules);
    if (!parsed.success) {
      const issue = parsed.error.issues[0]!;
      const at = issue.path.map((p) => (typeof p === 'number' ? `[${p}]` : `.${String(p)}`)).join('');
      fail(`merchandising${at}: ${issue.message}`);
      return;
    }
    parsed.data.forEach((rule, i) => {
      const compiled: Compiled = {
        id: rule.id,
        equals: 'equals' in rule.query ? normalizeQuery(rule.query.equals) : undefined,
        contains: 'contains' in rule.query ? [...new Set(rule.query.contains.flatMap((w) => normalizeQuery(w).split(' ')))] : [],
        from: rule.from ? Date.parse(rule.from) : -Infinity,
        until: rule.until ? Date.parse(rule.until) : Infinity,
        pin: rule.pin ?? [],
        hide: rule.hide ?? [],
        boost: toFilters(rule.boost),
        bury: toFilters(rule.bury),
      };
      this.#order.set(compiled, i);
      if (compiled.equals !== undefined) this.#byKey.set(compiled.equals, [...(this.#byKey.get(compiled.equals) ?? []), compiled]);
      else this.#containing.push(compiled);
    });
  }

  /** Whether any rule is configured. */
  get size(): number {
    return this.#order.size;
  }

  /** The rules the query text triggers at `now`, in their listed order. */
  #active(text: string, now: number): Compiled[] {
    const key = normalizeQuery(text);
    const words = new Set(key.split(' '));
    const hits = [...(this.#byKey.get(key) ?? []), ...this.#containing.filter((r) => r.contains.every((w) => words.has(w)))];
    return hits.filter((r) => r.from <= now && now < r.until).sort((a, b) => this.#order.get(a)! - this.#order.get(b)!);
  }

  /**
   * What the rules triggered by `text` at `now` do on `index` (undefined: none applies). Pinned
   * items must be in the index, pass `allowed` (the query's filters) and not be hidden; a pin
   * at a taken position goes to the next free one, an item pinned twice keeps its first pin.
   */
  forQuery(index: SearchIndex, text: string, now: number, allowed: Uint8Array | undefined): Merchandising | undefined {
    if (this.#order.size === 0) return undefined;
    const rules = this.#active(text, now);
    if (rules.length === 0) return undefined;
    const byId = rules.some((r) => r.pin.length > 0 || r.hide.length > 0) ? docsById(index) : undefined;
    const hidden = new Set<number>();
    for (const r of rules)
      for (const itemId of r.hide) {
        const doc = byId!.get(itemId);
        if (doc !== undefined) hidden.add(doc);
      }
    const taken = new Set<number>();
    const pinnedDocs = new Set<number>();
    const pins: { doc: number; position: number; rule: string }[] = [];
    for (const r of rules)
      for (const { itemId, position } of r.pin) {
        const doc = byId!.get(itemId);
        if (doc === undefined || hidden.has(doc) || pinnedDocs.has(doc) || (allowed && allowed[doc] !== 1)) continue;
        let p = position - 1;
        while (taken.has(p)) p++;
        taken.add(p);
        pinnedDocs.add(doc);
        pins.push({ doc, position: p, rule: r.id });
      }
    pins.sort((a, b) => a.position - b.position);
    const grouped = rules.filter((r) => r.boost || r.bury).map((r) => ({ rule: r, group: this.#groupOf(index, r) }));
    let group: Int8Array | undefined;
    if (grouped.length === 1) group = grouped[0]!.group;
    else if (grouped.length > 1) {
      // Boosted by any rule and buried by none: 1; the reverse: -1; both or neither: 0.
      const up = new Uint8Array(index.items.length);
      const down = new Uint8Array(index.items.length);
      for (const { group: g } of grouped)
        for (let d = 0; d < g.length; d++) {
          if (g[d]! > 0) up[d] = 1;
          else if (g[d]! < 0) down[d] = 1;
        }
      group = new Int8Array(index.items.length);
      for (let d = 0; d < group.length; d++) group[d] = up[d]! - down[d]!;
    }
    return {
      hidden: [...hidden],
      pins,
      group,
      detail(doc) {
        const pin = pins.find((p) => p.doc === doc);
        if (pin) return { order: -1, rule: pin.rule, pinned: pin.position + 1 };
        const g = group?.[doc] ?? 0;
        if (g === 0) return undefined;
        const by = grouped.find((x) => x.group[doc] === g)!;
        return g > 0 ? { order: -1, rule: by.rule.id, boosted: true } : { order: -1, rule: by.rule.id, buried: true };
      },
    };
  }

  /** A rule's groups on an index: 1 where its boost filter holds, -1 where its bury filter holds and the boost does not. */
  #groupOf(index: SearchIndex, rule: Compiled): Int8Array {
    let perRule = this.#groups.get(index);
    if (!perRule) this.#groups.set(index, (perRule = new Map()));
    let group = perRule.get(rule);
    if (!group) {
      group = new Int8Array(index.items.length);
      const up = rule.boost ? ruleMask(index, rule.boost) : undefined;
      const down = rule.bury ? ruleMask(index, rule.bury) : undefined;
      for (let d = 0; d < group.length; d++) group[d] = up?.[d] === 1 ? 1 : down?.[d] === 1 ? -1 : 0;
      perRule.set(rule, group);
    }
    return group;
  }
}

/**
 * One page of a list with pins laid out: position p of the whole list holds the pin at p, the
 * next organic entry otherwise (pins past the organic list's end follow it, in position order),
 * so pages never repeat or lose an item. `organic()` gives the next entry (undefined after the
 * last) and must not give pinned documents; `pinned(k)` makes the entry of `pins[k]`.
 */
export function placePins<T>(
  pins: Merchandising['pins'],
  organic: () => T | undefined,
  pinned: (k: number) => T,
  first: number,
  count: number,
): T[] {
  const page: T[] = [];
  let k = 0;
  let exhausted = false;
  for (let p = 0; p < first + count; p++) {
    let entry: T | undefined;
    if (k < pins.length && (pins[k]!.position === p || exhausted)) entry = pinned(k++);
    else {
      entry = exhausted ? undefined : organic();
      if (entry === undefined) {
        exhausted = true;
        if (k < pins.length) entry = pinned(k++);
      }
    }
    if (entry === undefined) break;
    if (p >= first) page.push(entry);
  }
  return page;
}
