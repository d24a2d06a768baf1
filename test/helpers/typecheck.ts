/**
 * Typechecks code written for users (README blocks, `@example`s) as a user's project would see
 * it: `abkit`, `abkit/http`, … resolve to the entry points' sources, and every snippet is a module
 * of one TypeScript program, so a hundred snippets cost one type-check of the library.
 */
import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import ts from 'typescript';

export const root = resolve(import.meta.dirname, '../..');

/** The package's entry points (package.json `exports`) and the source each is built from. */
export const ENTRY_SOURCES: Record<string, string> = {
  abkit: 'src/index.ts',
  'abkit/http': 'src/http/index.ts',
  'abkit/types': 'src/types.ts',
  'abkit/sqlite': 'adapters/sql/sqlite.ts',
  'abkit/postgres': 'adapters/sql/postgres.ts',
  'abkit/node': 'node/index.ts',
  'abkit/flagship': 'src/flagship/index.ts',
  'abkit/openfeature': 'src/openfeature/index.ts',
};

function compilerOptions(): ts.CompilerOptions {
  const config = ts.readConfigFile(join(root, 'tsconfig.json'), (path) => readFileSync(path, 'utf8'));
  const { options } = ts.parseJsonConfigFileContent(config.config, ts.sys, root);
  return {
    ...options,
    noEmit: true,
    // A snippet imports a type the way a reader would write it, without `import type`.
    verbatimModuleSyntax: false,
    isolatedModules: false,
    baseUrl: root,
    paths: Object.fromEntries(Object.entries(ENTRY_SOURCES).map(([name, source]) => [name, [source]])),
  };
}

/**
 * Typechecks `files` (absolute path → text; paths under the repository, so that packages resolve
 * from its node_modules; nothing is written to disk) and returns each file's errors, formatted
 * with line numbers relative to the file. Files with no error are absent from the result.
 */
export function typecheck(files: ReadonlyMap<string, string>): Map<string, string[]> {
  const options = compilerOptions();
  const host = ts.createCompilerHost(options);
  const { fileExists, readFile, getSourceFile, directoryExists } = host;
  const folders = new Set([...files.keys()].map((path) => dirname(path)));
  host.fileExists = (path) => files.has(path) || fileExists.call(host, path);
  host.directoryExists = (path) => folders.has(path) || (directoryExists?.call(host, path) ?? true);
  host.readFile = (path) => files.get(path) ?? readFile.call(host, path);
  host.getSourceFile = (path, language, onError, fresh) => {
    const text = files.get(path);
    return text === undefined ? getSourceFile.call(host, path, language, onError, fresh) : ts.createSourceFile(path, text, language, true);
  };
  const program = ts.createProgram([...files.keys()], options, host);
  const errors = new Map<string, string[]>();
  for (const path of files.keys()) {
    const file = program.getSourceFile(path)!;
    const diagnostics = [...program.getSyntacticDiagnostics(file), ...program.getSemanticDiagnostics(file)];
    if (diagnostics.length === 0) continue;
    errors.set(
      path,
      diagnostics.map((d) => {
        const line = d.start === undefined ? 0 : file.getLineAndCharacterOfPosition(d.start).line + 1;
        return `line ${line}: ${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`;
      }),
    );
  }
  return errors;
}
