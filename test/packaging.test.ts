import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

/** Every file reachable from `entry` through relative imports, and every bare module it imports. */
function graph(entry: string): { files: Set<string>; modules: Set<string> } {
  const files = new Set<string>();
  const modules = new Set<string>();
  const visit = (file: string) => {
    if (files.has(file)) return;
    files.add(file);
    // Comments hold examples such as `import … from 'abkit'`: leave them out.
    const text = readFileSync(file, 'utf8').replace(/\/\*[\s\S]*?\*\//g, '').replace(/^\s*\/\/.*$/gm, '');
    for (const m of text.matchAll(/(?:import|export)\s[^'"]*?from\s+['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)/g)) {
      const spec = m[1] ?? m[2]!;
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
    expect([...modules].sort()).toEqual(['lru-cache', 'minisearch', 'qs', 'zod']);
    expect([...files].some((f) => f.includes('/adapters/sql/'))).toBe(false);
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
    expect(pkg.peerDependenciesMeta).toEqual({ 'better-sqlite3': { optional: true }, pg: { optional: true } });
    expect(Object.keys(pkg.exports)).toEqual(['.', './sqlite', './postgres', './package.json']);
    expect(pkg.dependencies['better-sqlite3']).toBeUndefined();
    expect(pkg.dependencies.pg).toBeUndefined();
  });
});
