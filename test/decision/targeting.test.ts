/**
 * Data-driven targeting tests, in the style of GrowthBook's sdk-js `cases.json`: the rules of
 * docs/interfaces.md, Targeting and bucketing, are written down as fixture rows
 * (test/fixtures/targeting.json, test/fixtures/targeting-invalid.json), then checked by
 * property tests.
 */
import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ValidationError } from '../../src/index';
import { TARGETING_OPERATORS, parseBucketingConfig, targetingSchema, type TargetingOperator } from '../../src/model/bucketing-config';
import { compareSemver, parseSemver, type SemVer } from '../../src/model/semver';
import { compileMatcher, compileTargeting, matchEach, matchGroups, matchTargeting } from '../../src/decision/targeting';
import type { ContextValue, VisitorContext } from '../../src/decision/visitor-values';
import { SHORT_LIST } from '../../src/decision/list-match';
import { automatonWork } from '../../src/decision/automaton';
import { compileConfig } from '../../src/decision/compile';
import { campaign } from '../helpers/configs';

type Scalar = string | number | boolean;

interface RawTargeting {
  key: string;
  operator: string;
  value?: Scalar | Scalar[];
}

interface TargetingRow {
  name: string;
  targeting: RawTargeting;
  context: Record<string, ContextValue>;
  visitorId?: string;
  expected: boolean;
}

interface InvalidRow {
  name: string;
  targeting: unknown;
  /** The field the rejection names: `value` unless the problem is elsewhere. */
  field: string;
}

function loadFixture<T>(file: string): T[] {
  return JSON.parse(readFileSync(new URL(`../fixtures/${file}`, import.meta.url), 'utf8')) as T[];
}

const rows = loadFixture<TargetingRow>('targeting.json');
const invalidRows = loadFixture<InvalidRow>('targeting-invalid.json');

/** Validates then compiles a targeting, as the engine does once per configuration version. */
function compile(raw: unknown) {
  return compileTargeting(targetingSchema.parse(raw));
}

function matches(raw: unknown, context: VisitorContext, visitorId = 'visitor-1'): boolean {
  return matchTargeting(compile(raw), context, visitorId);
}

describe('targeting fixture (test/fixtures/targeting.json)', () => {
  it('is well formed: 150+ rows, unique names, every operator covered', () => {
    expect(rows.length).toBeGreaterThanOrEqual(150);
    const names = rows.map((r) => r.name);
    expect(new Set(names).size).toBe(names.length);
    const operators = new Set(rows.map((r) => r.targeting.operator));
    for (const op of TARGETING_OPERATORS) expect(operators, op).toContain(op);
    // Both outcomes are represented for every operator, so no operator is tested one-sidedly.
    for (const op of TARGETING_OPERATORS) {
      const outcomes = new Set(rows.filter((r) => r.targeting.operator === op).map((r) => r.expected));
      expect([...outcomes].sort(), op).toEqual([false, true]);
    }
  });

  it.each(rows)('$name', ({ targeting, context, visitorId, expected }) => {
    const rule = compileTargeting(targetingSchema.parse(targeting));
    expect(matchTargeting(rule, context, visitorId ?? 'visitor-1')).toBe(expected);
    // The specialized test a decision runs gives the same answer.
    expect(compileMatcher(rule)(context, visitorId ?? 'visitor-1')).toBe(expected);
  });
});

