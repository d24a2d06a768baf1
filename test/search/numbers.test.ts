import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Analyzer, MAX_WORD_LENGTH, words } from '../../src/search/analysis';
import { dimensionSpans, holdsInOrder, normalizeUnits, numberWordValue } from '../../src/search/units';
import { ids, item, serviceOf } from '../helpers/search';

// A made-up hardware store: lumber, sheets and pipes written with fractions and dimensions, and
// items that merely hold the same digits.
const HARDWARE = [
  item('stud', '2 in. x 4 in. x 8 ft. Premium Kiln-Dried Whitewood Stud'),
  item('lumber', '2 in. x 6 in. x 10 ft. #2 Prime Pressure-Treated Lumber'),
  item('post', '4 in. x 4 in. x 8 ft. Pressure-Treated Pine Post'),
  item('plywood', '23/32 in. x 4 ft. x 8 ft. Sanded Plywood'),
  item('drywall', '1/2 in. x 4 ft. x 8 ft. Drywall Panel'),
  item('drill', 'Cordless 1/2 in. Drill/Driver Kit'),
  item('pipe', 'Galvanized Steel Pipe 1/2 in. x 10 ft.'),
  item('pvc', 'PVC Schedule 40 Pipe 3/4 in. x 10 ft.'),
  item('coupling', 'Brass Push-to-Connect Coupling 1-1/2 in.'),
  item('faucet', 'Centerset 4 in. Bathroom Faucet with 2 Handles'),
  item('reversed', '4x2 Stud'),
  item('mulch', 'Brown Mulch 2 cu. ft.'),
  item('soil', 'Premium Potting Soil 1.5 cu. ft.'),
  item('romex', 'Solid Romex Wire 100 ft. 12/2'),
  item('rug58', 'Shag Area Rug 5 ft. x 8 ft.'),
  item('rug810', 'Shag Area Rug 8 ft. x 10 ft.'),
  item('jack', 'Audio Cable 3.5 mm Jack'),
  item('bit', 'Drill Bit 5 mm'),
  item('phone55', 'Smartphone 5.5-inch Display'),
  item('phone5', 'Smartphone 5-inch Display'),
  item('case78', 'iPhone 7/8 Plus Case'),
  item('usb', 'USB 3.0 Flash Drive'),
  item('s7', 'Galaxy S7 Case'),
];

