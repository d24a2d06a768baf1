/**
 * Targeting: pure functions that compile targeting rules once and evaluate them against a
 * visitor's context.
 *
 * Rules (docs/interfaces.md, Targeting and bucketing): targetings of a group are ANDed, groups are ORed; string comparisons are
 * case-insensitive; there is no type coercion, so a value of another kind never matches; a
 * missing context key matches only `NOT_EXISTS` (and `EXISTS` with value `false`); a list value
 * means "any" for positive operators and "all" for `NOT_EQUALS`, `NOT_CONTAINS` and
 * `SEMVER_NOT_EQUALS`; key `fs_all_users` always matches and key `fs_users` reads the visitor id.
 *
 * @module
 */
import type { Targeting, TargetingOperator } from '../model/bucketing-config';
import { compareSemver, parseSemver, type SemVer } from '../model/semver';
import { lower, versionOf, type ContextValue, type Operand, type VisitorContext } from './visitor-values';
import { listTest, SHORT_LIST, type ListTest } from './list-match';

/**
 * A targeting rule compiled once per configuration version.
 *
 * @example
 * ```ts
 * const source: Targeting = { key: 'appVersion', operator: 'SEMVER_GREATER_THAN', value: '2.1.0' };
 * const rule: CompiledTargeting = { key: 'appVersion', operator: 'SEMVER_GREATER_THAN', always: false, operands: [{ major: 2, minor: 1, patch: 0, pre: [] }], all: false, wantPresent: true, source };
 * ```
 */
export interface CompiledTargeting {
  readonly key: string;
  readonly operator: TargetingOperator;
  /** `fs_all_users`: matches every visitor. */
  readonly always: boolean;
  /** Compiled operands; several for a list value. */
  readonly operands: readonly Operand[];
  /** Whether every operand must match (negative operators) rather than any. */
  readonly all: boolean;
  /**
   * For a list of more than a few operands: its test of a visitor's value through a structure
   * built here once (a set, an automaton…), answering what the operands one by one would.
   */
  readonly list?: (actual: ContextValue) => boolean;
  /** For EXISTS / NOT_EXISTS: whether the rule wants the key present. */
  readonly wantPresent: boolean;
  /** The rule as written, for explanations. */
  readonly source: Targeting;
}

/**
 * A targeting group: every targeting must match.
 *
 * @example
 * ```ts
 * const country: CompiledTargeting = { key: 'country', operator: 'EQUALS', always: false, operands: ['fr', 'be'], all: false, wantPresent: true, source: { key: 'country', operator: 'EQUALS', value: ['FR', 'BE'] } };
 * const plan: CompiledTargeting = { key: 'plan', operator: 'NOT_EQUALS', always: false, operands: ['free'], all: true, wantPresent: true, source: { key: 'plan', operator: 'NOT_EQUALS', value: 'free' } };
 * const group: CompiledTargetingGroup = [country, plan]; // country in (fr, be) and plan ≠ free
 * ```
 */
export type CompiledTargetingGroup = readonly CompiledTargeting[];

const NEGATIVE = new Set<TargetingOperator>(['NOT_EQUALS', 'NOT_CONTAINS', 'SEMVER_NOT_EQUALS']);

/**
 * Compiles one validated targeting rule.
 *
 * @example
 * ```ts
 * const rule = compileTargeting({ key: 'country', operator: 'EQUALS', value: ['FR', 'BE'] });
 * matchTargeting(rule, { country: 'be' }, 'visitor-1'); // true: any listed value, case-insensitive
 * ```
 */
export function compileTargeting(t: Targeting): CompiledTargeting {
  const raw = t.value === undefined ? [] : Array.isArray(t.value) ? t.value : [t.value];
  const semver = t.operator.startsWith('SEMVER_');
  const operands = raw.map((v): Operand => {
    if (semver) return parseSemver(String(v))!;
    return typeof v === 'string' ? v.toLowerCase() : v;
  });
  const existence = t.operator === 'EXISTS' || t.operator === 'NOT_EXISTS';
  const flag = t.value !== false;
  const always = t.key === 'fs_all_users';
  const list: ListTest | undefined = !always && operands.length > SHORT_LIST ? listTest(t.operator, operands) : undefined;
  return {
    key: t.key,
    operator: t.operator,
    always,
    operands,
    all: NEGATIVE.has(t.operator),
    wantPresent: existence ? (t.operator === 'EXISTS') === flag : true,
    ...(list ? { list } : {}),
    source: t,
  };
}

