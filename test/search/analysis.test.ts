import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Analyzer, englishStem, fold, MAX_WORD_LENGTH, words } from '../../src/search/analysis';
import { UNITS } from '../../src/search/units';

describe('words: tokenization', () => {
  it('splits at punctuation', () => {
    expect(words('BLACK+DECKER')).toEqual(['black', 'decker']);
    expect(words('USB-C cable')).toEqual(['usb', 'c', 'cable']);
    expect(words('iPhone 6/6s')).toEqual(['iphone', '6', '6', 's']);
    expect(words("Men's 3.5mm (AUX) jack!")).toEqual(['men', 's', '3.5', 'mm', 'aux', 'jack']); // numbers: numbers.test.ts
  });

  it('splits letters from digits', () => {
    expect(words('18volt drill')).toEqual(['18', 'volt', 'drill']);
    expect(words('61in TV')).toEqual(['61', 'inch', 'tv']); // units: test/search/units.test.ts
    expect(words('Galaxy S7 edge 32GB')).toEqual(['galaxy', 's', '7', 'edge', '32', 'gb']);
  });

  it('folds case and diacritics, and drops symbols', () => {
    expect(words('Écouteurs CAFÉ Ñandú')).toEqual(['ecouteurs', 'cafe', 'nandu']);
    expect(words('Insignia™ Apple® iPhone®')).toEqual(['insignia', 'apple', 'iphone']);
    expect(fold('Straße')).toBe('straße');
  });

  it('reads a symbol between a number and a unit the same in ASCII and other text: no unit bridges it', () => {
    // Non-ASCII text takes the decomposing path; the symbol must not become a plain space there.
    expect(words('0<v')).toEqual(['0', 'v']);
    expect(words('é 0<v')).toEqual(['e', '0', 'v']);
    expect(words('61|"')).toEqual(['61']);
    expect(words('é 61|"')).toEqual(['e', '61']);
  });

  it('keeps other scripts as words', () => {
    expect(words('смартфон 三星')).toEqual(['смартфон', '三星']);
  });

  it('cuts words past MAX_WORD_LENGTH characters', () => {
    expect(words('x'.repeat(512))).toEqual(['x'.repeat(MAX_WORD_LENGTH)]);
  });

  it('gives folded runs of only letters or only digits (or a decimal or fraction), none empty (property)', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 80 }), (text) => {
        for (const w of words(text)) {
          expect(w.length).toBeGreaterThan(0);
          expect(w.length).toBeLessThanOrEqual(MAX_WORD_LENGTH);
          expect(/^(\p{L}+|\p{N}+|\d+[./]\d+)$/u.test(w), w).toBe(true);
          expect(fold(w)).toBe(w);
        }
        // Analysing twice changes nothing: documents and queries meet on the same words. A unit
        // word kept for its context ("0:V", "18v2", "s7 in.") may turn canonical once the
        // separators are gone, and only that; the second pass is then stable.
        const again = words(words(text).join(' '));
        const unit = (w: string) => (Object.hasOwn(UNITS, w) ? UNITS[w] : w);
        expect(again.map(unit)).toEqual(words(text).map(unit));
        expect(words(again.join(' '))).toEqual(again);
      }),
      { numRuns: 1000 },
    );
  });
});

