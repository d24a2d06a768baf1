/**
 * Every subcommand of `abkit`, in the order `abkit --help` lists them.
 *
 * @module
 */
import { ADMIN_COMMANDS } from './admin';
import type { Command } from './command';
import { serveCommand } from './serve';
import { validateCommand } from './validate';

/** The commands `abkit` dispatches to (server/dispatch.ts picks the longest matching name). */
export const COMMANDS: readonly Command[] = [
  serveCommand,
  validateCommand,
  // access create|list|revoke|rotate, account create, env create, catalog create, admin-key
  ...ADMIN_COMMANDS,
];
