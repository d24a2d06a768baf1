/**
 * The OpenAPI 3.1 document of the combined handler, generated from the zod schemas that parse
 * requests (and the zod schemas of responses below), never written by hand.
 *
 * @module
 */
import { z } from 'zod';
import { ACCESS_ACTIONS } from '../access/actions';
import { bucketingConfigSchema, campaignSchema } from '../model/bucketing-config';
import { DECISION_LIMITS } from '../decision/limits';
import { autocompleteQuerySchema, searchQuerySchema, MAX_HITS_PER_PAGE, MAX_SUGGESTIONS, RANGE_OPERATORS } from '../search/query';
import { CATALOG_ROUTES } from './catalog';
import {
  activationBatchSchema,
  activationSchema,
  campaignsRequestSchema,
  DECISION_ROUTES,
  eventBatchSchema,
  eventSchema,
} from './decision';
import { REMOTE_CONTROL_ROUTES } from './remote';
import { ADMIN_ROUTES } from './admin';
import { ADMIN_LIMITS } from '../admin/input';
import { AUDIT_LIMITS } from '../admin/audit-log';
import { catalogSearchSchema } from '../bootstrap/schema';
import type { RouteSpec } from './router';
import { SEARCH_ROUTES } from './search';
import { SERVICE_ROUTES } from './service';
import { TOKEN_ROUTES } from './token';

import {
  message,
  oauthError,
  apiError,
  campaignValue,
  campaignsAnswer,
  flagsAnswer,
  campaignSummary,
  tokenRequestSchema,
  tokenResponse,
  introspection,
  experimentResults,
  configurationView,
  catalogItemSchema,
  batchOperation,
  batchResult,
  searchResponse,
  autocompleteResponse,
  searchEventsOperation,
  analyticsOperation,
  searchTracking as tracking,
  body,
  query,
  reply,
  schema,
} from './openapi-schemas';

// Descriptions of the path parameters the route tables name.
const PATH_PARAMETERS: Record<string, string> = {
  id: 'Campaign id or slug',
  envId: 'Environment',
  account_id: 'Account',
  env_id: 'Environment',
  campaign_id: 'Campaign',
  itemID: 'Item id',
  fieldID: 'Field',
};
const pathParameter = (name: string) => ({
  name,
  in: 'path',
  required: true,
  description: PATH_PARAMETERS[name] ?? name,
  schema: { type: 'string' },
});

/** An OpenAPI operation; its path parameters come from the route's pattern. */
type Operation = { summary: string; parameters?: readonly unknown[] } & Record<string, unknown>;

/**
 * Which interfaces a document describes.
 *
 * @example
 * ```ts
 * const scope: OpenApiScope = { decision: true, access: false, remote: false, catalog: true, search: true, prefix: '/api' };
 * const document = openApiDocument(scope);
 * ```
 */
export interface OpenApiScope {
  decision: boolean;
  access: boolean;
  remote: boolean;
  catalog: boolean;
  search: boolean;
  /** The admin API (`/admin/v1`), when it is mounted. @defaultValue `false` */
  admin?: boolean;
  prefix: string;
}

/**
 * Builds the OpenAPI 3.1 document for the interfaces served.
 *
 * @example
 * ```ts
 * const document = openApiDocument({ decision: true, access: true, remote: true, catalog: false, search: false, prefix: '' });
 * await (await import('node:fs/promises')).writeFile('openapi.json', JSON.stringify(document, null, 2));
 * ```
 */
