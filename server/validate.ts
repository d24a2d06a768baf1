/**
 * `abkit validate <file>`: every problem of a bootstrap file or a campaign (bucketing) file, with
 * its JSON path.
 *
 * @module
 */
import { readFile } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { checkBootstrap } from '../src/bootstrap/apply';
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
export type FileKind = 'bootstrap' | 'bucketing';

/** Top-level keys of a bootstrap file; a bucketing file has `campaigns`. */
const BOOTSTRAP_KEYS = ['accounts', 'accesses', 'catalogs'];

/**
 * The problems of a file `abkit serve` reads (none: it is valid), and what kind of file it is.
 *
 * @example
 * ```ts
 * const { kind, problems } = await validateFile('bucketing.json');
 * ```
 */
export async function validateFile(
  file: string,
  options: { allowAbsolutePaths?: boolean } = {},
): Promise<{ kind: FileKind | undefined; problems: FileProblem[] }> {
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
  // A bucketing file has campaigns; anything else is checked as a bootstrap file, whose schema
  // names a misspelt top-level key ({"acounts": []}) rather than calling the file unknown.
  const keys = value !== null && typeof value === 'object' && !Array.isArray(value) ? Object.keys(value) : [];
  if (!keys.some((k) => BOOTSTRAP_KEYS.includes(k)) && keys.some((k) => /^campaigns?$/i.test(k)))
    return { kind: 'bucketing', problems: bucketingProblems(value) };
  // Files it names are read as abkit serve reads them: relative to the bootstrap file.
  const readJsonFile = async (path: string) => JSON.parse(await readFile(resolve(dirname(file), path), 'utf8')) as unknown;
  const details = await checkBootstrap(value, { readJsonFile, allowAbsolutePaths: options.allowAbsolutePaths });
  return { kind: 'bootstrap', problems: details.map((d) => ({ path: formatPath(d.path), message: d.message })) };
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