describe('stemming (Porter2)', () => {
  /** Expects each pair to stem alike. */
  const sameStems = (pairs: readonly (readonly [string, string])[]) => {
    for (const [a, b] of pairs) expect(englishStem(a), `${a} ~ ${b}`).toBe(englishStem(b));
  };

  it('maps plurals and inflections to one stem', () => {
    sameStems([
      ['tops', 'top'],
      ['batteries', 'battery'],
      ['headphones', 'headphone'],
      ['cases', 'case'],
      ['chargers', 'charger'],
      ['watches', 'watch'],
      ['glasses', 'glass'],
      ['accessories', 'accessory'],
      // The plural of an initialism, whose s Porter2 keeps for want of a vowel.
      ['tvs', 'tv'],
      ['dvds', 'dvd'],
    ]);
  });

  it('maps the plurals in -ves of the nouns in -f and -fe, of a changed vowel, and material adjectives to one stem, and no other word', () => {
    sameStems([
      ['shelves', 'shelf'],
      ['shelving', 'shelf'],
      ['leaves', 'leaf'],
      ['halves', 'half'],
      ['scarves', 'scarf'],
      ['wolves', 'wolf'],
      ['hooves', 'hoof'],
      ['knives', 'knife'],
      ['mice', 'mouse'],
      ['childrens', 'child'],
      ['feet', 'foot'],
      ['wooden', 'wood'],
      ['woollen', 'wool'],
      ['dyed', 'dye'],
    ]);
    // An ending is no plural of its own: "golves" is a slip of gloves, not golfs; "serves" and "nerves" are no serf or Nerf.
    for (const [a, b] of [
      ['golves', 'golf'],
      ['serves', 'serf'],
      ['nerves', 'nerf'],
      ['drives', 'drife'],
      ['lives', 'life'],
      // The stem of "leaves" is also the verb's ("leave-in", "leaving"); that of "sheaves" a pulley's "sheave".
      ['leave', 'leaf'],
      ['leaving', 'leaf'],
      ['sheave', 'sheaf'],
      ['men', 'man'],
      ['women', 'woman'],
      ['teething', 'tooth'],
      ['literal', 'litre'],
      ['armour', 'armor'],
      ['golden', 'gold'],
    ])
      expect(englishStem(a!), `${a} ≁ ${b}`).not.toBe(englishStem(b!));
  });

  it("maps a word's British and American spellings to one stem", () => {
    sameStems([
      ['grey', 'gray'],
      ['colours', 'color'],
      ['tyres', 'tire'],
      ['aluminium', 'aluminum'],
      ['centres', 'center'],
      ['jewellery', 'jewelry'],
      ['pyjamas', 'pajama'],
    ]);
  });

  it('keeps words apart that Porter (v1) merges', () => {
    expect(englishStem('news')).not.toBe(englishStem('new'));
    expect(englishStem('generous')).not.toBe(englishStem('general'));
  });

  it('leaves model numbers, short words and other scripts alone', () => {
    for (const w of ['s7', 'a5', 'gb', 'xl', 'смартфоны', '128']) expect(englishStem(w)).toBe(w);
  });
});

describe('Analyzer.query', () => {
  it('keeps the exact form beside the stem, and flags stop words', () => {
    const q = new Analyzer().query('Cases for the iPhone', 10);
    expect(q.terms).toEqual([
      { text: 'cases', stem: 'case', stopWord: false },
      { text: 'for', stem: 'for', stopWord: true },
      { text: 'the', stem: 'the', stopWord: true },
      { text: 'iphone', stem: 'iphon', stopWord: false },
    ]);
  });

  it('takes at most maxTerms terms', () => {
    expect(new Analyzer().query('a b c d e f g h i j k l', 10).terms).toHaveLength(10);
  });

  it('uses the configured stop words, folded', () => {
    const q = new Analyzer({ stopWords: ['Pour', 'LE'] }).query('étui pour le téléphone the', 10);
    expect(q.terms.map((t) => t.stopWord)).toEqual([false, true, true, false, false]);
  });

  it('expands one-way synonyms in one direction only', () => {
    const a = new Analyzer({ synonyms: { oneWay: { iPhone: ['apple phone'] } } });
    expect(a.query('iphone case', 10).synonyms).toEqual([{ from: 0, to: 0, words: ['apple', 'phone'] }]);
    expect(a.query('apple phone', 10).synonyms).toEqual([]);
  });

  it('expands multi-way synonyms in every direction, phrases included', () => {
    const a = new Analyzer({ synonyms: { multiWay: [['cell phone', 'mobile', 'smartphone']] } });
    expect(a.query('mobile', 10).synonyms).toEqual([
      { from: 0, to: 0, words: ['cell', 'phone'] },
      { from: 0, to: 0, words: ['smartphone'] },
    ]);
    expect(a.query('new cell phone', 10).synonyms).toEqual([
      { from: 1, to: 2, words: ['mobile'] },
      { from: 1, to: 2, words: ['smartphone'] },
    ]);
  });
});
