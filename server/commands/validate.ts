/**
 * `abkit validate <file>…`: every problem of bucketing and bootstrap files, with its JSON path.
 *
 * @module
 */
import { ConfigError } from '../config';
import { validateFile } from '../validate';
import type { Command } from './command';

/** `abkit validate`. */
export const validateCommand: Command = {
  name: 'validate',
  summary: 'check bucketing and bootstrap files, listing every problem with its JSON path',
  usage: `usage: abkit validate <file>…

Checks each file as abkit serve would read it, and prints "<file>: valid" or every problem with
its JSON path. A file with a top-level "campaigns" is a bucketing file (one environment's campaign
configuration); any other is a bootstrap file (docs/bootstrap.md): its keys, its inline campaign
configurations and the files it names (bucketingFile, itemsFile, read relative to it) are checked.
With ABKIT_BOOTSTRAP_ABSOLUTE_PATHS=allow, those files may lie outside its folder, as for serve.

Exit code: 0 when every file is valid, 1 when one has a problem, 2 for a usage error.

Examples:
  abkit validate bootstrap.json
  abkit validate prod.json staging.json`,
  async run({ args, env, out }) {
    const flag = args.find((a) => a.startsWith('-'));
    if (flag !== undefined) throw new ConfigError(`unknown flag ${flag}`);
    if (args.length === 0) throw new ConfigError('needs at least one file');
    let bad = 0;
    for (const file of args) {
      const { kind, problems } = await validateFile(file, { allowAbsolutePaths: env.ABKIT_BOOTSTRAP_ABSOLUTE_PATHS === 'allow' });
      const what = kind === undefined ? '' : ` (${kind} file)`;
      if (problems.length === 0) out(`${file}: valid${what}`);
      else {
        bad++;
        out(`${file}${what}: ${problems.length} problem${problems.length === 1 ? '' : 's'}`);
        for (const p of problems) out(`  ${p.path}: ${p.message}`);
      }
    }
    return bad === 0 ? 0 : 1;
  },
};
