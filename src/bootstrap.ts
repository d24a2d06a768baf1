/**
 * The bootstrap file (docs/bootstrap.md): accounts, environments with their campaign
 * configurations, accesses and catalogs, applied at every start, idempotently. It seeds data
 * (campaigns, items) and manages credentials (the keys and secrets it declares, the accesses it
 * created).
 *
 * @module
 */
import { z } from 'zod';
import type { AccessManager } from './access/access-manager';
import { ACCESS_ACTIONS } from './access/actions';
import { MAX_BATCH_OPERATIONS, prepareBatch } from './catalog/catalog';
import { IDENTIFIER, type CatalogRegistry } from './catalog/registry';
import type { DecisionEngine } from './decision/engine';
import { MIN_API_KEY_LENGTH } from './decision/load-options';
import { credentialHash, randomCredential } from './crypto';
import { AuthenticationError, ConflictError, formatPath, ValidationError, type ErrorDetail, type ErrorPath } from './errors';
import type { EnvironmentRecord } from './storage/environments';
import { bucketingConfigSchema, parseBucketingConfig, type BucketingConfig } from './model/bucketing-config';
import { zodDetails } from './validation';

/** Ids of accounts and environments, at most this many characters (ids in abkit are 256 at most). */
const MAX_ID = 256;
/** Keys and secrets longer than this are never accepted (a catalog key is refused past 512 when presented). */
const MAX_KEY = 512;
/** Node keeps a timer of at most 2^31 - 1 ms; a longer interval would fire every millisecond. */
const MAX_INTERVAL_MS = 2_147_483_647;

/**
 * Count limits of a bootstrap file (docs/bootstrap.md and the Limits table of docs/interfaces.md).
 *
 * @example
 * ```ts
 * const parsed = bootstrapSchema.parse(JSON.parse(text));
 * if (parsed.accesses.length === BOOTSTRAP_LIMITS.accesses) logger.warn('the bootstrap file holds as many accesses as it may');
 * ```
 */
export const BOOTSTRAP_LIMITS = Object.freeze({
  accounts: 1_000,
  // As the admin API allows (ADMIN_LIMITS): an account the file fills can still be run from the console.
  environmentsPerAccount: 100,
  accesses: 10_000,
  catalogs: 1_000,
  itemsPerCatalog: 1_000_000,
});

const visibleAscii = (min: number, max: number) =>
  z
    .string()
    .regex(/^[\x21-\x7e]*$/, 'must be visible ASCII characters')
    .min(min, `must be at least ${min} characters`)
    .max(max, `must be at most ${max} characters`);
const identifier = (what: string) =>
  z.string().min(1, 'must not be empty').max(MAX_ID, `must be at most ${MAX_ID} characters`).describe(what);

/**
 * A strict object: a key it does not define is a problem naming the key, with the closest
 * known key when one is near (a typo such as `acounts`), never silently ignored. Several unknown
 * keys of one object make one issue whose message has a line per key (a key is quoted as JSON,
 * so it holds no line break): {@link bootstrapDetails} splits it into a problem per key.
 */
function strict<T extends z.ZodRawShape>(shape: T) {
  const known = Object.keys(shape);
  return z.strictObject(shape, {
    error: (issue) => (issue.code === 'unrecognized_keys' ? issue.keys.map((key) => unknownKey(key, known)).join('\n') : undefined),
  });
}

function unknownKey(key: string, known: readonly string[]): string {
  const near = closest(key, known);
  return `unknown key ${JSON.stringify(key)}${near ? ` (did you mean ${JSON.stringify(near)}?)` : `; known: ${known.join(', ')}`}`;
}

/** The known key within two edits of `key` (case aside), if any, and closer than half its length. */
function closest(key: string, known: readonly string[]): string | undefined {
  let best: string | undefined;
  let bestDistance = 3;
  for (const candidate of known) {
    const d = editDistance(key.toLowerCase(), candidate.toLowerCase(), bestDistance);
    if (d < bestDistance && d * 2 < Math.max(key.length, 2)) {
      best = candidate;
      bestDistance = d;
    }
  }
  return best;
}

/** Levenshtein distance, or `cap` as soon as it is at least `cap` (keys are short; a long one stops early). */
function editDistance(a: string, b: string, cap: number): number {
  if (Math.abs(a.length - b.length) >= cap) return cap;
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++)
      row[j] = Math.min(previous[j]! + 1, row[j - 1]! + 1, previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    if (Math.min(...row) >= cap) return cap;
    previous = row;
  }
  return Math.min(previous[b.length]!, cap);
}

/**
 * An environment's campaign configuration: parsed by `parseBucketingConfig` (with its limits) when
 * applied; the published JSON Schema puts the bucketing configuration's own schema here.
 */
const bucketingField = z
  .unknown()
  .optional()
  .describe('The campaign configuration (a Flagship bucketing file: { campaigns: [...] }); give this or bucketingFile.');