describe('numbers as written', () => {
  it('keeps a decimal and a fraction of a measure whole, and splits a slash between model numbers or sizes', () => {
    expect(words('1/2 in. x 4 ft. Drywall')).toEqual(['1/2', 'inch', 'x', '4', 'ft', 'drywall']);
    expect(words('23/32" plywood, 1-1/2 in. pipe')).toEqual(['23/32', 'inch', 'plywood', '1', '1/2', 'inch', 'pipe']);
    expect(words('1 1/2 pvc')).toEqual(['1', '1/2', 'pvc']);
    expect(words('3.5mm jack, 5.5-inch, USB 3.0')).toEqual(['3.5', 'mm', 'jack', '5.5', 'inch', 'usb', '3.0']);
    // No unit after it and no whole part before it: two numbers.
    expect(words('iPhone 7/8 Plus, 6/6s, 12/2 wire, 3/4 pvc')).toEqual([
      'iphone',
      '7',
      '8',
      'plus',
      '6',
      '6',
      's',
      '12',
      '2',
      'wire',
      '3',
      '4',
      'pvc',
    ]);
    // A larger number over a smaller is two sizes ("4/3 mm" wetsuits); a version is three numbers.
    expect(words('Wetsuit 4/3 mm, Android 6.0.1')).toEqual(['wetsuit', '4', '3', 'mm', 'android', '6', '0', '1']);
    expect(['1/2', '3.0', '0.5', '1.28'].map(numberWordValue)).toEqual([0.5, 3, 0.5, 1.28]);
    // Codes, not values: "007" is no 7, and two long part numbers one double apart are not one.
    expect(['007', '1234567890123456789', 's7'].map(numberWordValue)).toEqual([undefined, undefined, undefined]);
  });

  it('reads a vulgar fraction as the fraction written with a slash', () => {
    expect(words('½ in. pipe')).toEqual(words('1/2 in. pipe'));
    expect(words('1½" coupling')).toEqual(words('1-1/2 in. coupling'));
    expect(words('¾ in. or 2⅝ in')).toEqual(['3/4', 'inch', 'or', '2', '5/8', 'inch']);
    expect(words('1⁄2 in')).toEqual(['1/2', 'inch']);
  });

  it('reads a multiplication sign as the x of dimensions', () => {
    expect(words('Stud 2×4×8')).toEqual(words('Stud 2x4x8'));
    expect(new Analyzer().query('2 × 4 stud', 10).dimensions).toEqual([{ from: 0, to: 2, values: [2, 4] }]);
  });

  it('reads a number word again as the same word (property)', () => {
    const text = fc.stringMatching(/^[0-9 ./x-]{0,30}( ?(inch|mm|ft)\.?)?[0-9 ./x-]{0,10}$/);
    fc.assert(
      fc.property(text, (t) => {
        const once = words(t);
        expect(words(once.join(' '))).toEqual(once);
        // A query reads the same words (the places of its measures and fractions are theirs).
        expect(new Analyzer().query(t, 100).terms.map((term) => term.text)).toEqual(once.slice(0, 100));
      }),
      { numRuns: 1000 },
    );
  });

  it('reads the dimensions a text writes, and the query terms they span', () => {
    const spans = (t: string) => {
      const n = normalizeUnits(t);
      return dimensionSpans(n).map((s) => n.slice(s.start, s.end));
    };
    expect(spans('stud 2 in. x 4 in. x 8 ft. whitewood')).toEqual(['2 inch. x 4 inch. x 8 ft.']);
    expect(spans("rug 5'x8', tire 700x25c")).toEqual(["5'x8'", '700x25']);
    expect(spans('iphone x 64gb, s7 x 2')).toEqual([]);
    expect(new Analyzer().query('2x4x8 stud', 10).dimensions).toEqual([{ from: 0, to: 4, values: [2, 4, 8] }]);
    expect(dimensionSpans(normalizeUnits('1-1/2 in. x 23/32 in.'))[0]?.values).toEqual([1.5, 23 / 32]);
    expect([holdsInOrder([23 / 32, 4, 8], [4, 8]), holdsInOrder([4, 2], [2, 4]), holdsInOrder([2, 4, 8], [2, 8])]).toEqual([
      true,
      false,
      false,
    ]);
    expect(new Analyzer().query('3/4 pvc', 10).fractions).toEqual([{ from: 0, to: 1, word: '3/4' }]);
  });

  it('costs time linear in the text on runs of numbers, points, slashes and x', () => {
    // Each pattern scans a run once per start, and starts only where a run of digits does: a
    // quadratic one would take minutes here, past the test's timeout (every start rescanning the rest: 64,000 digits
    // before a unit's place took 6 s in normalizeUnits).
    const long = (unit: string) => unit.repeat(20_000);
    const digits = '9'.repeat(200_000);
    expect(normalizeUnits(digits)).toBe(digits);
    expect(words(digits)).toEqual(['9'.repeat(MAX_WORD_LENGTH)]);
    const read = (t: string) => [words(t).length, new Set(words(t)).size, dimensionSpans(t).map((s) => s.values.length)];
    expect([long('1.'), long('1/'), long('1-1/2 ')].map(read)).toEqual([
      [20_000, 1, []],
      [20_000, 1, []],
      [40_000, 2, []],
    ]);
    expect([long('1x'), long('1 x ')].map(read)).toEqual([
      [40_000, 2, [20_000]],
      [40_000, 2, [20_000]],
    ]);
    expect(read(long('1/2 inch x '))).toEqual([60_000, 3, [20_000]]);
  });
});

