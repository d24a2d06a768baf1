/**
 * Units of measure after a number, one canonical word (or two: `sq ft`) per unit, so `18V`,
 * `18-Volt` and `18 volts` meet, as do `61in`, `61 in.`, `61"` and `61 inch`, or `2 cu. ft.` and
 * `2 cubic feet`. Applied inside {@link words}, so items, queries and autocomplete all get it.
 *
 * @module
 */

// The forms of the length units, which their areas and volumes ("sq ft", "cu yd") reuse.
const INCH = ['in', 'inch', 'inches'];
const FOOT = ['ft', 'foot', 'feet'];
const YARD = ['yd', 'yds', 'yard', 'yards'];
const METRE = ['m', 'meter', 'meters', 'metre', 'metres'];

/**
 * The unit words and phrases, folded, and the canonical word (or phrase) each stands for after a
 * number. A canonical word maps to itself, is no stop word and is its own English stem, so
 * normalizing twice changes nothing and `inch` without a number still meets it. A phrase's words
 * are one space apart here; a text may join them with a period, a space or a hyphen (`cu. ft.`,
 * `cu-ft`). An area or a volume keeps its length unit as its last word (`sq ft`, `cu ft`,
 * `fl oz`), so `8 oz` still meets `8 fl. oz.`. Where the short form is also another word after a
 * number (`4G` networks, a `42L` suit, `12M` pixels) the short form is canonical and only the
 * spelled-out forms are rewritten to it: `250 grams` meets `250g` and `5G` stays as written.
 *
 * @example
 * ```ts
 * UNITS['volts'];        // 'volt'
 * UNITS['cubic feet'];   // 'cu ft'
 * ```
 */
