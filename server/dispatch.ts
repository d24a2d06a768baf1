/**
 * The `abkit` command line: finds the command named by the first words of the arguments and
 * runs it; `--help`, `--version` and `<command> --help` are answered here.
 *
 * @module
 */
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Command, CommandContext } from './commands/command';
import { ConfigError } from './config';
import { StartError } from './serve';

/** Where `abkit` writes, and the environment it reads. */
export type CommandIo = Omit<CommandContext, 'args'>;

/**
 * Runs the command `argv` names (the arguments after `abkit`); resolves to the exit code: 0
 * success, 1 failure, 2 usage error (an unknown command or flag, a bad value), or -1 when the
 * command keeps running (`serve`).
 *
 * @example
 * ```ts
 * const code = await runCli(['validate', 'bootstrap.json'], { env: process.env, out: console.log, err: console.error }, COMMANDS);
 * ```
 */
export async function runCli(argv: readonly string[], io: CommandIo, commands: readonly Command[]): Promise<number> {
  const [first] = argv;
  if (first === undefined) {
    io.err(help(commands));
    return 2;
  }
  if (first === '--help' || first === '-h' || first === 'help') {
    io.out(help(commands));
    return 0;
  }
  if (first === '--version' || first === '-v') {
    io.out(packageVersion());
    return 0;
  }
  if (first.startsWith('-')) return usageError(io, `unknown flag ${first}`, 'abkit --help');
  const command = longestMatch(argv, commands);
  if (!command) {
    const group = commands.filter((c) => c.name.split(' ')[0] === first).map((c) => c.name);
    const asked = group.length > 0 && argv[1] !== undefined && !argv[1].startsWith('-') ? `${first} ${argv[1]}` : first;
    return usageError(
      io,
      group.length > 0 ? `unknown command "${asked}"; ${first} has: ${group.join(', ')}` : `unknown command "${first}"`,
      'abkit --help',
    );
  }
  const args = argv.slice(command.name.split(' ').length);
  if (args.includes('--help') || args.includes('-h')) {
    io.out(command.usage);
    return 0;
  }
  try {
    return await command.run({ ...io, args });
  } catch (error) {
    if (error instanceof ConfigError) return usageError(io, error.message, `abkit ${command.name} --help`, command.name);
    // A start failure or a bad file is one line; anything else keeps its stack.
    if (error instanceof StartError || (error instanceof Error && error.name === 'ValidationError')) io.err(`abkit: ${error.message}`);
    else io.err(error instanceof Error ? (error.stack ?? error.message) : String(error));
    return 1;
  }
}

function usageError(io: CommandIo, message: string, see: string, command?: string): number {
  io.err(`abkit${command === undefined ? '' : ` ${command}`}: ${message} (see ${see})`);
  return 2;
}

/** The command whose name is the longest run of leading words of `argv` (`access create` before `access`). */
function longestMatch(argv: readonly string[], commands: readonly Command[]): Command | undefined {
  let best: Command | undefined;
  let bestWords = 0;
  for (const command of commands) {
    const words = command.name.split(' ');
    if (words.length > bestWords && words.every((w, i) => argv[i] === w)) {
      best = command;
      bestWords = words.length;
    }
  }
  return best;
}

function help(commands: readonly Command[]): string {
  const width = Math.max(...commands.map((c) => c.name.length)) + 2;
  return `usage: abkit <command> [arguments]

Commands:
${commands.map((c) => `  ${c.name.padEnd(width)}${c.summary}`).join('\n')}

abkit <command> --help   the arguments and flags of a command
abkit --version          the version of abkit`;
}

/**
 * The version in abkit's own package.json: the nearest one above this file, which is the
 * repository's when run from source and the installed package's when run as dist/cli.js.
 */
function packageVersion(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (let i = 0; i < 5; i++) {
    try {
      const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { name?: string; version?: string };
      if (pkg.name === 'abkit' && typeof pkg.version === 'string') return pkg.version;
    } catch {
      // No package.json here: look one folder up.
    }
    dir = dirname(dir);
  }
  return 'unknown';
}
