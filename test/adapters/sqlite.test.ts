import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll } from 'vitest';
import { sqliteStorage } from '../../adapters/sql/sqlite';
import { runConformance } from './conformance';

const dir = mkdtempSync(join(tmpdir(), 'abkit-sqlite-'));
let n = 0;
afterAll(() => rmSync(dir, { recursive: true, force: true }));

runConformance('sqlite :memory:', () => sqliteStorage({ filename: ':memory:' }));
runConformance('sqlite file', () => sqliteStorage({ filename: join(dir, `conformance-${n++}.db`) }));
