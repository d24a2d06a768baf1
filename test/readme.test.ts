/**
 * The README's TypeScript blocks, typechecked and run in the order a reader meets them, so the
 * README stays true. Each block is a module that exports what it declares; a later block imports
 * the names it uses from the latest block that declared them (so `engine` in "Remote control
 * access" is the engine of "Decision engine"), else from test/helpers/readme-givens.ts (the
 * reader's own data). A block preceded by `<!-- readme-test: typecheck only: <why> -->` is
 * typechecked and not run. When running, servers listen on an ephemeral port, each must answer
 * `GET /health`, and they are closed at the end; files are written in a temporary directory.
 * Where a comment shows what a `console.log` prints (`// 4964 503 5036 604`, `// { statistic: … }`),
 * the printed numbers must round to the ones shown.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { format } from 'node:util';
import { pathToFileURL } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { ENTRY_SOURCES, root, typecheck } from './helpers/typecheck';

interface Block {
  /** Line of the opening fence in README.md (1-based). */
  line: number;
  code: string;
  /** Why the block is not run, when it is not. */
  typecheckOnly?: string;
}

function readmeBlocks(): Block[] {
  const lines = readFileSync(join(root, 'README.md'), 'utf8').split('\n');
  const blocks: Block[] = [];
  for (let i = 0; i < lines.length; i++) {
    const open = /^(\s*)```(ts|typescript)\s*$/.exec(lines[i]!);
    if (!open) continue;
    const indent = open[1]!.length;
    const start = i;
    const body: string[] = [];
    while (++i < lines.length && !/^\s*```\s*$/.test(lines[i]!)) body.push(lines[i]!.slice(indent));
    let before = start - 1;
    while (before >= 0 && lines[before]!.trim() === '') before--;
    const marker = /<!--\s*readme-test:\s*typecheck only:\s*(.*?)\s*-->/.exec(lines[before] ?? '');
    blocks.push({ line: start + 1, code: body.join('\n'), ...(marker ? { typecheckOnly: marker[1]! } : {}) });
  }
  return blocks;
}

/** Names a block declares at its top level, imports included. */
function declaredNames(code: string): string[] {
  const file = ts.createSourceFile('block.ts', code, ts.ScriptTarget.ES2022, true);
  const names: string[] = [];
  const bind = (name: ts.BindingName) => {
    if (ts.isIdentifier(name)) names.push(name.text);
    else for (const element of name.elements) if (!ts.isOmittedExpression(element)) bind(element.name);
  };
  for (const statement of file.statements) {
    if (ts.isVariableStatement(statement)) statement.declarationList.declarations.forEach((d) => bind(d.name));
    else if ((ts.isFunctionDeclaration(statement) || ts.isClassDeclaration(statement)) && statement.name) names.push(statement.name.text);
    else if (ts.isImportDeclaration(statement) && statement.importClause) {
      const { name, namedBindings } = statement.importClause;
      if (name) names.push(name.text);
      if (namedBindings && ts.isNamespaceImport(namedBindings)) names.push(namedBindings.name.text);
      if (namedBindings && ts.isNamedImports(namedBindings)) namedBindings.elements.forEach((e) => names.push(e.name.text));
    }
  }
  return names;
}

/** Names used anywhere in a block (identifiers; property names after a dot excluded). */
function usedNames(code: string): Set<string> {
  const file = ts.createSourceFile('block.ts', code, ts.ScriptTarget.ES2022, true);
  const used = new Set<string>();
  const visit = (node: ts.Node) => {
    if (ts.isIdentifier(node) && !(ts.isPropertyAccessExpression(node.parent) && node.parent.name === node)) used.add(node.text);
    ts.forEachChild(node, visit);
  };
  visit(file);
  return used;
}

const GIVENS = readFileSync(join(root, 'test/helpers/readme-givens.ts'), 'utf8');
const givenNames = [...GIVENS.matchAll(/^export (?:const|function) (\w+)|^export \{ (\w+) \}/gm)].map((m) => (m[1] ?? m[2])!);

/** Each block as a module importing what it takes from earlier blocks and the givens. */
function modules(blocks: Block[]): string[] {
  const declaredIn = new Map<string, number>();
  return blocks.map((block, n) => {
    const own = new Set(declaredNames(block.code));
    const imports = new Map<string, string[]>();
    for (const name of usedNames(block.code)) {
      if (own.has(name)) continue;
      const from = declaredIn.has(name)
        ? `./block-${declaredIn.get(name)}`
        : givenNames.includes(name)
          ? '../helpers/readme-givens'
          : undefined;
      if (from) imports.set(from, [...(imports.get(from) ?? []), name]);
    }
    // What a block that is not run declares is not there for the blocks after it.
    if (!block.typecheckOnly) for (const name of own) declaredIn.set(name, n);
    const header = [...imports].map(([from, names]) => `import { ${names.join(', ')} } from '${from}';`).join(' ');
    // One header line, so that a block's line k is the module's line k + 1.
    return `${header}\n${block.code}\nexport { ${[...own].join(', ')} };\n`;
  });
}

