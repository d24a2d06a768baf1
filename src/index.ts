/**
 * abkit: an embeddable experimentation and merchandising back end.
 *
 * @packageDocumentation
 */
import { memoryStorage } from '../adapters/memory/memory';
import { composeAbkit, type Abkit, type AbkitOptions } from './abkit';

/**
 * Creates every service of abkit over one storage: the composition root. The storage defaults
 * to memory; pass `sqliteStorage(…)` or `postgresStorage(…)` to persist.
 *
 * @example
 * ```ts
 * import { createAbkit } from 'abkit';
 *
 * const abkit = createAbkit();
 * await abkit.engine.load({ campaigns: [] }, { environment: 'prod', account: 'acme' });
 * const response = await abkit.handler()(new Request('http://localhost/health'));
 * ```
 */
export function createAbkit(options: AbkitOptions = {}): Abkit {
  return composeAbkit({ ...options, storage: options.storage ?? memoryStorage() });
}
export type { Abkit, AbkitOptions, AbkitHandlerOptions } from './abkit';
export {
  AbkitError,
  ValidationError,
  AuthenticationError,
  PermissionError,
  NotFoundError,
  PayloadTooLargeError,
  ConflictError,
  StorageUnavailableError,
  formatPath,
} from './errors';
export type { ErrorDetail, ErrorPath } from './errors';

export {
  bucketingConfigSchema,
  campaignSchema,
  variationGroupSchema,
  variationSchema,
  targetingSchema,
  parseBucketingConfig,
  TARGETING_OPERATORS,
} from './decision/config';
export type { BucketingConfig, Campaign, VariationGroup, Variation, Targeting, TargetingOperator } from './decision/config';
export { murmur3, hashString, variationBucket, campaignBucket, pickVariation } from './decision/bucketing';
export { compileTargeting, matchTargeting, matchGroups } from './decision/targeting';
export type { CompiledTargeting, CompiledTargetingGroup, ContextValue, VisitorContext, Operand } from './decision/targeting';
export { parseSemver, compareSemver } from './decision/semver';
export type { SemVer } from './decision/semver';
export type { CampaignDecision, DecidedVariation, Modifications, FlagMetadata } from './decision/compile';
export type { FlagsResult, ResolvedFlag } from './decision/flags';
export { MIN_POLL_INTERVAL_MS, MAX_POLL_INTERVAL_MS } from './decision/poll';
export type { BucketingSource, BucketingSourceOptions } from './decision/poll';
export type { AssignmentSource, CampaignExplanation, Outcome, TargetingFailure, AllocationStep } from './decision/evaluate';
export { DecisionEngine } from './decision/engine';
export { MAX_EVENT_NAME_LENGTH, MAX_EVENTS_PER_CALL } from './results/track';
export type { TrackInput } from './results/track';
export type { ResultsQuery, ExperimentResults, GroupResult, VariationResult, RateComparison, ValueComparison } from './results/results';
export type { Estimate, SampleRatioCheck, TestResult } from './results/statistics';
export type {
  DecisionEngineOptions,
  DecisionRequest,
  DecisionResult,
  Explanation,
  ActivationInput,
  LoadOptions,
} from './decision/engine';

export type { DecisionWrite, Storage } from './storage/storage';
export type { EnvironmentStore, EnvironmentRecord, EnvironmentWrite } from './storage/environments';
export type { AssignmentStore, Assignments } from './storage/assignments';
export type { ActivationStore, Activation, ActivationQuery } from './storage/activations';
export type { EventStore, ConversionEvent, EventQuery, ExposureQuery, VariationAggregate } from './storage/events';
export { memoryStorage };
export type { MemoryStorageOptions } from '../adapters/memory/memory';

export { createDecisionHandler, decisionRoutes, campaignsRequestSchema, activationSchema, activationBatchSchema } from './http/decision';
export type { DecisionHandlerOptions } from './http/decision';
export { handlerOf } from './http/router';
export type { Handler, Routes, ErrorReporting } from './http/router';

