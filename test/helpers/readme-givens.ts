/**
 * What the README's code blocks take as given: the reader's own data and tools, which the text
 * around a block names ("your Flagship bucketing file"). test/readme.test.ts imports a name from
 * here into a block that uses it when no earlier block declares it.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Visitor } from '@flagship.io/js-sdk';
import type { BucketingConfig } from '../../src/index';
import { root } from './typecheck';

/** A Flagship bucketing file: the demo's production configuration (examples/demo/bootstrap.json). */
export const bucketingFile: BucketingConfig = JSON.parse(readFileSync(join(root, 'examples/demo/bootstrap.json'), 'utf8')).accounts[0]
  .environments[0].bucketing;

/** An environment API key, as a host application keeps it. */
export const apiKey = 'a-demo-key-of-32-characters-long';

/** vitest's `expect`, for the block about unit-testing a business rule. */
export { expect } from 'vitest';

/**
 * A visitor of the Flagship JS SDK: typechecked only (the blocks that use it talk to the
 * reader's abkit over the network, so they are not run).
 */
export const visitor = undefined as unknown as Visitor;
