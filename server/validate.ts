/**
 * `abkit validate <bucketing.json>`: every problem of a campaign file, with its JSON path.
 *
 * @module
 */
import { readFile } from 'node:fs/promises';
import { parseBucketingConfig } from '../src/model/bucketing-config';
import { AbkitError, formatPath } from '../src/errors';

/** One problem of a file: where (`campaigns[0].variationGroups[1].id`, or `(file)`) and what. */
export interface FileProblem {
  path: string;
  message: string;
}

/**
 * The problems of a bucketing configuration file (none: it is valid).
 *
 * @example
 * ```ts
 * const problems = await validateBucketingFile('bucketing.json');
 * for (const p of problems) console.log(`${p.path}: ${p.message}`);
 * ```
 */
export async function validateBucketingFile(file: string): Promise<FileProblem[]> {
  return (await validateFile(file)).problems;
}

/** What kind of file {@link validateFile} found. */
export type FileKind = 'bucketing';

/**
 * The problems of a file `abkit serve` reads (none: it is valid), and what kind of file it is.
 *
 * @example
 * ```ts
 * const { kind, problems } = await validateFile('bucketing.json');
 * ```
 */
export async function validateFile(file: string): Promise<{ kind: FileKind | undefined; problems: FileProblem[] }> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    return {
      kind: undefined,
      problems: [{ path: '(file)', message: `cannot read ${file}: ${(error as NodeJS.ErrnoException).code ?? String(error)}` }],
    };
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return { kind: undefined, problems: [{ path: '(file)', message: `not valid JSON: ${(error as Error).message}` }] };
  }
  return { kind: 'bucketing', problems: bucketingProblems(value) };
}

function bucketingProblems(value: unknown): FileProblem[] {
  try {
    parseBucketingConfig(value);
    return [];
  } catch (error) {
    if (!(error instanceof AbkitError)) throw error;
    if (error.details.length === 0) return [{ path: '(root)', message: error.message }];
    return error.details.map((d) => ({ path: formatPath(d.path), message: d.message }));
  }
}
