import { defineConfig } from 'vitest/config';

/**
 * Two projects. `unit`: in-process tests of the library and its handlers (`npx vitest run
 * --project unit`, the quick loop while working). `integration`: what crosses a process, a
 * socket, a database or third-party data: child processes (multiprocess, SIGKILL, the demo
 * server), real HTTP servers, SQLite files, PostgreSQL, the Best Buy data, the built package and
 * its docs. `npm test` runs both.
 */
const INTEGRATION = [
  'test/adapters/multiprocess.test.ts',
  'test/adapters/sigkill.test.ts',
  'test/adapters/postgres.test.ts',
  'test/adapters/sqlite.test.ts',
  'test/adapters/persistence.test.ts',
  'test/adapters/outage.test.ts',
  'test/adapters/round-trips.test.ts',
  'test/adapters/visible-paging.test.ts',
  'test/examples/**/*.test.ts',
  'test/server/serve.test.ts',
  'test/server/package.test.ts',
  'test/server/docker.test.ts',
  'test/server/edge.test.ts',
  'test/server/log-output.test.ts',
  'test/node/**/*.test.ts',
  'test/http/flagship-sdk.test.ts',
  'test/flagship/**/*.test.ts',
  'test/http/search.test.ts',
  'test/**/bestbuy.test.ts',
  'test/search/property.test.ts',
  'test/packaging.test.ts',
  'test/docs.test.ts',
  'test/readme.test.ts',
  'test/console/console.test.ts',
];

export default defineConfig({
  test: {
    testTimeout: 30_000,
    pool: 'forks',
    projects: [
      { extends: true, test: { name: 'unit', include: ['test/**/*.test.ts'], exclude: INTEGRATION } },
      { extends: true, test: { name: 'integration', include: INTEGRATION } },
    ],
  },
});
