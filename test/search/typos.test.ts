import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  allowedTypos,
  farSubstitution,
  firstLetterTypos,
  type KeyboardLayout,
  nearKeys,
  unknownWordTypos,
  withinTypos,
} from '../../src/search/typos';
import { ids, item, serviceOf } from '../helpers/search';
import { damerau } from '../helpers/damerau';

/** Plain Levenshtein distance (insert, delete, substitute), the reference damerau must never exceed. */
function levenshtein(a: string, b: string): number {
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++) row[j] = Math.min(prev[j]! + 1, row[j - 1]! + 1, prev[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    prev = row;
  }
  return prev[b.length]!;
}

/** Swaps the characters at i and i + 1. */
function swap(s: string, i: number): string {
  return s.slice(0, i) + s[i + 1] + s[i] + s.slice(i + 2);
}

// Small alphabets make equal letters, swaps and near-misses frequent.
const word = fc.string({ unit: fc.constantFrom('a', 'b', 'c', 'd', 'e'), maxLength: 10 });
const RUNS = { numRuns: 300 };

describe('allowedTypos: Meilisearch counting', () => {
  it('allows no typo up to 4 characters', () => {
    for (const n of [0, 1, 2, 3, 4]) expect(allowedTypos(n), `length ${n}`).toBe(0);
  });

  it('allows one typo from 5 to 8 characters', () => {
    for (const n of [5, 6, 7, 8]) expect(allowedTypos(n), `length ${n}`).toBe(1);
  });

  it('allows two typos from 9 to 64 characters', () => {
    for (const n of [9, 10, 20, 64]) expect(allowedTypos(n), `length ${n}`).toBe(2);
  });

  it('allows none past 64 characters: no word is that long, and the cost of a lookup stays bounded', () => {
    for (const n of [65, 100, 512]) expect(allowedTypos(n), `length ${n}`).toBe(0);
  });

  it('never decreases with the length up to 64 characters (property)', () => {
    fc.assert(
      fc.property(fc.nat(64), fc.nat(64), (a, b) => {
        const [lo, hi] = a <= b ? [a, b] : [b, a];
        expect(allowedTypos(lo)).toBeLessThanOrEqual(allowedTypos(hi));
        expect([0, 1, 2]).toContain(allowedTypos(lo));
      }),
    );
  });
});

describe('unknownWordTypos: a word the catalog has nowhere', () => {
  it('allows one typo at 3 and 4 characters, two from 5, none below 3 or past 64', () => {
    expect([0, 1, 2, 3, 4, 5, 8, 9, 64, 65].map(unknownWordTypos)).toEqual([0, 0, 0, 1, 1, 2, 2, 2, 2, 0]);
  });

  it('allows at least the typos of a word the catalog has, and one more from 3 to 8 characters (property)', () => {
    fc.assert(
      fc.property(fc.nat(70), (n) => {
        expect(unknownWordTypos(n)).toBeGreaterThanOrEqual(allowedTypos(n));
        expect(unknownWordTypos(n) - allowedTypos(n)).toBe(n >= 3 && n <= 8 ? 1 : 0);
      }),
    );
  });
});

