/**
 * The account holder's commands against the configured storage, each through the AdminService
 * with the actor `cli` (so each change is in the audit log): `abkit access create|list|revoke|rotate`,
 * `abkit account create`, `abkit env create`, `abkit catalog create`, and `abkit admin-key`.
 * A secret is printed once, on stdout; everything else goes to stderr.
 *
 * @module
 */
import { newAdminKey } from '../../src/access/admin-keys';
import { ACCESS_ACTIONS } from '../../src/access/actions';
import { composeAbkit, type Abkit } from '../../src/abkit';
import { AbkitError, formatPath } from '../../src/errors';
import { DEFAULT_STORAGE, defaultStorageSpec, openStorage, redactStorage } from '../storage';
import type { Command, CommandContext } from './command';

/** The actor the CLI's changes are audited under. */
export const CLI_ACTOR = 'cli';

const STORAGE_FLAGS = `  --storage <spec>   memory, sqlite:<file> or a postgres:// URL (default: ABKIT_STORAGE, else ${DEFAULT_STORAGE})
  --pepper <text>    the ABKIT_PEPPER the server runs with (default: ABKIT_PEPPER); secrets made without it do not verify there`;

/** A command line's words: positionals, and flags as given (`--name value`, `--name=value`, or a bare switch). */
interface Parsed {
  readonly positionals: string[];
  readonly flags: Map<string, string | true>;
}

/** A usage problem: exit code 2 with the message. */
class UsageError extends Error {}

function parse(args: readonly string[], valued: readonly string[], switches: readonly string[]): Parsed {
  const positionals: string[] = [];
  const flags = new Map<string, string | true>();
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    const m = /^--([a-z][a-z-]*)(?:=(.*))?$/s.exec(arg);
    if (!m) {
      if (arg.startsWith('-')) throw new UsageError(`unknown option ${JSON.stringify(arg)}`);
      positionals.push(arg);
      continue;
    }
    const name = m[1]!;
    if (switches.includes(name)) {
      if (m[2] !== undefined) throw new UsageError(`--${name} takes no value`);
      flags.set(name, true);
    } else if (valued.includes(name)) {
      const value = m[2] ?? args[++i];
      if (value === undefined) throw new UsageError(`--${name} needs a value`);
      flags.set(name, value);
    } else throw new UsageError(`unknown option --${name}; known: ${[...valued, ...switches].map((f) => `--${f}`).join(', ')}`);
  }
  return { positionals, flags };
}

const list = (value: string | true | undefined): string[] =>
  typeof value === 'string'
    ? value
        .split(',')
        .map((v) => v.trim())
        .filter((v) => v !== '')
    : [];

/** The words of a command: exactly `names.length` positionals, named in the message when missing. */
function positionals(parsed: Parsed, names: readonly string[]): string[] {
  if (parsed.positionals.length !== names.length)
    throw new UsageError(
      `expects ${names.map((n) => `<${n}>`).join(' ')}, got ${parsed.positionals.length === 0 ? 'nothing' : parsed.positionals.map((p) => JSON.stringify(p)).join(' ')}`,
    );
  return parsed.positionals;
}

/**
 * Opens the storage the flags or the environment name, runs `work` over its services, and closes
 * it; an abkit error becomes one line on stderr and exit code 1, a usage error exit code 2.
 */
async function withAbkit(
  name: string,
  context: CommandContext,
  valued: readonly string[],
  switches: readonly string[],
  work: (abkit: Abkit, parsed: Parsed) => Promise<void>,
): Promise<number> {
  let parsed: Parsed;
  try {
    parsed = parse(context.args, ['storage', 'pepper', ...valued], switches);
  } catch (error) {
    context.err(`abkit ${name}: ${(error as Error).message} (abkit ${name} --help)`);
    return 2;
  }
  const spec = (parsed.flags.get('storage') as string | undefined) ?? context.env.ABKIT_STORAGE ?? defaultStorageSpec();
  const pepper = (parsed.flags.get('pepper') as string | undefined) ?? context.env.ABKIT_PEPPER;
  if (pepper !== undefined && pepper.length < 16) {
    context.err(`abkit ${name}: ABKIT_PEPPER must be at least 16 characters`);
    return 2;
  }
  if (spec === 'memory') context.err(`abkit ${name}: storage is memory: nothing is kept after this command (set ABKIT_STORAGE)`);
  let abkit: Abkit | undefined;
  try {
    const storage = await openStorage(spec);
    abkit = composeAbkit({ storage, decision: { pepper }, accesses: { pepper }, catalogs: { pepper } });
    await work(abkit, parsed);
    return 0;
  } catch (error) {
    if (error instanceof UsageError) {
      context.err(`abkit ${name}: ${error.message} (abkit ${name} --help)`);
      return 2;
    }
    if (error instanceof AbkitError) {
      context.err(`abkit ${name}: ${error.message}`);
      for (const d of error.details) context.err(`  ${formatPath(d.path, '(input)')}: ${d.message}`);
      return 1;
    }
    if (error instanceof Error && /ABKIT_STORAGE|SQLite|install/.test(error.message)) {
      context.err(`abkit ${name}: ${redactStorage(error.message)}`);
      return 1;
    }
    throw error;
  } finally {
    abkit?.admin.stop();
    await abkit?.close();
  }
}

