/**
 * The zod schemas of what the interfaces answer (and the token request, whose form body no other
 * schema parses), and how a zod schema becomes a part of the OpenAPI document (request bodies,
 * responses, query parameters), from which src/http/openapi.ts writes the document.
 *
 * @module
 */
import { z } from 'zod';
import { SEARCH_ANALYTICS_LIMITS } from '../analytics/limits';
import type { ExperimentResults } from '../results/results';
import { bucketingConfigSchema } from '../model/bucketing-config';
import { MAX_ITEM_ID_LENGTH, STANDARD_FIELDS, type StandardField } from '../catalog/typing';
import { FIELD_TYPES } from '../model/field-types';

export const message = z.object({ message: z.string() }).meta({ description: 'Error message (interfaces.md, Decision errors).' });
export const oauthError = z.object({ error: z.string(), error_description: z.string() }).meta({ description: 'RFC 6749 §5.2 error.' });
export const apiError = z.object({
  error: z.string(),
  message: z.string(),
  details: z.array(z.record(z.string(), z.unknown())).optional(),
});

export const campaignValue = z
  .object({
    id: z.string(),
    variationGroupId: z.string(),
    variation: z.object({
      id: z.string(),
      reference: z.boolean(),
      modifications: z.object({ type: z.string(), value: z.record(z.string(), z.unknown()) }),
    }),
    type: z.string(),
    slug: z.string().nullable(),
  })
  .meta({ description: 'Campaign value (interfaces.md, Campaign value).' });
export const extras = z
  .object({ accountSettings: z.object({ enabledXPC: z.boolean(), enabled1V1T: z.boolean() }).optional() })
  .meta({ description: 'With extras[]=accountSettings.' });
export const campaignsList = z.object({
  visitor_id: z.string(),
  campaigns: z.array(campaignValue),
  panic: z.boolean(),
  extras: extras.optional(),
});
export const simpleFields = {
  mergedModifications: z
    .record(z.string(), z.unknown())
    .meta({ description: "Every campaign's modifications merged; a key set twice takes the later campaign's value." }),
  campaignsVariation: z.array(z.object({ campaignId: z.string(), variationId: z.string() })),
};
export const campaignsAnswer = z.union([
  campaignsList.meta({ description: 'mode=normal (default)' }),
  z.object({ ...simpleFields, panic: z.boolean(), extras: extras.optional() }).meta({ description: 'mode=simple' }),
  campaignsList.extend(simpleFields).meta({ description: 'mode=full' }),
]);
export const flagMetadata = z.object({
  campaignId: z.string(),
  campaignName: z.string().nullable(),
  slug: z.string().nullable(),
  type: z.string(),
  variationGroupId: z.string(),
  variationGroupName: z.string().nullable(),
  variationId: z.string(),
  variationName: z.string().nullable(),
  reference: z.boolean(),
});
export const flagsAnswer = z
  .record(z.string(), z.object({ value: z.unknown(), metadata: flagMetadata }))
  .meta({ description: 'Flag key → value and metadata; a key set by two campaigns comes from the first.' });
export const campaignSummary = z.object({
  id: z.string(),
  slug: z.string().nullable(),
  name: z.string().nullable(),
  type: z.string(),
  status: z.enum(['active', 'panic']),
});

/**
 * Token request body (interfaces.md, Tokens); also accepted form-encoded.
 *
 * @example
 * ```ts
 * const body = tokenRequestSchema.parse({ grant_type: 'client_credentials', client_id: clientId, client_secret: clientSecret, scope: '*' });
 * const token = await tokens.issue({ accountId: 'acme', clientId: body.client_id, clientSecret: body.client_secret, scope: body.scope });
 * ```
 */
