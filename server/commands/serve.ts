/**
 * `abkit serve`: starts the server and keeps running until SIGTERM or SIGINT.
 *
 * @module
 */
import { parseServeConfig, SERVE_VARIABLES } from '../config';
import { serve, StartError } from '../serve';
import type { Command } from './command';

/** `--port` for PORT, `--cors-origins` for ABKIT_CORS_ORIGINS: the flag spelling of a variable. */
const flagOf = (variable: string) =>
  `--${variable
    .replace(/^ABKIT_/, '')
    .toLowerCase()
    .replace(/_/g, '-')}`;

const FLAG_WIDTH = Math.max(...SERVE_VARIABLES.map((v) => flagOf(v).length)) + 2;

/** `abkit serve`. */
export const serveCommand: Command = {
  name: 'serve',
  summary: 'run the HTTP server: decisions, remote control, catalog, search, metrics, health',
  usage: `usage: abkit serve [--port N] [--host H] [--storage memory|sqlite:<file>|postgres://…] [--bootstrap <file>] […]

Runs abkit's HTTP interfaces until SIGTERM or SIGINT (the first drains the requests in flight, a
second ends at once). JSON log lines go to stdout, the start banner to stderr.

Configuration: environment variables, each also a flag (--name value or --name=value; flags win):
${SERVE_VARIABLES.map((v) => `  ${flagOf(v).padEnd(FLAG_WIDTH)}${v}`).join('\n')}

A bootstrap file (docs/bootstrap.md; check one with abkit validate) seeds accounts, environments,
accesses and catalogs. Without one, an empty storage gets an account "default" with an environment
"default" and no campaigns, so that POST /v2/campaigns answers at once.

Examples:
  abkit serve --port 8080 --storage sqlite:abkit.db --bootstrap bootstrap.json
  ABKIT_STORAGE=postgres://localhost/abkit abkit serve`,
  async run({ args, env, err }) {
    const config = parseServeConfig(args, env);
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
          err(error instanceof Error ? (error.stack ?? error.message) : String(error));
          process.exit(1);
        },
      );
    };
    for (const signal of signals) process.on(signal, stop);
    return -1;
  },
};