/** Prints `label: value` lines on stdout, aligned. */
function print(context: CommandContext, rows: readonly (readonly [string, unknown])[]): void {
  const width = Math.max(...rows.map(([label]) => label.length));
  for (const [label, value] of rows)
    context.out(`${`${label}:`.padEnd(width + 1)} ${Array.isArray(value) ? value.join(',') || '(all)' : String(value)}`);
}

const time = (ms: number | null) => (ms === null ? '-' : new Date(ms).toISOString());

const accessCreate: Command = {
  name: 'access create',
  summary: 'create a remote-control access; prints its client id and secret once',
  usage: `usage: abkit access create <account> --name <name> --actions <a,b> [--environments <e1,e2>]

Creates an access of <account> (which must exist) and prints its id, client id and client secret:
the secret is shown this once and stored only as a hash. No --environments: every environment of
the account, present and future.

  --name <name>            1 to 100 characters
  --actions <a,b>          among ${ACCESS_ACTIONS.join(', ')}
  --environments <e1,e2>   environment ids of the account
${STORAGE_FLAGS}

example:
  abkit access create acme --name deploy-bot --actions campaigns.read,campaigns.write --environments prod`,
  run: (context) =>
    withAbkit('access create', context, ['name', 'actions', 'environments'], [], async (abkit, parsed) => {
      const [account] = positionals(parsed, ['account']);
      if (!parsed.flags.has('name')) throw new UsageError('--name is required');
      if (!parsed.flags.has('actions')) throw new UsageError(`--actions is required (among ${ACCESS_ACTIONS.join(', ')})`);
      const created = await abkit.admin.createAccess(CLI_ACTOR, account!, {
        name: parsed.flags.get('name') as string,
        actions: list(parsed.flags.get('actions')),
        environments: list(parsed.flags.get('environments')),
      });
      print(context, [
        ['id', created.id],
        ['name', created.name],
        ['environments', created.environments],
        ['actions', created.actions],
        ['client id', created.clientId],
        ['client secret', created.clientSecret],
      ]);
      context.err('The client secret is shown this once: keep it in a secret manager.');
    }),
};

const accessList: Command = {
  name: 'access list',
  summary: "Preview an account's accesses (never a secret)",
  usage: `usage: abkit access list <account>

One line per access, oldest first: id, status, name, environments, actions, client id hint,
created, last used (when a token was last issued for it).

${STORAGE_FLAGS}`,
  run: (context) =>
    withAbkit('access list', context, [], [], async (abkit, parsed) => {
      const [account] = positionals(parsed, ['account']);
      const { accesses } = await abkit.admin.listAccesses(account!);
      if (accesses.length === 0) context.err(`account "${account}" has no access`);
      for (const a of accesses)
        context.out(
          [
            a.id,
            a.status,
            JSON.stringify(a.name),
            `environments=${a.environments.join(',') || '(all)'}`,
            `actions=${a.actions.join(',')}`,
            `client=${a.clientIdHint}`,
            `created=${time(a.createdAt)}`,
            `last-used=${time(a.lastUsedAt)}`,
          ].join('  '),
        );
    }),
};

const accessRevoke: Command = {
  name: 'access revoke',
  summary: 'revoke an access: its tokens stop working',
  usage: `usage: abkit access revoke <account> <access-id>

Revokes the access: it gets no more tokens, and a running server refuses the tokens it has within
its token cache lifetime (2 s). The access id is the first column of abkit access list.

${STORAGE_FLAGS}`,
  run: (context) =>
    withAbkit('access revoke', context, [], [], async (abkit, parsed) => {
      const [account, id] = positionals(parsed, ['account', 'access-id']);
      const revoked = await abkit.admin.revokeAccess(CLI_ACTOR, account!, id!);
      print(context, [
        ['id', revoked.id],
        ['status', revoked.status],
      ]);
    }),
};