export const tokenRequestSchema = z.object({
  grant_type: z.literal('client_credentials'),
  scope: z.string().optional().meta({ description: '`*` or space-separated actions' }),
  client_id: z.string(),
  client_secret: z.string(),
  expires_in: z.union([z.string(), z.number()]).optional(),
});
export const tokenResponse = z.object({
  access_token: z.string(),
  token_type: z.literal('Bearer'),
  expires_in: z.number().int(),
  scope: z.string(),
});
export const introspection = z.union([
  z.object({
    active: z.literal(true),
    token_type: z.literal('Bearer'),
    client_id: z.string(),
    account_id: z.string(),
    scope: z.string(),
    environments: z.array(z.string()),
    exp: z.number().int(),
    iat: z.number().int(),
  }),
  z.object({ active: z.literal(false) }),
]);
export const estimate = z.object({ estimate: z.number(), lower: z.number(), upper: z.number() }).nullable();
export const experimentResults: z.ZodType<ExperimentResults> = z.object({
  environmentId: z.string(),
  campaignId: z.string(),
  metric: z.string(),
  since: z.number().int().nullable(),
  until: z.number().int().nullable(),
  valueMetric: z.boolean(),
  multipleExposures: z.number().int().meta({ description: 'Visitors exposed to more than one variation, attributed to none' }),
  groups: z.array(
    z.object({
      variationGroupId: z.string(),
      referenceVariationId: z.string(),
      sampleRatio: z
        .object({ statistic: z.number(), pValue: z.number(), degreesOfFreedom: z.number().int(), mismatch: z.boolean() })
        .nullable(),
      variations: z.array(
        z.object({
          variationGroupId: z.string(),
          variationId: z.string(),
          reference: z.boolean(),
          allocation: z.number().nullable(),
          exposed: z.number().int(),
          converted: z.number().int(),
          conversionRate: z.number().nullable(),
          valueSum: z.number(),
          meanValue: z.number().nullable(),
          valueStandardDeviation: z.number().nullable(),
          comparison: z
            .object({
              conversionRate: z.object({
                uplift: estimate,
                difference: estimate,
                zScore: z.number().nullable(),
                pValue: z.number().nullable(),
                chanceToBeat: z.number(),
              }),
              value: z
                .object({
                  uplift: estimate,
                  difference: estimate,
                  tStatistic: z.number().nullable(),
                  degreesOfFreedom: z.number().nullable(),
                  pValue: z.number().nullable(),
                  chanceToBeat: z.number().nullable(),
                })
                .nullable(),
            })
            .nullable(),
        }),
      ),
    }),
  ),
});
export const configurationView = z.object({
  account: z.string(),
  environment: z.string(),
  version: z.number().int(),
  updatedAt: z.number(),
  configuration: bucketingConfigSchema,
});

/** A standard field's schema, from its one definition (STANDARD_FIELDS). */
export function standardSchema(name: string, field: StandardField): z.ZodType {
  const base =
    field.type === 'string[]'
      ? z.array(z.string())
      : field.type === 'boolean'
        ? z.boolean()
        : field.type === 'number'
          ? z.number()
          : name === 'id'
            ? z.string().min(1).max(MAX_ITEM_ID_LENGTH)
            : z.string();
  const nullable = field.nullable ? base.nullable() : base;
  return field.required ? nullable : nullable.optional();
}

export const customValue = z.union([
  z.string(),
  z.number(),
  z.boolean(),
  z.array(z.string()),
  z.record(z.string(), z.string()),
  z.record(z.string(), z.number()),
  z.record(z.string(), z.boolean()),
  z.null(),
]);
/**
 * A catalog item (interfaces.md, Catalog items): the standard fields, and custom fields of the supported types.
 *
 * @example
 * ```ts
 * const item = catalogItemSchema.parse({ id: 'sku-1', is_recommendable: true, name: 'Phone', absolute_link: null, img_link: null, price: 199, categories_ids: ['phones'], color: 'black' });
 * await catalog.put(item);
 * ```
 */
export const catalogItemSchema = z
  .object(Object.fromEntries(Object.entries(STANDARD_FIELDS).map(([name, field]) => [name, standardSchema(name, field)])))
  .catchall(customValue)
  .meta({ description: `Custom fields are typed by their first non-empty value: ${FIELD_TYPES.join(', ')}.` });
export const batchOperation = z.object({
  operation: z.enum(['create-replace', 'delete']),
  product: z.union([catalogItemSchema, z.object({ id: z.string() })]),
});
export const batchResult = z.object({ accepted: z.number().int(), upserted: z.number().int(), deleted: z.number().int() });