export function openApiDocument(scope: OpenApiScope): Record<string, unknown> {
  const paths: Record<string, Record<string, unknown>> = {};
  // Paths come from the route tables; each table names an operation per route, described here.
  const describe = <S extends RouteSpec>(
    table: readonly S[],
    operations: { [N in S['name']]: Operation },
    extra: (route: S) => object = () => ({}),
  ) => {
    for (const route of table) {
      const { parameters = [], ...operation } = { ...operations[route.name as S['name']], ...extra(route) };
      const names = [...route.path.matchAll(/:(\w+)/g)].map((m) => m[1]!);
      const p = scope.prefix + route.path.replace(/:(\w+)/g, '{$1}');
      const described = {
        ...operation,
        ...(names.length + parameters.length > 0 ? { parameters: [...names.map(pathParameter), ...parameters] } : {}),
      };
      paths[p] = { ...(paths[p] ?? {}), [route.method.toLowerCase()]: described };
    }
  };
  const decisionErrors = {
    '400': reply('Bad request, unknown campaign or environment', message),
    '401': reply('Missing or wrong x-api-key (environments with an API key)', message),
    '413': reply('Body over the limit', message),
    '500': reply('Internal error', message),
  };
  if (scope.decision) {
    const campaigns = {
      requestBody: body(campaignsRequestSchema),
      responses: {
        '200': reply('Campaigns list (interfaces.md, Campaigns list), in the form `mode` asks for', campaignsAnswer),
        ...decisionErrors,
      },
    };
    const flags = { requestBody: body(campaignsRequestSchema), responses: { '200': reply('Flags', flagsAnswer), ...decisionErrors } };
    const one = {
      requestBody: body(campaignsRequestSchema),
      responses: {
        '200': reply('Campaign value (interfaces.md, Campaign value)', campaignValue),
        '204': reply('Not targeted or untracked'),
        ...decisionErrors,
      },
    };
    const exposeAllKeys = query('exposeAllKeys', false, "true adds sibling variations' keys with value null", {
      type: 'string',
      enum: ['true', 'false'],
    });
    const sendContextEvent = query('sendContextEvent', false, 'Accepted for Flagship compatibility; abkit records no context events', {
      type: 'string',
      enum: ['true', 'false'],
    });
    const parameters = [exposeAllKeys, sendContextEvent];
    const listParameters = [
      ...parameters,
      query('mode', false, 'normal: the campaigns list; simple: mergedModifications and campaignsVariation; full: both', {
        type: 'string',
        enum: ['normal', 'simple', 'full'],
        default: 'normal',
      }),
      {
        name: 'extras[]',
        in: 'query',
        required: false,
        description: 'accountSettings adds extras.accountSettings { enabledXPC, enabled1V1T }; other values are ignored',
        schema: { type: 'array', items: { type: 'string' } },
      },
    ];
    describe(DECISION_ROUTES, {
      campaigns: { summary: 'Campaigns of a visitor (default environment)', parameters: listParameters, ...campaigns },
      campaign: { summary: 'One campaign by id or slug', parameters, ...one },
      environmentCampaigns: { summary: 'Campaigns of a visitor in an environment', parameters: listParameters, ...campaigns },
      environmentCampaign: { summary: 'One campaign in an environment', parameters, ...one },
      events: {
        summary: 'Record conversion events (one, or a batch of up to 1,000, all or none)',
        requestBody: {
          required: true,
          content: { 'application/json': { schema: { oneOf: [schema(eventSchema, 'input'), schema(eventBatchSchema, 'input')] } } },
        },
        responses: { '204': reply('Recorded'), ...decisionErrors },
      },
      flags: { summary: 'Flags of a visitor (default environment)', parameters, ...flags },
      environmentFlags: { summary: 'Flags of a visitor in an environment', parameters, ...flags },
      bucketing: {
        summary: "The environment's configuration as a bucketing file, for local evaluation",
        parameters: [
          {
            name: 'If-None-Match',
            in: 'header',
            required: false,
            description: 'An ETag from a previous answer',
            schema: { type: 'string' },
          },
          { name: 'If-Modified-Since', in: 'header', required: false, description: 'An HTTP date', schema: { type: 'string' } },
        ],
        responses: {
          '200': {
            ...reply('The bucketing file', bucketingConfigSchema),
            headers: { ETag: { schema: { type: 'string' } }, 'Last-Modified': { schema: { type: 'string' } } },
          },
          '304': reply('Not modified since the ETag or date given'),
          '401': decisionErrors['401'],
          '404': reply('Unknown environment', message),
          '500': decisionErrors['500'],
        },
      },
      activate: {
        summary: 'Record campaign activations',
        requestBody: {
          required: true,
          content: {
            'application/json': { schema: { oneOf: [schema(activationSchema, 'input'), schema(activationBatchSchema, 'input')] } },
          },
        },
        responses: { '204': reply('Recorded'), ...decisionErrors },
      },
    });
  }
  if (scope.access) {
    describe(TOKEN_ROUTES, {
      issue: {
        summary: 'Issue a bearer token (client credentials)',
        parameters: [
          query('expires_in', false, 'Lifetime in seconds: 0 or absent = 3600; clamped to the maximum', { type: 'integer', minimum: 0 }),
        ],
        requestBody: {
          required: true,
          content: {
            'application/json': { schema: schema(tokenRequestSchema, 'input') },
            'application/x-www-form-urlencoded': { schema: schema(tokenRequestSchema, 'input') },
          },
        },
        responses: {
          '200': reply('Token', tokenResponse),
          '400': reply('Bad request', oauthError),
          '401': reply('Bad client credentials', oauthError),
        },
      },
      check: {
        summary: 'Check a token',
        parameters: [query('access_token', true, 'The token')],
        responses: { '200': reply('Token state', introspection), '400': reply('Bad request', oauthError) },
      },
    });
  }
  if (scope.remote) {
    const errors = {
      '400': reply('Bad request', apiError),
      '401': reply('Missing, invalid, expired or revoked token', apiError),
      '403': reply('Action or environment not granted', apiError),
      '404': reply('Unknown environment or campaign', apiError),
    };
    const panicState = z.object({ panic: z.boolean(), version: z.number().int() });
    const operations: { [N in (typeof REMOTE_CONTROL_ROUTES)[number]['name']]: Operation } = {
      getConfiguration: {
        summary: 'Read the campaign configuration',
        responses: { '200': reply('Configuration', configurationView), ...errors },
      },
      replaceConfiguration: {
        summary: 'Replace the campaign configuration',
        requestBody: body(bucketingConfigSchema),
        responses: { '200': reply('Configuration', configurationView), '412': reply('Stale If-Match', apiError), ...errors },
      },
      listCampaigns: {
        summary: "List the environment's campaigns",
        responses: { '200': reply('Campaigns', z.object({ campaigns: z.array(campaignSummary) })), ...errors },
      },
      getCampaign: { summary: 'Read one campaign', responses: { '200': reply('Campaign', campaignSchema), ...errors } },
      putCampaign: {
        summary: 'Create or replace one campaign',
        requestBody: body(campaignSchema),
        responses: { '200': reply('Written'), ...errors },
      },
      deleteCampaign: { summary: 'Delete one campaign', responses: { '200': reply('Deleted'), ...errors } },
      getPanic: { summary: 'Read panic mode', responses: { '200': reply('Panic state', panicState), ...errors } },
      setPanic: {
        summary: 'Switch panic mode',
        requestBody: body(z.object({ panic: z.boolean() })),
        responses: { '200': reply('Panic state', panicState), ...errors },
      },
      listActivations: {
        summary: 'Read activations',
        parameters: [
          query('visitor_id', false, 'Only this visitor'),
          query('since', false, 'Epoch ms', { type: 'integer' }),
          query('limit', false, 'At most (10,000)', { type: 'integer' }),
        ],
        responses: { '200': reply('Activations'), ...errors },
      },
      getResults: {
        summary: 'Experiment results of a campaign for one metric',
        parameters: [
          query('metric', true, 'Conversion event name'),
          query('since', false, 'Only visitors first exposed at or after (epoch ms)', { type: 'integer', minimum: 0 }),
          query('until', false, 'Only exposures and events before (epoch ms)', { type: 'integer', minimum: 0 }),
        ],
        responses: { '200': reply('Results per variation group and variation', experimentResults), ...errors },
      },
    };
    // Each route's security names the action its token must hold.
    describe(REMOTE_CONTROL_ROUTES, operations, (route) => ({ security: [{ bearer: [route.action] }] }));
  }
  if (scope.catalog) {
    const errors = {
      '400': reply('Invalid operations, nothing applied', apiError),
      '401': reply('Missing or unknown catalog key', apiError),
      '403': reply('Not the catalog key', apiError),
    };
    const security = { security: [{ catalogKey: [] }] };
    describe(CATALOG_ROUTES, {
      put: {
        summary: 'Add or replace an item',
        ...security,
        requestBody: body(catalogItemSchema),
        responses: { '200': reply('Applied', batchResult), ...errors },
      },
      delete: { summary: 'Delete an item', ...security, responses: { '200': reply('Applied', batchResult), ...errors } },
      deleteAll: { summary: 'Delete every item (the schema is kept)', ...security, responses: { '200': reply('Deleted'), ...errors } },
      deleteField: {
        summary: 'Delete a schema field',
        ...security,
        responses: { '200': reply('Deleted'), '404': reply('Unknown field', apiError), ...errors },
      },
      batch: {
        summary: 'Apply up to 10,000 operations atomically',
        ...security,
        requestBody: body(z.array(batchOperation).max(10_000), 'Less than 50 MB'),
        responses: { '200': reply('Applied', batchResult), '413': reply('50 MB or more', apiError), ...errors },
      },
      sync: {
        summary: 'Publish every accepted operation now (search then sees them)',
        ...security,
        responses: {
          '200': reply('Published version', z.object({ version: z.number().int(), syncedAt: z.number().int(), count: z.number().int() })),
          ...errors,
        },
      },
    });
  }
  if (scope.search) {
    const text = schema(searchQuerySchema.shape.text, 'input');
    const parameters = [
      query('text', true, 'Search text; empty = every item', text),
      {
        name: 'filters',
        in: 'query',
        style: 'deepObject',
        explode: true,
        required: false,
        description: `filters[field][]=value (list) or filters[field][0][operator]=${RANGE_OPERATORS.join('|')}&filters[field][0][value]=n (range)`,
        schema: { type: 'object', additionalProperties: true },
      },
      query('page', false, '0-indexed page', { type: 'integer', minimum: 0 }),
      query('hitsPerPage', false, 'Page size', { type: 'integer', minimum: 1, maximum: MAX_HITS_PER_PAGE, default: 20 }),
      query('rankingScoreThreshold', false, 'Absolute score cut-off', { type: 'number', minimum: 0, maximum: 1 }),
      query('semanticRatio', false, 'Hybrid blend (needs an embedder)', { type: 'number', minimum: 0, maximum: 1 }),
      query('showRankingScoreDetails', false, 'Add _rankingScoreDetails to every hit', { type: 'boolean', default: false }),
      ...tracking,
      query('index', false, '<identifier>_Catalog'),
    ];
    const sort = {
      name: 'sort',
      in: 'query',
      required: false,
      description: '<field>:asc or <field>:desc',
      schema: { type: 'array', items: { type: 'string', pattern: '^.+:(asc|desc)$' } },
    };
    // Experiments on search: the visitor whose campaigns may give other search settings.
    const visitor = [
      query('visitorId', false, "Decides the visitor's search experiments and records the exposure", {
        type: 'string',
        minLength: 1,
        maxLength: DECISION_LIMITS.idLength,
      }),
      {
        name: 'context',
        in: 'query',
        style: 'deepObject',
        explode: true,
        required: false,
        description: 'context[key]=value: targeting context, with visitorId (true/false read as booleans, numbers as numbers)',
        schema: { type: 'object', additionalProperties: { type: 'string', maxLength: DECISION_LIMITS.contextValueLength } },
      },
    ];
    const errors = { '400': reply('Bad parameter', apiError), '404': reply('Unknown catalog', apiError) };
    describe(SEARCH_ROUTES, {
      search: {
        summary: 'Search (v0.4)',
        parameters: [...parameters, sort, ...visitor],
        responses: { '200': reply('Results', searchResponse), ...errors },
      },
      searchV03: {
        summary: 'Search (v0.3: no sort)',
        parameters: [...parameters, ...visitor],
        responses: { '200': reply('Results', searchResponse), ...errors },
      },
      autocomplete: {
        summary: 'Autocomplete (v0.2)',
        parameters: [
          query('query', true, 'Partial input', schema(autocompleteQuerySchema.shape.query, 'input')),
          query('hits_per_page', false, 'Most suggestions', { type: 'integer', minimum: 1, maximum: MAX_SUGGESTIONS, default: 10 }),
          query('client_id', false, 'Catalog identifier'),
          ...tracking,
          ...visitor,
        ],
        responses: { '200': reply('Suggestions', autocompleteResponse), ...errors },
      },
      searchEvents: searchEventsOperation,
    });
  }
  if (scope.admin) {
    const errors = {
      '400': reply('Invalid input: details name each field', apiError),
      '401': reply('No admin credential', apiError),
      '403': reply('Credential refused', apiError),
    };
    const notFound = { '404': reply('Unknown account, environment, access or catalog', apiError) };
    const conflict = { '409': reply('Exists already, or a ceiling is reached', apiError) };
    const id = z
      .string()
      .min(1)
      .max(ADMIN_LIMITS.idLength)
      .regex(/^[A-Za-z0-9][A-Za-z0-9._-]*$/);
    const environmentView = z.object({
      id: z.string(),
      version: z.number().int(),
      updatedAt: z.number().int(),
      apiKeyRequired: z.boolean(),
      default: z.boolean(),
      apiKey: z.string().optional().meta({ description: 'A new key: only in the answer that generated it' }),
    });
    const accountView = z.object({
      id: z.string(),
      createdAt: z.number().int().nullable().meta({ description: 'null for an account known only through its environments' }),
      defaultEnvironment: z.string().nullable(),
      environments: z.array(environmentView),
    });
    const accessPreview = z.object({
      id: z.string(),
      accountId: z.string(),
      name: z.string(),
      environments: z.array(z.string()),
      actions: z.array(z.string()),
      clientIdHint: z.string().meta({ description: 'The last four characters of the client id' }),
      createdAt: z.number().int(),
      lastUsedAt: z.number().int().nullable().meta({ description: 'When a token was last issued for it' }),
      revokedAt: z.number().int().nullable(),
      status: z.enum(['active', 'revoked']),
    });
    const settings = z.object({
      syncIntervalMs: z.number().int().min(1000).max(ADMIN_LIMITS.maxSyncIntervalMs).nullable().optional(),
      search: catalogSearchSchema.nullable().optional(),
    });
    const settingsView = z.object({
      identifier: z.string(),
      syncIntervalMs: z.number().int().nullable(),
      search: z.record(z.string(), z.unknown()).nullable(),
    });
    const auditEntry = z.object({
      seq: z.number().int(),
      actor: z.string(),
      action: z.string().meta({ description: '<object>.<verb>, e.g. access.create' }),
      target: z.string(),
      time: z.number().int(),
      outcome: z.string().meta({ description: 'ok, or the error code' }),
      detail: z.record(z.string(), z.unknown()).nullable(),
    });
    const keys = z.object({ identifier: z.string(), catalogApiKey: z.string(), searchApiKey: z.string().optional() });
    describe(
      ADMIN_ROUTES,
      {
        listAccounts: {
          summary: 'List accounts and their environments',
          responses: { '200': reply('Accounts', z.object({ accounts: z.array(accountView) })), ...errors },
        },
        createAccount: {
          summary: 'Create an account',
          requestBody: body(z.object({ id })),
          responses: { '201': reply('Created', accountView), ...errors, ...conflict },
        },
        createEnvironment: {
          summary: 'Create an environment (empty configuration); its API key, when asked for, is shown once',
          requestBody: body(z.object({ id, default: z.boolean().optional(), apiKey: z.boolean().optional() })),
          responses: { '201': reply('Created', environmentView), ...errors, ...notFound, ...conflict },
        },
        updateEnvironment: {
          summary: "Set the account's default environment, rotate or remove its API key",
          requestBody: body(z.object({ default: z.boolean().optional(), apiKey: z.enum(['rotate', 'remove']).optional() })),
          responses: { '200': reply('Changed', environmentView), ...errors, ...notFound, ...conflict },
        },
        listAccesses: {
          summary: 'Preview the accesses of an account',
          responses: { '200': reply('Accesses', z.object({ accesses: z.array(accessPreview) })), ...errors, ...notFound },
        },
        createAccess: {
          summary: 'Create an access: the client id and secret are shown once',
          requestBody: body(
            z.object({
              name: z.string().min(1).max(100),
              environments: z.array(z.string()).optional(),
              actions: z.array(z.enum(ACCESS_ACTIONS)).min(1),
            }),
          ),
          responses: {
            '201': reply(
              'Created',
              z.object({
                id: z.string(),
                accountId: z.string(),
                name: z.string(),
                environments: z.array(z.string()),
                actions: z.array(z.string()),
                clientId: z.string(),
                clientSecret: z.string(),
                createdAt: z.number().int(),
              }),
            ),
            ...errors,
            ...notFound,
            ...conflict,
          },
        },
        revokeAccess: {
          summary: 'Revoke an access: its tokens stop at once',
          responses: { '200': reply('Revoked', accessPreview), ...errors, ...notFound },
        },
        rotateAccess: {
          summary: 'A new client secret, shown once; the old one no longer gets tokens',
          responses: {
            '200': reply('Rotated', z.object({ id: z.string(), clientIdHint: z.string(), clientSecret: z.string() })),
            ...errors,
            ...notFound,
            ...conflict,
          },
        },
        listCatalogs: {
          summary: 'List catalogs and their settings',
          responses: { '200': reply('Catalogs', z.object({ catalogs: z.array(settingsView) })), ...errors },
        },
        createCatalog: {
          summary: 'Create a catalog: its catalog and search keys are shown once',
          requestBody: body(settings.extend({ identifier: z.string() })),
          responses: {
            '201': reply('Created', settingsView.extend({ catalogApiKey: z.string(), searchApiKey: z.string() })),
            ...errors,
            ...conflict,
          },
        },
        getCatalogSettings: {
          summary: "A catalog's settings",
          responses: { '200': reply('Settings', settingsView), ...errors, ...notFound },
        },
        updateCatalogSettings: {
          summary: "Change a catalog's sync interval or search settings",
          requestBody: body(settings),
          responses: { '200': reply('Settings', settingsView), ...errors, ...notFound },
        },
        rotateCatalogKeys: {
          summary: 'A new catalog key (and search key with search: true), shown once',
          requestBody: body(z.object({ search: z.boolean().optional() })),
          responses: { '200': reply('New keys', keys), ...errors, ...notFound },
        },
        syncCatalog: {
          summary: 'Synchronize a catalog now',
          responses: {
            '200': reply('Published version', z.object({ version: z.number().int(), syncedAt: z.number().int(), count: z.number().int() })),
            ...errors,
            ...notFound,
          },
        },
        catalogAnalytics: analyticsOperation({ ...errors, ...notFound }),
        audit: {
          summary: 'The audit log, newest first',
          parameters: [
            query('limit', false, 'Entries per page', {
              type: 'integer',
              minimum: 1,
              maximum: AUDIT_LIMITS.pageSize,
              default: AUDIT_LIMITS.defaultPageSize,
            }),
            query('before', false, 'The `next` of the previous page', { type: 'integer', minimum: 1 }),
          ],
          responses: { '200': reply('Entries', z.object({ entries: z.array(auditEntry), next: z.number().int().nullable() })), ...errors },
        },
      },
      () => ({ security: [{ adminKey: [] }] }),
    );
  }
  describe(SERVICE_ROUTES, {
    health: { summary: 'Liveness', responses: { '200': reply('OK') } },
    openapi: { summary: 'This document', responses: { '200': reply('OpenAPI 3.1') } },
  });
  return {
    openapi: '3.1.0',
    info: {
      title: 'abkit',
      version: '0.1.0',
      description: 'Decision, remote control access, catalog, search and autocomplete interfaces.',
    },
    paths,
    components: {
      securitySchemes: {
        bearer: { type: 'http', scheme: 'bearer', description: `Remote control token; actions: ${ACCESS_ACTIONS.join(', ')}` },
        catalogKey: { type: 'http', scheme: 'bearer', description: 'The catalog key' },
        ...(scope.admin ? { adminKey: { type: 'http', scheme: 'bearer', description: 'An admin key (ABKIT_ADMIN_KEY)' } } : {}),
      },
    },
  };
}
