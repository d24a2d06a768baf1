import { defineConfig } from 'vitest/config';

/**
 * `npm run test:stress`: the reliability stress suite (test/stress/*.stress.ts, never matched by
 * `npm test`'s `*.test.ts`). One file at a time, so the figures it prints are not skewed by its
 * own other files.
 */
export default defineConfig({
  test: {
    include: ['test/stress/**/*.stress.ts'],
    testTimeout: 600_000,
    hookTimeout: 120_000,
    pool: 'forks',
    fileParallelism: false,
  },
});