describe('search: a number means its value', () => {
  const search = async (text: string) => ids(await (await hardware).search({ text, hitsPerPage: 30 }));
  const hardware = serviceOf(HARDWARE);

  it('a whole number does not match the digits of a fraction or a decimal', async () => {
    // The 1/2 in. items match "inch" alone, after every item holding a 2 (even the faucet's 2 handles).
    const inch2 = await search('2 inch');
    for (const id of ['drywall', 'drill', 'pipe', 'coupling'])
      expect(inch2.indexOf(id), `2 ≠ the 2 of 1/2 (${id})`).toBeGreaterThan(inch2.indexOf('faucet'));
    expect((await search('5 mm'))[0]).toBe('bit');
    for (const id of ['jack', 'soil']) expect(await search('5'), `5 ≠ the 5 of 3.5 and 1.5 (${id})`).not.toContain(id);
    expect((await search('5.5 inch phone'))[0]).toBe('phone55');
    expect((await search('1.5 cu ft'))[0]).toBe('soil');
  });

  it('a fraction matches the items writing it, with or without its unit in the query', async () => {
    expect((await search('1/2 inch pipe'))[0]).toBe('pipe');
    expect((await search('3/4 pvc'))[0]).toBe('pvc');
    expect((await search('1/2 drill'))[0]).toBe('drill');
    expect((await search('1-1/2 in coupling'))[0]).toBe('coupling');
    expect((await search('23/32 plywood'))[0]).toBe('plywood');
    // The same value written otherwise.
    expect((await search('0.5 in drywall'))[0]).toBe('drywall');
  });

  it('dimensions match the items writing them, before items merely holding the digits', async () => {
    expect((await search('2x4'))[0]).toBe('stud');
    // Values in another order are a lesser match, however short the name writing them.
    for (const text of ['2x4 stud', 'stud 2x4']) expect((await search(text))[0], text).toBe('stud');
    expect((await search('4x2 stud'))[0]).toBe('reversed');
    expect((await search('2×4'))[0]).toBe('stud');
    expect((await search('8×10 rug'))[0]).toBe('rug810');
    expect((await search('2x4x8'))[0]).toBe('stud');
    expect((await search('2 x 4 in'))[0]).toBe('stud');
    expect((await search('4x4 post'))[0]).toBe('post');
    expect((await search('8x10 area rug'))[0]).toBe('rug810');
    expect((await search("5'x8' rug"))[0]).toBe('rug58');
    // A faucet with a 4 in. spread and 2 handles is no 2x4.
    expect(await search('2x4')).not.toContain('faucet');
  });

  it("dimensions written in a description count as the name's do", async () => {
    const service = await serviceOf([
      item('frame', 'Poster Frame', { description: 'Black wood frame. Overall: 24 in. x 36 in.' }),
      item('small', 'Poster Frame 11 x 14 in.', { description: 'Holds 24 prints and 36 stickers.' }),
    ]);
    const hits = (await service.search({ text: '24x36 poster frame', hitsPerPage: 5, showRankingScoreDetails: true })).hits;
    expect(hits[0]?.id).toBe('frame');
    expect(hits[0]?._rankingScoreDetails?.words).toMatchObject({ matchingWords: 5, maxMatchingWords: 5 });
  });

  it('keeps model numbers and sizes around a slash or a point', async () => {
    expect((await search('iphone 8 case'))[0]).toBe('case78');
    expect((await search('usb 3'))[0]).toBe('usb');
    expect((await search('usb 3.0'))[0]).toBe('usb');
    expect((await search('galaxy s7'))[0]).toBe('s7');
    expect((await search('12/2 romex'))[0]).toBe('romex');
  });
});

describe('search: numbers around a slash', () => {
  const shop = serviceOf([
    item('cord', 'Extension Cord 6 ft. Wire'),
    item('romex', 'Solid Romex Wire 100 ft. 12/2'),
    item('adapter', 'Adapter 1 Pack'),
    item('case66', 'iPhone 6/6s Case'),
  ]);
  const search = async (text: string) => ids(await (await shop).search({ text, hitsPerPage: 30 }));

  it('reads a larger number over a smaller as two numbers, not as their quotient', async () => {
    // 12/2 is twelve and two, no 6: the 6 ft. cord holds neither as typed.
    expect(new Analyzer().query('12/2 wire', 10).fractions).toEqual([]);
    expect((await search('12/2 wire'))[0]).toBe('romex');
    expect(await search('6/6s case')).not.toContain('adapter');
  });

  it('reads the sizes of a larger number over a smaller in the ranges of the names, not their quotient', async () => {
    const wetsuits = await serviceOf([
      item('gloves', 'Gloves 1 mm - 2 mm'),
      item('boots', 'Boots 3 mm - 5 mm'),
      item('suit', 'Wetsuit 4/3 mm'),
    ]);
    // 4/3 mm is no 1.33 mm: the 1-2 mm gloves hold neither size, the 3-5 mm boots both.
    expect(ids(await wetsuits.search({ text: '4/3 mm' }))).toEqual(['suit', 'boots', 'gloves']);
  });
});

