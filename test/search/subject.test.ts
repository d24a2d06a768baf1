import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { words } from '../../src/search/analysis';
import { searchableText } from '../../src/search/search-index';
import { PROFILE_HABITS } from '../../src/search/naming';
import { categoryWords, fieldWords, NO_SPAN, nameWords } from '../../src/search/subject';

// The index stores a field's words as the subject rule reads them: they must be the words any
// other text analysis gives, or positions in the index would point at other words.

describe('nameWords: the words of a name and the part naming what it fits', () => {
  it('gives the words of the whole name, and a tail inside them or none, for any text', () => {
    const name = fc
      .array(fc.oneof(fc.constantFrom('for', 'fits', 'compatible', 'with', ' - ', ' | ', '|', ' – ', 'For', 'É'), fc.string()), {
        maxLength: 12,
      })
      .map((parts) => parts.join(' '));
    fc.assert(
      fc.property(name, (text) => {
        const read = nameWords(text);
        expect(read.words).toEqual(words(text));
        const [start, end] = read.tail;
        if (end === 0) expect(start).toBe(0);
        else {
          expect(start).toBeGreaterThan(0);
          expect(start).toBeLessThan(end);
          expect(end).toBeLessThanOrEqual(read.words.length);
        }
      }),
    );
  });

  it('reads no unit across a part boundary: the words of each part are the words of the whole', () => {
    // Counterexample of the property above: "in" ended its part ("0 In" alone: 0 inch) but not the name.
    for (const text of ['0 In | for', '0 in - Black', '0 in|x', 'É 0 in|x', '0 | v', '61in | Black'])
      expect(nameWords(text).words, text).toEqual(words(text));
    expect(nameWords('Tablet 10 in').words).toEqual(['tablet', '10', 'inch']);
  });

  it('takes the first tail, to the end of its part, however many parts follow', () => {
    const many = Array.from({ length: 2000 }, (_, i) => `case for phone${i}`).join(' - ');
    expect(nameWords(many).tail).toEqual([1, 4]);
    expect(nameWords('Case - Black').tail).toEqual([0, 0]);
    // A part's first word is a name ("For Her"), not the start of a tail.
    expect(nameWords('For Her Case').tail).toEqual([0, 0]);
    expect(nameWords('Mount compatible with Zed - Black').tail).toEqual([1, 4]);
  });

  it('marks the last word of each phrase as a head: at a part end, before with/for/w/, at a parenthesis or comma, before "and" after a word', () => {
    const heads = (text: string) => {
      const read = nameWords(text);
      return read.words.filter((_, k) => (read.heads >>> k) & 1);
    };
    expect(heads('Ultralast - Battery for Select Samsung Cell Phones - Black')).toEqual(['battery', 'phones']);
    expect(heads('Verizon - $50 Prepaid Phone Card')).toEqual(['card']);
    expect(heads('Keyboard')).toEqual(['keyboard']);
    // Coordinated nouns are both heads; a number before "and" is a model, not a noun.
    expect(heads('PopSockets - Blue Grip and Stand for Mobile Devices')).toEqual(['grip', 'stand', 'devices']);
    expect(heads('Case for iPhone 6 and 6s')).toEqual(['case', 's']);
    expect(heads('Moto G (4th Gen) Case with Stand, Black w/ Clip')).toEqual(['g', 'gen', 'case', 'stand', 'black', 'clip']);
    // Units joined across a comma ("10,050 mAh") keep the part's own heads only.
    expect(nameWords('Charger 10,050 mAh - Gray').words).toEqual(words('Charger 10,050 mAh - Gray'));
    // Only the first 32 words can be heads.
    expect(nameWords(`${'word '.repeat(40)}case`).heads).toBe(0);
  });

  it('in the neutral profile, marks the phrase before a parenthesis closing the name as what it names ("Hammer Drill (Tool-Only)")', () => {
    const heads = (text: string) => {
      const read = nameWords(text, PROFILE_HABITS.neutral);
      return read.words.filter((_, k) => (read.heads >>> k) & 1);
    };
    expect(heads('DEWALT 20-Volt MAX Cordless Hammer Drill (Tool-Only)')).toEqual(['drill', 'only']);
    expect(heads('Drill Bit Set (100-Piece)')).toEqual(['set', 'piece']);
    // Not a parenthesis inside the name, nor one that is the whole name.
    expect(heads('Moto G (4th Gen) Case')).toEqual(['case']);
    expect(heads('(Refurbished)')).toEqual(['refurbished']);
    // Linear on a long run of openings without a closing one.
    expect(heads(`Case ${'('.repeat(100_000)}`)).toEqual(['case']);
  });

  it('keeps positions within the span encoding for very long names', () => {
    const long = `${'word '.repeat(70_000)}case for zed`;
    const { tail } = nameWords(long);
    expect(tail[0]).toBeLessThanOrEqual(NO_SPAN);
    expect(tail[1]).toBeLessThanOrEqual(NO_SPAN);
  });
});

