import { defineConfig } from 'tsup';

const common = { format: ['esm', 'cjs'] as ('esm' | 'cjs')[], tsconfig: 'tsconfig.build.json', sourcemap: true, target: 'node20' as const };

export default defineConfig([
  {
    ...common,
    entry: {
      index: 'src/index.ts',
      http: 'src/http/index.ts',
      types: 'src/types.ts',
      sqlite: 'adapters/sql/sqlite.ts',
      postgres: 'adapters/sql/postgres.ts',
      node: 'node/index.ts',
      flagship: 'src/flagship/index.ts',
      openfeature: 'src/openfeature/index.ts',
    },
    // The OpenFeature SDK is the user's (an optional peer dependency), never bundled.
    external: ['@openfeature/server-sdk'],
    dts: { compilerOptions: { composite: false } },
    clean: true,
  },
  // The `abkit` command: one ESM file run by node (no tsx at run time).
  {
    ...common,
    entry: { cli: 'server/cli.ts' },
    format: ['esm'],
    banner: { js: '#!/usr/bin/env node' },
    external: ['better-sqlite3', 'pg', 'pino', 'prom-client'],
  },
]);
