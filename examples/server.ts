/**
 * The demo server from source, for tests and development: `abkit serve` (server/cli.ts) on the
 * demo bootstrap unless ABKIT_BOOTSTRAP names another file. `npm start` runs the compiled
 * command (`node dist/cli.js serve`); see server/config.ts for every variable.
 */
import { fileURLToPath } from 'node:url';

process.env.ABKIT_BOOTSTRAP ??= fileURLToPath(new URL('./demo/bootstrap.json', import.meta.url));
process.argv.splice(2, process.argv.length, 'serve', ...process.argv.slice(2));
await import('../server/cli');
