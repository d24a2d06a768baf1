import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { itIf, need } from './helpers/skip';

/** What a source file imports or re-exports (static, side-effect only, or `import()`), as written. */
function importsOf(file: string): string[] {
  // Comments hold examples such as `import … from 'abkit'`: leave them out.
  const text = readFileSync(file, 'utf8')
    .replace(/\/\*[\s\S]*?\*\//g, '')
    .replace(/^\s*\/\/.*$/gm, '');
  return [
    ...text.matchAll(/(?:import|export)\s[^'"]*?from\s+['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)|^\s*import\s+['"]([^'"]+)['"]/gm),
  ].map((m) => (m[1] ?? m[2] ?? m[3])!);
}

/** Every file reachable from `entry` through relative imports, and every bare module it imports. */
function graph(entry: string): { files: Set<string>; modules: Set<string> } {
  const files = new Set<string>();
  const modules = new Set<string>();
  const visit = (file: string) => {
    if (files.has(file)) return;
    files.add(file);
    for (const spec of importsOf(file)) {
      if (spec.startsWith('.')) visit(resolve(dirname(file), spec.endsWith('.ts') ? spec : `${spec}.ts`));
      else modules.add(spec);
    }
  };
  visit(resolve(entry));
  return { files, modules };
}

describe('entry points', () => {
  it('the core never loads a database driver or a framework', () => {
    const { modules, files } = graph(join(__dirname, '../src/index.ts'));
    expect([...modules].sort()).toEqual(['hono/router/trie-router', 'lru-cache', 'porter2', 'qs', 'zod']);
    expect([...files].some((f) => f.includes('/adapters/sql/'))).toBe(false);
  });

  /**
   * The layers of ARCHITECTURE.md, lowest first. A file may import its own folder and any lower
   * layer, never a higher one nor another folder of its own layer (decision and catalog, say).
   */
  const LAYERS: readonly (readonly RegExp[])[] = [
    [/^src\/(errors|crypto|freeze|murmur|slices|validation|body)$/],
    [/^src\/model\//],
    [/^src\/storage\//],
    [/^adapters\//],
    [/^src\/decision\//, /^src\/catalog\//],
    [/^src\/results\//, /^src\/search\//],
    [/^src\/analytics\//, /^src\/search-experiments\//],
    [/^src\/access\//],
    [/^src\/bootstrap\//],
    [/^src\/admin\//],
    // createHandler (and the abkit/http entry that names its options) mounts the console, which
    // builds on the rest of src/http (route tables, the router).
    [/^src\/http\/(?!handler$|index$)/],
    [/^src\/console\//],
    [/^src\/http\/(handler|index)$/],
    [/^src\/abkit$/],
    [/^src\/(index|types)$/, /^src\/flagship\//, /^src\/openfeature\//],
    [/^node\//],
    [/^server\//],
  ];
  const top = join(__dirname, '..');
  const walk = (dir: string): string[] =>
    readdirSync(join(top, dir), { withFileTypes: true }).flatMap((e) =>
      e.isDirectory() ? walk(`${dir}/${e.name}`) : e.name.endsWith('.ts') ? [`${dir}/${e.name}`] : [],
    );
  const sources = ['src', 'adapters', 'node', 'server'].flatMap(walk);
  /** Relative imports of a source file, as paths from the top without `.ts`. */
  const edges = (file: string) =>
    importsOf(join(top, file))
      .filter((spec) => spec.startsWith('.'))
      .map((spec) => relative(top, resolve(dirname(join(top, file)), spec)).replace(/\.ts$/, ''));
  const placeOf = (module: string): { rank: number; unit: string } => {
    for (let rank = 0; rank < LAYERS.length; rank++) {
      for (const pattern of LAYERS[rank]!) if (pattern.test(module)) return { rank, unit: pattern.source };
    }
    throw new Error(`${module} is in no layer of ARCHITECTURE.md`);
  };

  it('every import points down a layer (ARCHITECTURE.md, Layers), type-only ones included', () => {
    const broken: string[] = [];
    for (const file of sources) {
      const from = placeOf(file.replace(/\.ts$/, ''));
      for (const target of edges(file)) {
        const to = placeOf(target);
        if (to.unit !== from.unit && to.rank >= from.rank) broken.push(`${file} imports ${target}`);
      }
    }
    expect(broken).toEqual([]);
  });

  it('no import cycle between files, type-only ones included', () => {
    const graph = new Map(sources.map((file) => [file.replace(/\.ts$/, ''), edges(file)]));
    const cycles: string[] = [];
    const state = new Map<string, 'open' | 'done'>();
    const visit = (module: string, path: string[]) => {
      if (state.get(module) === 'done') return;
      if (state.get(module) === 'open') {
        cycles.push([...path.slice(path.indexOf(module)), module].join(' -> '));
        return;
      }
      state.set(module, 'open');
      for (const next of graph.get(module) ?? []) visit(next, [...path, module]);
      state.set(module, 'done');
    };
    for (const module of graph.keys()) visit(module, []);
    expect(cycles).toEqual([]);
  });

  it('abkit/sqlite loads better-sqlite3 only, lazily; abkit/postgres loads pg only, lazily', () => {
    const sqlite = graph(join(__dirname, '../adapters/sql/sqlite.ts')).modules;
    const postgres = graph(join(__dirname, '../adapters/sql/postgres.ts')).modules;
    expect(sqlite.has('better-sqlite3') && !sqlite.has('pg')).toBe(true);
    expect(postgres.has('pg') && !postgres.has('better-sqlite3')).toBe(true);
    // Statically the drivers appear only as types; the values come from a dynamic import().
    const sqliteSource = readFileSync(join(__dirname, '../adapters/sql/sqlite.ts'), 'utf8');
    expect(sqliteSource).toMatch(/await import\('better-sqlite3'\)/);
    expect(sqliteSource).not.toMatch(/^import (?!type)[^\n]*better-sqlite3/m);
  });

  it('package.json declares the drivers as optional peer dependencies and exports the entry points', () => {
    const pkg = JSON.parse(readFileSync(join(__dirname, '../package.json'), 'utf8'));
    expect(pkg.peerDependenciesMeta).toEqual({
      'better-sqlite3': { optional: true },
      pg: { optional: true },
      '@openfeature/server-sdk': { optional: true },
    });
    expect(Object.keys(pkg.exports)).toEqual([
      '.',
      './http',
      './types',
      './sqlite',
      './postgres',
      './node',
      './flagship',
      './openfeature',
      './package.json',
    ]);
    expect(pkg.dependencies['better-sqlite3']).toBeUndefined();
    expect(pkg.dependencies.pg).toBeUndefined();
  });
});

/** The names an entry point exports (values and types), as a consumer's compiler sees them. */
function exportedNames(entry: string): string[] {
  const program = ts.createProgram([entry], {
    strict: true,
    module: ts.ModuleKind.ESNext,
    moduleResolution: ts.ModuleResolutionKind.Bundler,
    target: ts.ScriptTarget.ES2022,
    noEmit: true,
  });
  const checker = program.getTypeChecker();
  const module = checker.getSymbolAtLocation(program.getSourceFile(entry)!)!;
  return checker
    .getExportsOfModule(module)
    .map((s) => s.name)
    .sort();
}

describe('public surface', () => {
  const root = exportedNames(join(__dirname, '../src/index.ts'));

  it('the root entry exports at most 50 names: services, their main types, errors, entry functions', () => {
    expect(root.length, root.join(', ')).toBeLessThanOrEqual(50);
    for (const name of [
      'createAbkit',
      'createHandler',
      'memoryStorage',
      'DecisionEngine',
      'TokenService',
      'CatalogRegistry',
      'SearchService',
      'AbkitError',
      'ValidationError',
    ]) {
      expect(root).toContain(name);
    }
  });

  it('algorithm helpers stay internal (tests import their modules)', () => {
    const everything = [
      ...root,
      ...exportedNames(join(__dirname, '../src/http/index.ts')),
      ...exportedNames(join(__dirname, '../src/types.ts')),
    ];
    for (const helper of [
      'murmur3',
      'hashString',
      'variationBucket',
      'pickVariation',
      'compileTargeting',
      'matchTargeting',
      'parseSemver',
      'damerau',
      'allowedTypos',
      'typeOf',
      'checkItem',
      'prepareBatch',
    ]) {
      expect(everything).not.toContain(helper);
    }
  });

  it('abkit/http holds the routes and schemas; abkit/types holds types only', async () => {
    const http = exportedNames(join(__dirname, '../src/http/index.ts'));
    for (const name of [
      'decisionRoutes',
      'tokenRoutes',
      'remoteControlRoutes',
      'catalogRoutes',
      'searchRoutes',
      'searchQuerySchema',
      'bucketingConfigSchema',
      'openApiDocument',
    ]) {
      expect(http).toContain(name);
    }
    expect(exportedNames(join(__dirname, '../src/types.ts')).length).toBeGreaterThan(0);
    expect(Object.keys(await import('../src/types'))).toEqual([]);
  });
});

describe('built output (npm test builds it first)', () => {
  const root = join(__dirname, '..');
  const built = existsSync(join(root, 'dist/index.js'));
  const BUILT = need(built, 'dist/ is absent; npm test builds it first');

  // A consumer project with abkit installed (linked) in its node_modules.
  function consumer(): string {
    const dir = mkdtempSync(join(tmpdir(), 'abkit-consumer-'));
    mkdirSync(join(dir, 'node_modules'));
    symlinkSync(root, join(dir, 'node_modules/abkit'), 'dir');
    return dir;
  }

  itIf(BUILT, 'an ESM consumer imports abkit, abkit/sqlite and abkit/postgres', () => {
    const dir = consumer();
    writeFileSync(
      join(dir, 'main.mjs'),
      `import { DecisionEngine, createHandler, ValidationError } from 'abkit';
       import { sqliteStorage } from 'abkit/sqlite';
       import { postgresStorage } from 'abkit/postgres';
       const storage = await sqliteStorage({ filename: ':memory:' });
       const engine = new DecisionEngine({ storage });
       await engine.load({ campaigns: [] });
       const res = await createHandler({ decision: engine })(new Request('http://x/health'));
       console.log(JSON.stringify({ status: res.status, pg: typeof postgresStorage, err: new ValidationError('x') instanceof Error }));
       await storage.close();`,
    );
    const out = execFileSync(process.execPath, ['main.mjs'], { cwd: dir, encoding: 'utf8' });
    expect(JSON.parse(out)).toEqual({ status: 200, pg: 'function', err: true });
  });

  itIf(BUILT, 'a CommonJS consumer requires abkit and abkit/sqlite', () => {
    const dir = consumer();
    writeFileSync(
      join(dir, 'main.cjs'),
      `const { DecisionEngine, AbkitError, NotFoundError } = require('abkit');
       const { sqliteStorage } = require('abkit/sqlite');
       (async () => {
         const storage = await sqliteStorage({ filename: ':memory:' });
         const error = await new DecisionEngine({ storage }).decide({ visitorId: 'v' }).catch((e) => e);
         console.log(JSON.stringify({ notFound: error instanceof NotFoundError, base: error instanceof AbkitError, status: error.status }));
         await storage.close();
       })();`,
    );
    const out = execFileSync(process.execPath, ['main.cjs'], { cwd: dir, encoding: 'utf8' });
    expect(JSON.parse(out)).toEqual({ notFound: true, base: true, status: 404 });
  });

  itIf(BUILT, 'the published types of every entry import only dependencies and peer dependencies that bring their types', () => {
    const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
    const allowed = [...Object.keys(pkg.dependencies), ...Object.keys(pkg.peerDependencies ?? {})];
    const seen = new Set<string>();
    const visit = (file: string) => {
      if (seen.has(file)) return;
      seen.add(file);
      // Code in comments (examples) is not an import.
      const text = readFileSync(join(root, 'dist', file), 'utf8').replace(/\/\*[\s\S]*?\*\//g, '');
      for (const m of text.matchAll(/(?:from|import) '([^']+)'|import\('([^']+)'\)/g)) {
        const spec = (m[1] ?? m[2])!;
        if (spec.startsWith('./')) visit(spec.slice(2).replace(/\.c?js$/, file.endsWith('.d.cts') ? '.d.cts' : '.d.ts'));
        // Node's built-in modules (abkit/node's listener): typed by @types/node, which a Node
        // project written in TypeScript has.
        else if (!spec.startsWith('node:')) {
          const name = spec
            .split('/')
            .slice(0, spec.startsWith('@') ? 2 : 1)
            .join('/');
          expect(allowed, `${file} imports ${spec}`).toContain(name);
          // Its types must come with it (as zod's do), not from a devDependency such as @types/qs or @types/pg.
          const dep = JSON.parse(readFileSync(join(root, 'node_modules', name, 'package.json'), 'utf8'));
          const typed =
            dep.types !== undefined ||
            dep.typings !== undefined ||
            JSON.stringify(dep.exports ?? {}).includes('"types"') ||
            `@types/${name}` in pkg.dependencies;
          expect(typed, `${file} imports ${spec}, whose types a consumer would not have`).toBe(true);
        }
      }
    };
    const entries = Object.values(pkg.exports as Record<string, { import?: { types: string }; require?: { types: string } }>)
      .flatMap((e) => [e.import?.types, e.require?.types])
      .filter((t): t is string => t !== undefined)
      .map((t) => t.replace('./dist/', ''));
    expect(entries).toContain('postgres.d.ts');
    for (const entry of entries) visit(entry);
  });

  it.runIf(!built)('dist/ exists whenever CI runs (npm test builds it before vitest)', () => {
    console.warn('dist/ is missing: the built-output consumer tests did not run; npm test builds it first');
    expect(process.env.CI).not.toBe('true');
  });
});
