/**
 * The bootstrap file's format (docs/bootstrap.md): its zod schema with the limits of its lists,
 * the strict objects whose unknown keys are named with the known key meant, and the published
 * JSON Schema generated from it.
 *
 * @module
 */
import { z } from 'zod';
import { ACCESS_ACTIONS } from '../access/actions';
import { IDENTIFIER } from '../catalog/registry';
import { MIN_API_KEY_LENGTH } from '../decision/load-options';
import { formatPath, ValidationError, type ErrorDetail } from '../errors';
import { bucketingConfigSchema } from '../model/bucketing-config';
import { behaviourSettingsSchema } from '../search/behaviour-ranking';
import { merchandisingSchema } from '../search/merchandising';
import { KEYBOARD_LAYOUTS } from '../search/typos';
import { rankingRulesSchema, sortCriteriaSchema, synonymsShape, wordsSchema } from '../model/search-settings';
import { zodDetails } from '../validation';

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

// The same pieces as a campaign's `search` modification (src/model/search-settings.ts).
const criteria = sortCriteriaSchema;
const words = wordsSchema;

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
  rankingRules: rankingRulesSchema.optional().describe('The ranking rules, in order.'),
  customRanking: criteria.optional().describe('Business criteria (<field>:asc|desc) applied by the customRanking rule.'),
  tieBreak: criteria.optional().describe('Criteria (<field>:asc|desc) ordering hits that every rule finds equal.'),
  matchingStrategy: z.enum(['last', 'all', 'frequency']).optional().describe('Which query words may be dropped when too few items match.'),
  profile: z
    .enum(['neutral', 'retail'])
    .optional()
    .describe(
      'Which habits of product naming the ranking reads: neutral (the default) or retail (separated name parts, model variants, price tie-break).',
    ),
  stopWords: words.optional().describe('Words ignored in queries.'),
  synonyms: strict(synonymsShape).optional().describe('Synonyms.'),
  keyboard: z
    .enum(KEYBOARD_LAYOUTS)
    .optional()
    .describe(
      'The keyboard layout shoppers type on: a wrong first letter whose key does not touch the right one costs a typo more (qwerty, the default; azerty; qwertz; none: no layout assumed).',
    ),
  substitutes: z
    .boolean()
    .optional()
    .describe(
      "Fill a text search's short page (fewer matches than the page, at most 20) after its matches with items sharing its matches' words (off by default: they count in totalHits).",
    ),
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
  merchandising: merchandisingSchema
    .optional()
    .describe(
      'Merchandising rules: for a query, pin items at positions, hide items, boost or bury the items a filter selects, inside an optional time window.',
    ),
  behaviour: behaviourSettingsSchema
    .optional()
    .describe(
      "Behaviour ranking: true or { enabled, rerank } turns on the _behaviour criterion of customRanking and the re-ranking of a query's first hits from click feedback (rerank: false or { minExamined, maxShift, depth, priorExamined }).",
    ),
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
export function parseBootstrap(input: unknown): Bootstrap {
  const result = bootstrapSchema.safeParse(input);
  if (result.success) return result.data;
  const details = bootstrapDetails(result.error);
  throw new ValidationError(`invalid bootstrap file: ${summary(details)}`, details);
}

/** The problems of a failed parse; an unknown key is a problem of its own, its path ending with the key. */
export function bootstrapDetails(error: z.ZodError): ErrorDetail[] {
  return zodDetails(error).flatMap((detail, i) => {
    const issue = error.issues[i]!;
    if (issue.code !== 'unrecognized_keys') return [detail];
    const messages = detail.message.split('\n');
    return issue.keys.map((key, k) => ({ path: [...detail.path, key], message: messages[k] ?? detail.message }));
  });
}

/** The first five problems, by path, for a one-line message (the details hold them all). */
export function summary(details: readonly ErrorDetail[]): string {
  const shown = details.slice(0, 5).map((d) => `${formatPath(d.path)}: ${d.message}`);
  return `${shown.join('; ')}${details.length > 5 ? `; and ${details.length - 5} more` : ''}`;
}
