/**
 * abkit: an embeddable experimentation and merchandising back end.
 *
 * @packageDocumentation
 * @module abkit
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
// The root entry: the services, their main option and result types, the errors, and the entry
// functions. Routes, schemas and wire limits are in abkit/http (src/http/index.ts); every other
// public type is in abkit/types (src/types.ts). test/packaging.test.ts keeps this under 50 names.
export { createHandler } from './http/handler';
export { memoryStorage };
export { applyBootstrap } from './bootstrap/apply';
export { DecisionEngine } from './decision/engine';
export { ExperimentService } from './results/experiments';
export { RemoteControl } from './access/remote-control';
export { AccessManager } from './access/access-manager';
export { TokenService } from './access/token-service';
export { CatalogRegistry } from './catalog/registry';
export { AdminService } from './admin/service';
export { Catalog, CatalogValidationError } from './catalog/catalog';
export { SearchService } from './search/service';
export {
  AbkitError,
  ValidationError,
  AuthenticationError,
  PermissionError,
  NotFoundError,
  PayloadTooLargeError,
  ConflictError,
  StorageUnavailableError,
} from './errors';
export type { Abkit, AbkitOptions } from './abkit';
export type { Storage } from './storage/storage';
export type { Handler } from './http/router';
export type { HandlerOptions } from './http/handler';
export type { ErrorDetail } from './errors';
export type { DecisionEngineOptions } from './decision/engine';
export type { DecisionRequest, DecisionResult } from './decision/request';
export type { ExperimentServiceOptions } from './results/experiments';
export type { BucketingConfig } from './model/bucketing-config';
export type { AccessManagerOptions, CreateAccessInput, CreatedAccess } from './access/access-manager';
export type { TokenServiceOptions, IssueTokenInput, IssuedToken } from './access/token-service';
export type { RemoteControlOptions } from './access/remote-control';
export type { CatalogRegistryOptions } from './catalog/registry';
export type { CatalogItem } from './storage/catalog';
export type { BatchOperation, BatchResult } from './catalog/catalog';
export type { SearchServiceOptions, SearchResponse, AutocompleteResponse } from './search/service';
export type { SearchQueryInput } from './search/query';
export type { ApplyBootstrapOptions, BootstrapReport } from './bootstrap/apply';
