import type { AccessManager } from '../access/access-manager';
import { MAX_BATCH_OPERATIONS, prepareBatch } from '../catalog/catalog';
import type { CatalogRegistry } from '../catalog/registry';
import type { DecisionEngine } from '../decision/engine';
import { credentialHash, randomCredential } from '../crypto';
import { AuthenticationError, ConflictError, formatPath, ValidationError, type ErrorDetail, type ErrorPath } from '../errors';
import type { EnvironmentRecord } from '../storage/environments';
import { parseBucketingConfig, type BucketingConfig } from '../model/bucketing-config';
import { checkSearchModifications } from '../search-experiments/check';

import {
  BOOTSTRAP_LIMITS,
  bootstrapDetails,
  bootstrapSchema,
  parseBootstrap,
  summary,
  type Bootstrap,
  type CatalogSearchSettings,
} from './schema';

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
  /** Client ids of the accesses the file managed and no longer declares, revoked by this run. */
  accessesRevoked: string[];
  /**
   * What this run changed besides creating, one line each: a secret or key the file declares
   * differently (`access ci: clientSecret replaced`, `environment prod: apiKey removed`,
   * `catalog shop: keys replaced`), an access revoked because the file no longer declares it.
   */
  changes: string[];
  /** What the store holds that differs from the file, and was kept (changed through the API since). */
  warnings: string[];
  /** Per catalog: items written (only when the catalog is new), and whether it was synchronized. */
  catalogs: { identifier: string; written: number; synced: boolean; syncIntervalMs: number | undefined; search?: CatalogSearchSettings }[];
}

