/**
 * The bootstrap file: accounts and environments (with their campaign configurations) applied
 * at start, idempotently. Later parts of the format (accesses, catalogs) are added by the
 * capabilities that use them.
 *
 * @module
 */
import { z } from 'zod';
import type { AccessManager } from './access/access-manager';
import { MAX_BATCH_OPERATIONS, prepareBatch } from './catalog/catalog';
import type { CatalogRegistry } from './catalog/registry';
import type { DecisionEngine } from './decision/engine';
import { MIN_API_KEY_LENGTH } from './decision/load-options';
import { AuthenticationError, ConflictError, formatPath, ValidationError, type ErrorPath } from './errors';
import type { EnvironmentRecord } from './storage/environments';
import { parseBucketingConfig, type BucketingConfig } from './model/bucketing-config';
import { parseWith } from './validation';

const environmentSchema = z
  .looseObject({
    id: z.string().min(1),
    default: z.boolean().optional(),
    apiKey: z.string().min(MIN_API_KEY_LENGTH, `must be at least ${MIN_API_KEY_LENGTH} characters`).nullable().optional(),
    bucketing: z.unknown().optional(),
    bucketingFile: z.string().min(1).optional(),
  })
  .refine((e) => (e.bucketing === undefined) !== (e.bucketingFile === undefined), {
    message: 'give exactly one of bucketing and bucketingFile',
  });

const accessSchema = z.looseObject({
  account: z.string().min(1),
  name: z.string().min(1),
  environments: z.array(z.string()).default([]),
  actions: z.array(z.string()).min(1),
  clientId: z.string().regex(/^[\x21-\x7e]{1,128}$/, 'must be 1 to 128 visible ASCII characters'),
  clientSecret: z.string().min(1),
});

// Sort criteria (customRanking, tieBreak): `<field>:asc` or `<field>:desc`.
const criteria = z.array(z.string().regex(/^.+:(asc|desc)$/, 'must be <field>:asc or <field>:desc'));

/**
 * A catalog's search settings in a bootstrap file: options of its SearchService (validated
 * again, with their defaults, when it is created).
 *
 * @example
 * ```ts
 * const search = catalogSearchSchema.parse({ searchableFields: ['name', 'brand'] });
 * ```
 */
export const catalogSearchSchema = z.strictObject({
  searchableFields: z.array(z.string().min(1)).optional(),
  boosts: z.record(z.string(), z.number().positive()).optional(),
  facets: z.array(z.string().min(1)).optional(),
  rankingRules: z
    .array(z.enum(['words', 'typo', 'subject', 'variant', 'priceIntent', 'proximity', 'attribute', 'exactness', 'customRanking', 'bm25']))
    .optional(),
  customRanking: criteria.optional(),
  tieBreak: criteria.optional(),
  matchingStrategy: z.enum(['last', 'all', 'frequency']).optional(),
  stopWords: z.array(z.string()).optional(),
  synonyms: z
    .strictObject({
      multiWay: z.array(z.array(z.string().min(1))).optional(),
      oneWay: z.record(z.string(), z.array(z.string().min(1))).optional(),
    })
    .optional(),
  priceIntent: z
    .union([z.literal(false), z.strictObject({ words: z.array(z.string()).optional(), field: z.string().min(1).optional() })])
    .optional(),
});

const catalogSchema = z.looseObject({
  identifier: z.string().min(1),
  catalogApiKey: z.string().min(1),
  searchApiKey: z.string().min(1).optional(),
  items: z.array(z.unknown()).default([]),
  itemsFile: z.string().min(1).optional(),
  syncIntervalMs: z
    .number()
    .int()
    .min(1000, 'must be at least 1000 (1 s): a shorter interval would republish the catalog constantly')
    .optional(),
  search: catalogSearchSchema.optional(),
});

/**
 * A catalog's search settings in a bootstrap file (`catalogs[].search`): the ranking options of
 * its `SearchService`.
 *
 * @example
 * ```ts
 * const settings: CatalogSearchSettings = { customRanking: ['popularity:desc'], synonyms: { multiWay: [['tv', 'television']] } };
 * ```
 */
export type CatalogSearchSettings = z.output<typeof catalogSearchSchema>;

/**
 * Schema of the bootstrap file (see ARCHITECTURE.md, Bootstrap file).
 *
 * @example
 * ```ts
 * const result = bootstrapSchema.safeParse(JSON.parse(text));
 * if (!result.success) console.error(result.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`));
 * ```
 */