describe('search: a number however it is written', () => {
  const shop = serviceOf([
    item('pvc15', 'PVC Pipe 1-1/2 in. x 10 ft.'),
    item('pvc1', 'PVC Pipe 1 in. x 10 ft.'),
    item('pvcHalf', 'PVC Pipe 1/2 in. x 10 ft.'),
    item('hose15', 'Garden Hose 1.5 in. Coupling'),
    item('hose1', 'Garden Hose 1 in. Coupling'),
    item('clampWide', 'Hose Clamp for 1 in. - 2 in. Hoses'),
    item('clampSmall', 'Hose Clamp for 1/4 in. - 5/8 in. Hoses'),
    item('bit', 'Drill Bit .5 mm'),
    item('bit5', 'Drill Bit 5 mm'),
    item('gpu', 'GeForce RTX 3080 Graphics Card'),
    item('gpu2', 'GeForce RTX 3070 Graphics Card'),
    item('stud', '2 in. x 4 in. x 8 ft. Stud'),
  ]);
  const search = async (text: string) => ids(await (await shop).search({ text, hitsPerPage: 30 }));

  it('reads a whole number and a fraction of a unit with a space between as one value', () => {
    expect(new Analyzer().query('1 1/2 inch clamp', 10).measures).toEqual([{ from: 0, to: 1, value: 1.5, unit: 'inch' }]);
    expect(dimensionSpans(normalizeUnits('2 1/2 inch x 4 inch'))[0]?.values).toEqual([2.5, 4]);
    // A slash between sizes is still two numbers after a number.
    expect(new Analyzer().query('2 12/2 wire', 10).measures).toEqual([]);
  });

  it('a spaced mixed number measures its value in the ranges of the names', async () => {
    const hits = await search('1 1/2 inch hose clamp');
    // Not 1/2 inch: the clamp for 1 in. to 2 in. comes first (and is found at all).
    expect(hits[0]).toBe('clampWide');
    expect(hits.indexOf('clampWide')).toBeLessThan(hits.indexOf('clampSmall'));
  });

  it('a decimal and a mixed number of one value find each other', async () => {
    expect((await search('1.5 in pvc pipe'))[0]).toBe('pvc15');
    for (const text of ['1-1/2 in hose', '1 1/2 in hose', '1 1/2 hose']) expect((await search(text))[0], text).toBe('hose15');
    // 1.5 is neither 1 nor 1/2.
    expect((await search('1.5')).sort()).toEqual(['hose15', 'pvc15']);
    expect((await search('1 1/2')).slice(0, 2).sort()).toEqual(['hose15', 'pvc15']);
  });

  it('reads a decimal written without its leading zero', async () => {
    expect(words('.5 mm, v.5, 6.0.1')).toEqual(['0.5', 'mm', 'v', '5', '6', '0', '1']);
    // Without a unit after it, a point before a number is no decimal: a caliber stays its number.
    expect(words('.308 Winchester, .22 LR')).toEqual(['308', 'winchester', '22', 'lr']);
    expect((await search('0.5 mm drill bit'))[0]).toBe('bit');
    expect((await search('.5 mm drill bit'))[0]).toBe('bit');
    expect((await search('5 mm drill bit'))[0]).toBe('bit5');
    // The first hits above win their ties whatever the numbers read (the .5 mm bit's name sorts
    // first): with every word required, only the number tells the two bits apart.
    const bits = await serviceOf([item('bit', 'Drill Bit .5 mm'), item('bit5', 'Drill Bit 5 mm')], { matchingStrategy: 'all' });
    for (const text of ['.5 mm drill bit', '0.5 mm', '.5 mm']) expect(ids(await bits.search({ text })), text).toEqual(['bit']);
    expect(ids(await bits.search({ text: '5 mm' }))).toEqual(['bit5']);
  });

  it('reads an x between numbers no item writes as dimensions as the words it joins', async () => {
    // "x 2" after a model number is a count; no item writes 3080 x 2.
    expect(new Analyzer().query('rtx 3080 x 2', 10).dimensions).toHaveLength(1);
    expect((await search('rtx 3080 x 2'))[0]).toBe('gpu');
    // A stud does write 2 x 4.
    expect((await search('2x4'))[0]).toBe('stud');
  });
});