const environmentSchema = strict({
  id: identifier('Environment id, unique across accounts: /v2/{id}/campaigns decides in it.'),
  default: z
    .boolean()
    .optional()
    .describe('The environment /v2/campaigns decides in (no id in the path); at most one in the file. Default false.'),
  apiKey: visibleAscii(MIN_API_KEY_LENGTH, MAX_KEY)
    .nullable()
    .optional()
    .describe(
      'The x-api-key /v2 then requires. A string: the file manages the key (a changed key replaces the stored one). null: no key (a stored one is removed). Absent: the file leaves the key as stored (none for a new environment).',
    ),
  bucketing: bucketingField,
  bucketingFile: z
    .string()
    .min(1)
    .max(4096)
    .optional()
    .describe("A JSON file holding the campaign configuration, relative to the bootstrap file's folder; give this or bucketing."),
}).refine((e) => (e.bucketing === undefined) !== (e.bucketingFile === undefined), {
  message: 'give exactly one of bucketing and bucketingFile',
});

const accountSchema = strict({
  id: identifier('Account id: remote control and tokens name it in their paths.'),
  environments: z
    .array(environmentSchema)
    .max(BOOTSTRAP_LIMITS.environmentsPerAccount, `must hold at most ${BOOTSTRAP_LIMITS.environmentsPerAccount} environments`)
    .default([])
    .describe('The environments of the account, created when absent (their campaigns are then edited through the API).'),
});

const accessSchema = strict({
  account: identifier('The account the access belongs to.'),
  name: z.string().trim().min(1).max(100, 'must be at most 100 characters').describe('A name to recognise the access by.'),
  environments: z
    .array(identifier('An environment id of the account.'))
    .max(BOOTSTRAP_LIMITS.environmentsPerAccount)
    .default([])
    .describe('The environments it may act on; empty: every environment of the account, present and future.'),
  actions: z
    .array(z.enum(ACCESS_ACTIONS))
    .min(1, `must list at least one of ${ACCESS_ACTIONS.join(', ')}`)
    .max(100)
    .describe('The actions it is authorized for.'),
  clientId: z
    .string()
    .regex(/^[\x21-\x7e]{1,128}$/, 'must be 1 to 128 visible ASCII characters')
    .describe('Its client id, unique across accounts: what identifies the access in the file from one start to the next.'),
  clientSecret: visibleAscii(32, MAX_KEY).describe(
    'Its client secret (stored hashed). A changed secret replaces the stored one: the old one stops working.',
  ),
});

// Sort criteria (customRanking, tieBreak): `<field>:asc` or `<field>:desc`.
const criteria = z.array(z.string().regex(/^.+:(asc|desc)$/, 'must be <field>:asc or <field>:desc')).max(100);
const words = z.array(z.string().min(1).max(100)).max(10_000);

/**
 * A catalog's search settings in a bootstrap file: options of its SearchService (validated
 * again, with their defaults, when it is created).
 *
 * @example
 * ```ts
 * const search = catalogSearchSchema.parse({ searchableFields: ['name', 'brand'] });
 * ```
 */
export const catalogSearchSchema = strict({
  searchableFields: z.array(z.string().min(1)).max(1_000).optional().describe('The fields searched, in order of importance.'),
  boosts: z.record(z.string(), z.number().positive()).optional().describe('A weight per searchable field.'),
  facets: z.array(z.string().min(1)).max(1_000).optional().describe('The fields facet counts are computed for.'),
  rankingRules: z
    .array(z.enum(['words', 'typo', 'subject', 'variant', 'priceIntent', 'proximity', 'attribute', 'exactness', 'customRanking', 'bm25']))
    .max(20)
    .optional()
    .describe('The ranking rules, in order.'),
  customRanking: criteria.optional().describe('Business criteria (<field>:asc|desc) applied by the customRanking rule.'),
  tieBreak: criteria.optional().describe('Criteria (<field>:asc|desc) ordering hits that every rule finds equal.'),
  matchingStrategy: z.enum(['last', 'all', 'frequency']).optional().describe('Which query words may be dropped when too few items match.'),
  stopWords: words.optional().describe('Words ignored in queries.'),
  synonyms: strict({
    multiWay: z.array(words).max(10_000).optional().describe('Groups of words that each match the others.'),
    oneWay: z.record(z.string(), words).optional().describe('A word and the words it also matches.'),
  })
    .optional()
    .describe('Synonyms.'),
  priceIntent: z
    .union([
      z.literal(false),
      strict({
        words: words.optional().describe('Words that announce a price ("under", "cheap").'),
        field: z.string().min(1).optional().describe('The price field.'),
      }),
    ])
    .optional()
    .describe('Price words in a query ("phone under 300") become a filter; false turns it off.'),
});

