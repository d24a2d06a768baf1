import { defineConfig } from 'tsup';

export default defineConfig({
  entry: { index: 'src/index.ts', sqlite: 'adapters/sql/sqlite.ts', postgres: 'adapters/sql/postgres.ts' },
  format: ['esm', 'cjs'],
  dts: { compilerOptions: { composite: false } },
  tsconfig: "tsconfig.build.json",
  clean: true,
  sourcemap: true,
  target: 'node20',
});