export const bootstrapSchema = z.looseObject({
  accounts: z.array(z.looseObject({ id: z.string().min(1), environments: z.array(environmentSchema).default([]) })).default([]),
  accesses: z.array(accessSchema).default([]),
  catalogs: z.array(catalogSchema).default([]),
});

/**
 * A parsed bootstrap file.
 *
 * @example
 * ```ts
 * const bootstrap: Bootstrap = bootstrapSchema.parse(JSON.parse(text));
 * console.log(bootstrap.accounts.map((a) => a.id), bootstrap.catalogs.length);
 * ```
 */
export type Bootstrap = z.infer<typeof bootstrapSchema>;

/**
 * What applying a bootstrap file did.
 *
 * @example
 * ```ts
 * const report: BootstrapReport = await applyBootstrap(JSON.parse(text), { engine, accesses, catalogs: registry });
 * console.log(`created ${report.written.join(', ') || 'nothing'}`);
 * for (const warning of report.warnings) console.warn(warning);
 * ```
 */
export interface BootstrapReport {
  /** The environment marked `default: true`, if any. */
  defaultEnvironment: string | undefined;
  /** Environments created because they were absent. */
  written: string[];
  /** Environments already stored exactly as the file says. */
  unchanged: string[];
  /** Client ids of accesses created. */
  accessesCreated: string[];
  /** Client ids of accesses already stored exactly as the file says. */
  accessesUnchanged: string[];
  /** What the store holds that differs from the file, and was kept (changed through the API since). */
  warnings: string[];
  /** Per catalog: items written (only when the catalog is new), and whether it was synchronized. */
  catalogs: { identifier: string; written: number; synced: boolean; syncIntervalMs: number | undefined; search?: CatalogSearchSettings }[];
}

/**
 * Options of {@link applyBootstrap}.
 *
 * @example
 * ```ts
 * import { readFile } from 'node:fs/promises';
 * const options: ApplyBootstrapOptions = {
 *   engine, accesses, catalogs: registry,
 *   readJsonFile: async (path) => JSON.parse(await readFile(new URL(path, bootstrapUrl), 'utf8')),
 * };
 * const report = await applyBootstrap(JSON.parse(await readFile(bootstrapUrl, 'utf8')), options);
 * ```
 */
export interface ApplyBootstrapOptions {
  /** Engine whose storage receives the environments. */
  engine: DecisionEngine;
  /** Receives the file's `catalogs`; required when the file has any. */
  catalogs?: CatalogRegistry;
  /** Receives the file's `accesses`; required when the file has any. */
  accesses?: AccessManager;
  /**
   * Reads a JSON file named in the bootstrap (`bucketingFile`, `itemsFile`), relative to the
   * bootstrap file. Only paths inside the bootstrap file's folder reach it, unless
   * `allowAbsolutePaths`.
   */
  readJsonFile?: (path: string) => Promise<unknown>;
  /**
   * Let `bucketingFile` and `itemsFile` be absolute or leave the bootstrap file's folder with
   * `..`. @defaultValue `false`
   */
  allowAbsolutePaths?: boolean;
}

/**
 * A file path named in a bootstrap file, checked to stay in the bootstrap file's folder (no
 * absolute path, no `..` leaving it) unless absolute paths are allowed, then read; a read error
 * names the field and the path, and never echoes the file's bytes.
 */
async function readNamedFile(options: ApplyBootstrapOptions, where: ErrorPath, path: string): Promise<unknown> {
  const field = formatPath(where);
  const { readJsonFile, allowAbsolutePaths = false } = options;
  if (!readJsonFile) throw new ValidationError(`${field} needs a file reader`, [{ path: where, message: 'no file reader' }]);
  if (!allowAbsolutePaths && !staysInside(path)) {
    throw new ValidationError(
      `invalid bootstrap file: ${field} ${JSON.stringify(path)} must be a relative path inside the bootstrap file's folder (allowAbsolutePaths lifts this)`,
      [{ path: where, message: 'outside the bootstrap folder' }],
    );
  }
  try {
    return await readJsonFile(path);
  } catch (error) {
    // JSON.parse's message quotes the text it choked on: a secret file's first bytes must not show.
    const cause = error instanceof SyntaxError ? 'not valid JSON' : error instanceof Error ? error.message : String(error);
    throw new ValidationError(`invalid bootstrap file: ${field} ${JSON.stringify(path)} cannot be read: ${cause}`, [
      { path: where, message: cause },
    ]);
  }
}