/**
 * What a block says its `console.log` calls print: for each call, in order, the numbers of the
 * comment that follows it (on its line or the comment lines after it) when that comment shows a
 * value (starts with `{`, `[` or a digit); undefined for a call whose comment is prose or absent.
 */
function claimedOutputs(code: string): (string[] | undefined)[] {
  const lines = code.split('\n');
  const claims: (string[] | undefined)[] = [];
  lines.forEach((line, i) => {
    if (!/\bconsole\.log\(/.test(line)) return;
    const comments = [/\/\/\s?(.*)$/.exec(line)?.[1] ?? ''];
    for (let j = i + 1; j < lines.length && /^\s*\/\//.test(lines[j]!); j++) comments.push(lines[j]!.replace(/^\s*\/\/\s?/, ''));
    const shown = comments.filter((c) => /^\s*[{[\d]/.test(c)).join(' ');
    claims.push(shown ? numbersIn(shown) : undefined);
  });
  return claims;
}

const numbersIn = (text: string) => [...text.matchAll(/-?\d+(?:\.\d+)?(?:e-?\d+)?/g)].map((m) => m[0]);

/** Whether the numbers `printed` are those `claimed`, each rounded to the decimals the claim shows. */
function agrees(claimed: string[], printed: string[]): boolean {
  return (
    claimed.length <= printed.length &&
    claimed.every((c, i) => Number(Number(printed[i]).toFixed((c.split('.')[1] ?? '').length)) === Number(c))
  );
}

/** The module as written to disk to be run: entry names point at the sources, ports are ephemeral. */
function runnable(module: string): string {
  return module
    .replace(/from '(abkit(?:\/\w+)?)'/g, (whole, entry: string) =>
      ENTRY_SOURCES[entry] ? `from '${join(root, ENTRY_SOURCES[entry])}'` : whole,
    )
    .replace(/listen\(8080\)/g, 'listen(0)')
    .replace(/port: 8080\b/g, 'port: 0');
}

describe('README code blocks', () => {
  const blocks = readmeBlocks();
  const sources = modules(blocks);
  const dir = join(root, 'test/.readme');

  it('typecheck as one program, in order', { timeout: 120_000 }, () => {
    expect(blocks.filter((b) => b.typecheckOnly).length, 'blocks not run').toBeLessThanOrEqual(2);
    expect(blocks.length).toBeGreaterThan(8);
    const files = new Map(sources.map((text, n) => [join(dir, `block-${n}.ts`), text]));
    files.set(join(root, 'test/helpers/readme-givens.ts'), GIVENS);
    const errors = [...typecheck(files)].map(([path, messages]) => {
      const n = Number(/block-(\d+)\.ts$/.exec(path)?.[1]);
      return `README.md block at line ${blocks[n]?.line ?? '?'} (${path}):\n    ${messages.join('\n    ')}`;
    });
    expect(errors, errors.join('\n')).toEqual([]);
  });

  it('run in order, servers included', { timeout: 120_000 }, async () => {
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(dir, { recursive: true });
    const cwd = process.cwd();
    const work = mkdtempSync(join(tmpdir(), 'abkit-readme-'));
    process.chdir(work); // `sqliteStorage({ filename: 'abkit.db' })` and the like write here
    const closable = new Set<{ close(done: () => void): unknown; server?: unknown }>();
    // Per server a block started, the name it was exported under and the catalog registry its
    // handler serves (the latest `catalogs` declared when it started).
    const started = new Map<unknown, { name: string; catalogs: unknown }>();
    let latestCatalogs: unknown;
    // Schedules a block starts (catalog synchronization, polling): stopped at the end.
    const stoppable = new Set<{ stop(): void }>();
    try {
      for (const n of blocks.keys()) {
        // Written even when not run: a later block may import its declarations (typecheck only).
        writeFileSync(join(dir, `block-${n}.ts`), runnable(sources[n]!));
      }
      let ran = 0;
      let checkedClaims = 0;
      for (const [n, block] of blocks.entries()) {
        if (block.typecheckOnly) continue;
        let exported: Record<string, unknown>;
        const printed: string[] = [];
        const log = console.log;
        console.log = (...args: unknown[]) => {
          printed.push(format(...args));
          log(...args);
        };
        try {
          exported = await import(pathToFileURL(join(dir, `block-${n}.ts`)).href);
        } catch (error) {
          throw new Error(`README.md block at line ${block.line} failed: ${(error as Error).stack}`);
        } finally {
          console.log = log;
        }
        ran++;
        // What the block's comments say it prints is what it prints (when each call printed once).
        const claims = claimedOutputs(block.code);
        if (claims.length === printed.length) {
          claims.forEach((claim, i) => {
            if (!claim) return;
            expect(
              agrees(claim, numbersIn(printed[i]!)),
              `README.md block at line ${block.line}, console.log #${i + 1} claims ${claim.join(' ')}; it printed ${printed[i]}`,
            ).toBe(true);
            checkedClaims++;
          });
        }
        if (exported.catalogs !== undefined) latestCatalogs = exported.catalogs;
        for (const [name, value] of Object.entries(exported)) {
          const server = value instanceof Server ? value : (value as { server?: unknown } | null)?.server;
          if (server instanceof Server && typeof (value as { close?: unknown }).close === 'function') {
            closable.add(value as never);
            started.set(value, { name, catalogs: latestCatalogs });
          }
          if (typeof (value as { stop?: unknown } | null)?.stop === 'function') stoppable.add(value as { stop(): void });
        }
      }
      expect(ran).toBeGreaterThan(5);
      expect(checkedClaims, 'console.log outputs the README states').toBeGreaterThanOrEqual(3);
      expect(closable.size, 'servers started by the Bindings blocks (node:http, Express, Fastify, Hono)').toBe(4);
      // Every server a block started answers on its (ephemeral) port.
      for (const value of closable) {
        const server = (value instanceof Server ? value : value.server) as Server;
        if (!server.listening) await new Promise((listening) => server.once('listening', listening));
        const { port } = server.address() as { port: number };
        const response = await fetch(`http://127.0.0.1:${port}/health`);
        expect(response.status, `the server on port ${port} answers /health`).toBe(200);
        await response.arrayBuffer();
        await documentedRequests(`http://127.0.0.1:${port}`, started.get(value)!);
      }
    } finally {
      for (const value of stoppable) value.stop();
      for (const value of closable) {
        const server = (value instanceof Server ? value : value.server) as Server;
        server.closeAllConnections();
        await new Promise<void>((closed) => value.close(() => closed()));
      }
      process.chdir(cwd);
      rmSync(work, { recursive: true, force: true });
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

/**
 * What a framework's own body parsing could refuse reaches abkit through the server a Bindings
 * block started (issue #23): a 3 MB catalog batch (batches are taken up to 50 MB) is accepted,
 * invalid JSON gets abkit's JSON 400, a form-encoded token request is read (an unknown client:
 * abkit's 401 `invalid_client`, not a 415).
 */
async function documentedRequests(url: string, { name, catalogs }: { name: string; catalogs: unknown }): Promise<void> {
  const registry = catalogs as { create(input: { identifier: string }): Promise<{ catalogApiKey: string }> };
  expect(typeof registry?.create, `the catalogs served by ${name}`).toBe('function');
  const { catalogApiKey } = await registry.create({ identifier: `readme-${name}`.toLowerCase() });
  const description = 'A sturdy widget for everyday use, with a long description that makes each operation about 1.5 KB. '.repeat(14);
  const batch = Array.from({ length: 2_000 }, (_, i) => ({
    operation: 'create-replace',
    product: {
      id: `w${i}`,
      is_recommendable: true,
      name: `Widget ${i}`,
      absolute_link: null,
      img_link: null,
      price: i,
      categories_ids: null,
      description,
    },
  }));
  const body = JSON.stringify(batch);
  expect(body.length).toBeGreaterThan(3_000_000);
  const batchRes = await fetch(`${url}/indexes/catalog/batch`, {
    method: 'POST',
    headers: { authorization: `Bearer ${catalogApiKey}`, 'content-type': 'application/json' },
    body,
  });
  expect(`${batchRes.status} ${(await batchRes.text()).slice(0, 200)}`, `${name}: a 3 MB catalog batch`).toBe(
    '200 {"accepted":2000,"upserted":2000,"deleted":0}',
  );
  const invalid = await fetch(`${url}/v2/campaigns`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: '{"visitor_id": "v1",',
  });
  expect(`${invalid.status} ${invalid.headers.get('content-type')}`, `${name}: invalid JSON`).toBe('400 application/json');
  expect(await invalid.json(), `${name}: invalid JSON`).toEqual({ message: expect.any(String) });
  const form = new URLSearchParams({ grant_type: 'client_credentials', scope: '*', client_id: 'nobody', client_secret: 'nothing' });
  const token = await fetch(`${url}/acme/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: form,
  });
  expect(`${token.status} ${(await token.text()).slice(0, 200)}`, `${name}: a form-encoded token request`).toMatch(
    /^401 \{"error":"invalid_client"/,
  );
}
