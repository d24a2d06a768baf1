/**
 * The `abkit` command: `abkit serve [--flag value…]` and `abkit validate <bucketing.json>…`.
 *
 * @module
 */
import { ConfigError, parseServeConfig, SERVE_VARIABLES } from './config';
import { serve, StartError } from './serve';
import { validateBucketingFile } from './validate';

const USAGE = `usage:
  abkit serve [--port N] [--host H] [--storage memory|sqlite:<file>|postgres://…] [--bootstrap <file>] …
  abkit validate <bucketing.json>…

serve reads ${SERVE_VARIABLES.join(', ')} from the environment; a flag of the same name
(--port, --storage, --cors-origins, …) overrides it.`;

async function main(argv: readonly string[]): Promise<number> {
  const [command, ...args] = argv;
  if (command === 'serve') {
    const config = parseServeConfig(args, process.env);
    // A start-up failure (unreadable bootstrap, read-only database, unreachable PostgreSQL) is
    // one line naming the cause and exit code 1, not a stack trace.
    const running = await serve(config).catch((error: unknown) => {
      throw new StartError(`cannot start: ${error instanceof Error ? error.message : String(error)}`);
    });
    // The first SIGTERM or SIGINT drains (bounded by the shutdown timeout); removing both
    // listeners then restores the default action, so a second one ends the process at once.
    const signals = ['SIGTERM', 'SIGINT'] as const;
    const stop = () => {
      for (const s of signals) process.off(s, stop);
      void running.close().then(
        () => process.exit(0),
        (error: unknown) => {
          console.error(error);
          process.exit(1);
        },
      );
    };
    for (const signal of signals) process.on(signal, stop);
    return -1;
  }
  if (command === 'validate') {
    if (args.length === 0) throw new ConfigError('validate needs at least one file');
    let bad = 0;
    for (const file of args) {
      const problems = await validateBucketingFile(file);
      if (problems.length === 0) console.log(`${file}: valid`);
      else {
        bad++;
        console.log(`${file}: ${problems.length} problem${problems.length === 1 ? '' : 's'}`);
        for (const p of problems) console.log(`  ${p.path}: ${p.message}`);
      }
    }
    return bad === 0 ? 0 : 1;
  }
  if (command === undefined || command === '--help' || command === '-h' || command === 'help') {
    console.log(USAGE);
    return command === undefined ? 2 : 0;
  }
  throw new ConfigError(`unknown command ${JSON.stringify(command)}`);
}

main(process.argv.slice(2)).then(
  (code) => {
    if (code >= 0) process.exitCode = code;
  },
  (error: unknown) => {
    // Configuration and start problems are one line; anything else keeps its stack.
    if (error instanceof ConfigError || error instanceof StartError || (error instanceof Error && error.name === 'ValidationError')) {
      console.error(`abkit: ${error.message}`);
    } else console.error(error);
    process.exit(1);
  },
);