export const UNITS: Readonly<Record<string, string>> = Object.freeze({
  // length
  ...family('inch', INCH),
  ...family('ft', FOOT),
  ...family('yd', YARD),
  ...family('m', METRE),
  ...family('mil', ['mil', 'mils']),
  ...family('mm', ['mm', 'millimeter', 'millimeters', 'millimetre', 'millimetres']),
  ...family('cm', ['cm', 'centimeter', 'centimeters', 'centimetre', 'centimetres']),
  ...family('km', ['km', 'kilometer', 'kilometers', 'kilometre', 'kilometres']),
  // "gauges" is left out: "2 gauges" is more often a count of them.
  ...family('ga', ['ga', 'gauge', 'awg']),
  // area and volume
  ...power('sq', 'inch', INCH),
  ...power('sq', 'ft', FOOT, ['sqft']),
  ...power('sq', 'yd', YARD),
  ...power('sq', 'm', METRE, ['sqm']),
  ...power('cu', 'inch', INCH),
  ...power('cu', 'ft', FOOT, ['cuft']),
  ...power('cu', 'yd', YARD),
  ...power('cu', 'm', METRE),
  ...family('gal', ['gal', 'gallon', 'gallons']),
  ...family('qt', ['qt', 'qts', 'quart', 'quarts']),
  ...family('pt', ['pt', 'pint', 'pints']),
  ...family('fl oz', ['fl oz', 'fl ounce', 'fl ounces', 'fluid oz', 'fluid ounce', 'fluid ounces', 'floz']),
  ...family('l', ['l', 'liter', 'liters', 'litre', 'litres', 'ltr']),
  ...family('ml', ['ml', 'milliliter', 'milliliters', 'millilitre', 'millilitres']),
  // weight
  ...family('lb', ['lb', 'lbs', 'pound', 'pounds']),
  ...family('oz', ['oz', 'ounce', 'ounces']),
  ...family('ton', ['ton', 'tons']),
  ...family('g', ['g', 'gram', 'grams', 'gramme', 'grammes']),
  ...family('kg', ['kg', 'kgs', 'kilogram', 'kilograms', 'kilogramme', 'kilogrammes']),
  ...family('mg', ['mg', 'milligram', 'milligrams']),
  // electricity, power, frequency
  ...family('volt', ['v', 'volt', 'volts']),
  ...family('amp', ['a', 'amp', 'amps', 'ampere', 'amperes']),
  ...family('watt', ['w', 'watt', 'watts']),
  ...family('kw', ['kw', 'kilowatt', 'kilowatts']),
  // "a hour" and "w hours" too: "2a hours" is first "2 amp hours", which must read as "2 ah" at once.
  ...family('ah', ['ah', 'amp hour', 'amp hours', 'amps hour', 'ampere hour', 'ampere hours', 'a hour', 'a hours']),
  ...family('mah', ['mah', 'milliamp hour', 'milliamp hours']),
  ...family('wh', ['wh', 'watt hour', 'watt hours', 'w hour', 'w hours']),
  ...family('kwh', ['kwh', 'kilowatt hour', 'kilowatt hours']),
  ...family('hp', ['hp', 'horsepower']),
  ...family('btu', ['btu', 'btus']),
  ...family('hz', ['hz', 'hertz']),
  ...family('khz', ['khz', 'kilohertz']),
  ...family('mhz', ['mhz', 'megahertz']),
  ...family('ghz', ['ghz', 'gigahertz']),
  // rates
  ...family('cfm', ['cfm', 'cubic feet per minute', 'cu ft per minute']),
  ...family('gpm', ['gpm', 'gallons per minute', 'gallon per minute']),
  ...family('gpf', ['gpf', 'gallons per flush', 'gallon per flush']),
  ...family('psi', ['psi', 'pounds per square inch']),
  ...family('mph', ['mph', 'miles per hour']),
  ...family('rpm', ['rpm', 'rpms', 'revolutions per minute']),
  // light, pictures, data
  ...family('lumen', ['lumen', 'lumens', 'lm']),
  ...family('megapixel', ['megapixel', 'megapixels', 'mp']),
  ...family('kb', ['kb', 'kilobyte', 'kilobytes']),
  ...family('mb', ['mb', 'megabyte', 'megabytes']),
  ...family('gb', ['gb', 'gigabyte', 'gigabytes']),
  ...family('tb', ['tb', 'terabyte', 'terabytes']),
  // counts
  ...family('ct', ['ct', 'count', 'counts']),
  ...family('pack', ['pack', 'packs', 'pk', 'pks']),
});

function family(canonical: string, forms: readonly string[]): Record<string, string> {
  return Object.fromEntries([canonical, ...forms].map((f) => [f, canonical]));
}

/**
 * The square (`sq`) or cubic (`cu`) unit of a length unit, written `sq` or `square` then a form of
 * the length ("sq. ft.", "square feet"), or as one word (`attached`: "sqft"). Not "square in":
 * "4 square in a row".
 */
function power(prefix: 'sq' | 'cu', length: string, lengths: readonly string[], attached: readonly string[] = []): Record<string, string> {
  const word = prefix === 'sq' ? 'square' : 'cubic';
  const forms = lengths.flatMap((f) => (f === 'in' ? [`${prefix} ${f}`] : [`${prefix} ${f}`, `${word} ${f}`]));
  return family(`${prefix} ${length}`, [...forms, ...attached]);
}

// Whole numbers of ASCII digits, not the digits of a model name such as "s7", then at most one
// space or hyphen, then a whole unit word or phrase of the table (longest first, its words joined
// by a period, a space or a hyphen) or an inch/foot mark; the ambiguous short words are narrowed
// in the replacer. Naming the words (not any letter run) keeps this cheap: index builds run it
// over every item's text. The lookbehind keeps it linear: without it every digit of a run starts
// a match that rescans the rest of the run (64,000 digits took 10 s).
const UNIT_AFTER_NUMBER = new RegExp(
  `(?<![\\p{L}\\p{N}])([0-9]+)([ -]?)((?:${Object.keys(UNITS)
    .sort((a, b) => b.length - a.length)
    .map((unit) => unit.replaceAll(' ', '(?:\\.[ -]?|[ -])'))
    .join('|')})(?!\\p{L})|″|′′|["”]|[′'’](?!\\p{L}))`,
  'gu',
);
// What joins a unit phrase's words in a text, to look the phrase up in the table.
const PHRASE_JOINT = /[. -]+/g;

