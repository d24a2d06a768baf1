/**
 * The `abkit` command (`abkit --help` lists its subcommands; server/commands/ holds them).
 *
 * @module
 */
import { COMMANDS } from './commands/index';
import { runCli } from './dispatch';

// stdout and stderr may be closed (a pipe into head): a failed write must not end the process.
process.stdout.on('error', () => undefined);
process.stderr.on('error', () => undefined);

runCli(
  process.argv.slice(2),
  { env: process.env, out: (line) => process.stdout.write(`${line}\n`), err: (line) => process.stderr.write(`${line}\n`) },
  COMMANDS,
).then(
  (code) => {
    // -1: the command keeps running (serve) and exits by itself.
    if (code >= 0) process.exitCode = code;
  },
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
