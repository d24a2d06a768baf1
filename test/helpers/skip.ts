/**
 * Tests that need what a machine may lack (the Best Buy data in ../shared/data, PostgreSQL,
 * Docker, a build in dist/) skip without it. Vitest shows a skipped test or suite by its name
 * alone, so a skipped one carries the reason in its name.
 */
import { describe, it } from 'vitest';

/** What a suite needs: whether this machine has it, and what is missing when it has not. */
export interface Need {
  readonly met: boolean;
  readonly missing: string;
}

/** A need met when `met` is true, else missing `missing` (e.g. `'dist/ is absent'`). */
export function need(met: boolean, missing: string): Need {
  return { met, missing };
}

/** `name`, with why it is skipped when `need` is not met. */
export function nameFor(need: Need, name: string): string {
  return need.met ? name : `${name} (skipped: ${need.missing})`;
}

/** `describe` when `need` is met; else the suite skipped, the reason in its name. */
export function describeIf(need: Need, name: string, suite: () => void): void {
  (need.met ? describe : describe.skip)(nameFor(need, name), suite);
}

/** `it` when `need` is met; else the test skipped, the reason in its name. */
export function itIf(need: Need, name: string, test: () => unknown, timeout?: number): void {
  (need.met ? it : it.skip)(nameFor(need, name), test, timeout);
}