export const facet = z.union([
  z.object({ type: z.literal('list'), values: z.array(z.tuple([z.union([z.string(), z.boolean()]), z.number().int()])) }),
  z.object({ type: z.literal('range'), values: z.object({ min: z.number(), max: z.number() }) }),
]);
export const ruleDetail = z.object({ order: z.number().int(), score: z.number().min(0).max(1) });
export const rankingScoreDetails = z
  .object({
    words: ruleDetail.extend({ matchingWords: z.number().int(), maxMatchingWords: z.number().int() }).optional(),
    typo: ruleDetail.extend({ typoCount: z.number().int(), maxTypoCount: z.number().int() }).optional(),
    subject: ruleDetail
      .extend({
        head: z.string().nullable(),
        headNamesItem: z.boolean(),
        subjectWords: z.number().int(),
        maxSubjectWords: z.number().int(),
      })
      .optional(),
    variant: ruleDetail.extend({ variantTerms: z.number().int() }).optional(),
    priceIntent: z.object({ order: z.number().int(), value: z.unknown() }).optional(),
    proximity: ruleDetail.extend({ distance: z.number().int(), minDistance: z.number().int(), maxDistance: z.number().int() }).optional(),
    attribute: ruleDetail.extend({ field: z.string().nullable(), position: z.number().int().nullable() }).optional(),
    exactness: ruleDetail
      .extend({ exactWords: z.number().int(), matchType: z.enum(['exactMatch', 'matchesStart', 'noExactMatch']) })
      .optional(),
    bm25: z
      .object({ order: z.number().int(), value: z.number(), coverage: z.number().min(0).max(1), textCoverage: z.number().min(0).max(1) })
      .optional(),
    tieBreak: z.object({ order: z.number().int(), values: z.record(z.string(), z.unknown()) }).optional(),
    merchandising: z
      .object({
        order: z.literal(-1),
        rule: z.string(),
        pinned: z.number().int().min(1).optional(),
        boosted: z.literal(true).optional(),
        buried: z.literal(true).optional(),
      })
      .optional()
      .meta({ description: 'The merchandising rule that pinned (at this 1-based position), boosted or buried the hit.' }),
    behaviour: z
      .object({ order: z.number().int(), clicks: z.number(), examined: z.number(), estimate: z.number(), moved: z.number().int() })
      .optional()
      .meta({
        description:
          "The hit's click feedback for the query, the estimate re-ranking ordered it by, and the positions it moved (positive: up).",
      }),
  })
  .catchall(z.object({ order: z.number().int(), value: z.unknown() }))
  .meta({
    description:
      'Per ranking rule: its order, score in [0, 1] and what it counted; customRanking criteria (e.g. "popularity:desc"), priceIntent (when the query asked for a low price) and bm25 give their value (bm25 also the share of the name and of all searched text the query reached); tieBreak the values of the tieBreak criteria (by default price:asc, name:asc) that order hits equal on every rule, before the id.',
  });
export const hit = z
  .object({ _rankingScore: z.number().min(0).max(1), _rankingScoreDetails: rankingScoreDetails.optional() })
  .catchall(z.unknown())
  .meta({
    description: 'The item, with its ranking score (1 = a field equal to the query) and, with showRankingScoreDetails=true, the details.',
  });
export const searchResponse = z.object({
  hits: z.array(hit),
  facets: z.record(z.string(), facet),
  totalPages: z.number().int(),
  totalHits: z.number().int(),
  hitsPerPage: z.number().int(),
  page: z.number().int(),
  queryID: z
    .string()
    .regex(/^[0-9a-f]{32}$/)
    .optional()
    .describe('With clickAnalytics=true (when the server records analytics): the id events name'),
});
export const autocompleteResponse = z.object({
  suggestions: z.array(z.object({ text: z.string() })),
  queryID: z.string().optional().describe('With clickAnalytics=true (when the server records analytics)'),
});
/** The body of `POST /search/events`. */
export const searchEventsBody = z.object({
  events: z
    .array(
      z.object({
        type: z.enum(['view', 'click', 'conversion']),
        queryID: z.string().regex(/^[0-9a-f]{32}$/),
        itemId: z.string().min(1).max(SEARCH_ANALYTICS_LIMITS.idLength),
        position: z.number().int().min(1).max(SEARCH_ANALYTICS_LIMITS.clickPosition).optional().describe('1-based; required for a click'),
        visitorId: z.string().min(1).max(SEARCH_ANALYTICS_LIMITS.idLength).optional(),
      }),
    )
    .max(SEARCH_ANALYTICS_LIMITS.eventsPerCall)
    .optional(),
  linked: z
    .array(
      z.object({
        name: z.enum(['purchase', 'pageview']),
        properties: z
          .record(
            z.string(),
            z.union([z.string().max(SEARCH_ANALYTICS_LIMITS.idLength), z.number(), z.array(z.union([z.string(), z.number()])).max(100)]),
          )
          .describe('At most 50; values matched against the items’ item_purchase_key / item_pageview_key'),
      }),
    )
    .max(SEARCH_ANALYTICS_LIMITS.eventsPerCall)
    .optional()
    .describe('Purchases and page views, counted for the items they link to (behaviour signals)'),
});

