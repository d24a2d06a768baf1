import qs from 'qs';
import { describe, expect, it } from 'vitest';
import { ValidationError, type SearchQueryInput } from '../../src/index';
import {
  autocompleteQuerySchema,
  DEFAULT_HITS_PER_PAGE,
  DEFAULT_SUGGESTIONS,
  MAX_HITS_PER_PAGE,
  MAX_SUGGESTIONS,
  parseQueryString,
  RANGE_OPERATORS,
  searchQuerySchema,
} from '../../src/search/query';

/** The zod issues of a failing parse, as "path: message". */
function issues(input: unknown): string[] {
  const result = searchQuerySchema.safeParse(input);
  expect(result.success, 'expected a failing parse').toBe(false);
  return result.success ? [] : result.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`);
}

/** What parseQueryString throws. */
function refused(search: string): ValidationError {
  try {
    parseQueryString(search);
  } catch (error) {
    expect(error).toBeInstanceOf(ValidationError);
    return error as ValidationError;
  }
  throw new Error(`parseQueryString accepted ${search}`);
}

describe('searchQuerySchema: the typed library input', () => {
  it('defaults page to 0, hitsPerPage to 20, filters to none, sort to none and details off', () => {
    expect(searchQuerySchema.parse({ text: 'galaxy' })).toEqual({
      text: 'galaxy',
      filters: {},
      page: 0,
      hitsPerPage: DEFAULT_HITS_PER_PAGE,
      sort: [],
      showRankingScoreDetails: false,
    });
    expect(DEFAULT_HITS_PER_PAGE).toBe(20);
    expect(MAX_HITS_PER_PAGE).toBe(1000);
  });

  it('takes showRankingScoreDetails as a boolean or its text, and refuses anything else, naming it', () => {
    for (const [value, parsed] of [
      [true, true],
      ['true', true],
      [false, false],
      ['false', false],
    ] as const) {
      expect(searchQuerySchema.parse({ text: '', showRankingScoreDetails: value }).showRankingScoreDetails).toBe(parsed);
    }
    for (const value of ['1', 'yes', 1, null])
      expect(issues({ text: '', showRankingScoreDetails: value }).join()).toMatch(/showRankingScoreDetails must be true or false/);
  });

  it('accepts an empty text (placeholder search) but requires text, naming it', () => {
    expect(searchQuerySchema.parse({ text: '' }).text).toBe('');
    expect(issues({}).join()).toMatch(/^text: .*text is required/);
    expect(issues({ text: ['a', 'b'] }).join()).toMatch(/^text: /);
  });

  it('takes numbers as numbers or numeric strings (query strings carry text)', () => {
    const q = searchQuerySchema.parse({ text: '', page: '3', hitsPerPage: '50', rankingScoreThreshold: '0.5', semanticRatio: 0.25 });
    expect(q).toMatchObject({ page: 3, hitsPerPage: 50, rankingScoreThreshold: 0.5, semanticRatio: 0.25 });
  });

  it('refuses a negative, fractional or non-numeric page, naming page', () => {
    for (const page of [-1, '-1', 1.5, '1.5', 'abc', '', '1e400'])
      expect(issues({ text: '', page }).join(), String(page)).toMatch(/^page: page must be an integer/);
  });

  it('refuses hitsPerPage 0 or above 1000, and accepts 1 and 1000', () => {
    for (const hitsPerPage of [0, '0', 1001, '1001', -5, 2.5])
      expect(issues({ text: '', hitsPerPage }).join(), String(hitsPerPage)).toMatch(
        /^hitsPerPage: hitsPerPage must be an integer from 1 to 1000/,
      );
    expect(searchQuerySchema.parse({ text: '', hitsPerPage: '1' }).hitsPerPage).toBe(1);
    expect(searchQuerySchema.parse({ text: '', hitsPerPage: 1000 }).hitsPerPage).toBe(1000);
  });

  it('refuses rankingScoreThreshold and semanticRatio outside [0, 1], naming them', () => {
    for (const name of ['rankingScoreThreshold', 'semanticRatio']) {
      for (const v of [-0.01, 1.01, '2', 'high', ''])
        expect(issues({ text: '', [name]: v }).join(), `${name}=${v}`).toMatch(
          new RegExp(`^${name}: ${name} must be a number from 0 to 1`),
        );
      for (const v of [0, 1, '0.5']) expect(searchQuerySchema.parse({ text: '', [name]: v })).toHaveProperty(name, Number(v));
    }
  });

  it('parses list filters: arrays of strings (any matches), a single value, numbers and booleans as text', () => {
    const q = searchQuerySchema.parse({
      text: '',
      filters: { brand: ['Apple', 'Samsung'], color: 'red', waterproof: [true], weight: [150] },
    });
    expect({ ...q.filters }).toEqual({
      brand: { kind: 'list', values: ['Apple', 'Samsung'] },
      color: { kind: 'list', values: ['red'] },
      waterproof: { kind: 'list', values: ['true'] },
      weight: { kind: 'list', values: ['150'] },
    });
  });

  it('parses range filters: arrays of { operator, value } with every operator of interfaces.md, Search', () => {
    expect(RANGE_OPERATORS).toEqual(['>', '<', '>=', '<=', '=']);
    const conditions = RANGE_OPERATORS.map((operator, i) => ({ operator, value: String(i * 10) }));
    const q = searchQuerySchema.parse({ text: '', filters: { price: conditions } });
    expect(q.filters.price).toEqual({ kind: 'range', conditions: RANGE_OPERATORS.map((operator, i) => ({ operator, value: i * 10 })) });
  });

  it('takes indexed objects (qs without arrays) like arrays', () => {
    const q = searchQuerySchema.parse({
      text: '',
      filters: { brand: { 0: 'Apple', 1: 'Samsung' }, price: { 0: { operator: '>=', value: '100' } } },
    });
    expect(q.filters.brand).toEqual({ kind: 'list', values: ['Apple', 'Samsung'] });
    expect(q.filters.price).toEqual({ kind: 'range', conditions: [{ operator: '>=', value: 100 }] });
  });

  it('refuses an unknown operator, naming the filter and listing the operators', () => {
    const [message] = issues({ text: '', filters: { price: [{ operator: '!=', value: 1 }] } });
    expect(message).toMatch(/filters\[price\]: unknown operator "!=" in condition 0; use one of > < >= <= =/);
    expect(issues({ text: '', filters: { price: [{ value: 1 }] } }).join()).toMatch(/filters\[price\]: unknown operator/);
  });

  it('refuses a non-numeric range value, naming the filter', () => {
    for (const value of ['abc', '', '12abc', null, 'Infinity']) {
      expect(issues({ text: '', filters: { price: [{ operator: '>', value }] } }).join(), String(value)).toMatch(
        /filters\[price\]: the value of condition 0 must be a number/,
      );
    }
  });

  it('refuses an empty filter, a mix of values and conditions, and filters that are not an object', () => {
    expect(issues({ text: '', filters: { brand: [] } }).join()).toMatch(/filters\[brand\]: give at least one value/);
    expect(issues({ text: '', filters: { price: ['100', { operator: '>', value: 1 }] } }).join()).toMatch(/filters\[price\]/);
    expect(issues({ text: '', filters: 'brand' }).join()).toMatch(/filters must map field names to values/);
    expect(issues({ text: '', filters: ['Apple'] }).join()).toMatch(/filters must map field names to values/);
  });

  it('keeps constructor and toString as plain filter names, on a null-prototype object', () => {
    const q = searchQuerySchema.parse({ text: '', filters: { constructor: ['oak'], toString: ['blue'] } });
    expect(Object.getPrototypeOf(q.filters)).toBeNull();
    expect(Object.keys(q.filters).sort()).toEqual(['constructor', 'toString']);
    expect(q.filters.constructor).toEqual({ kind: 'list', values: ['oak'] });
  });

  it('parses sort as <field>:asc or <field>:desc, one or several', () => {
    expect(searchQuerySchema.parse({ text: '', sort: 'price:asc' }).sort).toEqual([{ field: 'price', direction: 'asc' }]);
    expect(searchQuerySchema.parse({ text: '', sort: ['brand:desc', 'specs.size:asc'] }).sort).toEqual([
      { field: 'brand', direction: 'desc' },
      { field: 'specs.size', direction: 'asc' },
    ]);
  });

  it('refuses a sort direction other than asc or desc, naming sort', () => {
    for (const sort of ['price:up', 'price:ASC', 'price', ':asc', ['price:asc', 'name:down'], [{ field: 'price' }]]) {
      expect(issues({ text: '', sort }).join(), JSON.stringify(sort)).toMatch(/sort: .*must have the form <field>:asc or <field>:desc/);
    }
  });
});

describe('autocompleteQuerySchema', () => {
  it('requires query and defaults hitsPerPage to 10, at most 100', () => {
    expect(autocompleteQuerySchema.parse({ query: 'gala' })).toEqual({ query: 'gala', hitsPerPage: DEFAULT_SUGGESTIONS });
    expect(DEFAULT_SUGGESTIONS).toBe(10);
    expect(MAX_SUGGESTIONS).toBe(100);
    expect(autocompleteQuerySchema.parse({ query: 'g', hitsPerPage: '100' }).hitsPerPage).toBe(100);
    expect(autocompleteQuerySchema.safeParse({}).success).toBe(false);
    for (const hitsPerPage of [0, 101, 1.5, 'x']) {
      const result = autocompleteQuerySchema.safeParse({ query: 'g', hitsPerPage });
      expect(result.success).toBe(false);
      expect(result.error?.issues[0]?.message).toMatch(/^hits_per_page must be an integer from 1 to 100/);
    }
  });
});

describe('parseQueryString: bracket notation with qs under limits', () => {
  it('reads repeated [] values as a list (interfaces.md, Search: a repeated `[]` is a list)', () => {
    expect(parseQueryString('?filters[brand][]=Apple&filters[brand][]=Samsung')).toEqual({ filters: { brand: ['Apple', 'Samsung'] } });
  });

  it('reads object members (rule 1) and indexed objects (rule 3)', () => {
    expect(
      parseQueryString(
        'filters[price][0][operator]=%3E%3D&filters[price][0][value]=100&filters[price][1][operator]=%3C&filters[price][1][value]=200',
      ),
    ).toEqual({
      filters: {
        price: [
          { operator: '>=', value: '100' },
          { operator: '<', value: '200' },
        ],
      },
    });
    expect(parseQueryString('filters[specs.color][]=red&x[a]=1')).toEqual({ filters: { 'specs.color': ['red'] }, x: { a: '1' } });
  });

  it('decodes URL-encoded operators, and accepts them unencoded too', () => {
    for (const [raw, operator] of [
      ['%3E', '>'],
      ['%3C', '<'],
      ['%3E%3D', '>='],
      ['%3C%3D', '<='],
      ['%3D', '='],
      ['>=', '>='],
      ['<=', '<='],
      ['=', '='],
    ]) {
      expect(parseQueryString(`filters[p][0][operator]=${raw}&filters[p][0][value]=1`), raw).toEqual({
        filters: { p: [{ operator, value: '1' }] },
      });
    }
  });

  it('decodes + as a space and percent-encoded brackets', () => {
    expect(parseQueryString('text=samsung+galaxy&filters%5Bbrand%5D%5B%5D=AT%26T+GoPhone')).toEqual({
      text: 'samsung galaxy',
      filters: { brand: ['AT&T GoPhone'] },
    });
  });

  it('reads back what qs.stringify produces by default (and with indices or encodeValuesOnly)', () => {
    const query = {
      text: 'samsung galaxy',
      filters: {
        brand: ['Apple', 'AT&T GoPhone'],
        price: [
          { operator: '>=', value: 100 },
          { operator: '<', value: 200 },
        ],
      },
      page: 2,
      hitsPerPage: 5,
      sort: ['price:asc', 'name:desc'],
      rankingScoreThreshold: 0.5,
    };
    const expected = searchQuerySchema.parse(query);
    for (const options of [undefined, { arrayFormat: 'indices' as const }, { encodeValuesOnly: true }]) {
      const got = searchQuerySchema.parse(parseQueryString(qs.stringify(query, options)));
      expect({ ...got, filters: { ...got.filters } }, JSON.stringify(options)).toEqual({ ...expected, filters: { ...expected.filters } });
    }
  });

  it('reads back lists of strings in the brackets and repeat array formats of qs.stringify', () => {
    // Arrays of objects round-trip only indexed (interfaces.md, Search: arrays of objects are indexed): qs cannot group `[][operator]` pairs.
    const query = { text: '', filters: { brand: ['Apple', 'Samsung'] } };
    for (const arrayFormat of ['brackets', 'repeat'] as const) {
      expect(parseQueryString(qs.stringify(query, { arrayFormat })), arrayFormat).toEqual(query);
    }
  });

  it('keeps 25 list values a list, repeated or indexed (qs turns more than 20 into an object by default)', () => {
    const values = Array.from({ length: 25 }, (_, i) => `brand-${i}`);
    const repeated = parseQueryString(values.map((v) => `filters[brand][]=${v}`).join('&')) as { filters: { brand: unknown } };
    expect(Array.isArray(repeated.filters.brand)).toBe(true);
    expect(repeated.filters.brand).toEqual(values);
    const indexed = parseQueryString(qs.stringify({ filters: { brand: values } })) as { filters: { brand: unknown } };
    expect(indexed.filters.brand).toEqual(values);
    const q = searchQuerySchema.parse({ text: '', ...indexed });
    expect(q.filters.brand).toEqual({ kind: 'list', values });
  });

  it('keeps constructor and toString as field names', () => {
    const parsed = parseQueryString('text=&filters[constructor][]=oak&filters[toString][]=blue&filters[hasOwnProperty][]=x') as {
      filters: Record<string, unknown>;
    };
    expect(Object.keys(parsed.filters).sort()).toEqual(['constructor', 'hasOwnProperty', 'toString']);
    expect(parsed.filters.constructor).toEqual(['oak']);
    expect(parsed.filters.toString).toEqual(['blue']);
    const q = searchQuerySchema.parse(parsed as SearchQueryInput);
    expect(Object.keys(q.filters).sort()).toEqual(['constructor', 'hasOwnProperty', 'toString']);
  });

  it('refuses __proto__ by name wherever it appears in a key, and pollutes nothing', () => {
    const attempts = [
      'text=&filters[__proto__][]=x',
      'text=&filters[__proto__][polluted]=1',
      'text=&filters[brand][__proto__][polluted]=1',
      'text=&filters%5B__proto__%5D%5Bpolluted%5D=1',
      'text=&filters[%5F%5Fproto%5F%5F][polluted]=1',
      'text=&__proto__=1',
    ];
    for (const attempt of attempts) {
      const error = refused(attempt);
      expect(error.message, attempt).toMatch(/__proto__/);
      expect(error.status).toBe(400);
    }
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect((Object.prototype as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('refuses a top-level __proto__[...] key by name (qs would drop it silently)', () => {
    // The check matches __proto__ only before "]" or at the end of the key, not before "[".
    expect(refused('text=galaxy&__proto__[polluted]=1').message).toMatch(/__proto__/);
    expect(refused('__proto__[0]=1').message).toMatch(/__proto__/);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('refuses __proto__ even after a key segment holding "=", which qs reads differently from a split on "="', () => {
    // qs ends the key at "]=", so this key is x[a=b][__proto__] and qs silently drops the __proto__ level.
    expect(refused('text=&x[a=b][__proto__][polluted]=1').message).toMatch(/__proto__/);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('never lets constructor[prototype] reach a prototype', () => {
    const parsed = parseQueryString('filters[constructor][prototype][polluted]=1&constructor[prototype][polluted]=1') as Record<
      string,
      unknown
    >;
    expect(Object.getPrototypeOf(parsed)).toBeNull();
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect((Object as unknown as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('refuses keys deeper than the limit and lists longer than 1,000 values, as a ValidationError', () => {
    expect(refused('filters[a][0][b][c][d]=1').message).toMatch(/too large or too deep/);
    const many = Array.from({ length: 1001 }, (_, i) => `filters[brand][]=b${i}`).join('&');
    expect(refused(many).message).toMatch(/too large or too deep/);
    const thousand = Array.from({ length: 1000 }, (_, i) => `filters[brand][]=b${i}`).join('&');
    expect((parseQueryString(thousand) as { filters: { brand: unknown[] } }).filters.brand).toHaveLength(1000);
  });

  it('refuses a key that is not valid percent-encoding', () => {
    expect(refused('text=&filters[%E0%A4%A]=1').message).toMatch(/percent-encoding/);
  });
});
