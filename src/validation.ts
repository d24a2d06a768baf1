/**
 * Shared zod helpers: every boundary parses with zod and reports problems by JSON path.
 *
 * @module
 */
import type { z } from 'zod';
import { formatPath, ValidationError, type ErrorDetail, type ErrorPath } from './errors';

/** Converts a zod error into the {@link ErrorDetail} list of a {@link ValidationError}. */
export function zodDetails(error: z.ZodError, prefix: ErrorPath = []): ErrorDetail[] {
  return error.issues.map((issue) => ({
    path: [...prefix, ...issue.path.map((p) => (typeof p === 'number' ? p : String(p)))],
    message: issue.message,
  }));
}

/**
 * Throws a {@link ValidationError} whose message names every problem by its path
 * (`[0].visitorId must be a non-empty string; …`), after `what` when given.
 */
export function failWith(details: readonly ErrorDetail[], what = ''): never {
  const summary = details.map((d) => `${formatPath(d.path)} ${d.message}`).join('; ');
  throw new ValidationError(what === '' ? summary : `${what}: ${summary}`, details);
}

/** Throws a {@link ValidationError} naming every problem, or returns the parsed value. */
export function parseWith<T extends z.ZodType>(schema: T, input: unknown, what: string): z.infer<T> {
  const result = schema.safeParse(input);
  if (result.success) return result.data;
  const details = zodDetails(result.error);
  const summary = details.map((d) => `${formatPath(d.path)}: ${d.message}`).join('; ');
  throw new ValidationError(`invalid ${what}: ${summary}`, details);
}

/**
 * Whether `value` nests arrays and objects more than `max` levels deep (a scalar is level 0).
 * It stops at `max` levels, so it is safe on any input; a cycle counts as too deep.
 */
export function nestingExceeds(value: unknown, max: number): boolean {
  return value !== null && typeof value === 'object' && deeperThan(value, 1, max);
}

// Recursion stops at `max` levels, so the stack stays shallow whatever the value.
function deeperThan(value: object, level: number, max: number): boolean {
  if (level > max) return true;
  if (Array.isArray(value)) {
    for (const child of value) if (child !== null && typeof child === 'object' && deeperThan(child, level + 1, max)) return true;
  } else {
    for (const key in value) {
      if (!Object.hasOwn(value, key)) continue;
      const child = (value as Record<string, unknown>)[key];
      if (child !== null && typeof child === 'object' && deeperThan(child, level + 1, max)) return true;
    }
  }
  return false;
}
