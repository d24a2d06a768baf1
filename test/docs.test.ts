import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Application, ReflectionKind, type Comment, type ContainerReflection, type DeclarationReflection } from 'typedoc';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('..', import.meta.url));

// The exported names the issue requires an example for (Enum too, should one appear).
const CHECKED = ReflectionKind.Variable | ReflectionKind.Function | ReflectionKind.Class | ReflectionKind.Interface | ReflectionKind.TypeAlias | ReflectionKind.Enum;

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

describe('API documentation', () => {
  it('every exported name has an @example', { timeout: 60_000 }, async () => {
    // Entry points and exclusions come from typedoc.json, as for `npm run docs`.
    const app = await Application.bootstrapWithPlugins({
      options: join(root, 'typedoc.json'),
      tsconfig: join(root, 'tsconfig.build.json'),
      skipErrorChecking: true, // `tsc --noEmit` checks types; this test only reads comments
      logLevel: 'Warn',
    });
    const project = await app.convert();
    expect(project, 'typedoc could not convert the entry points').toBeDefined();
    const missing = withoutExample(project!);
    expect(missing, `exports without an @example:\n  ${missing.join('\n  ')}`).toEqual([]);
  });
});
