/**
 * What `@example` blocks use without declaring it, as a reader has it from the documentation
 * around them: `engine` is a DecisionEngine, `storage` a Storage, `catalog` a Catalog, and so on.
 * test/docs.test.ts typechecks every example with these in scope; nothing runs this file.
 */
import type { Visitor } from '@flagship.io/js-sdk';
import type { SearchExperiments } from 'abkit/http';
import type { ExperimentResults } from 'abkit/types';
import type {
  Abkit,
  AccessManager,
  BatchOperation,
  BucketingConfig,
  Catalog,
  CatalogItem,
  CatalogRegistry,
  DecisionEngine,
  ExperimentService,
  Handler,
  IssuedToken,
  RemoteControl,
  SearchService,
  Storage,
  TokenService,
} from 'abkit';

declare global {
  // Services, as createAbkit() returns them.
  const abkit: Abkit;
  const storage: Storage;
  const engine: DecisionEngine;
  const experiments: ExperimentService;
  const searchExperiments: SearchExperiments;
  const accesses: AccessManager;
  const tokens: TokenService;
  const remote: RemoteControl;
  const registry: CatalogRegistry;
  const catalogs: CatalogRegistry;
  const catalog: Catalog;
  const search: SearchService;
  const handler: Handler;
  // The user's data.
  const bucketingFile: BucketingConfig;
  const bucketingConfig: BucketingConfig;
  const results: ExperimentResults;
  /** The URL a bootstrap file was read from. */
  const bootstrapUrl: URL;
  /** abkit's decision API, as the Flagship SDK is given it (`https://…/v2/`). */
  const decisionApiUrl: string;
  const operations: BatchOperation[];
  const item: CatalogItem;
  const product: CatalogItem;
  const token: IssuedToken;
  const accessToken: string;
  const clientId: string;
  const clientSecret: string;
  const apiKey: string;
  const key: string;
  const url: string;
  const envId: string;
  const text: string;
  const request: Request;
  /** The host application's logger. */
  const logger: { info(...args: unknown[]): void; warn(...args: unknown[]): void; error(...args: unknown[]): void };
  /** A visitor of the Flagship JS SDK. */
  const visitor: Visitor;
}