function compareOrdered(actual: string | number, expected: Operand): number | undefined {
  if (typeof actual === 'number') return typeof expected === 'number' ? actual - expected : undefined;
  if (typeof expected !== 'string') return undefined;
  const a = lower(actual);
  return a < expected ? -1 : a > expected ? 1 : 0;
}

function matchOne(op: TargetingOperator, actual: ContextValue, expected: Operand): boolean {
  switch (op) {
    case 'EQUALS':
    case 'NOT_EQUALS': {
      let equal: boolean;
      if (typeof actual === 'string') {
        if (typeof expected !== 'string') return false;
        equal = lower(actual) === expected;
      } else {
        if (typeof actual !== typeof expected) return false;
        equal = actual === expected;
      }
      return op === 'EQUALS' ? equal : !equal;
    }
    case 'CONTAINS':
    case 'NOT_CONTAINS': {
      if (typeof actual !== 'string' || typeof expected !== 'string') return false;
      const found = lower(actual).includes(expected);
      return op === 'CONTAINS' ? found : !found;
    }
    case 'STARTS_WITH':
      return typeof actual === 'string' && typeof expected === 'string' && lower(actual).startsWith(expected);
    case 'ENDS_WITH':
      return typeof actual === 'string' && typeof expected === 'string' && lower(actual).endsWith(expected);
    case 'LOWER_THAN':
    case 'LOWER_THAN_OR_EQUALS':
    case 'GREATER_THAN':
    case 'GREATER_THAN_OR_EQUALS': {
      if (typeof actual === 'boolean') return false;
      const cmp = compareOrdered(actual, expected);
      if (cmp === undefined) return false;
      if (op === 'LOWER_THAN') return cmp < 0;
      if (op === 'LOWER_THAN_OR_EQUALS') return cmp <= 0;
      if (op === 'GREATER_THAN') return cmp > 0;
      return cmp >= 0;
    }
    default: {
      // SEMVER_*: the visitor value must itself be a version string.
      if (typeof actual !== 'string') return false;
      const version = versionOf(actual);
      if (!version) return false;
      const cmp = compareSemver(version, expected as SemVer);
      switch (op) {
        case 'SEMVER_EQUALS':
          return cmp === 0;
        case 'SEMVER_NOT_EQUALS':
          return cmp !== 0;
        case 'SEMVER_LOWER_THAN':
          return cmp < 0;
        case 'SEMVER_LOWER_THAN_OR_EQUALS':
          return cmp <= 0;
        case 'SEMVER_GREATER_THAN':
          return cmp > 0;
        default:
          return cmp >= 0;
      }
    }
  }
}

/** The value a targeting reads: the visitor id for `fs_users`, else the context key. */
export function targetedValue(t: CompiledTargeting, context: VisitorContext, visitorId: string): ContextValue | undefined {
  if (t.key === 'fs_users') return visitorId;
  const value: unknown = context[t.key];
  if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') return value;
  // Not a scalar: absent, or an inherited member such as `constructor`; an own `__proto__`
  // key hides behind the accessor, so read it as an own property.
  const own = Object.getOwnPropertyDescriptor(context, t.key)?.value;
  return typeof own === 'string' || typeof own === 'number' || typeof own === 'boolean' ? own : undefined;
}

/**
 * Evaluates one compiled targeting against a visitor.
 *
 * @example
 * ```ts
 * const t = compileTargeting({ key: 'plan', operator: 'EQUALS', value: 'Gold' });
 * matchTargeting(t, { plan: 'gold' }, 'v1'); // true: strings compare case-insensitively
 * ```
 */
