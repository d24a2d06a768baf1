import { defineConfig } from 'tsup';

export default defineConfig({
  entry: { index: 'src/index.ts' },
  format: ['esm', 'cjs'],
  dts: { compilerOptions: { composite: false } },
  tsconfig: "tsconfig.build.json",
  clean: true,
  sourcemap: true,
  target: 'node20',
});