describe('damerau: optimal string alignment distance', () => {
  it('is 0 for equal strings and the length of the other for an empty one', () => {
    expect(damerau('', '')).toBe(0);
    expect(damerau('galaxy', 'galaxy')).toBe(0);
    expect(damerau('', 'abc')).toBe(3);
    expect(damerau('abcd', '')).toBe(4);
  });

  it('counts substitutions, insertions and deletions as one each', () => {
    expect(damerau('kitten', 'sitting')).toBe(3);
    expect(damerau('phone', 'phones')).toBe(1);
    expect(damerau('phone', 'phne')).toBe(1);
    expect(damerau('smartphone', 'smartfone')).toBe(2);
  });

  it('counts a swap of two adjacent letters as one typo', () => {
    expect(damerau('samsnug', 'samsung')).toBe(1);
    expect(levenshtein('samsnug', 'samsung')).toBe(2);
    expect(damerau('ab', 'ba')).toBe(1);
    expect(damerau('keybaord', 'keyboard')).toBe(1);
    expect(damerau('kebyaord', 'keyboard')).toBe(2);
  });

  it('is the restricted (OSA) distance: a swapped pair is not edited again', () => {
    // True Damerau-Levenshtein gives 2 (ca → ac → abc); OSA cannot edit inside the swap.
    expect(damerau('ca', 'abc')).toBe(3);
  });

  it('gives up past max, returning max + 1', () => {
    expect(damerau('abcdef', 'uvwxyz', 2)).toBe(3);
    expect(damerau('a', 'abcdefgh', 1)).toBe(2);
    expect(damerau('samsnug', 'samsung', 1)).toBe(1);
    expect(damerau('samsnug', 'samsung', 0)).toBe(1);
    expect(damerau('same', 'same', 0)).toBe(0);
  });

  it('is symmetric (property)', () => {
    fc.assert(
      fc.property(word, word, (a, b) => {
        expect(damerau(a, b)).toBe(damerau(b, a));
      }),
      RUNS,
    );
  });

  it('is at most the Levenshtein distance, and at least half of it (property)', () => {
    fc.assert(
      fc.property(word, word, (a, b) => {
        const d = damerau(a, b);
        const l = levenshtein(a, b);
        expect(d).toBeLessThanOrEqual(l);
        expect(2 * d).toBeGreaterThanOrEqual(l);
        expect(d).toBeGreaterThanOrEqual(Math.abs(a.length - b.length));
        expect(d === 0).toBe(a === b);
      }),
      RUNS,
    );
  });

  it('gives 1 for a swap of two different adjacent letters (property)', () => {
    fc.assert(
      fc.property(
        word.filter((s) => s.length >= 2),
        fc.nat(),
        (s, n) => {
          const i = n % (s.length - 1);
          fc.pre(s[i] !== s[i + 1]);
          expect(damerau(s, swap(s, i))).toBe(1);
        },
      ),
      RUNS,
    );
  });

  it('with a bound, is the exact distance when within it and more than max otherwise (property)', () => {
    fc.assert(
      fc.property(word, word, fc.integer({ min: 0, max: 4 }), (a, b, max) => {
        const d = damerau(a, b);
        const bounded = damerau(a, b, max);
        if (d <= max) expect(bounded).toBe(d);
        else expect(bounded).toBeGreaterThan(max);
      }),
      RUNS,
    );
  });

  it('with a bound, returns exactly max + 1 past it, as documented, even when no row exceeds max', () => {
    // Only two rows: the early exit never fires, and the full distance (5) came back.
    expect(damerau('aa', 'cbdbe')).toBe(5);
    expect(damerau('aa', 'cbdbe', 3)).toBe(4);
  });
});

describe("withinTypos: a whole word, not a longer word's start", () => {
  it('agrees with the optimal string alignment distance (property)', () => {
    fc.assert(
      fc.property(word, word, fc.integer({ min: 0, max: 3 }), (a, b, t) => {
        expect(withinTypos(a, b, t)).toBe(damerau(a, b) <= t);
      }),
      RUNS,
    );
  });

  it('tells the word one typo away from a longer word whose start is', () => {
    expect(withinTypos('backpak', 'backpack', 1)).toBe(true);
    expect(withinTypos('backpak', 'backpacking', 1)).toBe(false);
    expect(withinTypos('vackpack', 'backpack', 1)).toBe(true); // the first letter
    expect(withinTypos('qatch', 'matcha', 1)).toBe(false);
  });
});