/** How the files a bootstrap file names (`bucketingFile`, `itemsFile`) are read. */
type BootstrapFileOptions = Pick<ApplyBootstrapOptions, 'readJsonFile' | 'allowAbsolutePaths'>;

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
async function readNamedFile(options: BootstrapFileOptions, where: ErrorPath, path: string): Promise<unknown> {
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
 * Validates and applies a bootstrap file (docs/bootstrap.md). It seeds data: environments and
 * catalogs absent are created with the file's campaigns and items, and campaigns changed through
 * the API since are kept (reported in `warnings`). It manages credentials: an environment
 * `apiKey` the file gives (or `null`) and a catalog's keys are set as written; an access absent
 * is created and marked as the file's (its id starts with `bootstrap_`), its secret replaced
 * when the file's differs, and revoked once the file no longer declares it; an access created
 * through the API is never changed. Applying a file twice changes nothing; what a run changed is
 * in `changes`.
 *
 * @example
 * ```ts
 * import { readFile } from 'node:fs/promises';
 * const report = await applyBootstrap(JSON.parse(text), { engine, readJsonFile: async (path) => JSON.parse(await readFile(path, 'utf8')) });
 * ```
 */
export async function applyBootstrap(input: unknown, options: ApplyBootstrapOptions): Promise<BootstrapReport> {
  const bootstrap = parseBootstrap(input);
  const { engine } = options;
  const report: BootstrapReport = {
    defaultEnvironment: undefined,
    written: [],
    unchanged: [],
    accessesCreated: [],
    accessesUnchanged: [],
    accessesRevoked: [],
    changes: [],
    warnings: [],
    catalogs: [],
  };
  const problems = crossProblems(bootstrap);
  if (problems.length > 0) throw new ValidationError(`invalid bootstrap file: ${summary(problems)}`, problems);
  report.defaultEnvironment = bootstrap.accounts.flatMap((a) => a.environments.filter((e) => e.default).map((e) => e.id))[0];
  for (const [a, account] of bootstrap.accounts.entries()) {
    for (const [e, env] of account.environments.entries()) {
      const parsed = await environmentConfig(options, a, e, env);
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
      if (stored === undefined || stored.accountId !== account.id) {
        report.warnings.push(
          `environment ${env.id} belongs to account ${stored?.accountId ?? '(deleted meanwhile)'}, not ${account.id}; left as is`,
        );
        continue;
      }
      // The file manages the key it declares (a string, or null for none); absent, it leaves the stored one.
      let keyChanged = false;
      if (env.apiKey !== undefined && !(await sameApiKey(engine, stored, env.apiKey))) {
        keyChanged = await engine
          .load(stored.config, { environment: env.id, account: account.id, apiKey: env.apiKey, expectedVersion: stored.version })
          .then(() => true)
          .catch((error: unknown) => {
            if (error instanceof ConflictError) return false;
            throw error;
          });
        if (keyChanged) report.changes.push(`environment ${env.id}: apiKey ${env.apiKey === null ? 'removed' : 'replaced'}`);
        else report.warnings.push(`environment ${env.id} changed while its apiKey was set; the next start sets it`);
      }
      // Campaigns are seeded: what changed through the API since is kept.
      if (JSON.stringify(stored.config) !== JSON.stringify(parsed))
        report.warnings.push(
          `environment ${env.id}: its campaigns differ from the bootstrap file (changed through the API); the stored ones are kept`,
        );
      else if (!keyChanged) report.unchanged.push(env.id);
    }
  }
  await applyAccesses(bootstrap, options, report);
  for (const [i, input] of bootstrap.catalogs.entries()) {
    const { catalogs } = options;
    if (!catalogs) throw new ValidationError(`catalogs[${i}] needs a CatalogRegistry (options.catalogs)`);
    const where = (path: ErrorPath): ErrorPath => ['catalogs', i, ...path];
    // Validate every item before creating the catalog, so a bad file never leaves an empty one
    // that later runs would take as loaded.
    const operations = (await catalogs.has(input.identifier)) ? [] : await catalogItems(options, i, input);
    const ensure = () => catalogs.ensure(input).catch((error: unknown) => rethrow(error, where));
    // A ConflictError: another process created it meanwhile; ensuring again finds it.
    const { catalog, created, written } = await ensure().catch((error: unknown) => {
      if (error instanceof ConflictError) return ensure();
      throw error;
    });
    if (!created && written) report.changes.push(`catalog ${input.identifier}: keys replaced`);
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
    for (let start = 0; start < operations.length; start += MAX_BATCH_OPERATIONS) {
      await catalog
        .batch(operations.slice(start, start + MAX_BATCH_OPERATIONS))
        .catch((error: unknown) => rethrow(error, inItems(i, start)));
    }
    await catalog.sync();
    report.catalogs.push({
      identifier: input.identifier,
      written: operations.length,
      synced: true,
      syncIntervalMs: input.syncIntervalMs,
      search: input.search,
    });
  }
  return report;
}

/**
 * Access ids of the accesses a bootstrap file manages start with this (others are `acc_…`): what
 * tells, from one start to the next, which accesses the file created, so that it revokes those it
 * no longer declares and never touches one created through the API.
 *
 * @example
 * ```ts
 * const managed = (await storage.accesses.list('acme')).filter((a) => a.id.startsWith(BOOTSTRAP_ACCESS_ID_PREFIX));
 * ```
 */
export const BOOTSTRAP_ACCESS_ID_PREFIX = 'bootstrap_';

/**
 * The file's accesses: each is identified by its account and client id. One absent is created
 * (as `bootstrap_…`); one the file created has its secret replaced when the file's differs; one
 * the file created and no longer declares is revoked. An access created through the API is never
 * changed or revoked, even when the file names its client id.
 */
async function applyAccesses(bootstrap: Bootstrap, options: ApplyBootstrapOptions, report: BootstrapReport): Promise<void> {
  const { accesses } = options;
  if (!accesses) {
    if (bootstrap.accesses.length > 0) throw new ValidationError('accesses[0] needs an AccessManager (options.accesses)');
    return;
  }
  const declared = new Set(bootstrap.accesses.map((a) => `${a.account}\n${a.clientId}`));
  for (const [i, input] of bootstrap.accesses.entries()) {
    let existing = await accesses.findByClientId(input.clientId);
    if (!existing) {
      const id = randomCredential(BOOTSTRAP_ACCESS_ID_PREFIX, 12);
      const created = await accesses
        .createAccess({ ...input, id })
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
    const { clientId } = input;
    if (!existing.id.startsWith(BOOTSTRAP_ACCESS_ID_PREFIX)) {
      report.warnings.push(
        `access ${clientId} was created through the API (or by a bootstrap file before abkit recorded which accesses a file manages): the file leaves it as is, and removing it from the file will not revoke it`,
      );
      continue;
    }
    if (existing.accountId !== input.account) {
      report.warnings.push(
        `access ${clientId} belongs to account ${existing.accountId}, not ${input.account}: an access cannot move (declare one with another clientId)`,
      );
      continue;
    }
    if (existing.revokedAt !== null) {
      report.warnings.push(`access ${clientId} was revoked through the API and stays revoked (declare one with another clientId)`);
      continue;
    }
    let same = true;
    if (!(await accesses.secretMatches(existing, input.clientSecret))) {
      same = false;
      if (await accesses.storage.accesses.rotateSecret(existing.id, await credentialHash(input.clientSecret, accesses.pepper)))
        report.changes.push(`access ${clientId}: clientSecret replaced`);
    }
    // Tokens carry the environments and actions they were issued for: narrowing them takes a new
    // access (and removing this one, which revokes its tokens at once), not an edit.
    if (existing.name !== input.name || !sameSet(existing.environments, input.environments) || !sameSet(existing.actions, input.actions)) {
      same = false;
      report.warnings.push(
        `access ${clientId}: its name, environments or actions differ from the bootstrap file and are kept; an access's settings do not change (declare a new access with another clientId, and remove this one to revoke it)`,
      );
    }
    if (same) report.accessesUnchanged.push(clientId);
  }
  // Accesses the file created and no longer declares: revoked (their tokens stop at once here).
  const accounts = new Set([
    ...(await accesses.storage.environments.list()).map((e) => e.accountId),
    ...bootstrap.accounts.map((a) => a.id),
    ...bootstrap.accesses.map((a) => a.account),
  ]);
  for (const account of [...accounts].sort()) {
    for (const access of await accesses.storage.accesses.list(account)) {
      if (!access.id.startsWith(BOOTSTRAP_ACCESS_ID_PREFIX) || access.revokedAt !== null) continue;
      if (declared.has(`${access.accountId}\n${access.clientId}`)) continue;
      await accesses.revokeAccess(access.id);
      report.accessesRevoked.push(access.clientId);
      report.changes.push(`access ${access.clientId}: revoked (no longer in the bootstrap file)`);
    }
  }
}

/** Problems between parts of a parsed file: several defaults, an id or client id given twice. */
function crossProblems(bootstrap: Bootstrap): ErrorDetail[] {
  const problems: ErrorDetail[] = [];
  const defaults = bootstrap.accounts.flatMap((a, i) =>
    a.environments.flatMap((e, j) => (e.default ? [{ id: e.id, path: ['accounts', i, 'environments', j, 'default'] }] : [])),
  );
  for (const d of defaults.slice(1))
    problems.push({
      path: d.path,
      message: `several default environments (${defaults.map((x) => x.id).join(', ')}): at most one environment may be the default`,
    });
  const twice = (path: ErrorPath, what: string, value: string, seen: Map<string, ErrorPath>) => {
    const first = seen.get(value);
    if (first) problems.push({ path, message: `${what} ${JSON.stringify(value)} is given twice (first at ${formatPath(first)})` });
    else seen.set(value, path);
  };
  const accounts = new Map<string, ErrorPath>();
  const environments = new Map<string, ErrorPath>();
  for (const [i, account] of bootstrap.accounts.entries()) {
    twice(['accounts', i, 'id'], 'account', account.id, accounts);
    for (const [j, env] of account.environments.entries())
      twice(['accounts', i, 'environments', j, 'id'], 'environment id (unique across accounts)', env.id, environments);
  }
  const clientIds = new Map<string, ErrorPath>();
  for (const [i, access] of bootstrap.accesses.entries()) twice(['accesses', i, 'clientId'], 'clientId', access.clientId, clientIds);
  const catalogs = new Map<string, ErrorPath>();
  for (const [i, catalog] of bootstrap.catalogs.entries()) {
    twice(['catalogs', i, 'identifier'], 'catalog', catalog.identifier, catalogs);
    if (catalog.searchApiKey !== undefined && catalog.searchApiKey === catalog.catalogApiKey)
      problems.push({ path: ['catalogs', i, 'searchApiKey'], message: 'must differ from catalogApiKey' });
  }
  return problems;
}

type EnvironmentEntry = Bootstrap['accounts'][number]['environments'][number];
type CatalogEntry = Bootstrap['catalogs'][number];

/** An environment's campaign configuration, inline or read from its file, parsed; problems are placed in the file. */
async function environmentConfig(options: BootstrapFileOptions, a: number, e: number, env: EnvironmentEntry): Promise<BucketingConfig> {
  let config = env.bucketing;
  if (env.bucketingFile !== undefined)
    config = await readNamedFile(options, ['accounts', a, 'environments', e, 'bucketingFile'], env.bucketingFile);
  const source = env.bucketingFile === undefined ? 'bucketing' : `bucketingFile (${env.bucketingFile})`;
  try {
    const parsed = parseBucketingConfig(config);
    checkSearchModifications(parsed);
    return parsed;
  } catch (error) {
    return rethrow(error, (path) => ['accounts', a, 'environments', e, source, ...path]);
  }
}

/** A catalog's items (inline, then from its file) as batch operations, every one validated. */
async function catalogItems(options: BootstrapFileOptions, i: number, input: CatalogEntry) {
  let items = input.items;
  if (input.itemsFile !== undefined) {
    const where: ErrorPath = ['catalogs', i, 'itemsFile'];
    const fromFile = await readNamedFile(options, where, input.itemsFile);
    if (!Array.isArray(fromFile))
      throw new ValidationError(`invalid bootstrap file: ${formatPath(where)} must hold a JSON array of items`, [
        { path: where, message: 'not an array' },
      ]);
    if (items.length + fromFile.length > BOOTSTRAP_LIMITS.itemsPerCatalog)
      throw new ValidationError(`invalid bootstrap file: ${formatPath(where)} holds more than ${BOOTSTRAP_LIMITS.itemsPerCatalog} items`, [
        { path: where, message: `must hold at most ${BOOTSTRAP_LIMITS.itemsPerCatalog} items with the inline ones` },
      ]);
    items = [...items, ...fromFile];
  }
  const operations = items.map((product) => ({ operation: 'create-replace' as const, product: product as Record<string, unknown> }));
  for (let start = 0; start < operations.length; start += MAX_BATCH_OPERATIONS) {
    try {
      prepareBatch(operations.slice(start, start + MAX_BATCH_OPERATIONS), () => undefined);
    } catch (error) {
      rethrow(error, inItems(i, start));
    }
  }
  return operations;
}

/** Batch problem paths are [index, 'product', field]: this points them at the file's items. */
function inItems(i: number, start: number) {
  return ([index, member, ...rest]: ErrorPath): ErrorPath =>
    typeof index !== 'number'
      ? ['catalogs', i, 'items']
      : ['catalogs', i, 'items', start + index, ...(member === 'product' || member === undefined ? rest : [member, ...rest])];
}

/**
 * Every problem of a bootstrap file, without applying it (what `abkit validate` prints): the
 * schema, then what applying checks before writing (one default, ids given once), each
 * environment's campaign configuration and each catalog's items, reading the files they name.
 * Whether the environments an access names exist is checked only when applied (they may have
 * been created through the API).
 *
 * @example
 * ```ts
 * const problems = await checkBootstrap(JSON.parse(text)); // no file reader: a bucketingFile or itemsFile is a problem
 * for (const p of problems) console.log(`${p.path.join('.')}: ${p.message}`);
 * ```
 */
export async function checkBootstrap(
  input: unknown,
  options: Pick<ApplyBootstrapOptions, 'readJsonFile' | 'allowAbsolutePaths'> = {},
): Promise<ErrorDetail[]> {
  const problems: ErrorDetail[] = [];
  const collect = async (step: () => Promise<unknown>) => {
    try {
      await step();
    } catch (error) {
      if (!(error instanceof ValidationError)) throw error;
      problems.push(...error.details);
    }
  };
  const result = bootstrapSchema.safeParse(input);
  if (!result.success) {
    problems.push(...bootstrapDetails(result.error));
    // The inline campaign configurations are checked even so, for a list of every problem.
    const accounts = (input as { accounts?: unknown })?.accounts;
    for (const [a, account] of (Array.isArray(accounts) ? accounts : []).entries()) {
      const environments = (account as { environments?: unknown })?.environments;
      for (const [e, env] of (Array.isArray(environments) ? environments : []).entries()) {
        const bucketing = (env as { bucketing?: unknown })?.bucketing;
        if (bucketing !== undefined) await collect(async () => environmentConfig({}, a, e, { bucketing } as EnvironmentEntry));
      }
    }
    return problems;
  }
  const bootstrap = result.data;
  problems.push(...crossProblems(bootstrap));
  for (const [a, account] of bootstrap.accounts.entries())
    for (const [e, env] of account.environments.entries()) await collect(() => environmentConfig(options, a, e, env));
  for (const [i, catalog] of bootstrap.catalogs.entries()) await collect(() => catalogItems(options, i, catalog));
  return problems;
}

/** Re-throws a validation error with its paths placed inside the bootstrap file. */
function rethrow(error: unknown, where: (path: ErrorPath) => ErrorPath): never {
  if (!(error instanceof ValidationError)) throw error;
  const details = error.details.map((d) => ({ path: where(d.path), message: d.message }));
  throw new ValidationError(`invalid bootstrap file: ${summary(details)}`, details);
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

/**
 * What `abkit serve` does on a fresh start without a bootstrap file: when the storage holds no
 * environment at all, it creates the engine's default environment (in the engine's default
 * account, both `default` unless configured) with no campaigns, so that a first decision request
 * answers (no campaigns) instead of naming a missing environment. Resolves to whether it created
 * it: false when the storage holds any environment, or another process created it meanwhile.
 *
 * @example
 * ```ts
 * if (await createDefaultEnvironment(engine)) logger.info('created the environment "default" (no campaigns yet)');
 * ```
 */
export async function createDefaultEnvironment(engine: DecisionEngine): Promise<boolean> {
  // The version alone first: listing reads every configuration, which a used storage need not.
  const { environments } = engine.storage;
  if ((await environments.version(engine.defaultEnvironment)) !== undefined || (await environments.list()).length > 0) return false;
  return engine.load({ campaigns: [] }, { expectedVersion: 0 }).then(
    () => true,
    (error: unknown) => {
      if (error instanceof ConflictError) return false;
      throw error;
    },
  );
}