/**
 * What joins the values of a list into one searched text (`tags: ['55 in', 'smart']`): a line
 * break, which no unit bridges (a number ends one value, a unit word starts the next: `['0', 'v']`
 * stays 0 v) and which ends a value as the end of the text does (`in` before it is a unit), so the
 * words of the joined text are the words of each value.
 *
 * @example
 * ```ts
 * normalizeUnits(['55 in', 'smart'].join(VALUE_SEPARATOR)); // '55 inch\nsmart'
 * ```
 */
export const VALUE_SEPARATOR = '\n';

// A whole number written with thousands separators: groups of three digits after commas, no
// digit, comma or point before it, no leading zero, and no digit or another comma and digit after
// ("1,200 lb.", "36,000 btu"; not the list "6,8,10", nor "1,2345", nor "0,100"). The lookbehind
// starts one try per run.
const THOUSANDS = /(?<![\d,.])[1-9]\d{0,2}(?:,\d{3})+(?!\d|,\d)/g;
const THOUSANDS_SEEN = /\d,\d{3}/;

/**
 * Rewrites the units that directly follow a number in folded text to their canonical word or
 * phrase ({@link UNITS}), leaving every other word as it is; a number written with thousands
 * separators is first one number (`1,200 lb.` is 1200 lb, which "1200 lb" meets). `in` counts
 * only attached (`61in`) or before a period or the end of a line or of the text (`61 in.`): "7 in
 * this case" keeps its preposition; `a` only attached (`15a`); `w`/`v` not before `/` (`6 w/ case`).
 *
 * @example
 * ```ts
 * normalizeUnits('18-volt drill, 61 in. wide, 5\' 6"'); // '18 volt drill, 61 inch. wide, 5 ft 6 inch'
 * normalizeUnits('2 cubic feet, 8 fl. oz., 4pk');     // '2 cu ft, 8 fl oz., 4 pack'
 * normalizeUnits('36,000 btu');                       // '36000 btu'
 * ```
 */
export function normalizeUnits(folded: string): string {
  if (THOUSANDS_SEEN.test(folded)) folded = folded.replace(THOUSANDS, (n) => n.replaceAll(',', ''));
  UNIT_AFTER_NUMBER.lastIndex = 0;
  if (!UNIT_AFTER_NUMBER.test(folded)) return folded; // most texts: one scan, no new string
  const out = folded.replace(UNIT_AFTER_NUMBER, (match, number: string, gap: string, unit: string, at: number, text: string) => {
    const after = text.charAt(at + match.length);
    let canonical: string | undefined;
    if (unit === '"' || unit === '”' || unit === '″' || unit === '′′') canonical = 'inch';
    else if (unit === "'" || unit === '’' || unit === '′') canonical = 'ft';
    else if (/\p{N}/u.test(after))
      return match; // "18v2" is a model number
    else if (unit === 'in')
      canonical = gap === '' || after === '.' || after === '' || after === '\n' || after === '\r' ? 'inch' : undefined;
    else if (unit === 'a') canonical = gap === '' ? 'amp' : undefined;
    else if (unit === 'w' || unit === 'v') canonical = after === '/' ? undefined : UNITS[unit];
    else canonical = UNITS[unit.replace(PHRASE_JOINT, ' ')];
    if (canonical === undefined) return match;
    // A mark may touch the next word (`6"x8"`): the space keeps "inch" from joining it.
    return /\p{L}/u.test(unit) ? `${number} ${canonical}` : `${number} ${canonical} `;
  });
  return LEADING_POINT_SEEN.test(out) ? out.replace(LEADING_POINT, '0.') : out;
}

/** The canonical unit words and phrases ({@link UNITS}' values). */
const CANONICAL = new Set(Object.values(UNITS));