describe('farSubstitution: a letter replaced by a key that does not touch it', () => {
  it('tells a far key from a neighbouring one, a vowel for a vowel, and other typos', () => {
    expect(farSubstitution('coler', 'cover')).toBe(true);
    expect(farSubstitution('sreen', 'green')).toBe(true);
    // Neighbouring keys, vowels (spelling by ear), and no substitution at all.
    expect(farSubstitution('cqse', 'case')).toBe(false);
    expect(farSubstitution('protecter', 'protector')).toBe(false);
    expect(farSubstitution('coler', 'cooler')).toBe(false);
    expect(farSubstitution('cvoer', 'cover')).toBe(false);
    expect(farSubstitution('case', 'case')).toBe(false);
    // The layout decides what touches: z sits beside u on QWERTZ, not on QWERTY; with none, nothing is far.
    expect(farSubstitution('trzck', 'truck')).toBe(true);
    expect(farSubstitution('trzck', 'truck', 'qwertz')).toBe(false);
    expect(farSubstitution('coler', 'cover', 'none')).toBe(false);
  });

  it('ranks a slip read in context by a finger before one by a far key ("mont" beside "car": mount, then most)', async () => {
    // "mont" is a word of the catalog (a pen), so it takes no typo itself; beside "car" it is a slip.
    const s = await serviceOf([
      item('pen', 'Mont Blanc Pen'),
      item('most', 'Car Most'),
      item('most2', 'Car Most'),
      item('mount', 'Car Mount Holder For Phones'),
      item('mount2', 'Car Mount Holder For Phones'),
    ]);
    expect(
      ids(await s.search({ text: 'car mont' }))
        .slice(0, 2)
        .sort(),
    ).toEqual(['mount', 'mount2']);
  });

  it('ranks a reading a finger slip makes before one a far key makes ("coler" is a cooler, then a cover)', async () => {
    const s = await serviceOf([item('cover', 'Bike Cover'), item('cover2', 'Saddle Cover'), item('cooler', 'Camping Cooler 24L')]);
    expect(ids(await s.search({ text: 'coler' }))).toEqual(['cooler', 'cover', 'cover2']);
  });

  it('reads a word being typed by its start only where labels hold the start, and after a typo far more name ("weath", "bet")', async () => {
    const prose = 'a better fit between the seasons, made to last and easy to care for, with a soft feel that gets better with time';
    const wreaths = Array.from({ length: 10 }, (_, i) => item(`w${i}`, `Holiday Wreath ${i}`, { description: `${prose}, weathered look` }));
    const others = [item('r', 'Weather Radio', { description: prose }), item('a', 'Leather Belt', { description: prose })];
    const s = await serviceOf([...wreaths, ...others, item('b', 'Linen Shirt', { description: prose })]);
    // Ten items name a wreath, one the weather: "weath" is a wreath with a letter left out first.
    expect(ids(await s.search({ text: 'weath', hitsPerPage: 20 })).at(-1)).toBe('r');
    // "bet" starts only words of descriptions ("better", "between"): no shopper's word, so its typos read it (a belt).
    expect(ids(await s.search({ text: 'bet' }))[0]).toBe('a');
    // A start some label holds stays the first reading: "radi" is a radio being typed.
    expect(ids(await s.search({ text: 'radi' }))[0]).toBe('r');
  });

  it('ranks the slips of a misspelt word that far fewer items hold beside the other query words a step after the likeliest ("trk 900")', async () => {
    const treks = ['Boots', 'Jacket', 'Hat', 'Pants', 'Backpack', 'Gloves', 'Socks', 'Poles', 'Tent', 'Stove'].map((w, k) =>
      item(`t${k}`, `Trek 900 ${w}`),
    );
    const others = [item('r', 'Adult Tennis Racket TR900'), item('p', 'Tri-Pack Socks 900'), item('k', 'TK 900 Kit')];
    const found = ids(await (await serviceOf([...others, ...treks])).search({ text: 'trk 900', hitsPerPage: 20 }));
    // "trk" is one slip from trek, tr, tri and tk; ten items hold trek beside 900, one each the others.
    expect(found.slice(0, 10).sort()).toEqual(treks.map((t) => t.id).sort());
    expect(found.slice(10).sort()).toEqual(['k', 'p', 'r']);
    // With no other word to read beside it, the labels holding each slip say which is likelier: "sit" is a suit, not "Sir".
    const suits = ['Navy', 'Grey', 'Black', 'Linen', 'Wool', 'Tweed', 'Slim', 'Check', 'Cotton', 'Velvet'].map((w, k) =>
      item(`s${k}`, `${w} Suit`),
    );
    const sit = ids(await (await serviceOf([item('e', 'Sir'), ...suits])).search({ text: 'sit', hitsPerPage: 20 }));
    expect(sit.at(-1)).toBe('e');
  });

  it('reads a short word that reaches nothing by its whole slips, not by the starts of its slips ("glass vae")', async () => {
    const prose = 'a versatile piece, made by hand in small batches, and easy to care for';
    const vases = [item('v1', 'Ceramic Vase', { description: prose }), item('v2', 'Tall Glass Vase', { description: prose })];
    const glasses = Array.from({ length: 4 }, (_, i) => item(`g${i}`, `Wine Glass ${i}`, { description: prose }));
    const s = await serviceOf([...vases, ...glasses, item('w', 'Velvet Cushion', { description: prose })]);
    // "vae" is one slip from vase; "ve" would start "versatile" and "velvet", in every description here.
    const found = ids(await s.search({ text: 'glass vae', hitsPerPage: 20 }));
    expect(found.slice(0, 2)).toEqual(['v2', 'v1']);
    expect(found).not.toContain('w');
    // A whole word one slip away by a far key still reads it ("mes": men, n for s), beside a
    // nearer slip ("mesa"). Each item holds "watch": only the reading of "mes" tells them apart.
    const men = await serviceOf([
      item('m', 'Men Watch', { description: prose }),
      item('y', 'Mesa Watch', { description: prose }),
      item('x', 'Wall Watch', { description: prose }),
    ]);
    const { hits } = await men.search({ text: 'mes watch', showRankingScoreDetails: true });
    expect(Object.fromEntries(hits.map((h) => [h.id, h._rankingScoreDetails?.words?.matchingWords]))).toEqual({ m: 2, y: 2, x: 1 });
  });

  it('reads a word the catalog lacks, too short for a typo, by a whole word one typo away that ten times as many labels hold ("bol", "bely")', async () => {
    const prose = 'made by hand in small batches, safe for the dishwasher and the oven, and easy to care for';
    const bowls = Array.from({ length: 10 }, (_, i) => item(`w${i}`, `Ceramic Serving Bowl ${i}`, { description: prose }));
    const mugs = [
      item('m', 'Ceramic Mug', { description: `${prose}, in a bold glaze` }),
      item('b', 'Bollywood Bangle Set', { description: prose }),
    ];
    const s = await serviceOf([...bowls, ...mugs, item('x', 'Boxing Gloves', { description: prose })]);
    const found = ids(await s.search({ text: 'ceramic bol', hitsPerPage: 20 }));
    expect(found.slice(0, 10).sort()).toEqual(bowls.map((b) => b.id).sort());
    // The starts still match, after the bowls ("bollywood": the bangle set holds no other query word); no start of a slip does ("box": boxing).
    expect(found).toContain('b');
    expect(found).not.toContain('x');
    // Likewise a form of its stem only prose holds: "bely" is a belt, not the description's "belies".
    const belts = Array.from({ length: 10 }, (_, i) => item(`t${i}`, `Leather Belt ${i}`, { description: prose }));
    const belies = await serviceOf([...belts, item('l', 'Linen Shirt', { description: `${prose}; its ease belies its cut` })]);
    const read = ids(await belies.search({ text: 'bely', hitsPerPage: 20 }));
    expect(read[0]).toMatch(/^t/);
    expect(read.at(-1)).toBe('l');
    // Before another word too, where it is no word being typed: "chap" is as likely a cap as chaps,
    // so it weighs as much as the caps' count, and the rarer tent decides.
    const caps = Array.from({ length: 20 }, (_, i) => item(`c${i}`, `Baseball Cap ${i}`, { description: prose }));
    const chaps = [item('h1', 'Riding Chaps', { description: prose }), item('h2', 'Leather Chaps', { description: prose })];
    const tents = [
      item('d1', 'Dome Tent', { description: prose }),
      item('d2', 'Tunnel Tent', { description: prose }),
      item('d3', 'Pop Up Tent', { description: prose }),
    ];
    const camp = await serviceOf([...caps, ...chaps, ...tents]);
    expect(
      ids(await camp.search({ text: 'chap tent' }))
        .slice(0, 3)
        .sort(),
    ).toEqual(['d1', 'd2', 'd3']);
    // A start as many labels hold as the slip stays the first reading: "bol" beside "bollywood" items.
    const set = await serviceOf([item('b1', 'Bollywood Bangle Set'), item('b2', 'Bollywood Earrings'), item('w', 'Serving Bowl')]);
    expect(ids(await set.search({ text: 'bol' })).sort()).toEqual(['b1', 'b2']);
  });

  it('reads the forms of the stem of such a slip too ("bol": the bowls beside a bowl; "bely": the belts beside a belt)', async () => {
    const prose = 'made by hand in small batches, safe for the dishwasher and the oven, and easy to care for';
    const bowl = Array.from({ length: 10 }, (_, i) => item(`w${i}`, `Ceramic Serving Bowl ${i}`, { description: prose }));
    const bowls = Array.from({ length: 3 }, (_, i) => item(`p${i}`, `Stoneware Soup Bowls ${i}`, { description: prose }));
    const s = await serviceOf([...bowl, ...bowls, item('b', 'Bollywood Bangle Set', { description: prose })]);
    expect(ids(await s.search({ text: 'bol', hitsPerPage: 20 }))).toEqual(expect.arrayContaining(['w0', 'p0', 'p1', 'p2', 'b']));
    const belt = Array.from({ length: 10 }, (_, i) => item(`t${i}`, `Leather Belt ${i}`, { description: prose }));
    const belts = Array.from({ length: 3 }, (_, i) => item(`q${i}`, `Canvas Belts ${i}`, { description: prose }));
    const b = await serviceOf([...belt, ...belts, item('l', 'Linen Shirt', { description: `${prose}; its ease belies its cut` })]);
    expect(ids(await b.search({ text: 'bely', hitsPerPage: 20 }))).toEqual(expect.arrayContaining(['t0', 'q0', 'q1', 'q2', 'l']));
  });

  it('reads no slip as a stop word, which names nothing ("wath" is a watch, not "with")', async () => {
    const s = await serviceOf([item('a', 'Watch Band'), item('b', 'Phone Case with Strap'), item('c', 'Case with Stand')]);
    expect(ids(await s.search({ text: 'wath' }))).toEqual(['a']);
    expect(ids(await s.search({ text: 'wath band' }))).toEqual(['a']);
  });

  it('reads a word the catalog lacks whose stem it has, and one typo from another word, as likely either ("protecter")', async () => {
    const items = [item('a', 'Protective Case with Screen Cover'), item('b', 'Screen Protector Glass'), item('c', 'Protect Screen Film')];
    // "protecter" stems to "protect": its words are no likelier than the protector it is a typo of,
    // and the protector's name holding both words side by side decides.
    const s = await serviceOf(items);
    expect(ids(await s.search({ text: 'sreen protecter' }))[0]).toBe('b');
    // A form of a word the catalog writes, one typo from no other word, still matches as typed.
    const typo = async (text: string) =>
      (await s.search({ text, showRankingScoreDetails: true })).hits[0]?._rankingScoreDetails?.typo?.typoCount;
    expect(await typo('protecting')).toBe(0);
    // A typo in the stem itself leaves the stem's words as typed: "cases" is a case, not vases.
    const cases = await serviceOf([item('v', 'Glass Vases'), item('c', 'Phone Case')]);
    expect(ids(await cases.search({ text: 'cases' }))).toEqual(['c', 'v']);
    // Unless ten times as many labels hold the typo's word: "ables" is tables, not the descriptions' "able".
    const prose = 'it folds flat and stores away in seconds, and it is easy to clean and care for';
    const tables = Array.from({ length: 10 }, (_, i) => item(`t${i}`, `Folding Tables ${i}`, { description: prose }));
    const folding = await serviceOf([item('l', 'Desk Lamp', { description: `${prose}, and able to light any room` }), ...tables]);
    expect(ids(await folding.search({ text: 'ables', hitsPerPage: 20 })).at(-1)).toBe('l');
  });
});