/** Whether a relative path stays inside its folder: not absolute, and no `..` climbing out. */
function staysInside(path: string): boolean {
  if (/^([\\/]|[A-Za-z]:|~)/.test(path)) return false;
  let depth = 0;
  for (const part of path.split(/[\\/]+/)) {
    if (part === '..') depth--;
    else if (part !== '.' && part !== '') depth++;
    if (depth < 0) return false;
  }
  return true;
}

/**
 * Validates and applies a bootstrap file, which seeds a store: it creates the environments,
 * accesses and catalogs (with their items) that are absent, and never overwrites what the store
 * holds, so changes made through the API survive a restart. Applying a file twice changes
 * nothing. Stored state that differs from the file is kept and reported in `warnings`. Catalog
 * keys are the exception: the store takes the file's keys.
 *
 * @example
 * ```ts
 * import { readFile } from 'node:fs/promises';
 * const report = await applyBootstrap(JSON.parse(text), { engine, readJsonFile: async (path) => JSON.parse(await readFile(path, 'utf8')) });
 * ```
 */
export async function applyBootstrap(input: unknown, options: ApplyBootstrapOptions): Promise<BootstrapReport> {
  const bootstrap = parseWith(bootstrapSchema, input, 'bootstrap file');
  const { engine } = options;
  const report: BootstrapReport = {
    defaultEnvironment: undefined,
    written: [],
    unchanged: [],
    accessesCreated: [],
    accessesUnchanged: [],
    warnings: [],
    catalogs: [],
  };
  const defaults = bootstrap.accounts.flatMap((a) => a.environments.filter((e) => e.default).map((e) => e.id));
  if (defaults.length > 1) {
    throw new ValidationError(`invalid bootstrap file: several default environments (${defaults.join(', ')})`, [
      { path: ['accounts'], message: 'at most one environment may be the default' },
    ]);
  }
  report.defaultEnvironment = defaults[0];
  for (const [a, account] of bootstrap.accounts.entries()) {
    for (const [e, env] of account.environments.entries()) {
      let config = env.bucketing;
      if (env.bucketingFile !== undefined)
        config = await readNamedFile(options, ['accounts', a, 'environments', e, 'bucketingFile'], env.bucketingFile);
      const source = env.bucketingFile === undefined ? 'bucketing' : `bucketingFile (${env.bucketingFile})`;
      let parsed: BucketingConfig;
      try {
        parsed = parseBucketingConfig(config);
      } catch (error) {
        rethrow(error, (path) => ['accounts', a, 'environments', e, source, ...path]);
      }
      // Create only if absent: another process applying the same file at once may win the race.
      const created = await engine
        .load(parsed, { environment: env.id, account: account.id, apiKey: env.apiKey ?? null, expectedVersion: 0 })
        .then(() => true)
        .catch((error: unknown) => {
          if (error instanceof ConflictError) return false;
          throw error;
        });
      if (created) {
        report.written.push(env.id);
        continue;
      }
      const stored = await engine.getEnvironment(env.id);
      const same =
        stored !== undefined &&
        stored.accountId === account.id &&
        (await sameApiKey(engine, stored, env.apiKey)) &&
        JSON.stringify(stored.config) === JSON.stringify(parsed);
      if (same) report.unchanged.push(env.id);
      else report.warnings.push(`environment ${env.id} differs from the bootstrap file; the stored one is kept`);
    }
  }
  for (const [i, input] of bootstrap.accesses.entries()) {
    const { accesses } = options;
    if (!accesses) throw new ValidationError(`accesses[${i}] needs an AccessManager (options.accesses)`);
    let existing = await accesses.findByClientId(input.clientId);
    if (!existing) {
      const created = await accesses
        .createAccess(input)
        .then(() => true)
        .catch((error: unknown) => {
          // Created meanwhile by another process applying the same file: compare with it below.
          if (error instanceof ConflictError) return false;
          return rethrow(error, (path) => ['accesses', i, ...path]);
        });
      if (created) {
        report.accessesCreated.push(input.clientId);
        continue;
      }
      existing = await accesses.findByClientId(input.clientId);
      if (!existing) throw new ConflictError(`access ${input.clientId} could not be created`);
    }
    const same =
      existing.revokedAt === null &&
      existing.accountId === input.account &&
      existing.name === input.name &&
      sameSet(existing.environments, input.environments) &&
      sameSet(existing.actions, input.actions) &&
      (await accesses.secretMatches(existing, input.clientSecret));
    if (same) report.accessesUnchanged.push(input.clientId);
    else
      report.warnings.push(
        `access ${input.clientId} differs from the bootstrap file (settings, secret, or revoked); the stored one is kept`,
      );
  }
  for (const [i, input] of bootstrap.catalogs.entries()) {
    const { catalogs } = options;
    if (!catalogs) throw new ValidationError(`catalogs[${i}] needs a CatalogRegistry (options.catalogs)`);
    const where = (path: ErrorPath): ErrorPath => ['catalogs', i, ...path];
    let items = input.items;
    if (input.itemsFile !== undefined) {
      const fromFile = await readNamedFile(options, where(['itemsFile']), input.itemsFile);
      if (!Array.isArray(fromFile))
        throw new ValidationError(`invalid bootstrap file: ${formatPath(where(['itemsFile']))} must hold a JSON array of items`, [
          { path: where(['itemsFile']), message: 'not an array' },
        ]);
      items = [...items, ...fromFile];
    }
    const operations = items.map((product) => ({ operation: 'create-replace' as const, product: product as Record<string, unknown> }));
    // Batch problem paths are [index, 'product', field]: point them at the file's items.
    const inItems =
      (start: number) =>
      ([index, member, ...rest]: ErrorPath) =>
        typeof index !== 'number'
          ? where(['items'])
          : where(['items', start + index, ...(member === 'product' || member === undefined ? rest : [member, ...rest])]);
    // Validate every item before creating the catalog, so a bad file never leaves an empty one
    // that later runs would take as loaded.
    if (!(await catalogs.has(input.identifier))) {
      try {
        prepareBatch(operations, () => undefined);
      } catch (error) {
        rethrow(error, inItems(0));
      }
    }
    const ensure = () => catalogs.ensure(input).catch((error: unknown) => rethrow(error, where));
    // A ConflictError: another process created it meanwhile; ensuring again finds it.
    const { catalog, created } = await ensure().catch((error: unknown) => {
      if (error instanceof ConflictError) return ensure();
      throw error;
    });
    if (!created) {
      report.catalogs.push({
        identifier: input.identifier,
        written: 0,
        synced: false,
        syncIntervalMs: input.syncIntervalMs,
        search: input.search,
      });
      continue;
    }
    for (let start = 0; start < items.length; start += MAX_BATCH_OPERATIONS) {
      await catalog.batch(operations.slice(start, start + MAX_BATCH_OPERATIONS)).catch((error: unknown) => rethrow(error, inItems(start)));
    }
    await catalog.sync();
    report.catalogs.push({
      identifier: input.identifier,
      written: items.length,
      synced: true,
      syncIntervalMs: input.syncIntervalMs,
      search: input.search,
    });
  }
  return report;
}