export function matchTargeting(t: CompiledTargeting, context: VisitorContext, visitorId: string): boolean {
  if (t.always) return true;
  const actual = targetedValue(t, context, visitorId);
  if (t.operator === 'EXISTS' || t.operator === 'NOT_EXISTS') return (actual !== undefined) === t.wantPresent;
  if (actual === undefined) return false;
  return t.list ? t.list(actual) : matchEach(t, actual);
}

/**
 * A targeting's operands tested one by one against a present value: any must match, every one
 * for the negative operators. What a short list takes, and what a long list's structure answers.
 *
 * @internal
 */
export function matchEach(t: CompiledTargeting, actual: ContextValue): boolean {
  const { operands, operator } = t;
  if (t.all) {
    for (let i = 0; i < operands.length; i++) if (!matchOne(operator, actual, operands[i]!)) return false;
    return true;
  }
  for (let i = 0; i < operands.length; i++) if (matchOne(operator, actual, operands[i]!)) return true;
  return false;
}

/**
 * A compiled rule's test, as {@link compileMatcher} builds it: whether a visitor matches.
 *
 * @example
 * ```ts
 * const test: Matcher = compileMatcher(compileTargeting({ key: 'plan', operator: 'EQUALS', value: 'Gold' }));
 * test({ plan: 'gold' }, 'visitor-1'); // true
 * ```
 */
export type Matcher = (context: VisitorContext, visitorId: string) => boolean;

const matchesEveryone: Matcher = () => true;

/**
 * {@link matchTargeting} for one rule, specialized once per configuration version: the
 * operator is resolved and the operand's kind known, so a decision does not dispatch on the
 * operator's name, loop over a single operand or lower-case the visitor's value once per
 * operand. Each specialized test handles the value kind its operands share; any other value
 * (another kind, a missing or inherited key, `fs_users`) is answered by {@link matchTargeting}
 * itself, so both always agree.
 *
 * @example
 * ```ts
 * const test = compileMatcher(compileTargeting({ key: 'visits', operator: 'GREATER_THAN', value: 3 }));
 * test({ visits: 7 }, 'visitor-1'); // true
 * test({ visits: '7' }, 'visitor-1'); // false: no type coercion
 * ```
 */
export function compileMatcher(t: CompiledTargeting): Matcher {
  if (t.always) return matchesEveryone;
  const general: Matcher = (context, visitorId) => matchTargeting(t, context, visitorId);
  const { key, operator, operands } = t;
  if (key === 'fs_users') return general;
  if (operator === 'EXISTS' || operator === 'NOT_EXISTS') {
    const want = t.wantPresent;
    return (context, visitorId) => {
      const value = context[key];
      if (value === undefined) return !want;
      return typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean' ? want : general(context, visitorId);
    };
  }
  if (operands.length === 0) return general;
  const list = t.list;
  if (list) {
    return (context, visitorId) => {
      const value = context[key];
      return typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean'
        ? list(value)
        : general(context, visitorId);
    };
  }
  const onText = operands.every((o) => typeof o === 'string') ? textTest(operator, operands as readonly string[]) : undefined;
  if (onText) {
    return (context, visitorId) => {
      const value = context[key];
      return typeof value === 'string' ? onText(lower(value)) : general(context, visitorId);
    };
  }
  const onNumber = operands.every((o) => typeof o === 'number') ? numberTest(operator, operands as readonly number[]) : undefined;
  if (onNumber) {
    return (context, visitorId) => {
      const value = context[key];
      return typeof value === 'number' ? onNumber(value) : general(context, visitorId);
    };
  }
  if (operator.startsWith('SEMVER_')) {
    const versions = operands as readonly SemVer[];
    const accept = ORDER[operator.slice('SEMVER_'.length)]!;
    // SEMVER_NOT_EQUALS must hold for every listed version, the others for one.
    const all = t.all;
    return (context, visitorId) => {
      const value = context[key];
      if (typeof value !== 'string') return general(context, visitorId);
      const version = versionOf(value);
      if (!version) return false;
      for (let i = 0; i < versions.length; i++) if (accept(compareSemver(version, versions[i]!)) !== all) return !all;
      return all;
    };
  }
  return general;
}