describe('plurals in -ves', () => {
  it('find the singular in -f as a form of it, not as a slip, and leave a slip of another word alone', async () => {
    const s = await serviceOf([
      item('s', 'Wire Shelf 36 in.'),
      item('l', 'Leaf Blower'),
      item('g', 'Golf Balls'),
      item('w', 'Work Gloves'),
    ]);
    const first = async (text: string) => (await s.search({ text, showRankingScoreDetails: true })).hits[0];
    for (const [text, id] of [
      ['shelves', 's'],
      ['leaves', 'l'],
    ] as const) {
      const hit = await first(text);
      expect(hit?.id, text).toBe(id);
      expect(hit?._rankingScoreDetails?.typo?.typoCount, text).toBe(0);
    }
    // "golves" is one swap from gloves; golf's plural is no "golves".
    expect(ids(await s.search({ text: 'golves' }))).toEqual(['w']);
    // "leave", the verb, is no leaf: a leave-in conditioner is no leaf blower.
    const hair = await serviceOf([item('l', 'Leaf Blower'), item('c', 'Leave-In Conditioner')]);
    expect(ids(await hair.search({ text: 'leave' }))).toEqual(['c']);
    expect(ids(await hair.search({ text: 'leaving' }))).toEqual(['c']);
  });
});

