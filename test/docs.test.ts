import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  Application,
  ReflectionKind,
  type Comment,
  type ContainerReflection,
  type DeclarationReflection,
  type ProjectReflection,
  type Reflection,
} from 'typedoc';
import { beforeAll, describe, expect, it } from 'vitest';
import { ENTRY_SOURCES, root, typecheck } from './helpers/typecheck';

// The exported names the issue requires an example for (Enum too, should one appear).
const CHECKED =
  ReflectionKind.Variable |
  ReflectionKind.Function |
  ReflectionKind.Class |
  ReflectionKind.Interface |
  ReflectionKind.TypeAlias |
  ReflectionKind.Enum;

const hasExample = (comment: Comment | undefined) => comment?.blockTags.some((tag) => tag.tag === '@example') ?? false;

/** `module.name` of every checked export, under the project or its modules, that has no `@example` block. */
function withoutExample(container: ContainerReflection, prefix = ''): string[] {
  const missing: string[] = [];
  for (const child of container.children ?? []) {
    if (child.kindOf(ReflectionKind.Module | ReflectionKind.Namespace)) {
      missing.push(...withoutExample(child, `${prefix}${child.name}.`));
      continue;
    }
    if (!child.kindOf(CHECKED)) continue;
    const reflection = child as DeclarationReflection;
    const documented = hasExample(reflection.comment) || (reflection.signatures ?? []).some((s) => hasExample(s.comment));
    if (!documented) missing.push(`${prefix}${child.name} (${ReflectionKind[child.kind]})`);
  }
  return missing;
}

/** One fenced code block of an `@example`, and where it is documented. */
interface Example {
  module: string;
  name: string;
  code: string;
}

/** The fenced TypeScript blocks of every `@example` in the project (members and signatures included). */
function examplesOf(project: ProjectReflection): Example[] {
  const examples: Example[] = [];
  const seen = new Set<string>();
  const visit = (reflection: Reflection, module: string) => {
    const comments = [reflection.comment, ...((reflection as DeclarationReflection).signatures ?? []).map((s) => s.comment)];
    for (const comment of comments) {
      for (const tag of comment?.blockTags ?? []) {
        if (tag.tag !== '@example') continue;
        const text = tag.content.map((part) => part.text).join('');
        for (const m of text.matchAll(/```(?:ts|typescript)\n([\s\S]*?)```/g)) {
          // A value example on an option (`@example \`'abkit'\``), which typedoc fences as code, is not a program.
          if (m[1]!.startsWith('`')) continue;
          // A method's comment is both its reflection's and its signature's.
          const key = `${reflection.getFriendlyFullName()}\n${m[1]}`;
          if (!seen.has(key)) examples.push({ module, name: reflection.getFriendlyFullName(), code: m[1]! });
          seen.add(key);
        }
      }
    }
    reflection.traverse((child) => visit(child, reflection.kindOf(ReflectionKind.Module) ? reflection.name : module));
  };
  visit(project, 'abkit');
  return examples;
}

/** Names declared or imported by a snippet, which it must not be given again. */
const ownNames = (code: string) =>
  new Set([
    ...[...code.matchAll(/import\s+(?:type\s+)?\{([^}]*)\}/g)].flatMap((m) =>
      m[1]!.split(',').map((n) =>
        n
          .replace(/^\s*type\s+/, '')
          .split(/\s+as\s+/)
          .pop()!
          .trim(),
      ),
    ),
    ...[...code.matchAll(/\b(?:const|let|var|function|class|interface|type)\s+([A-Za-z_$][\w$]*)/g)].map((m) => m[1]!),
  ]);

/**
 * A snippet as a module of its own: it imports, from the entry it documents (else the first
 * entry exporting it), every exported name it uses without importing it, since examples leave
 * out the obvious imports; the free variables they assume (`engine`, `storage`, …) are declared
 * by test/helpers/example-context.ts.
 */
function asModule(example: Example, exportsByEntry: Map<string, Set<string>>): string {
  const own = ownNames(example.code);
  const used = new Set(example.code.match(/[A-Za-z_$][\w$]*/g));
  const entries = [example.module, ...[...exportsByEntry.keys()].filter((e) => e !== example.module)];
  const imports = new Map<string, string[]>();
  const given = new Set<string>();
  for (const entry of entries) {
    for (const name of exportsByEntry.get(entry) ?? []) {
      if (!used.has(name) || own.has(name) || given.has(name)) continue;
      given.add(name);
      imports.set(entry, [...(imports.get(entry) ?? []), name]);
    }
  }
  const header = [...imports].map(([entry, names]) => `import { ${names.join(', ')} } from '${entry}';`).join(' ');
  // One line of header, so that error line numbers are the snippet's plus one.
  return `${header}\n${example.code}\nexport {};\n`;
}

describe('API documentation', () => {
  let project: ProjectReflection;
  beforeAll(async () => {
    // Entry points and exclusions come from typedoc.json, as for `npm run docs`.
    const app = await Application.bootstrapWithPlugins({
      options: join(root, 'typedoc.json'),
      tsconfig: join(root, 'tsconfig.build.json'),
      skipErrorChecking: true, // `tsc --noEmit` checks types; these tests read comments
      logLevel: 'Warn',
    });
    const converted = await app.convert();
    expect(converted, 'typedoc could not convert the entry points').toBeDefined();
    project = converted!;
  }, 120_000);

  it('every exported name has an @example', () => {
    const missing = withoutExample(project);
    expect(missing, `exports without an @example:\n  ${missing.join('\n  ')}`).toEqual([]);
  });

  it('names its modules after the entry points', () => {
    expect(project.children!.map((m) => m.name).sort()).toEqual(Object.keys(ENTRY_SOURCES).sort());
  });

  it('every @example typechecks against the entry points', { timeout: 120_000 }, () => {
    const exportsByEntry = new Map(project.children!.map((m) => [m.name, new Set((m.children ?? []).map((c) => c.name))]));
    const examples = examplesOf(project);
    expect(examples.length).toBeGreaterThan(100);
    const context = join(root, 'test/helpers/example-context.ts');
    const files = new Map([[context, readFileSync(context, 'utf8')]]);
    const labels = new Map<string, string>();
    examples.forEach((example, i) => {
      const path = join(root, `test/.examples/example-${i}.ts`);
      files.set(path, asModule(example, exportsByEntry));
      labels.set(path, `${example.module} ${example.name}`);
    });
    const errors = [...typecheck(files)].map(
      ([path, messages]) =>
        `${labels.get(path) ?? path}:\n    ${messages.join('\n    ')}\n    in: ${files.get(path)!.split('\n').slice(1).join('\n        ')}`,
    );
    expect(errors, `${errors.length} examples do not typecheck:\n  ${errors.join('\n  ')}`).toEqual([]);
  });
});