/** What a comparison operator (or its SEMVER_ twin, without the prefix) accepts of a comparison's sign. */
const ORDER: Readonly<Record<string, (cmp: number) => boolean>> = {
  EQUALS: (cmp) => cmp === 0,
  NOT_EQUALS: (cmp) => cmp !== 0,
  LOWER_THAN: (cmp) => cmp < 0,
  LOWER_THAN_OR_EQUALS: (cmp) => cmp <= 0,
  GREATER_THAN: (cmp) => cmp > 0,
  GREATER_THAN_OR_EQUALS: (cmp) => cmp >= 0,
};

/** A test that passes when `pass` holds for one operand. */
function anyOperand<T, V>(operands: readonly T[], pass: (value: V, operand: T) => boolean): (value: V) => boolean {
  if (operands.length === 1) {
    const one = operands[0]!;
    return (value) => pass(value, one);
  }
  return (value) => {
    for (let i = 0; i < operands.length; i++) if (pass(value, operands[i]!)) return true;
    return false;
  };
}

/** EQUALS (one operand equal) and NOT_EQUALS (none equal) of a value against operands of its kind. */
function equalityTest<V>(operator: TargetingOperator, operands: readonly V[]): ((value: V) => boolean) | undefined {
  if (operator !== 'EQUALS' && operator !== 'NOT_EQUALS') return undefined;
  const equal = anyOperand(operands, (value: V, o) => value === o);
  return operator === 'EQUALS' ? equal : (value) => !equal(value);
}

/**
 * The test of a lower-cased text value against text operands. A list means any operand, and
 * for the negative operators every one (so none of them may be equal or contained).
 */
function textTest(operator: TargetingOperator, operands: readonly string[]): ((value: string) => boolean) | undefined {
  const equality = equalityTest(operator, operands);
  if (equality) return equality;
  switch (operator) {
    case 'CONTAINS':
      return anyOperand(operands, (value: string, o) => value.includes(o));
    case 'NOT_CONTAINS': {
      const contains = anyOperand(operands, (value: string, o) => value.includes(o));
      return (value) => !contains(value);
    }
    case 'STARTS_WITH':
      return anyOperand(operands, (value: string, o) => value.startsWith(o));
    case 'ENDS_WITH':
      return anyOperand(operands, (value: string, o) => value.endsWith(o));
    default: {
      // The order operators (ORDER holds no SEMVER_ name, nor EXISTS).
      const accept = ORDER[operator];
      return accept && anyOperand(operands, (value: string, o) => accept(value < o ? -1 : value > o ? 1 : 0));
    }
  }
}

/** The test of a number value against number operands (any operand; NOT_EQUALS: none equal). */
function numberTest(operator: TargetingOperator, operands: readonly number[]): ((value: number) => boolean) | undefined {
  const equality = equalityTest(operator, operands);
  if (equality) return equality;
  const accept = ORDER[operator];
  // Numbers are finite (context values are checked, configuration values validated): the sign of a difference orders them.
  return accept && anyOperand(operands, (value: number, o) => accept(value - o));
}

/**
 * Index of the first targeting group whose targetings all match, or -1. A group with no
 * targetings matches nobody, as in the Flagship SDKs: target everyone with `fs_all_users`.
 *
 * @example
 * ```ts
 * const plan = compileTargeting({ key: 'plan', operator: 'EQUALS', value: 'gold' });
 * const everyone = compileTargeting({ key: 'fs_all_users', operator: 'EQUALS', value: '' });
 * matchGroups([[plan], [everyone]], { plan: 'free' }, 'v1'); // 1: only the second group matched
 * ```
 */
export function matchGroups(groups: readonly CompiledTargetingGroup[], context: VisitorContext, visitorId: string): number {
  outer: for (let g = 0; g < groups.length; g++) {
    const group = groups[g]!;
    if (group.length === 0) continue;
    for (let i = 0; i < group.length; i++) if (!matchTargeting(group[i]!, context, visitorId)) continue outer;
    return g;
  }
  return -1;
}

/** The first targeting of a group that fails for a visitor, for explanations. */
export function firstFailure(group: CompiledTargetingGroup, context: VisitorContext, visitorId: string): CompiledTargeting | undefined {
  return group.find((t) => !matchTargeting(t, context, visitorId));
}