describe('invalid targetings (test/fixtures/targeting-invalid.json)', () => {
  it('is well formed: unique names', () => {
    const names = invalidRows.map((r) => r.name);
    expect(new Set(names).size).toBe(names.length);
    expect(invalidRows.length).toBeGreaterThan(0);
  });

  it.each(invalidRows)('rejects $name (names `$field`)', ({ targeting, field }) => {
    const result = targetingSchema.safeParse(targeting);
    expect(result.success).toBe(false);
    if (result.success) return;
    expect(result.error.issues.map((i) => i.path[0])).toContain(field);

    // The message a user sees when loading a configuration names the field by its JSON path.
    const config = {
      campaigns: [
        {
          id: 'c1',
          type: 'ab',
          variationGroups: [
            {
              id: 'vg1',
              targeting: { targetingGroups: [{ targetings: [targeting] }] },
              variations: [{ id: 'v1', allocation: 100, modifications: { type: 'FLAG', value: {} } }],
            },
          ],
        },
      ],
    };
    let error: unknown;
    try {
      parseBucketingConfig(config);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ValidationError);
    const path = `campaigns[0].variationGroups[0].targeting.targetingGroups[0].targetings[0].${field}`;
    expect((error as ValidationError).message).toContain(`${path}: `);
    expect((error as ValidationError).details.map((d) => d.path)).toContainEqual([
      'campaigns',
      0,
      'variationGroups',
      0,
      'targeting',
      'targetingGroups',
      0,
      'targetings',
      0,
      field,
    ]);
  });
});

describe('matchGroups: targetings ANDed within a group, groups ORed', () => {
  const gold = { key: 'plan', operator: 'EQUALS', value: 'gold' };
  const adult = { key: 'age', operator: 'GREATER_THAN_OR_EQUALS', value: 18 };
  const french = { key: 'country', operator: 'EQUALS', value: 'FR' };
  const everyone = { key: 'fs_all_users', operator: 'EQUALS', value: '' };
  const qa = { key: 'fs_users', operator: 'STARTS_WITH', value: 'qa-' };
  const hasPlan = { key: 'plan', operator: 'EXISTS' };

  interface GroupRow {
    name: string;
    groups: RawTargeting[][];
    context: Record<string, ContextValue>;
    visitorId?: string;
    expected: number;
  }

  const groupRows: GroupRow[] = [
    { name: 'one group, every targeting matches', groups: [[gold, adult]], context: { plan: 'gold', age: 30 }, expected: 0 },
    { name: 'one group, one targeting fails (AND)', groups: [[gold, adult]], context: { plan: 'gold', age: 12 }, expected: -1 },
    { name: 'one group, the other targeting fails (AND)', groups: [[gold, adult]], context: { plan: 'silver', age: 30 }, expected: -1 },
    { name: 'one group, a key missing fails the group', groups: [[gold, adult]], context: { plan: 'gold' }, expected: -1 },
    { name: 'two groups, only the second matches (OR)', groups: [[gold], [french]], context: { country: 'fr' }, expected: 1 },
    { name: 'two groups, both match: the first wins', groups: [[gold], [french]], context: { plan: 'gold', country: 'FR' }, expected: 0 },
    { name: 'two groups, neither matches', groups: [[gold], [french]], context: { plan: 'silver', country: 'DE' }, expected: -1 },
    { name: 'three groups, only the third matches', groups: [[gold], [french], [adult]], context: { age: 40 }, expected: 2 },
    {
      name: 'a broader later group does not win over a matching earlier group',
      groups: [[gold, adult, french], [everyone]],
      context: { plan: 'gold', age: 20, country: 'fr' },
      expected: 0,
    },
    { name: 'no groups at all: nobody', groups: [], context: { plan: 'gold' }, expected: -1 },
    { name: 'an empty group matches nobody', groups: [[]], context: { plan: 'gold' }, expected: -1 },
    { name: 'an empty group matches nobody, even with an empty context', groups: [[]], context: {}, expected: -1 },
    {
      name: 'an empty group is skipped, the next matching group is returned',
      groups: [[], [gold]],
      context: { plan: 'gold' },
      expected: 1,
    },
    { name: 'an empty group is skipped, fs_all_users then matches everyone', groups: [[], [everyone]], context: {}, expected: 1 },
    { name: 'fs_all_users alone matches an empty context', groups: [[everyone]], context: {}, expected: 0 },
    { name: 'fs_all_users ANDed with a failing targeting fails', groups: [[everyone, gold]], context: { plan: 'silver' }, expected: -1 },
    { name: 'fs_users ANDed with a context targeting', groups: [[qa, hasPlan]], context: { plan: 'x' }, visitorId: 'qa-7', expected: 0 },
    {
      name: 'fs_users fails for another visitor, a later group matches',
      groups: [[qa], [hasPlan]],
      context: { plan: 'x' },
      visitorId: 'v-7',
      expected: 1,
    },
  ];

  it.each(groupRows)('$name', ({ groups, context, visitorId, expected }) => {
    const compiled = groups.map((group) => group.map(compile));
    expect(matchGroups(compiled, context, visitorId ?? 'visitor-1')).toBe(expected);
  });
});

