import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Analyzer, englishStem, fold, words } from '../../src/search/analysis';
import { ENGLISH_STOP_WORDS } from '../../src/search/stop-words';
import { normalizeUnits, UNITS, unitAfterNumber, unitRanges } from '../../src/search/units';
import { item, serviceOf } from '../helpers/search';

describe('units after a number', () => {
  it('gives one canonical word per unit family, whatever the spelling', () => {
    const cases: [string[], string][] = [
      [['18volt', '18-Volt', '18 v', '18V', '18 volts'], '18 volt'],
      [['61in', '61 in.', '61"', '61″', '61 inch', '61-Inches', '61 in'], '61 inch'],
      [['2 ft', "2'", '2 feet', '2-foot', '2′'], '2 ft'],
      [['5 gal', '5-Gallon', '5 gallons'], '5 gal'],
      [['10 lb', '10 lbs', '10-Pound', '10 pounds'], '10 lb'],
      [['8 oz', '8-Ounce', '8 ounces'], '8 oz'],
      [['60w', '60 W', '60-Watt', '60 watts'], '60 watt'],
      [['3000mAh', '3000 mah'], '3000 mah'],
      [['32GB', '32 gigabytes'], '32 gb'],
      [['1TB', '1 terabyte'], '1 tb'],
      [['3mm', '3 millimeters'], '3 mm'],
      [['9cm', '9 centimeters'], '9 cm'],
      [['15A', '15-Amp', '15 amps', '15 amperes'], '15 amp'],
    ];
    for (const [forms, canonical] of cases) for (const form of forms) expect(words(form).join(' '), form).toBe(canonical);
    expect(words(`5'6" tall`)).toEqual(['5', 'ft', '6', 'inch', 'tall']);
    expect(words('5.5-inch display, 3.5mm jack')).toEqual(['5.5', 'inch', 'display', '3.5', 'mm', 'jack']);
    // A line ends "in" as the text's end does: "Screen: 7 in" on its own line.
    expect(words('Screen: 7 in\nWeight: 9 oz')).toEqual(['screen', '7', 'inch', 'weight', '9', 'oz']);
    expect(words('Screen: 7 in\r\nx')).toEqual(['screen', '7', 'inch', 'x']);
  });

  it('only directly after a whole number', () => {
    expect(words('Chevrolet Volt in black')).toEqual(['chevrolet', 'volt', 'in', 'black']);
    expect(words('a pound of feet')).toEqual(['a', 'pound', 'of', 'feet']);
    // the preposition, the article, "with" and model numbers stay as written
    expect(words('Protect your iPhone 7 in this case')).toEqual(['protect', 'your', 'iphone', '7', 'in', 'this', 'case']);
    expect(words('Give your Galaxy S7 a new look')).toEqual(['give', 'your', 'galaxy', 's', '7', 'a', 'new', 'look']);
    expect(words('Galaxy S7 in.')).toEqual(['galaxy', 's', '7', 'in']);
    expect(words('iPhone 6 w/ case')).toEqual(['iphone', '6', 'w', 'case']);
    expect(words('DeWalt 18v2 kit')).toEqual(['dewalt', '18', 'v', '2', 'kit']);
    expect(words("the 90's")).toEqual(['the', '90', 's']);
    expect(words('18, volt')).toEqual(['18', 'volt']); // already canonical
    expect(words('2, feet')).toEqual(['2', 'feet']); // a comma is no unit gap
    expect(words('0\nv')).toEqual(['0', 'v']); // nor a line break (it joins a list's values)
  });

  it('keeps canonical words canonical, stems them to themselves and stops none', () => {
    for (const canonical of new Set(Object.values(UNITS))) {
      expect(UNITS[canonical], canonical).toBe(canonical);
      expect(words(`7 ${canonical}`), canonical).toEqual(['7', ...canonical.split(' ')]);
      for (const word of canonical.split(' ')) {
        expect(englishStem(word), canonical).toBe(word);
        expect(ENGLISH_STOP_WORDS, canonical).not.toContain(word);
      }
    }
  });

  it('meets spelled-out and abbreviated units, two-word ones too', () => {
    const cases: [string[], string][] = [
      [['2 cu. ft.', '2 cu ft', '2 cu.ft.', '2-cu-ft', '2 cubic feet', '2 Cubic Foot', '2cuft', '2 cu. feet'], '2 cu ft'],
      [['15 sq. ft.', '15 sq ft', '15 square feet', '15-Square-Foot', '15sqft', '15 sq.ft'], '15 sq ft'],
      [['9 sq. yd.', '9 square yards'], '9 sq yd'],
      [['4 sq in', '4 sq. in.', '4 square inches', '4 sq inch'], '4 sq inch'],
      [['10 sq m', '10 sq. meters', '10 square meters', '10 square metres', '10sqm'], '10 sq m'],
      [['3 cu. yd.', '3 cubic yards', '3 cu yards'], '3 cu yd'],
      [['2 cu m', '2 cubic metres'], '2 cu m'],
      [['8 fl. oz.', '8 fl oz', '8 fluid ounces', '8-Fluid-Ounce', '8floz', '8 fl.oz'], '8 fl oz'],
      [['1 qt.', '1 quart', '1-Quart'], '1 qt'],
      [['2 pt', '2 pints'], '2 pt'],
      [['50 yd.', '50 yards', '50-Yard', '50 yds'], '50 yd'],
      [['6 mil', '6 mils'], '6 mil'],
      [['12-Gauge', '12 ga.', '12 gauge', '12 AWG'], '12 ga'],
      [['1000 Lumens', '1000 lm', '1000-Lumen'], '1000 lumen'],
      [['80 CFM', '80 cubic feet per minute'], '80 cfm'],
      [['3000 PSI', '3000 pounds per square inch'], '3000 psi'],
      [['2 HP', '2 horsepower'], '2 hp'],
      [['36000 BTU', '36000 btus'], '36000 btu'],
      [['1 gpf', '1 gallons per flush'], '1 gpf'],
      [['2 gpm', '2 gallons per minute'], '2 gpm'],
      [['25 mph', '25 miles per hour'], '25 mph'],
      [['3000 rpm', '3000 RPMs', '3000 revolutions per minute'], '3000 rpm'],
      [['5ah', '5 Ah', '5-Amp Hour', '5 amp hours', '5a hours'], '5 ah'],
      [['100wh', '100 watt-hours', '100w hours'], '100 wh'],
      [['3000 mAh', '3000 milliamp hours'], '3000 mah'],
      [['2 kw', '2 kilowatts'], '2 kw'],
      [['60 Hz', '60 hertz'], '60 hz'],
      [['2 GHz', '2 gigahertz'], '2 ghz'],
      [['500 ml', '500 milliliters', '500 millilitres', '500mL'], '500 ml'],
      [['2 l', '2L', '2 liters', '2 litres', '2-Liter'], '2 l'],
      [['2 kg', '2 kilograms', '2 kgs'], '2 kg'],
      [['250 g', '250g', '250 grams'], '250 g'],
      [['5 mg', '5 milligrams'], '5 mg'],
      [['10 m', '10m', '10 meters', '10-Metre'], '10 m'],
      [['12 MP', '12MP', '12 megapixels', '12-Megapixel'], '12 megapixel'],
      [['64 MB', '64 megabytes'], '64 mb'],
      [['100 ct', '100-Count', '100 count'], '100 ct'],
      [['4 pk', '4-Pack', '4 packs', '4pk'], '4 pack'],
      [['2 tons', '2-Ton'], '2 ton'],
    ];
    for (const [forms, canonical] of cases) for (const form of forms) expect(words(form).join(' '), form).toBe(canonical);
    // An area or volume keeps its length unit: "8 oz" still meets "8 fl. oz." on both words.
    expect(words('Lotion 8 fl. oz.')).toEqual(['lotion', '8', 'fl', 'oz']);
  });

  it('rewrites no short form that is also another word after a number', () => {
    // "4G" networks, a 42L suit, 12M pixels stay as written: their short form is the canonical one.
    expect(words('Galaxy S7 4G LTE 5G')).toEqual(['galaxy', 's', '7', '4', 'g', 'lte', '5', 'g']);
    expect(words('Suit 42L')).toEqual(['suit', '42', 'l']);
    expect(words('12M pixels')).toEqual(['12', 'm', 'pixels']);
    // A letter then a digit is a model name ("MacBook 13 M2"), as "18v2" is.
    expect(words('MacBook 13 M2')).toEqual(['macbook', '13', 'm', '2']);
    expect(words('Audio 128 mp3')).toEqual(['audio', '128', 'mp', '3']);
    // Two-word units need their second word; a bare "square", "cubic" or "fluid" is no unit.
    expect(words('4 square in a row')).toEqual(['4', 'square', 'in', 'a', 'row']);
    expect(words('2 cum laude, 2 cubic, 3 fluid')).toEqual(['2', 'cum', 'laude', '2', 'cubic', '3', 'fluid']);
    expect(words('2 sq mm')).toEqual(['2', 'sq', 'mm']);
    expect(words('Tire Gauge, 2 Gauges')).toEqual(['tire', 'gauge', '2', 'gauges']);
    expect(words('3-in-1 mop, 4 pack of gum')).toEqual(['3', 'in', '1', 'mop', '4', 'pack', 'of', 'gum']);
  });

  it('is idempotent and changes no other word (property)', () => {
    const UNIT_WORDS = new Set(Object.keys(UNITS).flatMap((unit) => unit.split(' ')));
    const phrases = Object.keys(UNITS).filter((unit) => unit.includes(' '));
    const unitish = fc.oneof(
      fc.constantFrom(...Object.keys(UNITS), '"', "'", '″', '′', 'in.', 'volt', 'drill', 'x', '/', 's', 'hour', 'hours', 'sq', 'cu'),
      // A phrase written with other joints: "cu. ft.", "fl.oz", "sq-ft".
      fc.tuple(fc.constantFrom(...phrases), fc.constantFrom('. ', '.', '-', '  ')).map(([p, j]) => p.replaceAll(' ', j)),
    );
    const part = fc.oneof(unitish, fc.integer({ min: 0, max: 999 }).map(String), fc.string({ maxLength: 4 }));
    const gap = fc.constantFrom('', ' ', '-', ', ', '.');
    // A number with thousands separators ("1,100") is one number by design: the next test's.
    const text = fc
      .array(fc.tuple(part, gap), { maxLength: 12 })
      .map((parts) => parts.map(([p, g]) => p + g).join(''))
      .filter((t) => !/\d,\d/.test(t));
    fc.assert(
      fc.property(text, (t) => {
        const once = normalizeUnits(fold(t));
        expect(normalizeUnits(once)).toBe(once);
        // Removing the words of unit-table words and phrases from both sides, the words are the
        // same: nothing else changed (a decimal or a fraction kept whole is the runs of digits it
        // joins; a measure without its leading zero, ".5 mm", gains it: zeros aside).
        const raw = (fold(t).match(/\p{L}+|\p{N}+/gu) ?? []).filter((w) => !UNIT_WORDS.has(w) && w !== '0');
        const parts = words(t).flatMap((w) => (/^\d+[./]\d+$/.test(w) ? w.split(/[./]/) : [w]));
        expect(parts.filter((w) => !UNIT_WORDS.has(w) && w !== '0')).toEqual(raw.map((w) => w.slice(0, 65)));
      }),
      { numRuns: 500 },
    );
  });
});

