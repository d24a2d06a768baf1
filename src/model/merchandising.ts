/**
 * Merchandising rules as catalog settings and `search` modifications carry them (docs/ranking.md,
 * Merchandising): their schema and bounds. Lower than search, so a campaign's rules are checked
 * where its configuration is loaded; search applies them (src/search/merchandising.ts).
 *
 * @module
 */
import { z } from 'zod';
import { MAX_TEXT_LENGTH, RANGE_OPERATORS } from './search-query';

/** A letter or a digit: what search reads as (part of) a word. */
const WORD = /[\p{L}\p{N}]/u;

/**
 * Bounds of merchandising rules (docs/interfaces.md, Limits).
 *
 * @example
 * ```ts
 * const rules = abkit.admin.searchSettings('shop')?.merchandising ?? [];
 * const room = MERCHANDISING_LIMITS.rules - rules.length; // rules the catalog can still take
 * ```
 */
export const MERCHANDISING_LIMITS = Object.freeze({
  /** Rules per service (catalog settings). */
  rules: 100,
  /** Pins, and hidden items, per rule. */
  itemsPerRule: 50,
  /** Characters of a rule id and of an item id. */
  idLength: 256,
  /** Words a `contains` query lists. */
  containsWords: 10,
  /** Largest pin position (1-based): the largest page. */
  position: 1000,
  /** Fields a boost or bury filter names, and values or conditions per field. */
  filterFields: 20,
  filterValues: 100,
});

const id = (what: string) =>
  z
    .string()
    .min(1, `${what} must not be empty`)
    .max(MERCHANDISING_LIMITS.idLength, `${what} must be at most ${MERCHANDISING_LIMITS.idLength} characters`);

const POSITION = `must be an integer from 1 to ${MERCHANDISING_LIMITS.position}`;
const scalar = z.union([z.string().max(MERCHANDISING_LIMITS.idLength), z.number(), z.boolean()]);
const condition = z.strictObject({ operator: z.enum(RANGE_OPERATORS), value: z.number() });

/** A boost or bury filter: the syntax of search filters (a list of values, any matches; or range conditions, all hold). */
export const ruleFilterSchema = z
  .record(
    z.string().min(1).max(MERCHANDISING_LIMITS.idLength),
    z.union([
      z.array(scalar).min(1).max(MERCHANDISING_LIMITS.filterValues),
      z.array(condition).min(1).max(MERCHANDISING_LIMITS.filterValues),
    ]),
  )
  .refine((f) => Object.keys(f).length >= 1 && Object.keys(f).length <= MERCHANDISING_LIMITS.filterFields, {
    message: `must name 1 to ${MERCHANDISING_LIMITS.filterFields} fields`,
  });

const querySchema = z.union(
  [
    z.strictObject({ equals: z.string().max(MAX_TEXT_LENGTH, `must be at most ${MAX_TEXT_LENGTH} characters`) }),
    z.strictObject({
      contains: z
        .array(
          z
            .string()
            .max(100)
            .refine((w) => WORD.test(w), { message: 'must hold a word' }),
        )
        .min(1, 'must list at least one word')
        .max(MERCHANDISING_LIMITS.containsWords, `must list at most ${MERCHANDISING_LIMITS.containsWords} words`),
    }),
  ],
  { error: 'must be { equals: "<query>" } or { contains: ["<word>", …] }' },
);

/**
 * Schema of one merchandising rule (docs/ranking.md, Merchandising).
 *
 * @example
 * ```ts
 * merchandisingRuleSchema.parse({ id: 'tv-week', query: { contains: ['tv'] }, pin: [{ itemId: 'lg-oled-55', position: 1 }], until: '2026-12-01T00:00:00Z' });
 * ```
 */
export const merchandisingRuleSchema = z
  .strictObject({
    id: id('id'),
    query: querySchema,
    pin: z
      .array(
        z.strictObject({
          itemId: id('itemId'),
          position: z.number().int(POSITION).min(1, POSITION).max(MERCHANDISING_LIMITS.position, POSITION),
        }),
      )
      .max(MERCHANDISING_LIMITS.itemsPerRule, `must hold at most ${MERCHANDISING_LIMITS.itemsPerRule} pins`)
      .optional(),
    hide: z
      .array(id('an item id'))
      .max(MERCHANDISING_LIMITS.itemsPerRule, `must hold at most ${MERCHANDISING_LIMITS.itemsPerRule} item ids`)
      .optional(),
    boost: ruleFilterSchema.optional(),
    bury: ruleFilterSchema.optional(),
    from: z.iso.datetime({ offset: true, error: 'must be an ISO date-time, e.g. 2026-11-27T00:00:00Z' }).optional(),
    until: z.iso.datetime({ offset: true, error: 'must be an ISO date-time, e.g. 2026-12-01T00:00:00Z' }).optional(),
  })
  .superRefine((rule, ctx) => {
    if (!rule.pin?.length && !rule.hide?.length && !rule.boost && !rule.bury)
      ctx.addIssue({ code: 'custom', message: 'must pin, hide, boost or bury something', path: [] });
    if (rule.from && rule.until && Date.parse(rule.from) >= Date.parse(rule.until))
      ctx.addIssue({ code: 'custom', message: 'must be after from', path: ['until'] });
  });

/**
 * Schema of a list of merchandising rules (the `merchandising` catalog search setting): at most
 * 100, ids unique.
 *
 * @example
 * ```ts
 * const rules = merchandisingSchema.parse([{ id: 'no-refurb', query: { contains: ['iphone'] }, bury: { refurbished: [true] } }]);
 * ```
 */
export const merchandisingSchema = z
  .array(merchandisingRuleSchema)
  .max(MERCHANDISING_LIMITS.rules, `must hold at most ${MERCHANDISING_LIMITS.rules} rules`)
  .superRefine((rules, ctx) => {
    const seen = new Set<string>();
    rules.forEach((rule, i) => {
      if (seen.has(rule.id)) ctx.addIssue({ code: 'custom', message: `id ${JSON.stringify(rule.id)} is used twice`, path: [i, 'id'] });
      seen.add(rule.id);
    });
  });

/**
 * A merchandising rule (docs/ranking.md, Merchandising).
 *
 * @example
 * ```ts
 * const rule: MerchandisingRule = { id: 'summer', query: { equals: 'sandals' }, pin: [{ itemId: 'sku-1', position: 1 }], hide: ['sku-9'] };
 * ```
 */
export type MerchandisingRule = z.input<typeof merchandisingRuleSchema>;