describe('targeting properties (fast-check)', () => {
  // Small alphabets with both cases make equal and case-insensitively equal strings frequent.
  const smallString = fc.string({ unit: fc.constantFrom('a', 'A', 'b', 'B', 'é', 'É', ' '), maxLength: 4 });
  const anyString = fc.oneof(smallString, fc.string(), fc.string({ unit: 'grapheme' }));
  /** A pair of strings where the second is often the first in another case. */
  const stringPair = fc.oneof(
    fc.tuple(anyString, anyString),
    anyString.map((a) => [a, a.toUpperCase()] as [string, string]),
    anyString.map((a) => [a.toUpperCase(), a.toLowerCase()] as [string, string]),
  );
  const finite = fc.double({ noNaN: true, noDefaultInfinity: true });
  const number = fc.oneof(fc.integer({ min: -20, max: 20 }), finite);
  const scalar: fc.Arbitrary<Scalar> = fc.oneof(smallString, fc.integer({ min: -3, max: 3 }), fc.boolean());
  const version = fc.tuple(fc.nat({ max: 20 }), fc.nat({ max: 20 }), fc.nat({ max: 20 }));

  const rule = (operator: TargetingOperator, value: Scalar | Scalar[]) => ({ key: 'k', operator, value });

  it('EQUALS(a) on context b matches iff a and b are equal ignoring case', () => {
    fc.assert(
      fc.property(stringPair, ([a, b]) => {
        expect(matches(rule('EQUALS', a), { k: b })).toBe(a.toLowerCase() === b.toLowerCase());
      }),
    );
  });

  it('NOT_EQUALS is the negation of EQUALS when both values are strings', () => {
    fc.assert(
      fc.property(stringPair, ([a, b]) => {
        expect(matches(rule('NOT_EQUALS', a), { k: b })).toBe(!matches(rule('EQUALS', a), { k: b }));
      }),
    );
  });

  it('LOWER_THAN(y) on x matches iff x < y, and the other order operators agree with <, <=, >, >=', () => {
    fc.assert(
      fc.property(number, number, (x, y) => {
        expect(matches(rule('LOWER_THAN', y), { k: x })).toBe(x < y);
        expect(matches(rule('LOWER_THAN_OR_EQUALS', y), { k: x })).toBe(x <= y);
        expect(matches(rule('GREATER_THAN', y), { k: x })).toBe(x > y);
        expect(matches(rule('GREATER_THAN_OR_EQUALS', y), { k: x })).toBe(x >= y);
      }),
    );
  });

  it('string order operators compare lower-cased strings lexicographically', () => {
    fc.assert(
      fc.property(stringPair, ([a, b]) => {
        const x = b.toLowerCase();
        const y = a.toLowerCase();
        expect(matches(rule('LOWER_THAN', a), { k: b })).toBe(x < y);
        expect(matches(rule('GREATER_THAN_OR_EQUALS', a), { k: b })).toBe(x >= y);
      }),
    );
  });

  it('compareSemver agrees with a lexicographic comparison of [major, minor, patch]', () => {
    const tupleCompare = (a: number[], b: number[]) => {
      for (let i = 0; i < 3; i++) if (a[i] !== b[i]) return Math.sign(a[i]! - b[i]!);
      return 0;
    };
    fc.assert(
      fc.property(version, version, (a, b) => {
        const x = parseSemver(a.join('.'))!;
        const y = parseSemver(b.join('.'))!;
        expect(Math.sign(compareSemver(x, y))).toBe(tupleCompare(a, b));
        expect(matches(rule('SEMVER_LOWER_THAN', b.join('.')), { k: a.join('.') })).toBe(tupleCompare(a, b) < 0);
      }),
    );
  });

  it('parseSemver round-trips `${a}.${b}.${c}`', () => {
    fc.assert(
      fc.property(fc.nat(), fc.nat(), fc.nat(), (a, b, c) => {
        expect(parseSemver(`${a}.${b}.${c}`)).toEqual<SemVer>({ major: a, minor: b, patch: c, pre: [] });
      }),
    );
  });

  it('a list EQUALS matches iff some element matches', () => {
    fc.assert(
      fc.property(fc.array(scalar, { minLength: 1, maxLength: 5 }), scalar, (list, actual) => {
        const some = list.some((v) => matches(rule('EQUALS', v), { k: actual }));
        expect(matches(rule('EQUALS', list), { k: actual })).toBe(some);
      }),
    );
  });

  it("a list NOT_EQUALS matches iff every element's NOT_EQUALS matches", () => {
    fc.assert(
      fc.property(fc.array(scalar, { minLength: 1, maxLength: 5 }), scalar, (list, actual) => {
        const every = list.every((v) => matches(rule('NOT_EQUALS', v), { k: actual }));
        expect(matches(rule('NOT_EQUALS', list), { k: actual })).toBe(every);
      }),
    );
  });
});