const catalogSchema = strict({
  identifier: z
    .string()
    .regex(IDENTIFIER, 'must be a lower-case DNS label: a-z, 0-9 and inner hyphens, at most 63 characters')
    .describe('The catalog identifier.'),
  catalogApiKey: visibleAscii(32, MAX_KEY).describe(
    'The key writing the catalog (PUT, DELETE, batches, sync). The file manages it: a changed key replaces the stored one.',
  ),
  searchApiKey: visibleAscii(32, MAX_KEY)
    .optional()
    .describe(
      'The read-only search and autocomplete key; must differ from catalogApiKey. A string: the file manages it (a changed key replaces the stored one). Absent: a key is generated when the catalog is created, and the stored key is left as is afterwards.',
    ),
  items: z
    .array(z.unknown())
    .max(BOOTSTRAP_LIMITS.itemsPerCatalog, `must hold at most ${BOOTSTRAP_LIMITS.itemsPerCatalog} items`)
    .default([])
    .describe('Items written (then synchronized) when the catalog is created, never on a later start.'),
  itemsFile: z
    .string()
    .min(1)
    .max(4096)
    .optional()
    .describe("A JSON file holding an array of items, relative to the bootstrap file's folder, added after items."),
  syncIntervalMs: z
    .number()
    .int()
    .min(1000, 'must be at least 1000 (1 s): a shorter interval would republish the catalog constantly')
    .max(MAX_INTERVAL_MS, `must be at most ${MAX_INTERVAL_MS} (about 24.8 days), the longest timer Node keeps`)
    .optional()
    .describe('How often abkit serve publishes what was written to search, in milliseconds. Default 86400000 (daily).'),
  search: catalogSearchSchema.optional().describe("The catalog's search settings."),
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
 * Schema of the bootstrap file (docs/bootstrap.md; published as docs/bootstrap.schema.json). A
 * key it does not define, anywhere, is a problem naming the key.
 *
 * @example
 * ```ts
 * const result = bootstrapSchema.safeParse(JSON.parse(text));
 * if (!result.success) console.error(result.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`));
 * ```
 */
export const bootstrapSchema = strict({
  $schema: z.string().max(4096).optional().describe('The JSON Schema of the file, for editors; ignored by abkit.'),
  accounts: z
    .array(accountSchema)
    .max(BOOTSTRAP_LIMITS.accounts, `must hold at most ${BOOTSTRAP_LIMITS.accounts} accounts`)
    .default([])
    .describe('Accounts and their environments.'),
  accesses: z
    .array(accessSchema)
    .max(BOOTSTRAP_LIMITS.accesses, `must hold at most ${BOOTSTRAP_LIMITS.accesses} accesses`)
    .default([])
    .describe('Remote-control accesses the file manages: created when absent, updated when changed, revoked when removed from the file.'),
  catalogs: z
    .array(catalogSchema)
    .max(BOOTSTRAP_LIMITS.catalogs, `must hold at most ${BOOTSTRAP_LIMITS.catalogs} catalogs`)
    .default([])
    .describe('Product catalogs, created with their items when absent.'),
}).describe('An abkit bootstrap file: what abkit serve --bootstrap <file> applies at every start.');

/**
 * The bootstrap file format as a JSON Schema (draft 2020-12), for editors and other tools:
 * what docs/bootstrap.schema.json holds. Each environment's `bucketing` is the bucketing
 * configuration's own schema.
 *
 * @example
 * ```ts
 * import { writeFile } from 'node:fs/promises';
 * await writeFile('bootstrap.schema.json', JSON.stringify(bootstrapJsonSchema(), null, 2));
 * ```
 */
export function bootstrapJsonSchema(): Record<string, unknown> {
  const { $schema: _, ...bucketing } = z.toJSONSchema(bucketingConfigSchema, { io: 'input', unrepresentable: 'any' });
  return z.toJSONSchema(bootstrapSchema, {
    io: 'input',
    unrepresentable: 'any',
    override: ({ zodSchema, jsonSchema }) => {
      if (zodSchema === bucketingField) Object.assign(jsonSchema, bucketing, { description: jsonSchema.description });
    },
  }) as Record<string, unknown>;
}

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
 * Parses a bootstrap file, or throws a {@link ValidationError} naming every problem by its path;
 * an unknown key's path ends with the key.
 */
function parseBootstrap(input: unknown): Bootstrap {
  const result = bootstrapSchema.safeParse(input);
  if (result.success) return result.data;
  const details = bootstrapDetails(result.error);
  throw new ValidationError(`invalid bootstrap file: ${summary(details)}`, details);
}

/** The problems of a failed parse; an unknown key is a problem of its own, its path ending with the key. */
function bootstrapDetails(error: z.ZodError): ErrorDetail[] {
  return zodDetails(error).flatMap((detail, i) => {
    const issue = error.issues[i]!;
    if (issue.code !== 'unrecognized_keys') return [detail];
    const messages = detail.message.split('\n');
    return issue.keys.map((key, k) => ({ path: [...detail.path, key], message: messages[k] ?? detail.message }));
  });
}

/** The first five problems, by path, for a one-line message (the details hold them all). */
function summary(details: readonly ErrorDetail[]): string {
  const shown = details.slice(0, 5).map((d) => `${formatPath(d.path)}: ${d.message}`);
  return `${shown.join('; ')}${details.length > 5 ? `; and ${details.length - 5} more` : ''}`;
}

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
    return parseBucketingConfig(config);
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
