/**
 * Targeting lists matched through structures built once per configuration, so a decision's
 * work on a list does not grow with the list: a set for equality, an automaton for containment,
 * tries for prefixes and suffixes, the extreme operand for an order, a set of precedence keys
 * for versions. Each test answers exactly what testing the operands one by one answers (any
 * operand; every one for the negative operators), including a value of another kind never
 * matching.
 *
 * @module
 */
import type { TargetingOperator } from '../model/bucketing-config';
import { Needles, reversed } from './automaton';
import { compareSemver, type SemVer } from '../model/semver';
import type { ContextValue, Operand } from './visitor-values';
import { lower, versionOf } from './visitor-values';

/**
 * Lists longer than this are matched through a structure; shorter ones operand by operand,
 * which costs at most this many times one comparison and needs no building.
 *
 * @internal
 */
export const SHORT_LIST = 8;

/** A list's test of a visitor's value (present, of any kind). */
export type ListTest = (actual: ContextValue) => boolean;

const never: ListTest = () => false;

/** The largest and smallest operands of a kind, by an order. */
function extremes<T extends object | string | number>(
  values: readonly T[],
  compare: (a: T, b: T) => number,
): { min: T; max: T } | undefined {
  if (values.length === 0) return undefined;
  let min = values[0]!;
  let max = min;
  for (const v of values) {
    if (compare(v, min) < 0) min = v;
    if (compare(v, max) > 0) max = v;
  }
  return { min, max };
}

/** Whether "some operand o has `value op o`" holds, knowing the operands' extremes. */
function orderAccepts(operator: TargetingOperator, cmpToMax: () => number, cmpToMin: () => number): boolean {
  switch (operator) {
    case 'LOWER_THAN':
    case 'SEMVER_LOWER_THAN':
      return cmpToMax() < 0;
    case 'LOWER_THAN_OR_EQUALS':
    case 'SEMVER_LOWER_THAN_OR_EQUALS':
      return cmpToMax() <= 0;
    case 'GREATER_THAN':
    case 'SEMVER_GREATER_THAN':
      return cmpToMin() > 0;
    default:
      return cmpToMin() >= 0;
  }
}

const compareText = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** A version's precedence as text: equal keys exactly when `compareSemver` answers 0. */
function precedenceKey(v: SemVer): string {
  // Numeric prerelease identifiers are numbers and the others never all digits, so joining is unambiguous.
  return `${v.major}.${v.minor}.${v.patch}-${v.pre.join('.')}`;
}

/**
 * The test of a compiled list (lower-cased strings, parsed versions) for its operator, or
 * undefined for the operators that take no list (EXISTS, NOT_EXISTS).
 *
 * @internal
 */
export function listTest(operator: TargetingOperator, operands: readonly Operand[]): ListTest | undefined {
  const strings = operands.filter((o): o is string => typeof o === 'string');
  switch (operator) {
    case 'EQUALS':
    case 'NOT_EQUALS': {
      const set = new Set<Operand>(operands);
      const key = (actual: ContextValue) => (typeof actual === 'string' ? lower(actual) : actual);
      if (operator === 'EQUALS') return (actual) => set.has(key(actual));
      // Every operand must be unequal, and an operand of another kind is never unequal.
      const count: Record<string, number> = { string: 0, number: 0, boolean: 0 };
      for (const o of operands) count[typeof o] = (count[typeof o] ?? 0) + 1;
      return (actual) => count[typeof actual] === operands.length && !set.has(key(actual));
    }
    case 'CONTAINS':
    case 'NOT_CONTAINS': {
      if (operator === 'NOT_CONTAINS' && strings.length !== operands.length) return never;
      const needles = new Needles(strings, true);
      const want = operator === 'CONTAINS';
      return (actual) => typeof actual === 'string' && needles.containsAny(lower(actual)) === want;
    }
    case 'STARTS_WITH': {
      const needles = new Needles(strings, false);
      return (actual) => typeof actual === 'string' && needles.prefixOf(lower(actual));
    }
    case 'ENDS_WITH': {
      const needles = new Needles(strings.map(reversed), false);
      return (actual) => typeof actual === 'string' && needles.suffixOf(lower(actual));
    }
    case 'LOWER_THAN':
    case 'LOWER_THAN_OR_EQUALS':
    case 'GREATER_THAN':
    case 'GREATER_THAN_OR_EQUALS': {
      const text = extremes(strings, compareText);
      const numbers = extremes(
        operands.filter((o): o is number => typeof o === 'number'),
        (a, b) => a - b,
      );
      return (actual) => {
        if (typeof actual === 'string') {
          if (!text) return false;
          const value = lower(actual);
          return orderAccepts(
            operator,
            () => compareText(value, text.max),
            () => compareText(value, text.min),
          );
        }
        if (typeof actual !== 'number' || !numbers) return false;
        return orderAccepts(
          operator,
          () => actual - numbers.max,
          () => actual - numbers.min,
        );
      };
    }
    case 'EXISTS':
    case 'NOT_EXISTS':
      return undefined;
    default: {
      // SEMVER_*: operands are parsed versions; the visitor's value must be a version string.
      const versions = operands as readonly SemVer[];
      const ofVisitor = (actual: ContextValue) => (typeof actual === 'string' ? versionOf(actual) : undefined);
      if (operator === 'SEMVER_EQUALS' || operator === 'SEMVER_NOT_EQUALS') {
        const keys = new Set(versions.map(precedenceKey));
        const want = operator === 'SEMVER_EQUALS';
        return (actual) => {
          const version = ofVisitor(actual);
          return version !== undefined && keys.has(precedenceKey(version)) === want;
        };
      }
      const range = extremes(versions, compareSemver)!;
      return (actual) => {
        const version = ofVisitor(actual);
        return (
          version !== undefined &&
          orderAccepts(
            operator,
            () => compareSemver(version, range.max),
            () => compareSemver(version, range.min),
          )
        );
      };
    }
  }
}