/** Re-throws a validation error with its paths placed inside the bootstrap file. */
function rethrow(error: unknown, where: (path: ErrorPath) => ErrorPath): never {
  if (!(error instanceof ValidationError)) throw error;
  const details = error.details.map((d) => ({ path: where(d.path), message: d.message }));
  const shown = details.slice(0, 5).map((d) => `${formatPath(d.path)}: ${d.message}`);
  throw new ValidationError(
    `invalid bootstrap file: ${shown.join('; ')}${details.length > 5 ? `; and ${details.length - 5} more` : ''}`,
    details,
  );
}

/**
 * Whether the stored environment requires exactly the file's API key (or, like the file, none).
 * The engine checks it, as it checks a request's key: hashed with its pepper, or unpeppered when
 * stored before the pepper was set (then stored keyed from now on).
 */
async function sameApiKey(engine: DecisionEngine, stored: EnvironmentRecord, apiKey: string | null | undefined): Promise<boolean> {
  if (!apiKey || stored.apiKeyHash === null) return !apiKey && stored.apiKeyHash === null;
  return engine.checkApiKey(stored.id, apiKey).then(
    () => true,
    (error: unknown) => {
      if (error instanceof AuthenticationError) return false;
      throw error;
    },
  );
}

function sameSet(a: readonly string[], b: readonly string[]): boolean {
  const x = new Set(a);
  const y = new Set(b);
  return x.size === y.size && [...x].every((v) => y.has(v));
}