describe('compileMatcher: the specialized test of a rule', () => {
  const keys = ['plan', 'age', 'PLAN', 'fs_users', 'fs_all_users', '__proto__', 'constructor', 'toString'];
  const text = fc.constantFrom('gold', 'GOLD', 'Gold', 'go', 'ld', 'silver', '', 'é', 'É', '10', '9', 'a-b', '2.3.1');
  const version = fc.constantFrom('1.0.0', '2.3.1', '2.3.1-rc.1', 'v2.4', '10.0.0', '0.0.1');
  const scalar = fc.oneof(text, fc.integer({ min: -3, max: 12 }), fc.double({ min: -5, max: 15, noNaN: true }), fc.boolean());
  // Operands of one kind (the specialized tests) and of mixed kinds (the general path).
  const value = (operator: TargetingOperator): fc.Arbitrary<Scalar | Scalar[]> =>
    operator.startsWith('SEMVER_')
      ? fc.oneof(version, fc.array(version, { minLength: 1, maxLength: 3 }))
      : fc.oneof(
          scalar,
          fc.array(text, { minLength: 1, maxLength: 3 }),
          fc.array(fc.integer({ min: -3, max: 12 }), { minLength: 1, maxLength: 3 }),
          fc.array(scalar, { minLength: 1, maxLength: 3 }),
        );
  const rule = fc
    .tuple(fc.constantFrom(...keys), fc.constantFrom(...TARGETING_OPERATORS))
    .chain(([key, operator]) =>
      fc.record({ key: fc.constant(key), operator: fc.constant(operator), value: fc.option(value(operator), { nil: undefined }) }),
    )
    .filter((t) => targetingSchema.safeParse(t).success);
  const context = fc.dictionary(fc.constantFrom(...keys), fc.oneof(scalar, version), { maxKeys: 4 });

  it('agrees with matchTargeting for any valid rule, context and visitor id', () => {
    fc.assert(
      fc.property(rule, context, fc.oneof(text, version), (raw, ctx, visitorId) => {
        const compiled = compileTargeting(targetingSchema.parse(raw));
        expect(compileMatcher(compiled)(ctx, visitorId)).toBe(matchTargeting(compiled, ctx, visitorId));
      }),
      { numRuns: 5000 },
    );
  });

  it('reads an own __proto__ key as a value, and never an inherited member', () => {
    const own = JSON.parse('{"__proto__": "gold"}') as VisitorContext;
    expect(compileMatcher(compile({ key: '__proto__', operator: 'EQUALS', value: 'gold' }))(own, 'v1')).toBe(true);
    expect(compileMatcher(compile({ key: 'constructor', operator: 'EXISTS', value: true }))({}, 'v1')).toBe(false);
    expect(compileMatcher(compile({ key: 'toString', operator: 'NOT_EXISTS', value: true }))({}, 'v1')).toBe(true);
  });
});