const accessRotate: Command = {
  name: 'access rotate',
  summary: 'give an access a new client secret, printed once; the old one stops',
  usage: `usage: abkit access rotate <account> <access-id>

Prints a new client secret, shown this once; the old secret no longer gets tokens (tokens it got
run to their expiry: revoke the access to stop them at once).

${STORAGE_FLAGS}`,
  run: (context) =>
    withAbkit('access rotate', context, [], [], async (abkit, parsed) => {
      const [account, id] = positionals(parsed, ['account', 'access-id']);
      const rotated = await abkit.admin.rotateAccess(CLI_ACTOR, account!, id!);
      print(context, [
        ['id', rotated.id],
        ['client id', rotated.clientIdHint],
        ['client secret', rotated.clientSecret],
      ]);
      context.err('The client secret is shown this once: keep it in a secret manager.');
    }),
};

const accountCreate: Command = {
  name: 'account create',
  summary: 'create an account',
  usage: `usage: abkit account create <id>

<id>: 1 to 128 letters, digits, ".", "_" or "-".

${STORAGE_FLAGS}`,
  run: (context) =>
    withAbkit('account create', context, [], [], async (abkit, parsed) => {
      const [id] = positionals(parsed, ['id']);
      const account = await abkit.admin.createAccount(CLI_ACTOR, { id: id! });
      print(context, [
        ['account', account.id],
        ['created', time(account.createdAt)],
      ]);
    }),
};

const envCreate: Command = {
  name: 'env create',
  summary: 'create an environment of an account (empty configuration), optionally with an API key printed once',
  usage: `usage: abkit env create <account> <id> [--default] [--api-key]

Creates environment <id> with no campaign. --default makes it the account's default environment
(the one /v2/campaigns serves when abkit serve starts without a bootstrap default); --api-key
generates a key its decisions then require (x-api-key), printed this once.

${STORAGE_FLAGS}`,
  run: (context) =>
    withAbkit('env create', context, [], ['default', 'api-key'], async (abkit, parsed) => {
      const [account, id] = positionals(parsed, ['account', 'id']);
      const env = await abkit.admin.createEnvironment(CLI_ACTOR, account!, {
        id: id!,
        default: parsed.flags.has('default'),
        apiKey: parsed.flags.has('api-key'),
      });
      print(context, [
        ['environment', env.id],
        ['account', account],
        ['default', env.default],
        ...(env.apiKey ? ([['api key', env.apiKey]] as const) : []),
      ]);
      if (env.apiKey) context.err('The API key is shown this once.');
    }),
};

const catalogCreate: Command = {
  name: 'catalog create',
  summary: 'create a catalog; prints its catalog and search keys once',
  usage: `usage: abkit catalog create <identifier> [--sync-interval-ms N]

<identifier>: a lower-case DNS label (a-z, 0-9, inner hyphens). Prints the catalog key (writes
items) and the search key (reads), shown this once. --sync-interval-ms: how often abkit serve
publishes accepted items (default daily; at least 1000).

${STORAGE_FLAGS}`,
  run: (context) =>
    withAbkit('catalog create', context, ['sync-interval-ms'], [], async (abkit, parsed) => {
      const [identifier] = positionals(parsed, ['identifier']);
      const raw = parsed.flags.get('sync-interval-ms');
      if (raw !== undefined && !/^\d{1,15}$/.test(raw as string)) throw new UsageError('--sync-interval-ms must be an integer');
      const created = await abkit.admin.createCatalog(CLI_ACTOR, {
        identifier: identifier!,
        ...(raw !== undefined ? { syncIntervalMs: Number(raw) } : {}),
      });
      print(context, [
        ['catalog', created.identifier],
        ['catalog key', created.catalogApiKey],
        ['search key', created.searchApiKey],
      ]);
      context.err('The keys are shown this once.');
    }),
};

const adminKey: Command = {
  name: 'admin-key',
  summary: 'print a fresh admin key for ABKIT_ADMIN_KEY',
  usage: `usage: abkit admin-key

Prints a new random admin key (256 bits). Give it to abkit serve as ABKIT_ADMIN_KEY, as
name=key to name the actor in the audit log:

  ABKIT_ADMIN_KEY="ops=$(abkit admin-key)" abkit serve`,
  async run(context) {
    if (context.args.length > 0) {
      context.err(`abkit admin-key: takes no argument, got ${context.args.map((a) => JSON.stringify(a)).join(' ')}`);
      return 2;
    }
    context.out(newAdminKey());
    return 0;
  },
};

/**
 * The admin subcommands, for server/cli.ts to dispatch.
 *
 * @example
 * ```ts
 * const command = ADMIN_COMMANDS.find((c) => c.name === 'access list');
 * await command?.run({ args: ['acme'], env: process.env, out: console.log, err: console.error });
 * ```
 */
export const ADMIN_COMMANDS: readonly Command[] = [
  accessCreate,
  accessList,
  accessRevoke,
  accessRotate,
  accountCreate,
  envCreate,
  catalogCreate,
  adminKey,
];
