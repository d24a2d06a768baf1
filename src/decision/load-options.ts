/**
 * Where and how `DecisionEngine.load` files a configuration: the environment, its account and
 * the API key the decision interface will then require.
 *
 * @module
 */

/**
 * Shortest environment API key {@link abkit!DecisionEngine.load} accepts: a shorter one could be
 * guessed by trying.
 *
 * @example
 * ```ts
 * const apiKey = crypto.randomUUID(); // 36 characters, well over MIN_API_KEY_LENGTH (16)
 * await engine.load(bucketingFile, { environment: 'prod', apiKey });
 * ```
 */
export const MIN_API_KEY_LENGTH = 16;

/**
 * Where {@link abkit!DecisionEngine.load} files a configuration.
 *
 * @example
 * ```ts
 * const options: LoadOptions = { environment: 'prod', account: 'acme', apiKey: process.env.DECISION_API_KEY };
 * await engine.load(bucketingFile, options);
 * ```
 */
export interface LoadOptions {
  /** @defaultValue the engine's `defaultEnvironment` */
  environment?: string;
  /** @defaultValue the engine's `defaultAccount` */
  account?: string;
  /**
   * API key the decision interface then requires in `x-api-key`, at least 16 characters
   * (a shorter key is guessable); stored as its hash (see `pepper`). `null` removes it.
   */
  apiKey?: string | null;
  /**
   * Write only if the stored version is this one (0: only if the environment does not exist);
   * otherwise `ConflictError`. @defaultValue none: always write
   */
  expectedVersion?: number;
}