describe('long targeting lists: matched through a structure built once, with the same answers', () => {
  const text = fc.oneof(
    fc.constantFrom('gold', 'GOLD', 'Gold', 'go', 'ld', 'old', 'silver', '', 'é', 'É', 'İ', '10', '9', 'a-b', '2.3.1'),
    fc.string({ unit: fc.constantFrom('a', 'B', 'b', 'é', 'É', '-'), maxLength: 6 }),
  );
  const version = fc.constantFrom(
    '1.0.0',
    '2.3.1',
    '2.3.1-rc.1',
    '2.3.1-rc.01',
    'v2.4',
    '2.4.0',
    '10.0.0',
    '0.0.1',
    '1.0.0+build',
    '1.0.0-alpha',
    '1.0.0-alpha.beta',
  );
  const scalar = fc.oneof(
    text,
    fc.integer({ min: -3, max: 12 }),
    fc.double({ min: -5, max: 15, noNaN: true }),
    fc.boolean(),
    fc.constant(-0),
  );
  const long = <T>(a: fc.Arbitrary<T>) => fc.array(a, { minLength: SHORT_LIST + 1, maxLength: 30 });
  const rule = fc
    .constantFrom(...TARGETING_OPERATORS.filter((op) => op !== 'EXISTS' && op !== 'NOT_EXISTS'))
    .chain((operator) =>
      fc.record({
        key: fc.constant('k'),
        operator: fc.constant(operator),
        value: operator.startsWith('SEMVER_') ? long(version) : fc.oneof(long(text), long(fc.integer({ min: -3, max: 12 })), long(scalar)),
      }),
    )
    .filter((t) => targetingSchema.safeParse(t).success);

  it('answers as the operands tested one by one, for every operator and any value (compiled test and matcher alike)', () => {
    fc.assert(
      fc.property(rule, fc.oneof(scalar, version), (raw, actual) => {
        const compiled = compileTargeting(targetingSchema.parse(raw));
        expect(compiled.list).toBeDefined();
        const expected = matchEach(compiled, actual);
        expect(compiled.list!(actual)).toBe(expected);
        expect(matchTargeting(compiled, { k: actual }, 'v')).toBe(expected);
        expect(compileMatcher(compiled)({ k: actual }, 'v')).toBe(expected);
      }),
      { numRuns: 5000 },
    );
  });

  it('a list repeated by many campaigns is compiled once', () => {
    const value = Array.from({ length: 50 }, (_, i) => `sku-${i}`);
    const campaigns = Array.from({ length: 20 }, (_, i) =>
      campaign({ id: `c${i}`, split: [100], targeting: [[{ key: 'sku', operator: 'CONTAINS', value }]] }),
    );
    const compiled = compileConfig({
      id: 'e',
      accountId: 'a',
      version: 1,
      updatedAt: 0,
      apiKeyHash: null,
      config: parseBucketingConfig({ campaigns }),
    });
    expect(compiled.rules.length).toBe(1);
    expect(new Set(compiled.campaigns.map((c) => c.groups[0]!.targetingGroups[0]![0])).size).toBe(1);
  });

  it('a 100 KB value against a 74,000-value CONTAINS list costs one pass over the value, as against 10 values', () => {
    const value = `${'x'.repeat(60_000)}${'sku-0073999'.repeat(4_000)}`;
    const work = (count: number) => {
      const rule = compileTargeting({
        key: 'k',
        operator: 'CONTAINS',
        value: Array.from({ length: count }, (_, i) => `SKU-${String(i).padStart(7, '0')}!`),
      });
      const test = compileMatcher(rule);
      const before = automatonWork.steps;
      expect(test({ k: value }, 'v')).toBe(false);
      expect(matchTargeting(rule, { k: value }, 'v')).toBe(false);
      return (automatonWork.steps - before) / 2;
    };
    const many = work(74_000);
    expect(many).toBeLessThanOrEqual(2 * value.length);
    expect(many).toBeLessThan(work(10) * 1.5);
  });
});