describe('categoryWords: the words of a category list and its type word', () => {
  it("gives the words of the list as searched, and a type among the last category's words, for any values", () => {
    const value = fc.oneof(
      fc.string(),
      fc.constantFrom('cell-phones', 'lamps-with-shades', 'for-her', '', '-'),
      fc.integer(),
      fc.constant(null),
      fc.object(),
    );
    fc.assert(
      fc.property(fc.array(value, { maxLength: 6 }), (values) => {
        const read = categoryWords(values);
        expect(read.words).toEqual(words(searchableText(values)));
        const strings = values.filter((v): v is string => typeof v === 'string');
        const last = words(strings.at(-1) ?? '');
        if (last.length === 0) expect(read.type).toBe(NO_SPAN);
        else {
          expect(read.type).toBeGreaterThanOrEqual(read.words.length - last.length);
          expect(read.type).toBeLessThan(read.words.length);
        }
      }),
    );
  });

  it("reads no unit across two values, and a value's end as the end of a text", () => {
    // Counterexample of the property above: joined by a space, "0" and "v" read "0 volt".
    for (const values of [
      ['0', 'v'],
      ['0', '"'],
      ['0-', 'in'],
      ['55 in', 'smart'],
      ['1', '2 v'],
    ]) {
      expect(categoryWords(values).words, values.join()).toEqual(words(searchableText(values)));
    }
    expect(categoryWords(['0', 'v']).words).toEqual(['0', 'v']);
    expect(words(searchableText(['55 in', 'smart']))).toEqual(['55', 'inch', 'smart']);
  });

  it('reads a plural before the plural type word as a coordination (both types), not a singular', () => {
    expect(categoryWords(['cell-phones', 'cell-phone-cases-clips'])).toMatchObject({ type: 5, coordinated: true });
    expect(categoryWords(['cell-phones', 'cell-phone-accessories']).coordinated).toBe(false);
    expect(categoryWords(['iphone-7-plus-cases']).coordinated).toBe(false);
    const read = fieldWords('categories_ids', ['cell-phone-cases-clips'], 'cell-phone-cases-clips');
    expect(read.words.filter((_, k) => read.isSubject(k))).toEqual(['cases', 'clips']);
  });

  it('has no type for an empty list or an empty last category', () => {
    expect(categoryWords([]).type).toBe(NO_SPAN);
    expect(categoryWords(['phones', '']).type).toBe(NO_SPAN);
    expect(categoryWords(['all', 'lamps-with-shades']).type).toBe(1);
  });
});

describe('fieldWords', () => {
  it('reads no subject in a name or categories that are not text, nor in other fields', () => {
    for (const [field, value] of [
      ['name', 42],
      ['name', null],
      ['categories_ids', 'lamps'],
      ['description', 'lamp for zed'],
    ] as const) {
      const read = fieldWords(field, value, searchableText(value));
      expect(read.words, field).toEqual(words(searchableText(value)));
      expect(
        read.words.some((_, k) => read.isSubject(k)),
        `${field} ${String(value)}`,
      ).toBe(false);
    }
  });
});