describe('numbers with thousands separators', () => {
  it('read as the number written without them, a unit after it too (property)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1000, max: 2 ** 31 }), fc.constantFrom('', ' btu', ' lb.', '-watt', '.99', ' x 2'), (n, after) => {
        expect(words(`up to ${n.toLocaleString('en-US')}${after}`)).toEqual(words(`up to ${n}${after}`));
      }),
      { numRuns: 300 },
    );
  });

  it('leaves lists and other groupings alone', () => {
    expect(words('sizes 6,8,10')).toEqual(['sizes', '6', '8', '10']);
    expect(words('1,2345 and 1,234,56')).toEqual(['1', '2345', 'and', '1', '234', '56']);
    expect(words('3,5 mm')).toEqual(['3', '5', 'mm']);
    // A leading zero starts no grouped number: "0,100" is two numbers.
    expect(words('0,100 and 00,500')).toEqual(['0', '100', 'and', '00', '500']);
  });
});

describe('search meets units written differently', () => {
  it('"18 volt drill" ranks "18V Cordless Drill" first, "61in" finds "61 in."', async () => {
    const service = await serviceOf([
      item('d12', '12V MAX Cordless Drill'),
      item('d18', '18V Cordless Drill'),
      item('b18', 'Drill Bit Set 18-Piece'),
      item('v61', 'Vanity Top 61 in. W x 22 in. D'),
      item('v49', 'Vanity Top 49 in. W x 22 in. D'),
      item('t61', '61-Piece Tool Set'),
    ]);
    const first = async (text: string) => (await service.search({ text, hitsPerPage: 3 })).hits[0]?.id;
    expect(await first('18 volt drill')).toBe('d18');
    expect(await first('18-Volt drill')).toBe('d18');
    expect(await first('61in')).toBe('v61');
    expect(await first('61 inch')).toBe('v61');
    expect(await first('61"')).toBe('v61');
    const hits = (await service.search({ text: '61 inch', hitsPerPage: 10, showRankingScoreDetails: true })).hits;
    expect(hits.find((h) => h.id === 'v61')?._rankingScoreDetails?.words).toMatchObject({ matchingWords: 2 });
    const { suggestions } = await service.autocomplete({ query: '18 volt dri' });
    expect(suggestions[0]?.text).toBe('18V Cordless Drill');
  });

  it('"36000 heater" finds "36,000 BTU" first: the number written with or without its separator', async () => {
    const service = await serviceOf([
      item('a36', 'Space Heater 36 in. Tall'),
      item('b000', 'Garage Heater Model 000'),
      item('h36k', 'Natural Gas Heater 36,000 BTU'),
    ]);
    for (const text of ['36000 heater', '36,000 heater']) {
      const hits = (await service.search({ text, hitsPerPage: 3, showRankingScoreDetails: true })).hits;
      expect(hits[0]?.id, text).toBe('h36k');
      expect(hits[0]?._rankingScoreDetails?.words, text).toMatchObject({ matchingWords: 2, maxMatchingWords: 2 });
    }
  });
});