export { applyBootstrap, bootstrapSchema } from './bootstrap';
export type { Bootstrap, BootstrapReport, ApplyBootstrapOptions, CatalogSearchSettings } from './bootstrap';

export { ACCESS_ACTIONS } from './access/actions';
export type { AccessAction } from './access/actions';
export { AccessManager, CLIENT_ID_PREFIX, CLIENT_SECRET_PREFIX } from './access/access-manager';
export type { AccessManagerOptions, CreateAccessInput, CreatedAccess, AccessPreview } from './access/access-manager';
export { TokenService, ACCESS_TOKEN_PREFIX } from './access/token-service';
export type { TokenServiceOptions, IssueTokenInput, IssuedToken, TokenInfo, Introspection, Requirement } from './access/token-service';
export { RemoteControl } from './access/remote-control';
export type { RemoteControlOptions, CampaignSummary } from './access/remote-control';
export { createTokenHandler, tokenRoutes } from './http/token';
export type { TokenHandlerOptions } from './http/token';
export { createRemoteControlHandler, remoteControlRoutes } from './http/remote';
export type { RemoteControlHandlerOptions } from './http/remote';
export type { AccessStore, AccessRecord } from './storage/accesses';
export type { TokenStore, TokenRecord } from './storage/tokens';
export type { RandomSource } from './crypto';

export { Catalog, CatalogValidationError, prepareBatch, MAX_BATCH_OPERATIONS, MAX_BATCH_BYTES, DEFAULT_SYNC_INTERVAL_MS } from './catalog/catalog';
export type {
  CatalogOptions,
  BatchOperation,
  BatchProblem,
  BatchResult,
  SchemaFieldView,
  SyncResult,
  SyncSchedule,
  AnalyticsEvent,
} from './catalog/catalog';
export { CatalogRegistry, CATALOG_KEY_PREFIX, SEARCH_KEY_PREFIX } from './catalog/registry';
export type { CatalogRegistryOptions, CreateCatalogInput, CreatedCatalog, KeyGrant } from './catalog/registry';
export { typeOf, checkItem, checkItemId, describeValue, isStandardField, STANDARD_FIELDS, FIELD_TYPES, MAX_ITEM_ID_LENGTH } from './catalog/typing';
export type { FieldType, StandardField, ValueKind, ItemProblem, ItemCheck, SchemaLookup } from './catalog/typing';
export { createCatalogHandler, catalogRoutes } from './http/catalog';
export type { CatalogHandlerOptions } from './http/catalog';
export type { CatalogStore, CatalogItem, CatalogRecord, SchemaField, FieldClaim, CatalogOperation, VisibleCatalog } from './storage/catalog';

export { SearchService, MAX_QUERY_TERMS } from './search/service';
export type { SearchServiceOptions, Embedder, Facet, Hit, SearchResponse, AutocompleteResponse, SearchWork } from './search/service';
export {
  searchQuerySchema,
  autocompleteQuerySchema,
  parseQueryString,
  QS_OPTIONS,
  RANGE_OPERATORS,
  MAX_HITS_PER_PAGE,
  MAX_TEXT_LENGTH,
  DEFAULT_HITS_PER_PAGE,
  MAX_SUGGESTIONS,
  DEFAULT_SUGGESTIONS,
} from './search/query';
export type { SearchQuery, SearchQueryInput, AutocompleteQuery, AutocompleteQueryInput, Filter, SortCriterion, RangeOperator } from './search/query';
export { allowedTypos, damerau } from './search/typos';
export { ENGLISH_STOP_WORDS } from './search/stop-words';
export type { Synonyms, Stemmer } from './search/analysis';
export type { MatchingStrategy } from './search/matching';
export type { RankingRule, RankingScoreDetails } from './search/ranking';
export { createSearchHandler, searchRoutes } from './http/search';
export type { SearchHandlerOptions } from './http/search';

export { createHandler } from './http/handler';
export type { HandlerOptions } from './http/handler';
export { openApiDocument, tokenRequestSchema, catalogItemSchema } from './http/openapi';
export type { OpenApiScope } from './http/openapi';