/** The canonical units' words, longest phrase first. */
const CANONICAL_WORDS = [...CANONICAL].map((c) => c.split(' ')).sort((a, b) => b.length - a.length);

/**
 * Which of a text's folded words (its units canonical) are the words of a unit written right
 * after a number: they measure the item ("55 inch", "2 cu ft"), and name no kind of item.
 *
 * @example
 * ```ts
 * unitAfterNumber(['2', 'cu', 'ft', 'mulch']); // [false, true, true, false]
 * ```
 */
export function unitAfterNumber(words: readonly string[]): boolean[] {
  const out = words.map(() => false);
  for (let i = 0; i + 1 < words.length; i++) {
    if (!isNumberWord(words[i]!)) continue;
    const unit = CANONICAL_WORDS.find((c) => c.every((w, k) => words[i + 1 + k] === w));
    if (unit) for (let k = 1; k <= unit.length; k++) out[i + k] = true;
  }
  return out;
}

// The fractions of an inch (or of any unit) in lowest terms, the part after a mixed number's whole
// part: "12/2" after a number is no such part ("100 ft. 12/2 wire").
const PROPER = '(?:1/2|[13]/4|[1357]/8|(?:1[135]|[13579])/16|(?:[12]?[13579]|31)/32|(?:[1-5]?[13579]|6[13])/64)';
// A number: an integer, a decimal, a fraction or a whole number and a fraction ("1-1/2"; spaced,
// "2 1/2 in.", only a fraction a size is written with: "2 12/2 wire" holds no 8).
const NUMBER = String.raw`\d+ (?:${PROPER})(?![\d/])|\d+-\d+/\d+|\d+/\d+|\d+(?:\.\d+)?`;
const UNIT_WORD = [...CANONICAL].sort((a, b) => b.length - a.length).join('|');
// A measure written without its leading zero (".5 mm"), which would read as 5: no letter, digit
// or point before the point, and a unit after the number, so a version's "6.0.1", an
// abbreviation's "No.5" and a caliber's ".308 Winchester" stay as written.
const LEADING_POINT = new RegExp(String.raw`(?<![\p{L}\p{N}.])\.(?=\d+ (?:${UNIT_WORD})(?![\p{L}\p{N}]))`, 'gu');
const LEADING_POINT_SEEN = /(?:^|[^\p{L}\p{N}.])\.\d/u;
// A range of one unit: "32 inch - 70 inch", "40-70 inch", "13 inch to 42 inch" (after normalizeUnits).
const RANGE = new RegExp(
  String.raw`(?<![\p{L}\p{N}./])(${NUMBER})(?:\s*(${UNIT_WORD})\.?)?(\s*(?:-|–|—|to)\s*)(${NUMBER})\s*(${UNIT_WORD})(?![\p{L}\p{N}/])`,
  'gu',
);
// A dash with space around it also separates a name's parts ("Series 7 - 65 in. TV"): between
// two numbers it is a range only when the first one has its unit too.
const SPACED_DASH = /^\s+[-–—]|[-–—]\s+$/;

/** The value of a number as {@link RANGE} reads it: "1-1/2" is 1.5. */
function numberValue(text: string): number {
  const mixed = /^(\d+)[- ](\d+)\/(\d+)$/.exec(text);
  if (mixed) return Number(mixed[1]) + Number(mixed[2]) / Number(mixed[3]);
  const fraction = /^(\d+)\/(\d+)$/.exec(text);
  if (fraction) return Number(fraction[1]) / Number(fraction[2]);
  return Number(text);
}

/** A range of values of one unit written in a text ("Fits 32 in. - 70 in. TVs": 32 to 70 inch). */
export interface UnitRange {
  readonly lo: number;
  readonly hi: number;
  /** The canonical unit word. */
  readonly unit: string;
}

