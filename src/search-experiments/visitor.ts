/**
 * The visitor a search or autocomplete request names (`visitorId`, `context[key]=value`), for
 * {@link SearchExperiments.decide}: checked with the decision interface's limits.
 *
 * @module
 */
import { contextProblems, idLengthProblem, requireId } from '../decision/limits';
import type { ContextValue, VisitorContext } from '../decision/visitor-values';
import type { ErrorDetail } from '../errors';
import { failWith } from '../validation';

/**
 * The visitor of a request's parsed query parameters, or undefined when it names none. Context
 * values arrive as text: `true` and `false` are read as booleans and a number written as
 * JavaScript writes it (`42`, `-1.5`, not `042`) as a number, so targeting compares them as
 * `/v2` would; anything else stays a string. A bad id or context is an {@link abkit!ValidationError}
 * naming the parameter.
 *
 * @example
 * ```ts
 * const visitor = searchVisitorOf({ visitorId: 'v1', context: { plan: 'gold', age: '31' } });
 * // { visitorId: 'v1', context: { plan: 'gold', age: 31 } }
 * ```
 */
export function searchVisitorOf(params: Readonly<Record<string, unknown>>): { visitorId: string; context?: VisitorContext } | undefined {
  const { visitorId, context } = params;
  if (visitorId === undefined) {
    if (context !== undefined) failWith([{ path: ['context'], message: 'is read only with a visitorId' }]);
    return undefined;
  }
  const details: ErrorDetail[] = [];
  requireId(visitorId, ['visitorId'], details);
  idLengthProblem(visitorId, ['visitorId'], details);
  let read: Record<string, ContextValue> | undefined;
  if (context !== undefined) {
    if (context === null || typeof context !== 'object' || Array.isArray(context)) {
      details.push({ path: ['context'], message: 'must be given as context[key]=value' });
    } else {
      read = {};
      for (const [key, value] of Object.entries(context)) {
        if (typeof value === 'string') read[key] = contextValueOf(value);
        else details.push({ path: ['context', key.slice(0, 64)], message: 'must be one value (context[key]=value)' });
      }
      contextProblems(read, ['context'], details);
    }
  }
  if (details.length > 0) failWith(details);
  return { visitorId: visitorId as string, ...(read ? { context: read } : {}) };
}

function contextValueOf(text: string): ContextValue {
  if (text === 'true') return true;
  if (text === 'false') return false;
  const n = Number(text);
  return text !== '' && Number.isFinite(n) && String(n) === text ? n : text;
}