describe('search meets units spelled out or abbreviated', () => {
  it('ranks the item writing the unit another way before one with the same number and another unit', async () => {
    // Each query's item comes second, after one with the same number and words but not the unit.
    const probes: [query: string, distractor: string, sought: string][] = [
      ['2 cubic feet mulch', 'Brown Mulch 2-Pack', 'Brown Mulch 2 cu. ft.'],
      ['8 fluid ounces soap', 'Hand Soap 8 oz. Bar', 'Hand Soap 8 fl. oz.'],
      ['20 square feet tile', 'Floor Tile 20 in.', 'Floor Tile (20 sq. ft. / case)'],
      ['12 gauge wire', 'Copper Wire 12 ft.', 'Copper Wire 12 AWG'],
      ['1000 lumen bulb', 'LED Bulb 1000 Hours', 'LED Bulb 1000 lm'],
      ['1 quart stain', 'Wood Stain 1 gal.', 'Wood Stain 1 qt.'],
      ['50 yards tape', 'Painter Tape 50 ft.', 'Painter Tape 50 yd.'],
      ['5 amp hour battery', 'Tool Battery 5 Pack', 'Tool Battery 5 Ah'],
      ['12 megapixel camera', 'Camera 12x Zoom', 'Camera 12MP'],
      ['2 liter bottle', 'Soda Bottle 2-Pack', 'Soda Bottle 2L'],
      ['250 grams coffee', 'Coffee 250 Count', 'Coffee 250g'],
      ['half horsepower 1/2 hp disposal', 'Garbage Disposal 1/2 in.', 'Garbage Disposal 1/2 HP'],
    ];
    const service = await serviceOf(probes.flatMap(([, distractor, sought], i) => [item(`d${i}`, distractor), item(`s${i}`, sought)]));
    for (const [i, [query]] of probes.entries())
      expect((await service.search({ text: query, hitsPerPage: 2 })).hits[0]?.id, query).toBe(`s${i}`);
  });
});