/** A JSON Schema object, as the document holds it. */
export type Schema = Record<string, unknown>;

/** A zod schema as JSON Schema (its input or its output side). */
export function schema(s: z.ZodType, io: 'input' | 'output' = 'output'): Schema {
  const out = z.toJSONSchema(s, { io, unrepresentable: 'any' }) as Schema;
  delete out.$schema;
  return out;
}

/** A JSON request body of that schema. */
export function body(s: z.ZodType, description?: string) {
  return { required: true, ...(description ? { description } : {}), content: { 'application/json': { schema: schema(s, 'input') } } };
}

/** A response: its description, and a JSON body when given. */
export function reply(description: string, s?: z.ZodType) {
  return s ? { description, content: { 'application/json': { schema: schema(s) } } } : { description };
}

/** A query parameter. */
export const query = (name: string, required: boolean, description: string, s: Schema = { type: 'string' }) => ({
  name,
  in: 'query',
  required,
  description,
  schema: s,
});

/** The query parameters of search and autocomplete that ask for a queryID. */
export const searchTracking = [
  query('clickAnalytics', false, 'true: the answer carries a queryID that POST /search/events names', { type: 'boolean', default: false }),
  query('visitorId', false, 'The visitor, kept with the queryID', {
    type: 'string',
    minLength: 1,
    maxLength: SEARCH_ANALYTICS_LIMITS.idLength,
  }),
];

/** `POST /search/events`. */
export const searchEventsOperation = {
  summary: 'Record views, clicks and conversions following answers asked with clickAnalytics=true',
  parameters: [query('index', false, '<identifier>_Catalog')],
  requestBody: body(searchEventsBody, `At most ${SEARCH_ANALYTICS_LIMITS.eventsPerCall} events`),
  responses: {
    '204': reply('Recorded'),
    '400': reply('A bad event (or an unknown queryID): details name each field', apiError),
    '404': reply('Unknown catalog, or analytics not enabled', apiError),
  },
};

const rate = z.number().nullable();
const rates = {
  searches: z.number().int(),
  trackedSearches: z.number().int(),
  zeroResults: z.number().int(),
  zeroResultRate: rate,
  clicks: z.number().int(),
  conversions: z.number().int(),
  clickThroughRate: rate.describe('Clicks per tracked search'),
  conversionRate: rate.describe('Conversions per tracked search'),
  meanClickPosition: rate,
  meanLatencyMs: rate,
};
const top = SEARCH_ANALYTICS_LIMITS.reportList;
/** A catalog's search analytics report. */
export const analyticsReport = z.object({
  catalog: z.string(),
  since: z.string(),
  until: z.string(),
  totals: z.object(rates),
  days: z.array(z.object({ day: z.string(), ...rates })).max(SEARCH_ANALYTICS_LIMITS.reportDays),
  topQueries: z.array(z.object({ query: z.string(), count: z.number().int(), ...rates })).max(top),
  noResultQueries: z.array(z.object({ query: z.string(), count: z.number().int() })).max(top),
  topFilters: z.array(z.object({ field: z.string(), count: z.number().int() })).max(top),
  topClickedItems: z
    .array(z.object({ itemId: z.string(), clicks: z.number().int(), conversions: z.number().int(), views: z.number().int() }))
    .max(top),
});

/** `GET /admin/v1/catalogs/{identifier}/analytics`, with the admin errors. */
export function analyticsOperation(errors: Record<string, unknown>) {
  const day = { type: 'string', pattern: '^\\d{4}-\\d{2}-\\d{2}$' };
  return {
    summary:
      "A catalog's search analytics over UTC days (rolled up: top and zero-result queries, click-through, conversions, clicked items)",
    parameters: [
      query('since', false, 'First day, YYYY-MM-DD (default: 29 days before until)', day),
      query('until', false, `Last day, YYYY-MM-DD (default: today); at most ${SEARCH_ANALYTICS_LIMITS.reportDays} days in all`, day),
    ],
    responses: { '200': reply('The report', analyticsReport), ...errors },
  };
}
