/**
 * How targeting reads a visitor's values: lower-cased once, and versions parsed once.
 *
 * @module
 */
import { parseSemver, type SemVer } from '../model/semver';

/**
 * A context value: what the decision interface accepts for each context key.
 *
 * @example
 * ```ts
 * const context: Record<string, ContextValue> = { plan: 'gold', age: 31, isVip: true };
 * await engine.decide({ visitorId: 'v1', context });
 * ```
 */
export type ContextValue = string | number | boolean;

/**
 * A visitor's context: arbitrary keys to boolean, number or string values.
 *
 * @example
 * ```ts
 * const context: VisitorContext = { country: 'fr', appVersion: '2.4.1', isVip: false };
 * await engine.decide({ visitorId: 'v1', context });
 * ```
 */
export type VisitorContext = Readonly<Record<string, ContextValue>>;

/**
 * A targeting value after compilation: lower-cased strings and parsed versions.
 *
 * @example
 * ```ts
 * const operands: Operand[] = ['gold', 'platinum']; // `value: ['Gold', 'Platinum']`: strings are lower-cased once
 * const version: Operand = { major: 2, minor: 1, patch: 0, pre: [] }; // a SEMVER_* value, parsed once
 * ```
 */
export type Operand = string | number | boolean | SemVer;

/**
 * Lower-cases without allocating when the text has no upper-case letter, which is the common
 * case for context values.
 */
export function lower(text: string): string {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if ((c >= 65 && c <= 90) || c >= 128) return text.toLowerCase();
  }
  return text;
}

// Visitors' versions have few distinct values: parse each once. Bounded in entries (cleared
// when full) and in key length, so at most 4096 x 256 characters are kept whatever visitors
// send: a value over 256 characters is not a version (npm's semver draws the same line).
const versions = new Map<string, SemVer | null>();
const MAX_VERSIONS = 4096;
const MAX_VERSION_LENGTH = 256;

/** A visitor's value as a version, or undefined when it is not one. */
export function versionOf(text: string): SemVer | undefined {
  if (text.length > MAX_VERSION_LENGTH) return undefined;
  let v = versions.get(text);
  if (v === undefined) {
    if (versions.size >= MAX_VERSIONS) versions.clear();
    v = parseSemver(text) ?? null;
    versions.set(text, v);
  }
  return v ?? undefined;
}