describe('ranges of one unit', () => {
  const ranges = (text: string) => unitRanges(normalizeUnits(fold(text)));

  it('reads a number, its unit or none, a dash or "to", a larger number and the same unit', () => {
    expect(ranges('Fits 32 in. - 70 in. TVs Full Motion Wall Mount')).toEqual([{ lo: 32, hi: 70, unit: 'inch' }]);
    expect(ranges('TV Mount Full Motion 40-70 inch')).toEqual([{ lo: 40, hi: 70, unit: 'inch' }]);
    expect(ranges('Tilting Mount for 13 in. to 42 in. TVs')).toEqual([{ lo: 13, hi: 42, unit: 'inch' }]);
    expect(ranges('Mount 32"-65" TVs')).toEqual([{ lo: 32, hi: 65, unit: 'inch' }]);
    expect(ranges('Hose Clamp 1-1/2 in. - 2 in.')).toEqual([{ lo: 1.5, hi: 2, unit: 'inch' }]);
    expect(ranges('Fitting 1/2 in. - 3/4 in.')).toEqual([{ lo: 0.5, hi: 0.75, unit: 'inch' }]);
    expect(ranges('Wheelbarrow 4-6 cu. ft.')).toEqual([{ lo: 4, hi: 6, unit: 'cu ft' }]);
    expect(ranges('Sprayer 1 gal. to 2 gallons')).toEqual([{ lo: 1, hi: 2, unit: 'gal' }]);
  });

  it('reads no range in dimensions, fractions, mixed numbers, bare numbers or two units', () => {
    for (const text of [
      '1/2 in. x 10 ft. Copper Pipe',
      '2-3/4 in. Screw',
      'Size 6-12',
      '2 in. x 4 in. x 8 ft. Stud',
      '10 ft. - 20 in.',
      '70 in. - 32 in.',
      // A spaced dash after a bare number separates a name's parts.
      'Series 7 - 65 in. Class 4K TV',
      'Pack of 4 - 12 in. Tiles',
      'Extension Cord 16/3 - 25 ft.',
    ])
      expect(ranges(text), text).toEqual([]);
  });

  it('reads a fraction or a decimal in a query as one number, and both ends of a range', () => {
    const analyzer = new Analyzer();
    expect(analyzer.query('1/2 inch hose', 10).measures).toEqual([{ from: 0, to: 0, value: 0.5, unit: 'inch' }]);
    expect(analyzer.query('hose 5.5 in.', 10).measures).toEqual([{ from: 1, to: 1, value: 5.5, unit: 'inch' }]);
    // A larger number over a smaller is two sizes, as its words are ("4/3 mm" wetsuits: 4 mm and 3 mm).
    expect(analyzer.query('4/3 mm wetsuit', 10).measures).toEqual([
      { from: 0, to: 0, value: 4, unit: 'mm' },
      { from: 1, to: 1, value: 3, unit: 'mm' },
    ]);
    expect(analyzer.query('tv mount 32-65 in.', 10).measures).toEqual([
      { from: 2, to: 2, value: 32, unit: 'inch' },
      { from: 3, to: 3, value: 65, unit: 'inch' },
    ]);
    // Its terms' places once a price word is dropped; none past the terms kept.
    expect(new Analyzer({ priceWords: ['cheap'] }).query('cheap 55 inch mount', 10).measures).toEqual([
      { from: 0, to: 0, value: 55, unit: 'inch' },
    ]);
    expect(analyzer.query('mount 55 inch', 1).measures).toEqual([]);
  });

  it('tells the words of a unit after a number, a phrase too, from the words naming an item', () => {
    for (const unit of new Set(Object.values(UNITS))) {
      const parts = unit.split(' ');
      expect(unitAfterNumber(['tv', '55', ...parts, 'mount']), unit).toEqual([false, false, ...parts.map(() => true), false]);
    }
    expect(unitAfterNumber(['2', 'cu', 'ft', 'mulch'])).toEqual([false, true, true, false]);
    expect(unitAfterNumber(['1/2', 'inch', 'pipe'])).toEqual([false, true, false]);
    // No number before it: a word like any other ("inch worm", "cu" alone).
    expect(unitAfterNumber(['inch', 'worm'])).toEqual([false, false]);
    expect(unitAfterNumber(['2', 'cu', 'mulch'])).toEqual([false, false, false]);
    expect(unitAfterNumber(['2', 'in', 'mount'])).toEqual([false, false, false]);
  });
});

