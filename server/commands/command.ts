/**
 * One subcommand of the `abkit` command. server/cli.ts dispatches on `name`, prints `usage` for
 * `abkit <name> --help` and `summary` in `abkit --help`.
 *
 * @module
 */

/** What a command is given: its arguments after its name, the environment, and where to write. */
export interface CommandContext {
  readonly args: readonly string[];
  readonly env: Readonly<Record<string, string | undefined>>;
  /** Standard output, for results (a secret shown once goes here and nowhere else). */
  readonly out: (line: string) => void;
  /** Standard error, for progress and problems. */
  readonly err: (line: string) => void;
}

/** A subcommand: `abkit <name> …`. */
export interface Command {
  /** The word after `abkit`, or two words for a group (`access create`). */
  readonly name: string;
  /** One line for `abkit --help`. */
  readonly summary: string;
  /** The whole text of `abkit <name> --help`: synopsis, arguments, flags, examples. */
  readonly usage: string;
  /**
   * Runs the command; resolves to the exit code (0 success, 1 failure, 2 usage error), or -1 when
   * the command keeps running (`serve`) and exits by itself.
   */
  run(context: CommandContext): Promise<number>;
}
