/**
 * Child processes start from a script bundled once per test file with esbuild, instead of
 * `node --import tsx` transpiling the same modules again in every child: the SIGKILL and
 * multi-process suites start about thirty children, and tsx's start-up was most of their time.
 * The bundle keeps packages external (loaded from node_modules, as in the repository) and
 * `import.meta.url` pointing at the source file, so the child behaves as `tsx <script>` would.
 */
import { randomBytes } from 'node:crypto';
import { mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { buildSync } from 'esbuild';

const root = resolve(import.meta.dirname, '../..');
// Inside the repository, so that the bundle's bare imports resolve to its node_modules.
const outDir = join(root, 'node_modules/.cache/abkit-test-scripts');
const built = new Map<string, string>();

/** The path of `script` (relative to the repository root) bundled as an ES module. */
export function compileScript(script: string): string {
  const source = resolve(root, script);
  let out = built.get(source);
  if (out) return out;
  const result = buildSync({
    entryPoints: [source],
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    packages: 'external',
    write: false,
    logLevel: 'error',
    define: { 'import.meta.url': JSON.stringify(pathToFileURL(source).href) },
  });
  mkdirSync(outDir, { recursive: true });
  // A unique name per bundle: test files run in parallel processes and must not share a half-written file.
  out = join(outDir, `${basename(script, '.ts')}-${process.pid}-${randomBytes(4).toString('hex')}.mjs`);
  const tmp = `${out}.tmp`;
  writeFileSync(tmp, result.outputFiles[0]!.text);
  renameSync(tmp, out);
  if (built.size === 0) process.once('exit', () => built.forEach((file) => rmSync(file, { force: true })));
  built.set(source, out);
  return out;
}