/**
 * The ranges of one unit a folded text writes, its units already canonical
 * ({@link normalizeUnits}): a number, its unit or none, a dash or "to", a larger number and the
 * same unit.
 *
 * @example
 * ```ts
 * unitRanges(normalizeUnits('fits 32 in. - 70 in. tvs')); // [{ lo: 32, hi: 70, unit: 'inch' }]
 * unitRanges(normalizeUnits('mount 40-70 inch'));        // [{ lo: 40, hi: 70, unit: 'inch' }]
 * unitRanges(normalizeUnits('1/2 in. x 10 ft. pipe'));   // []
 * ```
 */
export function unitRanges(text: string): UnitRange[] {
  const out: UnitRange[] = [];
  for (const m of text.matchAll(RANGE)) {
    if (m[2] === undefined ? SPACED_DASH.test(m[3]!) : m[2] !== m[5]) continue;
    const lo = numberValue(m[1]!);
    const hi = numberValue(m[4]!);
    if (lo < hi) out.push({ lo, hi, unit: m[5]! });
  }
  return out;
}

// A number and the unit after it, or the ends of a range of that unit ("32-65 inch").
const MEASURE = new RegExp(
  String.raw`(?<![\p{L}\p{N}./])(${NUMBER})(?:\s*(?:-|–|—|to)\s*(${NUMBER}))?\s*(${UNIT_WORD})(?![\p{L}\p{N}])`,
  'gu',
);

/** A number a folded text writes with its unit: where it starts and ends in the text, its value, the canonical unit word. */
export interface Measure {
  readonly start: number;
  readonly end: number;
  readonly value: number;
  readonly unit: string;
}

/**
 * The numbers a folded text writes with a unit after them, its units already canonical
 * ({@link normalizeUnits}); each end of a range of one unit counts ("32-65 inch" is 32 inch and 65
 * inch). A fraction or a decimal is one number ("1/2 inch" is half an inch, not 1 and 2 inches).
 *
 * @example
 * ```ts
 * measures(normalizeUnits('1/2 in. pipe')); // [{ start: 0, end: 3, value: 0.5, unit: 'inch' }]
 * ```
 */
export function measures(text: string): Measure[] {
  const out: Measure[] = [];
  for (const m of text.matchAll(MEASURE)) {
    const unit = m[3]!;
    out.push({ start: m.index, end: m.index + m[1]!.length, value: numberValue(m[1]!), unit });
    if (m[2] !== undefined) {
      const start = m.index + m[0].lastIndexOf(m[2], m[0].length - unit.length);
      out.push({ start, end: start + m[2].length, value: numberValue(m[2]), unit });
    }
  }
  return out;
}

/**
 * A number written as one word by `words` (analysis.ts): an integer, a decimal ("3.5") or a fraction ("1/2").
 *
 * @example
 * ```ts
 * isNumberWord('1/2'); // true
 * isNumberWord('s7');  // false
 * ```
 */
export function isNumberWord(word: string): boolean {
  return /^\d+(?:[./]\d+)?$/.test(word);
}

/**
 * A value as a mixed number's two words, a whole part and a fraction of a unit in lowest terms
 * (halves to 64ths, as sizes are written), when it has both: 1.5 is "1" and "1/2".
 *
 * @example
 * ```ts
 * mixedNumber(1.5);   // ['1', '1/2']
 * mixedNumber(2.375); // ['2', '3/8']
 * mixedNumber(1.3);   // undefined
 * ```
 */
export function mixedNumber(value: number): [string, string] | undefined {
  const whole = Math.floor(value);
  const part = value - whole;
  if (whole < 1 || part === 0) return undefined;
  for (let d = 2; d <= 64; d *= 2) {
    const top = Math.round(part * d);
    if (Math.abs(part * d - top) < 1e-9) return [String(whole), `${top}/${d}`];
  }
  return undefined;
}

/**
 * The value of a number word ({@link isNumberWord}), undefined for any other word, a code written
 * with digits (a leading zero, sixteen digits or more) or a fraction over 0.
 *
 * @example
 * ```ts
 * numberWordValue('1/2'); // 0.5
 * numberWordValue('3.0'); // 3
 * ```
 */
