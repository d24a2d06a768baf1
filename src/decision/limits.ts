/**
 * Limits on what a decision request carries, checked where values enter the library
 * (`DecisionEngine.decide` and its siblings, `activate`, `track`) and by the HTTP schemas of the
 * decision interface, which name the wire field. Every value a request makes abkit store or echo
 * is bounded here, so what one request can make the server hold is bounded too.
 *
 * @module
 */
import type { ErrorDetail, ErrorPath } from '../errors';

/**
 * Limits of a decision request (interfaces.md, Limits):
 *
 * - `idLength`: visitor and anonymous ids (`visitor_id`, `anonymous_id`, `vid`, `aid`, the
 *   `visitor_id` of an event), in UTF-16 code units (JavaScript's `length`). Ids are stored with
 *   every assignment and activation and echoed in each answer. SDKs send UUIDs (36) or
 *   internal ids; the longest common natural id, an e-mail address, is at most 254 (RFC 5321).
 *   LaunchDarkly draws its context-key line at 256 as well.
 * - `contextKeys`: keys of one context. Flagship's SDKs add about 20 predefined keys
 *   (`fs_*`, `sdk_*`); a shop targeting on a few dozen attributes of its own stays far below.
 * - `contextKeyLength`: one key, as a targeting key names it.
 * - `contextValueLength`: one string value. The longest real values are page URLs and user
 *   agents; 8,192 is the request line a default nginx accepts (`large_client_header_buffers`),
 *   so no URL a shop serves is longer. Targeting reads a value once (an automaton pass over
 *   it), so this bounds a decision's work on a value as well.
 * - `activationsPerCall`: activations of one `activate` call or `/v2/activate` batch, as
 *   conversion events (`MAX_EVENTS_PER_CALL`).
 *
 * @example
 * ```ts
 * const visitorId = crypto.randomUUID(); // 36 characters; over DECISION_LIMITS.idLength (256) is a 400
 * if (visitorId.length <= DECISION_LIMITS.idLength) await engine.decide({ visitorId, context: { plan: 'gold' } });
 * ```
 */
export const DECISION_LIMITS = Object.freeze({
  idLength: 256,
  contextKeys: 200,
  contextKeyLength: 256,
  contextValueLength: 8192,
  activationsPerCall: 1000,
});

/** Records a problem unless `value` is a non-empty string. */
export function requireId(value: unknown, path: ErrorPath, details: ErrorDetail[]): void {
  if (typeof value !== 'string' || value === '') details.push({ path, message: 'must be a non-empty string' });
}

/** Pushes a detail when a present id is longer than the limit; `path` names it as the caller knows it. */
export function idLengthProblem(value: unknown, path: ErrorPath, details: ErrorDetail[]): void {
  if (typeof value === 'string' && value.length > DECISION_LIMITS.idLength) details.push({ path, message: idTooLong(value.length) });
}

/** The message of an id over the limit. */
export function idTooLong(length: number): string {
  return `is ${length} characters long; the limit is ${DECISION_LIMITS.idLength}`;
}

/**
 * Pushes a detail for each problem of a context object (already known to be a plain object):
 * too many keys, a key too long, a value of another kind or a string value too long. At most
 * one detail per key, and the scan stops at the first key past the count limit.
 */
export function contextProblems(context: Readonly<Record<string, unknown>>, path: ErrorPath, details: ErrorDetail[]): void {
  let keys = 0;
  for (const key in context) {
    if (++keys > DECISION_LIMITS.contextKeys) {
      details.push({ path, message: `holds more than the limit of ${DECISION_LIMITS.contextKeys} keys` });
      return;
    }
    const value = context[key];
    if (key.length > DECISION_LIMITS.contextKeyLength) {
      details.push({
        path: [...path, key.slice(0, 64)],
        message: `key is ${key.length} characters long; the limit is ${DECISION_LIMITS.contextKeyLength}`,
      });
    } else if (typeof value === 'string') {
      if (value.length > DECISION_LIMITS.contextValueLength)
        details.push({
          path: [...path, key],
          message: `is ${value.length} characters long; the limit is ${DECISION_LIMITS.contextValueLength}`,
        });
    } else if (typeof value !== 'boolean' && !(typeof value === 'number' && Number.isFinite(value))) {
      details.push({ path: [...path, key], message: 'must be a boolean, a number or a string' });
    }
  }
}

/**
 * Whether a context (a plain object) is within the limits and holds only valid values: the
 * check of a decision's hot path, which allocates nothing.
 */
export function contextWithinLimits(context: Readonly<Record<string, unknown>>): boolean {
  let keys = 0;
  for (const key in context) {
    if (++keys > DECISION_LIMITS.contextKeys || key.length > DECISION_LIMITS.contextKeyLength) return false;
    const value = context[key];
    // Each `typeof value === …` written out: a kind kept in a variable is computed by a call.
    if (typeof value === 'string') {
      if (value.length > DECISION_LIMITS.contextValueLength) return false;
    } else if (typeof value !== 'boolean' && !(typeof value === 'number' && Number.isFinite(value))) return false;
  }
  return true;
}
