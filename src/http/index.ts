/**
 * `abkit/http`: the Web-standard handler of each interface and its route table, the zod schemas
 * that parse request bodies, query strings and configuration files (the same schemas produce the
 * OpenAPI document), and the limits and prefixes of the wire interfaces.
 *
 * @packageDocumentation
 * @module abkit/http
 */
export {
  bucketingConfigSchema,
  campaignSchema,
  variationGroupSchema,
  variationSchema,
  targetingSchema,
  parseBucketingConfig,
  TARGETING_OPERATORS,
} from '../model/bucketing-config';
export { MIN_POLL_INTERVAL_MS, MAX_POLL_INTERVAL_MS } from '../decision/poll';
export { MIN_API_KEY_LENGTH } from '../decision/load-options';
export { DECISION_LIMITS } from '../decision/limits';
export { CONFIG_LIMITS } from '../model/bucketing-config';
export { SEARCH_MODIFICATION_TYPE, SEARCH_SETTINGS_LIMITS, searchModificationSchema } from '../model/search-settings';
export { MAX_EVENT_NAME_LENGTH, MAX_EVENTS_PER_CALL } from '../results/track';
export { createDecisionHandler, decisionRoutes, campaignsRequestSchema, activationSchema, activationBatchSchema } from './decision';
export { handlerOf } from './router';
export { bootstrapJsonSchema, bootstrapSchema, catalogSearchSchema } from '../bootstrap/schema';
export { checkBootstrap } from '../bootstrap/apply';
export { ACCESS_ACTIONS } from '../access/actions';
export { CLIENT_ID_PREFIX, CLIENT_SECRET_PREFIX } from '../access/access-manager';
export { ACCESS_TOKEN_PREFIX } from '../access/token-service';
export { createTokenHandler, tokenRoutes } from './token';
export { createRemoteControlHandler, remoteControlRoutes } from './remote';
export { createAdminHandler, adminRoutes, ADMIN_ROUTES } from './admin';
export { AdminKeys, newAdminKey, ADMIN_KEY_PREFIX, MIN_ADMIN_KEY_LENGTH, MAX_ADMIN_KEYS } from '../access/admin-keys';
export { ADMIN_LIMITS, ENVIRONMENT_KEY_PREFIX } from '../admin/input';
export { AUDIT_LIMITS } from '../admin/audit-log';
export { MAX_BATCH_OPERATIONS, MAX_BATCH_BYTES, DEFAULT_SYNC_INTERVAL_MS } from '../catalog/catalog';
export { CATALOG_KEY_PREFIX, SEARCH_KEY_PREFIX } from '../catalog/registry';
export { STANDARD_FIELDS, MAX_ITEM_ID_LENGTH } from '../catalog/typing';
export { FIELD_TYPES } from '../model/field-types';
export { createCatalogHandler, catalogRoutes } from './catalog';
export { MAX_QUERY_TERMS, VIEW_SETTINGS } from '../search/service';
export { SEARCH_METRICS, SearchExperiments } from '../search-experiments/search-experiments';
export type { SearchDecision, SearchEventInput, SearchExperimentsOptions, SearchVariation } from '../search-experiments/search-experiments';
export { searchVisitorOf } from '../search-experiments/visitor';
export { interleavingResult, interleavingWinner, teamDraft } from '../search-experiments/interleaving';
export type { Interleaved, InterleavingResult } from '../search-experiments/interleaving';
export {
  searchQuerySchema,
  autocompleteQuerySchema,
  parseQueryString,
  RANGE_OPERATORS,
  MAX_HITS_PER_PAGE,
  MAX_TEXT_LENGTH,
  DEFAULT_HITS_PER_PAGE,
  MAX_SUGGESTIONS,
  DEFAULT_SUGGESTIONS,
} from '../search/query';
export { ENGLISH_STOP_WORDS } from '../search/stop-words';
export { PRICE_INTENT_WORDS } from '../search/analysis';
export { normalizeQuery } from '../search/behaviour';
export { behaviourSettingsSchema, behaviourSourced } from '../search/behaviour-ranking';
export { MERCHANDISING_LIMITS, merchandisingRuleSchema, merchandisingSchema } from '../search/merchandising';
export { createSearchHandler, searchRoutes, searchServices } from './search';
export { openApiDocument } from './openapi';
export { tokenRequestSchema, catalogItemSchema } from './openapi-schemas';
export type { DecisionHandlerOptions } from './decision';
export type { Routes, ErrorReporting } from './router';
export type { Bootstrap, CatalogSearchSettings } from '../bootstrap/schema';
export type { TokenHandlerOptions } from './token';
export type { RemoteControlHandlerOptions } from './remote';
export type { AdminHandlerOptions, AdminAuthorizer } from './admin';
export type { AdminKey } from '../access/admin-keys';
export type { CatalogHandlerOptions } from './catalog';
export type { SearchQuery, AutocompleteQuery, AutocompleteQueryInput, Filter, SortCriterion, RangeOperator } from '../search/query';
export type { SearchHandlerOptions, SearchEvent } from './search';
export type { OpenApiScope } from './openapi';
export type { AbkitHandlerOptions, ConsoleMountOptions } from './handler';
export type { ConsoleOptions } from '../console/routes';
export { formatPath } from '../errors';
export { SearchAnalytics } from '../analytics/service';
export { SEARCH_ANALYTICS_LIMITS } from '../analytics/limits';
export type { SearchAnalyticsOptions, RecordedSearch } from '../analytics/service';
export type { SearchInteraction, RecordedInteraction } from '../analytics/events';
export type { AnalyticsRange, SearchAnalyticsReport, SearchRates } from '../analytics/report';
export type { SignalWeights } from '../analytics/behaviour';
