/**
 * Search settings as configurations carry them: the pieces shared by the bootstrap file's
 * catalog settings and by the `search` modification type of a campaign variation, which an A/B
 * test of ranking uses (docs/interfaces.md, Experiments on search). Lower than the search
 * service, so the bucketing configuration can be validated where it is loaded.
 *
 * @module
 */
import { z } from 'zod';
import { behaviourSettingsSchema } from './behaviour-settings';
import { merchandisingSchema } from './merchandising';

/**
 * The names a `rankingRules` list may hold (the search service's rules; a test keeps them equal).
 *
 * @example
 * ```ts
 * const ok = RANKING_RULE_NAMES.includes('customRanking'); // true
 * ```
 */
export const RANKING_RULE_NAMES = [
  'words',
  'typo',
  'subject',
  'variant',
  'priceIntent',
  'proximity',
  'attribute',
  'exactness',
  'customRanking',
  'bm25',
] as const;

/**
 * Limits of search settings given in a configuration, so one variation's settings stay within
 * what one search can afford to apply (an analyzer is built per distinct settings).
 *
 * @example
 * ```ts
 * console.log(SEARCH_SETTINGS_LIMITS.criteria); // 100 customRanking criteria at most
 * ```
 */
export const SEARCH_SETTINGS_LIMITS = Object.freeze({
  /** Ranking rules listed (there are 10 names; a list repeats none). */
  rankingRules: 20,
  /** `customRanking` or `tieBreak` criteria. */
  criteria: 100,
  /** Words of one list (stop words, one synonym group), and synonym groups or keys. */
  words: 10_000,
  /** Characters of one word or phrase. */
  wordLength: 100,
  /** Merchandising rules of one variation. */
  merchandisingRules: 100,
});

/**
 * Sort criteria (`customRanking`, `tieBreak`): each `<field>:asc` or `<field>:desc`.
 *
 * @example
 * ```ts
 * sortCriteriaSchema.parse(['popularity:desc', 'price:asc']);
 * ```
 */
export const sortCriteriaSchema = z
  .array(
    z
      .string()
      .max(256, 'must be at most 256 characters')
      .regex(/^.+:(asc|desc)$/, 'must be <field>:asc or <field>:desc'),
  )
  .max(SEARCH_SETTINGS_LIMITS.criteria, `must hold at most ${SEARCH_SETTINGS_LIMITS.criteria} criteria`);

/**
 * A list of words or phrases (stop words, a synonym group).
 *
 * @example
 * ```ts
 * wordsSchema.parse(['tv', 'television']);
 * ```
 */
export const wordsSchema = z
  .array(z.string().min(1).max(SEARCH_SETTINGS_LIMITS.wordLength))
  .max(SEARCH_SETTINGS_LIMITS.words, `must hold at most ${SEARCH_SETTINGS_LIMITS.words} words`);

/**
 * A ranking-rules list: known names, each once.
 *
 * @example
 * ```ts
 * rankingRulesSchema.safeParse(['words', 'words']).success; // false: words is listed twice
 * ```
 */
export const rankingRulesSchema = z
  .array(z.enum(RANKING_RULE_NAMES))
  .max(SEARCH_SETTINGS_LIMITS.rankingRules)
  .superRefine((rules, ctx) => {
    rules.forEach((rule, i) => {
      if (rules.indexOf(rule) !== i) ctx.addIssue({ code: 'custom', path: [i], message: `${rule} is listed twice` });
    });
  });

/**
 * The members of a synonyms object (`{ multiWay?, oneWay? }`), for a strict object of the caller's.
 *
 * @example
 * ```ts
 * const synonyms = z.strictObject(synonymsShape);
 * synonyms.parse({ multiWay: [['tv', 'television']] });
 * ```
 */
export const synonymsShape = {
  multiWay: z
    .array(wordsSchema)
    .max(SEARCH_SETTINGS_LIMITS.words, `must hold at most ${SEARCH_SETTINGS_LIMITS.words} groups`)
    .optional()
    .describe('Groups of words that each match the others.'),
  oneWay: z
    .record(z.string().max(SEARCH_SETTINGS_LIMITS.wordLength), wordsSchema)
    .refine((o) => Object.keys(o).length <= SEARCH_SETTINGS_LIMITS.words, `must hold at most ${SEARCH_SETTINGS_LIMITS.words} keys`)
    .optional()
    .describe('A word and the words it also matches.'),
};

const known = ['catalog', 'rankingRules', 'customRanking', 'synonyms', 'semanticRatio', 'merchandising', 'behaviour', 'substitutes'];

/**
 * The value of a `search` modification: settings that replace the catalog's own for the visitors
 * of a variation (an absent key keeps the catalog's). `{}` is the reference: the catalog as it is.
 * A key it does not define is a problem naming it.
 *
 * @example
 * ```ts
 * const variation = { id: 'b', allocation: 50, modifications: { type: 'search', value: { rankingRules: ['words', 'customRanking', 'bm25'] } } };
 * searchModificationSchema.parse(variation.modifications.value);
 * ```
 */
export const searchModificationSchema = z.strictObject(
  {
    catalog: z.string().min(1).max(256).optional(),
    rankingRules: rankingRulesSchema.optional(),
    customRanking: sortCriteriaSchema.optional(),
    synonyms: z.strictObject(synonymsShape).optional(),
    semanticRatio: z.number().min(0).max(1).optional(),
    merchandising: merchandisingSchema.optional(),
    behaviour: behaviourSettingsSchema.optional(),
    substitutes: z.boolean().optional(),
  },
  {
    error: (issue) =>
      issue.code === 'unrecognized_keys' ? `unknown key(s) ${issue.keys.join(', ')}; known: ${known.join(', ')}` : undefined,
  },
);

/**
 * The settings a `search` modification carries.
 *
 * @example
 * ```ts
 * const settings: SearchModification = { catalog: 'acme', customRanking: ['popularity:desc'] };
 * ```
 */
export type SearchModification = z.infer<typeof searchModificationSchema>;

/**
 * The modification type whose value is {@link SearchModification}.
 *
 * @example
 * ```ts
 * const { campaigns } = await engine.decide({ visitorId: 'v1', triggerHit: false });
 * const searchTests = campaigns.filter((c) => c.variation.modifications.type === SEARCH_MODIFICATION_TYPE);
 * ```
 */
export const SEARCH_MODIFICATION_TYPE = 'search';