export function numberWordValue(word: string): number | undefined {
  // A leading zero or more digits than a double holds make a code (a part number, "007"), not a value.
  if (!isNumberWord(word) || /^0\d|^\d{16}/.test(word)) return undefined;
  const value = numberValue(word);
  return Number.isFinite(value) ? value : undefined;
}

// Digits around a point or a slash, eight at most each side, so a word made of one is never cut
// (see MAX_WORD_LENGTH) and reads again as the same word; a longer run is split as any other.
const PART = String.raw`\d{1,8}`;

/**
 * The pattern of the numbers `words` keeps whole, in folded text with its units canonical
 * ({@link normalizeUnits}): a decimal ("3.5", not a version's "6.0.1"), and a fraction ("1/2")
 * followed by a unit, or after the whole part of a mixed number ("1-1/2", "1 1/2"). A slash
 * followed by neither separates two numbers: "iPhone 7/8", "12/2 wire", "6/6s" name models and
 * sizes, and a query's "3/4 pvc" is read both ways (see Analyzer.query).
 */
export function wholeNumberPattern(): string {
  return [
    String.raw`(?<![\d.])${PART}\.${PART}(?!\d|\.\d)`,
    String.raw`(?<![\d/.])${PART}/${PART}(?= (?:${UNIT_WORD})(?![\p{L}\p{N}]))`,
    String.raw`(?<=\d[- ])${PROPER}(?![\d/])`,
  ].join('|');
}

// Numbers joined by "x" or "×" ("2 in. x 4 in. x 8 ft.", "700x25", "5'x8'"), each maybe with its
// unit or an inch or foot mark the units left in place ("x8'" after a letter).
const DIMENSION_NUMBER = String.raw`(?:${NUMBER})(?:\s*(?:${UNIT_WORD})(?![\p{L}\p{N}])\.?|["'”’′″])?`;
const DIMENSIONS = new RegExp(String.raw`(?<![\p{L}\p{N}./])${DIMENSION_NUMBER}(?:\s*[x×]\s*${DIMENSION_NUMBER})+(?!\p{N})`, 'gu');

// One number of a dimension, as NUMBER reads it ("1-1/2" whole).
const A_NUMBER = new RegExp(NUMBER, 'g');

/** Dimensions a text writes: where, and the values in the order written. */
export interface DimensionSpan {
  readonly start: number;
  readonly end: number;
  readonly values: readonly number[];
}

/**
 * Where a folded text, its units canonical ({@link normalizeUnits}), writes dimensions: two or
 * more numbers joined by "x", each maybe with its unit ("2 inch x 4 inch x 8 ft", "700x25c": a
 * letter may follow), and their values in order (a fraction or a mixed number is one value).
 *
 * @example
 * ```ts
 * dimensionSpans(normalizeUnits('stud 2 in. x 4 in. x 8 ft.')); // [{ start: 5, end: 27, values: [2, 4, 8] }]
 * ```
 */
export function dimensionSpans(text: string): DimensionSpan[] {
  return Array.from(text.matchAll(DIMENSIONS), (m) => ({
    start: m.index,
    end: m.index + m[0].length,
    values: Array.from(m[0].matchAll(A_NUMBER), (n) => numberValue(n[0])),
  }));
}

/**
 * Whether `tuple` holds `values` in order, one after the other ("2 x 4 x 8" holds 2, 4 and 4, 8).
 *
 * @example
 * ```ts
 * holdsInOrder([23 / 32, 4, 8], [4, 8]); // true
 * holdsInOrder([4, 2], [2, 4]);          // false
 * ```
 */
export function holdsInOrder(tuple: readonly number[], values: readonly number[]): boolean {
  for (let i = 0; i + values.length <= tuple.length; i++) {
    let k = 0;
    while (k < values.length && tuple[i + k] === values[k]) k++;
    if (k === values.length) return true;
  }
  return false;
}