describe('search meets ranges', () => {
  it('a unit named without a number ("pint glasses", "gallon bucket") finds the items whose number made it short ("4 pt", "5 gal")', async () => {
    const service = await serviceOf([
      item('pint', 'Set of 4 Pint Glasses'),
      item('beer', 'Set of 4 Beer Glasses'),
      item('gal', '5-Gallon Bucket'),
      item('bucket', 'Bucket'),
      item('size', 'Tee Size M'),
      item('meter', 'Moisture Meter'),
    ]);
    const top = async (text: string) => (await service.search({ text, hitsPerPage: 10 })).hits.map((h) => h.id);
    expect((await top('pint glasses'))[0]).toBe('pint');
    expect((await top('gallon bucket'))[0]).toBe('gal');
    // A one-letter unit ("m") is too many other things alone: "meter" finds meters, not size M.
    expect(await top('meter')).toEqual(['meter']);
  });

  it('"tv mount 55 inch" finds the mounts whose name writes a range around 55 inches, before one that stops below', async () => {
    const service = await serviceOf([
      item('low', 'Tilting TV Mount for 13 in. to 42 in. TVs'),
      item('fits', 'Fits 32 in. - 70 in. TVs Full Motion Wall Mount'),
      item('dash', 'TV Mount Full Motion 40-70 inch'),
      item('bar', 'Soundbar Mount 40 in.'),
    ]);
    for (const text of ['tv mount 55 inch', '55" tv mount', 'tv mount 32-65 in.']) {
      const ids = (await service.search({ text, hitsPerPage: 10 })).hits.map((h) => h.id);
      expect(ids.slice(0, 2).sort(), text).toEqual(['dash', 'fits']);
    }
    // The unit measures, it names no item: the head is "mount".
    const { hits } = await service.search({ text: 'tv mount 55 inch', showRankingScoreDetails: true });
    expect(hits[0]?._rankingScoreDetails?.subject?.head).toBe('mount');
    // A fraction is one number: half an inch is in no 3/4 to 4 inch range (1 and 2 inches are).
    const clamps = await serviceOf([item('clamp', 'Hose Clamp Fits 3/4 in. - 4 in. Hose'), item('hose', 'Garden Hose 1/2 in.')]);
    expect((await clamps.search({ text: '1/2 inch hose' })).hits.map((h) => h.id)).toEqual(['hose', 'clamp']);
    // Another unit's range is no match: 55 volts is not 55 inches.
    const volts = await serviceOf([item('v', 'Charger 40-70 volt'), item('i', 'Mount 40-70 inch')]);
    expect((await volts.search({ text: '55 inch' })).hits.map((h) => h.id)).toEqual(['i']);
  });
});
