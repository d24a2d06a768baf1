/**
 * `abkit/types`: every public type that the root entry does not name itself — storage ports and
 * their records (for adapter authors), the parts of decision, explanation, results and search
 * answers, and secondary options. Types only: importing this entry loads no code.
 *
 * @packageDocumentation
 * @module abkit/types
 */
export type { Campaign, VariationGroup, Variation, Targeting, TargetingOperator } from './model/bucketing-config';
export type { CompiledTargeting, CompiledTargetingGroup } from './decision/targeting';
export type { ContextValue, VisitorContext, Operand } from './decision/visitor-values';
export type { SemVer } from './model/semver';
export type { SearchModification } from './model/search-settings';
export type { AssignmentSource, CampaignDecision, DecidedVariation, Modifications, FlagMetadata } from './decision/compile';
export type { FlagsResult, ResolvedFlag } from './decision/flags';
export type { BucketingSource, BucketingSourceOptions } from './decision/poll';
export type { CampaignExplanation, Outcome, TargetingFailure, AllocationStep } from './decision/evaluate';
export type { TrackInput } from './results/track';
export type { ResultsQuery, ExperimentResults, GroupResult, VariationResult, RateComparison, ValueComparison } from './results/results';
export type { Estimate, SampleRatioCheck, TestResult } from './results/statistics';
export type { LoadOptions } from './decision/load-options';
export type { Explanation } from './decision/request';
export type { ActivationInput } from './results/experiments';
export type { ErrorPath } from './errors';
export type { DecidedCampaign, DecidedWrite, DecisionWrite } from './storage/storage';
export type { EnvironmentStore, EnvironmentRecord, EnvironmentWrite } from './storage/environments';
export type { AssignmentStore, Assignments } from './storage/assignments';
export type { ActivationStore, Activation, ActivationQuery } from './storage/activations';
export type { EventStore, ConversionEvent, EventQuery, ExposureQuery, VariationAggregate } from './storage/events';
export type { MemoryStorageOptions } from '../adapters/memory/memory';
export type { AccessAction } from './access/actions';
export type { AccessPreview } from './access/access-manager';
export type { TokenInfo, Introspection, Requirement } from './access/token-service';
export type { CampaignSummary } from './access/remote-control';
export type { AccessStore, AccessRecord } from './storage/accesses';
export type { TokenStore, TokenRecord } from './storage/tokens';
export type { RandomSource } from './crypto';
export type { CatalogOptions, BatchProblem, SchemaFieldView, SyncResult, SyncSchedule, AnalyticsEvent } from './catalog/catalog';
export type { CreateCatalogInput, CreatedCatalog, KeyGrant } from './catalog/registry';
export type { StandardField, ValueKind, ItemProblem, ItemCheck, SchemaLookup } from './catalog/typing';
export type { FieldType } from './model/field-types';
export type { CatalogStore, CatalogRecord, SchemaField, FieldClaim, CatalogOperation, VisibleCatalog } from './storage/catalog';
export type { Embedder, Facet, Hit, SearchViewSettings } from './search/service';
export type { SearchWork } from './search/work';
export type { Synonyms, Stemmer } from './search/analysis';
export type { MatchingStrategy } from './search/matching';
export type { RankingRule, RankingScoreDetails } from './search/ranking';
export type { BehaviourSource, QueryFeedback } from './search/behaviour';
export type { BehaviourOptions, RerankOptions, RerankDetail } from './search/behaviour-ranking';
export type { MerchandisingRule, MerchandisingDetail } from './search/merchandising';
export type { SearchProfile } from './search/naming';
export type { KeyboardLayout } from './search/typos';
export type { AuditStore, AuditEntry, AuditWrite } from './storage/audit';
export type { AccountStore, AccountRecord } from './storage/accounts';
export type {
  SearchAnalyticsStore,
  SearchAnalyticsWrite,
  TrackedSearch,
  QueryCounts,
  ItemCounts,
  QueryItemCounts,
  DayRange,
  EpochDay,
} from './storage/search-analytics';
export type { CatalogSettingsStore, CatalogSettingsRecord } from './storage/catalog-settings';
export type { RotatedSecret } from './access/access-manager';
export type { AdminServiceOptions } from './admin/service';
export type {
  AccountView,
  EnvironmentView,
  CreateEnvironmentInput,
  UpdateEnvironmentInput,
  CreateCatalogSettings,
  CatalogSettingsInput,
  CatalogSettingsView,
  CatalogKeys,
} from './admin/views';
export type { AuditPage } from './admin/audit-log';