describe('British and American spellings', () => {
  it('find each other, the spelling typed first ("grey" has no typo to spare at four letters)', async () => {
    const s = await serviceOf([item('a', 'Gray Sweatpants'), item('b', 'Grey Hoodie'), item('c', 'Green Cap')]);
    expect(ids(await s.search({ text: 'grey' }))).toEqual(['b', 'a']);
    expect(ids(await s.search({ text: 'gray' }))).toEqual(['a', 'b']);
    expect(ids(await s.search({ text: 'grey sweatpants' }))).toEqual(['a', 'b']);
  });
});

describe('firstLetterTypos: a wrong first letter counts two unless its key touches the right one', () => {
  it('tells neighbouring QWERTY keys from far ones, and assumes no keyboard outside it', () => {
    const near = (a: string, b: string) => nearKeys(a.charCodeAt(0), b.charCodeAt(0));
    for (const [a, b] of ['qw', 'qa', 'er', 'ed', 'ds', 'vb', 'xc', 'gh', 'bn', 'ol', '12']) expect(near(a!, b!), `${a}${b}`).toBe(true);
    for (const [a, b] of ['qp', 'qb', 'qs', 'dg', 'lr', 'pb', 'zm']) expect(near(a!, b!), `${a}${b}`).toBe(false);
    expect(near('é', 'b')).toBe(true);
    expect(near('я', 'ш')).toBe(true);
  });

  it('reads the keys of the layout asked for, and none with none', () => {
    const near = (a: string, b: string, layout: KeyboardLayout) => nearKeys(a.charCodeAt(0), b.charCodeAt(0), layout);
    // AZERTY: a and q trade places, z and w too, m closes the middle row.
    for (const [a, b] of ['az', 'qs', 'qw', 'mp', 'ml', 'wx']) expect(near(a!, b!, 'azerty'), `azerty ${a}${b}`).toBe(true);
    for (const [a, b] of ['aw', 'as', 'mn', 'qe']) expect(near(a!, b!, 'azerty'), `azerty ${a}${b}`).toBe(false);
    // QWERTZ: z sits between t and u, y at the bottom left.
    for (const [a, b] of ['zt', 'zu', 'zh', 'ya', 'yx']) expect(near(a!, b!, 'qwertz'), `qwertz ${a}${b}`).toBe(true);
    for (const [a, b] of ['zx', 'za', 'yt']) expect(near(a!, b!, 'qwertz'), `qwertz ${a}${b}`).toBe(false);
    for (const [a, b] of ['qp', 'zm', 'qs']) expect(near(a!, b!, 'none'), `none ${a}${b}`).toBe(true);
    expect(firstLetterTypos('zank', 'tank', 1, false, 'qwertz')).toBe(1);
    expect(firstLetterTypos('zank', 'tank', 1, false, 'qwerty')).toBe(2);
    expect(firstLetterTypos('pusic', 'music', 1, false, 'azerty')).toBe(1);
    expect(firstLetterTypos('qatch', 'latch', 1, false, 'none')).toBe(1);
  });

  it('adds a typo only when every way replaces the first letter by a far key', () => {
    expect(firstLetterTypos('qatch', 'watch', 1, false)).toBe(1);
    expect(firstLetterTypos('qatch', 'batch', 1, false)).toBe(2);
    expect(firstLetterTypos('qatch', 'latch', 1, false)).toBe(2);
    expect(firstLetterTypos('rlectric', 'electric', 1, false)).toBe(1);
    expect(firstLetterTypos('drill', 'grill', 1, false)).toBe(2);
    // The first letter left out, one added, or swapped with the second: no key replaced.
    expect(firstLetterTypos('lectric', 'electric', 1, false)).toBe(1);
    expect(firstLetterTypos('xelectric', 'electric', 1, false)).toBe(1);
    expect(firstLetterTypos('lecetric', 'electric', 2, false)).toBe(2);
    expect(firstLetterTypos('lbow', 'elbow', 1, false)).toBe(1);
    // A start of a longer word (the last query word may be one being typed).
    expect(firstLetterTypos('qatc', 'watches', 1, true)).toBe(1);
    expect(firstLetterTypos('patc', 'watches', 1, true)).toBe(2);
    expect(firstLetterTypos('same', 'same', 0, false)).toBe(0);
  });

  it('is the typos or one more, and the typos whenever the first letters are equal (property)', () => {
    fc.assert(
      fc.property(word, word, fc.integer({ min: 0, max: 2 }), fc.boolean(), (a, b, t, prefix) => {
        const cost = firstLetterTypos(a, b, t, prefix);
        expect([t, t + 1]).toContain(cost);
        if (a.length > 0 && b.length > 0 && a[0] === b[0]) expect(cost).toBe(t);
      }),
      RUNS,
    );
  });
});
