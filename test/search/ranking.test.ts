/**
 * Each ranking rule in isolation: two documents that differ only in what the rule measures, the
 * score, its details, and the options that configure ranking.
 */
import { describe, expect, it } from 'vitest';
import { SearchService, type SearchServiceOptions } from '../../src/index';
import { catalogOf, item, serviceOf, type Item } from '../helpers/search';

/** The retail profile, whose naming habits (parts, phrase words, model runs, categories' type words) several rules read. */
const RETAIL = { profile: 'retail' } as const;

/** Ids in rank order. The loser's id sorts first, so only the rule can put the winner first. */
async function order(items: readonly Item[], text: string, options: Omit<SearchServiceOptions, 'catalog'> = {}): Promise<string[]> {
  return (await (await serviceOf(items, options)).search({ text, hitsPerPage: 1000 })).hits.map((h) => h.id);
}

/** Each hit's matched query words (the `words` rule's details), by id. */
async function matchedWords(service: SearchService, text: string): Promise<Record<string, number | undefined>> {
  const hits = (await service.search({ text, hitsPerPage: 1000, showRankingScoreDetails: true })).hits;
  return Object.fromEntries(hits.map((h) => [h.id, h._rankingScoreDetails?.words?.matchingWords]));
}

describe('each rule decides between two documents that differ only in what it measures', () => {
  it('words: more matched terms first', async () => {
    expect(await order([item('a', 'red lamp shade'), item('b', 'red lamp table')], 'red lamp table')).toEqual(['b', 'a']);
  });

  it('words (frequency): the rarer term outweighs the frequent one', async () => {
    const filler = Array.from({ length: 20 }, (_, i) => item(`f${i}`, `case filler${i}`));
    // a matches the frequent "case", b the rare "otterbox".
    const ids = await order([item('a', 'case zzz'), item('b', 'otterbox zzz'), ...filler], 'otterbox case');
    expect(ids.indexOf('b')).toBeLessThan(ids.indexOf('a'));
  });

  it('words (last): the earlier query term outweighs the later one', async () => {
    const ids = await order(
      [item('a', 'case zzz'), item('b', 'otterbox zzz'), ...Array.from({ length: 20 }, (_, i) => item(`f${i}`, `case filler${i}`))],
      'case otterbox',
      { matchingStrategy: 'last' },
    );
    expect(ids.indexOf('a')).toBeLessThan(ids.indexOf('b'));
  });

  it('typo: fewer typos first', async () => {
    expect(await order([item('a', 'sansung tablet'), item('b', 'samsung tablet')], 'samsung tablet')).toEqual(['b', 'a']);
  });

  it('typo: a word the typos reach whole before a longer word whose start they reach, the first letter included', async () => {
    // Both have one typo: "backpak" is one from "backpack", and from the start of "backpacking".
    const items = [item('a', 'backpacking stove'), item('b', 'hiking backpack')];
    expect(await order(items, 'backpak', { rankingRules: ['typo'] })).toEqual(['b', 'a']);
    expect(await order([item('a', 'watchband strap'), item('b', 'steel watch')], 'qatch', { rankingRules: ['typo'] })).toEqual(['b', 'a']);
  });

  it('typo: a wrong first letter counts two unless its key touches the right one ("qatch" is a watch, not a batch or a latch)', async () => {
    const items = [
      item('a', 'Gate Latch Black'),
      item('b', 'Batch Mixer Paddle'),
      item('c', 'Smart Watch Band'),
      item('d', 'Charcoal Grill'),
    ];
    expect(await order(items, 'qatch')).toEqual(['c']);
    // "drill" is no grill (d and g are far apart); "srill" is a drill (s touches d).
    expect(await order([...items, item('e', 'Hammer Drill')], 'drill')).toEqual(['e']);
    expect(await order([...items, item('e', 'Hammer Drill')], 'srill')).toEqual(['e']);
    // A far first letter the only reading of a word is kept: a spelling by ear ("cayak", c and k far apart).
    expect(await order([item('a', 'Inflatable Kayak'), item('b', 'Kayak Paddle'), item('c', 'Camping Stove')], 'cayak')).toEqual([
      'a',
      'b',
    ]);
    // With two typos allowed, a far first letter costs two: after a word one typo away.
    expect(await order([item('a', 'zlectrical tape'), item('b', 'electrical tape')], 'rlectrical', { rankingRules: ['typo'] })).toEqual([
      'b',
      'a',
    ]);
  });

  it('typo: which keys touch is the keyboard option\'s layout ("zank" is a sank on QWERTY, a tank on QWERTZ)', async () => {
    // z touches s on QWERTY and t on QWERTZ, where z and y trade places.
    const items = [item('a', 'Sank Boat Model'), item('b', 'Tank Top')];
    expect(await order(items, 'zank')).toEqual(['a']);
    expect(await order(items, 'zank', { keyboard: 'qwertz' })).toEqual(['b']);
    // No layout: a wrong first letter is one typo like any other, so both are reached.
    expect((await order(items, 'zank', { keyboard: 'none' })).sort()).toEqual(['a', 'b']);
    const catalog = await catalogOf([]);
    expect(() => new SearchService({ catalog, keyboard: 'dvorak' as 'qwerty' })).toThrow(
      'SearchService: keyboard must be one of qwerty, azerty, qwertz, none, got "dvorak"',
    );
  });

  it('typo: a word the catalog has nowhere takes one typo more ("tnet" is a tent; "lifrprof" is a lifeproof)', async () => {
    const items = [item('a', 'Camping Chair'), item('b', 'Dome Tent'), item('c', 'Lifeproof Case'), item('d', 'Phone Case')];
    expect(await order(items, 'tnet')).toEqual(['b']);
    expect(await order([...items, item('e', 'Dome Light')], 'dome tnet')).toEqual(['b', 'e']);
    expect(await order(items, 'lifrprof case')).toEqual(['c', 'd']);
    // Not when two query words reach nothing: more likely a name the catalog does not have than two slips.
    const shirts = [item('a', 'Oxford Shirt'), item('b', 'Rally Shirt')];
    expect(await order(shirts, 'ralph shirt')).toEqual(['b', 'a']);
    expect(await order(shirts, 'ralph lauren shirt', { rankingRules: ['words', 'typo'] })).toEqual(['a', 'b']);
    // A word the catalog has is not read as another: "tent" reaches no "test", "dome" no "home".
    expect(await order([...items, item('e', 'Test Kit'), item('f', 'Home Decor')], 'dome tent')).toEqual(['b']);
  });

  it('reads a word the catalog has nowhere as two words typed together ("galaxycase"), when an item holds both', async () => {
    const items = [item('a', 'Galaxy Case'), item('b', 'Galaxy Charger'), item('c', 'Phone Case'), item('d', 'Lamp')];
    // As the two words: the item holding both first, then those holding one, the case (what is sought) before the charger.
    expect(await order(items, 'galaxycase')).toEqual(['a', 'c', 'b']);
    expect(await order(items, 'samsung galaxycase')).toEqual(['a', 'c', 'b']);
    // The halves as typed, with two letters or more each, no stop word ("lampthe" is no "lamp the").
    expect(await order([...items, item('e', 'TV Stand')], 'tvstand')).toEqual(['e']);
    expect(await order(items, 'lampthe')).toEqual([]);
    // Not when no item holds both halves, nor when the word reaches a word as typed or a typo away
    // (then only the name holding the halves side by side matches, as before: no item holding one).
    expect(await order(items, 'chargerlamp phone')).toEqual(['c']);
    expect((await order([...items, item('e', 'Galaxycases Pack')], 'galaxycase')).sort()).toEqual(['a', 'e']);
    expect((await order([...items, item('e', 'Galaxycaze Pack')], 'galaxycase')).sort()).toEqual(['a', 'e']);
  });

  it('reads a word as two typed together before the two typos a word it makes reaches ("screwdriverset")', async () => {
    const items = [
      item('a', 'Screwdrivers Pack'),
      item('b', 'Precision Screwdriver Set'),
      item('c', 'Socket Set'),
      item('d', 'Screwdriver Handle'),
    ];
    // One slip (a missing space) is likelier than two ("screwdrivers" with two letters changed).
    expect(await matchedWords(await serviceOf(items), 'screwdriverset')).toEqual({ a: 1, b: 2, c: 1, d: 1 });
    // A half is read through words of two letters or more: "ued" stems to "u", which makes no split.
    const phones = [item('e', 'Wireless Headphones'), item('f', 'U Phones Stand')];
    expect(await order(phones, 'uedphones')).toEqual(['e']);
    // A word that reaches nothing alone but a word joined with its neighbour is no two-typo word:
    // the join reads it ("ear budsholder" is the earbudsholder, however "buds holder" would split).
    const holders = [item('g', 'Earbudsholder Case'), item('h', 'Buds Holder Stand'), item('i', 'Ear Hooks')];
    expect((await order(holders, 'ear budsholder'))[0]).toBe('g');
  });

  it('reads a word as two typed together with a slip in one of them ("bluetoothheadest"), the other typed right', async () => {
    const items = [item('a', 'Bluetooth Headset'), item('b', 'Bluetooth Speaker'), item('c', 'Wired Headset'), item('d', 'Head Strap')];
    expect(await order(items, 'bluetoothheadest')).toEqual(['a', 'b', 'c']);
    // A two-letter half typed right is too many words' abbreviation: "walle gs" is no reading of "wallegs".
    const wallets = [item('w', 'Leather Wallet'), item('g', 'Phone GS Edition'), item('c', 'Wallet GS Case')];
    expect((await order(wallets, 'wallegs')).sort()).toEqual(['c', 'w']);
  });

  it('reads no word as two typed together where a half is only ever in prose ("walllets" is no "wall lets")', async () => {
    const prose = 'it lets you carry your cards and your phone in one place, and it fits in any pocket';
    const items = [
      item('a', 'Leather Wallet', { description: prose }),
      item('b', 'Wall Charger', { description: `a charger that ${prose}` }),
      item('c', 'Wall Lamp', { description: `a lamp that hangs on any wall, ${prose}` }),
    ];
    // "lets" is in every description and no name: the word is a misspelt "wallets", not two words.
    expect(await order(items, 'walllets')).toEqual(['a']);
    // A half some name holds still splits the word ("walllamp": "wall lamp").
    expect(await order(items, 'walllamp')).toEqual(['c', 'b']);
  });

  it('keeps the synonyms of the other query words when a term is split or two are joined', async () => {
    const items = [item('a', 'Galaxy Case Mobile'), item('b', 'Galaxy Case'), item('c', 'Wool Suit Mobile'), item('d', 'Wool Suit')];
    const options = { synonyms: { oneWay: { cellphone: ['mobile'] } } };
    // "cellphone" (no word of the catalog) matches through its synonym, after the split term and after the joined one.
    expect(await order(items, 'galaxycase cellphone', options)).toEqual(['a', 'b', 'c']);
    const joined = await order(items, 'su it cellphone', options);
    expect([joined[0], [...joined].sort()]).toEqual(['c', ['a', 'c', 'd']]);
  });

  it('reads a word the catalog has nowhere as half of one typed in two, joined with its neighbour ("su it", "otte rbx")', async () => {
    const items = [item('a', 'Wool Suit'), item('b', 'Otterbox Defender Case'), item('c', 'Phone Case'), item('d', 'Dome Tent')];
    // Joined, a word as typed ("it" a stop word), or a word a typo away ("otterbx").
    expect(await order(items, 'su it')).toEqual(['a']);
    expect(await order(items, 'otte rbx case')).toEqual(['b', 'c']);
    // A fragment of under 4 letters joins before it takes a typo; one it cannot join takes one ("tnt").
    expect(await order(items, 'gu itr')).toEqual([]);
    expect(await order([...items, item('e', 'Acoustic Guitar')], 'gu itr')).toEqual(['e']);
    expect(await order(items, 'dome tnt')).toEqual(['d']);
    // A half that reaches nothing alone makes one term with its neighbour, counted once: "run ning
    // armband" asks what "running armband" asks, where the armband (the rarer word) comes first.
    const runs = [item('r1', 'Running Belt'), item('r2', 'Running Cap'), item('r3', 'Fitness Armband')];
    expect(await matchedWords(await serviceOf(runs), 'run ning armband')).toEqual({ r1: 1, r2: 1, r3: 1 });
    expect((await order(runs, 'run ning armband'))[0]).toBe('r3');
    // Unless one typo of its own makes a word that more items hold beside the other query words:
    // one slip is likelier than a split and a slip ("watch bnd" is a watch band, not a "watchband").
    const bands = [item('f', 'Watch Band for Apple Watch'), item('g', 'Leather Band for Apple Watch'), item('h', 'Watchband Tool')];
    expect(await matchedWords(await serviceOf(bands), 'apple watch bnd')).toEqual({ f: 3, g: 3, h: 1 });
    // A join two typos from its word counts a tenth of its items: "win glasses" is wine glasses,
    // not two slips from sunglasses, though more items name sunglasses.
    const glasses = [
      ...['Crystal', 'Stemless', 'Red'].map((w, k) => item(`w${k}`, `${w} Wine Glasses`)),
      ...['Aviator', 'Round', 'Sport', 'Polarized', 'Kids', 'Folding'].map((w, k) => item(`s${k}`, `${w} Sunglasses`)),
    ];
    expect((await order(glasses, 'win glasses')).slice(0, 3).sort()).toEqual(['w0', 'w1', 'w2']);
    // A tie (a wine glass for every ten sunglasses) is read alike at any scale, not by how a sum
    // of tenths rounds (ten made 0.999…, twenty 2.000…1): as any tie, not the fragment's slip.
    const tied = async (wine: number) => {
      const items = [
        ...Array.from({ length: wine }, (_, k) => item(`w${k}`, `Crystal Wine Glasses ${k}`)),
        ...Array.from({ length: 10 * wine }, (_, k) => item(`s${k}`, `Aviator Sunglasses ${k}`)),
      ];
      return (await order(items, 'win glasses'))[0]!.charAt(0);
    };
    expect([await tied(1), await tied(2), await tied(5)]).toEqual(['s', 's', 's']);
    // The join reaching the slip's word as well reads the neighbour too: "plu ss" is "pluss", a plus.
    const plus = [item('p', 'Phone 7 Plus Case'), item('q', 'Phone 7 Plug Case'), item('r', 'SS Phone 7 Case')];
    expect((await order(plus, 'phone 7 plu ss case'))[0]).toBe('p');
  });

  it('subject: a head word typed with a typo names items as the word it reaches ("backpak": a hiking backpack before a backpack cover)', async () => {
    expect(await order([item('a', 'backpack cover'), item('b', 'hiking backpack')], 'backpak')).toEqual(['b', 'a']);
  });

  it('the last word, a whole word of the catalog, starts longer words only beside another query word ("fishing rod" finds no rodeo)', async () => {
    const items = [
      item('a', 'Pro Fishing Rod'),
      item('b', 'Fishing Net'),
      item('c', 'Rodeo Boots'),
      item('d', 'Blue Jacket'),
      item('e', 'Jack Stand'),
    ];
    expect((await order(items, 'fishing rod')).sort()).toEqual(['a', 'b']);
    // Beside another query word, the start is read: "blue jack" may be a jacket being typed.
    expect(await order(items, 'blue jack')).toEqual(['d', 'e']);
    // Alone, the word may be one being typed.
    expect((await order(items, 'rod')).sort()).toEqual(['a', 'c']);
  });

  it('a short word before the last is no prefix: "ski jacket" finds no "skinny" jeans', async () => {
    expect(await order([item('a', 'skinny jeans'), item('b', 'rain jacket')], 'ski jacket')).toEqual(['b']);
    // The last word may be one being typed: "jacket ski" finds "skinny".
    expect(await order([item('a', 'skinny jeans'), item('b', 'rain jacket')], 'jacket ski')).toContain('a');
  });

  it('proximity: terms closer together first, in query order before reversed', async () => {
    // Neither starts with the query, and both end with the same word (what each is named as).
    expect(await order([item('a', 'big blue fancy lamp fixture'), item('b', 'big blue lamp fancy fixture')], 'blue lamp')).toEqual([
      'b',
      'a',
    ]);
    expect(await order([item('a', 'big lamp blue fancy fixture'), item('b', 'big blue lamp fancy fixture')], 'blue lamp')).toEqual([
      'b',
      'a',
    ]);
  });

  it('proximity: measured against the gap in the query, stop words included', async () => {
    // "in" is a stop word: 3 and 1 count as a pair two words apart, as in the query.
    expect(await order([item('a', 'tripod 3 1 stand in'), item('b', 'lens 3 in 1 kit')], '3-in-1')).toEqual(['b', 'a']);
  });

  it('attribute: the earlier searchable field first, then the earlier position', async () => {
    expect(await order([item('a', 'other', { brand: 'zed' }), item('b', 'zed', { brand: 'other' })], 'zed')).toEqual(['b', 'a']);
    expect(await order([item('a', 'big red zed fixture'), item('b', 'zed red big fixture')], 'zed')).toEqual(['b', 'a']);
  });

  it('exactness: the word as typed before a stem, prefix or typo match', async () => {
    expect(await order([item('a', 'lamps and more'), item('b', 'lamp and more')], 'lamp')).toEqual(['b', 'a']);
    expect(await order([item('a', 'lampshade and more'), item('b', 'lamp and more')], 'lamp')).toEqual(['b', 'a']);
  });

  it('exactness: a name starting with the query counts where the query ends its phrase ("Ceiling Fan in White", not "Ceiling Fan Light Kit")', async () => {
    const exactly: Partial<SearchServiceOptions> = { rankingRules: ['exactness'], tieBreak: [] };
    const kit = item('kit', 'Ceiling Fan Light Kit');
    expect(await order([kit, item('fan', 'Ceiling Fan in White')], 'ceiling fan', exactly)).toEqual(['fan', 'kit']);
    expect(await order([kit, item('bare', 'Ceiling Fan')], 'ceiling fan', exactly)).toEqual(['bare', 'kit']);
    // Other fields than the name start as before.
    expect(await order([kit, item('brand', 'Hunter', { brand: 'Ceiling Fan Co' })], 'ceiling fan', exactly)).toEqual(['brand', 'kit']);
    // With every rule: the fans before the kit that starts with their name.
    const shop = [kit, item('fan', 'Hunter 44 in. Ceiling Fan in White'), item('fan2', 'Hampton Bay 52 in. Ceiling Fan in Brushed Nickel')];
    expect((await order(shop, 'ceiling fan')).indexOf('kit')).toBe(2);
  });

  it('exactness: a field equal to the query before one that starts with it', async () => {
    expect(await order([item('a', 'galaxy tab case'), item('b', 'galaxy tab')], 'galaxy tab', { rankingRules: ['exactness'] })).toEqual([
      'b',
      'a',
    ]);
  });

  it('subject: the query word naming what an item is, in its name, before the same word in what it fits', async () => {
    // Same words: b IS a phone (battery for zed's sake), a is a battery for a zed phone. Proximity alone would put a first.
    expect(await order([item('a', 'battery for zed phone'), item('b', 'phone battery for zed')], 'zed phone')).toEqual(['b', 'a']);
    expect(await order([item('a', 'mount compatible with zed phone'), item('b', 'phone mount compatible with zed')], 'zed phone')).toEqual([
      'b',
      'a',
    ]);
    // The same words; in b a new part of the name (" - ") ends what the mount fits.
    expect(await order([item('a', 'mount fits zed phone'), item('b', 'mount fits zed - phone')], 'zed phone')).toEqual(['b', 'a']);
  });

  it('subject: the same after a rebuild that copies unchanged items from the previous index', async () => {
    const catalog = await catalogOf([
      item('a', 'battery for zed phone', { categories_ids: ['all', 'batteries'] }),
      item('b', 'phone battery for zed', { categories_ids: ['all', 'phones'] }),
    ]);
    const s = new SearchService({ catalog });
    const before = await s.search({ text: 'zed phone', showRankingScoreDetails: true });
    await catalog.put(item('c', 'lamp'));
    await catalog.sync();
    const after = await s.search({ text: 'zed phone', showRankingScoreDetails: true });
    expect(after.hits.map((h) => [h.id, h._rankingScoreDetails?.subject])).toEqual(
      before.hits.map((h) => [h.id, h._rankingScoreDetails?.subject]),
    );
    expect(after.hits.map((h) => h.id)).toEqual(['b', 'a']);
  });

  it('subject: the most specific category names what an item is, its ancestors do not', async () => {
    const items = [item('a', 'zed', { categories_ids: ['lamps', 'shades'] }), item('b', 'zed', { categories_ids: ['shades', 'lamps'] })];
    // Exactness alone would put a first (its categories start with the query): only subject decides here.
    expect(await order(items, 'lamps', { profile: 'retail', rankingRules: ['subject'] })).toEqual(['b', 'a']);
    // The category's last word before "with" is its type: "lamps with shades" are lamps.
    const withs = [
      item('a', 'zed', { categories_ids: ['all', 'shades-with-lamps'] }),
      item('b', 'zed', { categories_ids: ['all', 'lamps-with-shades'] }),
    ];
    expect(await order(withs, 'lamps', { profile: 'retail', rankingRules: ['subject'] })).toEqual(['b', 'a']);
  });

  it('subject: a stem where the item says what it is counts though the word as typed is elsewhere', async () => {
    // Both have "lamp" as typed in their description; b's category type "lamps" is its stem.
    const stems = [
      item('a', 'zed', { categories_ids: ['all', 'shades'], description: 'lamp' }),
      item('b', 'zed', { categories_ids: ['all', 'lamps'], description: 'lamp' }),
    ];
    expect(await order(stems, 'lamp', { profile: 'retail', rankingRules: ['subject'] })).toEqual(['b', 'a']);
  });

  it('subject: a plural before the category type word is a type too (a coordination the slug lost: "cases-clips")', async () => {
    // a's "lamp shades" are shades; b's "lamps shades" (Lamps & Shades) are lamps and shades.
    const items = [
      item('a', 'zed', { categories_ids: ['all', 'lamp-shades'] }),
      item('b', 'zed', { categories_ids: ['all', 'lamps-shades'] }),
    ];
    expect(await order(items, 'lamps', { profile: 'retail', rankingRules: ['subject'] })).toEqual(['b', 'a']);
  });

  it('subject: the head is the word most often naming items, wherever it is in the query', async () => {
    // "case" names many items (they are cases); "zphone" and "7" are mostly what they fit.
    const cases = Array.from({ length: 6 }, (_, i) => item(`f${i}`, `case for zphone${i} - black`));
    const fits = Array.from({ length: 4 }, (_, i) => item(`g${i}`, `cable${i} for zphone 7`));
    const items = [item('a', 'zphone 7', { description: 'fits any case' }), item('b', 'slim case for zphone 7'), ...cases, ...fits];
    for (const text of ['zphone 7 case', 'case zphone 7', 'case for zphone 7']) {
      const ids = await order(items, text);
      expect(ids.indexOf('b'), text).toBeLessThan(ids.indexOf('a'));
    }
  });

  it('subject: the head term ending a phrase of the name (what the item is named as) before the same term inside a phrase', async () => {
    // The same words: b is a phone ("zed card phone"), a a card ("zed phone card"); attribute alone would put a first.
    expect(await order([item('a', 'zed phone card'), item('b', 'zed card phone')], 'phone', RETAIL)).toEqual(['b', 'a']);
    // A phrase also ends at "with", "for", "w/", a parenthesis, a comma, or a name part of two words or more.
    for (const b of [
      'zed phone with card',
      'zed phone w/ card',
      'zed phone (card)',
      'zed phone, card',
      'zed phone - card',
      'zed phone and card',
    ]) {
      expect(await order([item('a', 'zed phone card'), item('b', b)], 'phone', RETAIL), b).toEqual(['b', 'a']);
    }
    // A one-word part is a label (a brand, a colour), not a phrase: "Phone - Zed card" names a card.
    expect(
      await order([item('a', 'phone - zed card'), item('b', 'zed card phone')], 'phone', { profile: 'retail', rankingRules: ['subject'] }),
    ).toEqual(['b', 'a']);
    const s = await serviceOf([item('a', 'zed phone card'), item('b', 'zed card phone')], RETAIL);
    const { hits } = await s.search({ text: 'phone', showRankingScoreDetails: true });
    expect(hits.map((h) => h._rankingScoreDetails?.subject?.headNamesItem)).toEqual([true, false]);
  });

  it('subject: the head is the last query term saying what items are at least half as often as the term saying it most', async () => {
    // "phone" names more items than "grip" does, but a "phone grip" is a grip: grip says it often enough.
    const items = [
      item('a', 'zed grip phone'), // a phone
      item('b', 'zed phone grip'), // a grip
      ...Array.from({ length: 4 }, (_, i) => item(`p${i}`, `phone${i} - zed phone`)),
      item('g0', 'grip - zed grip'),
      item('g1', 'grip case for zed'),
    ];
    const ids = await order(items, 'phone grip', RETAIL);
    expect(ids.indexOf('b')).toBeLessThan(ids.indexOf('a'));
  });

  it('subject: a query term naming most items it says they are can be the head, though every item mentions it ("prepaid phone")', async () => {
    // "phone" is in every description and in what the cases fit, so it rarely says what an item
    // is; but where it does, it names the item ("cell phone"), while "prepaid" names none ("prepaid minutes").
    const items = [
      item('a', 'zed prepaid phone card'), // a card
      item('b', 'zed prepaid cell phone'), // a phone
      ...Array.from({ length: 8 }, (_, i) => item(`c${i}`, `case${i} for cell phones`, { description: 'fits any phone' })),
      ...Array.from({ length: 4 }, (_, i) => item(`m${i}`, `prepaid minutes ${i} - zed`)),
    ];
    expect((await order(items, 'prepaid phone', RETAIL)).slice(0, 2)).toEqual(['b', 'a']);
    const s = await serviceOf(items, RETAIL);
    expect((await s.search({ text: 'prepaid phone', showRankingScoreDetails: true })).hits[0]?._rankingScoreDetails?.subject?.head).toBe(
      'phone',
    );
  });

  it('subject: a query naming the product type first ("faucet kitchen") takes the word that ends the names far more often as its head', async () => {
    const items = [
      item('a', 'Faucet Aerator Kitchen'), // an aerator
      item('b', 'Two-Handle Bridge Kitchen Faucet'), // a faucet
      item('c', 'Single-Handle Pull-Down Sprayer Kitchen Faucet'),
      item('d', 'Touchless Kitchen Faucet'),
      item('e', 'Widespread Bathroom Faucet'),
      item('f', 'Kitchen Sink Stainless Steel 33 in.'),
      item('g', 'Kitchen Island Cart'),
      item('h', 'Pantry Cabinet for Kitchen'),
    ];
    const s = await serviceOf(items);
    const head = async (text: string) =>
      (await s.search({ text, showRankingScoreDetails: true })).hits[0]?._rankingScoreDetails?.subject?.head;
    expect(await head('faucet kitchen')).toBe('faucet');
    expect(await head('kitchen faucet')).toBe('faucet');
    const ids = await order(items, 'faucet kitchen');
    expect(ids.indexOf('a')).toBeGreaterThan(ids.indexOf('d'));
    // A word ending names as a qualifier ("in White") does not take the head where the names never
    // write the two words in the other order ("Vanity White"): "white vanity" asks for a vanity.
    const white = [
      ...['Bath Vanity', 'Shaker Vanity Cabinet', 'Wall Cabinet', 'Door Hinge', 'Towel Bar'].map((w, i) => item(`w${i}`, `${w} in White`)),
      item('m', 'White Vanity Mirror'),
      item('v', 'Floating Vanity'),
    ];
    const u = await serviceOf(white);
    expect((await u.search({ text: 'white vanity', showRankingScoreDetails: true })).hits[0]?._rankingScoreDetails?.subject?.head).toBe(
      'vanity',
    );
    // A word that ends as many names ("kitchen" in a kitchen shop) leaves the query's order alone.
    const shop = [...items, ...['Wall', 'Bar', 'Shelf', 'Rack'].map((w, i) => item(`k${i}`, `${w} Kitchen`))];
    const t = await serviceOf(shop);
    expect((await t.search({ text: 'faucet kitchen', showRankingScoreDetails: true })).hits[0]?._rankingScoreDetails?.subject?.head).toBe(
      'kitchen',
    );
  });

  it('subject: a query word the names read as a model variant ("edge" after "7") says what an item is only right after that word', async () => {
    // The names insert "edge" between "7" and what follows "7": "zed 7 edge" is a model, as "iPhone 6s Plus".
    const evidence = [
      item('e1', 'zed 7 edge 32gb phone'),
      item('e2', 'zed 7 32gb phone'),
      item('e3', 'zed 7 edge 64gb phone'),
      item('e4', 'zed 7 64gb phone'),
    ];
    const s = await serviceOf(
      [item('a', 'edge case for zed 7'), item('b', 'slim case for zed 7'), item('c', 'zed 7 edge case'), ...evidence],
      { profile: 'retail', rankingRules: ['subject'] },
    );
    const words = async (text: string) =>
      Object.fromEntries(
        (await s.search({ text, showRankingScoreDetails: true, hitsPerPage: 100 })).hits.map((h) => [
          h.id,
          h._rankingScoreDetails?.subject?.subjectWords,
        ]),
      );
    // a's "Edge" names its style, not the model: a case for the "zed 7" is no more a "zed 7 edge" case than b.
    expect(await words('zed 7 edge case')).toMatchObject({ a: 1, b: 1, c: 4 });
    // "edge" typed alone, or after a word it is no variant of, counts wherever it says what the item is.
    expect(await words('edge case')).toMatchObject({ a: 2, b: 1 });
  });

  it('subject: a query word before a model number ("zed" in "zed 6") says what an item is only where the name continues to that number', async () => {
    // a is a "zed 7" lamp whose description holds a 6: its "zed" is no more a "zed 6" than b's lamp without one.
    const s = await serviceOf(
      [item('a', 'zed 7 lamp', { description: '6 bulbs' }), item('b', 'slim lamp', { description: 'zed 6' }), item('c', 'zed 6 lamp')],
      { profile: 'retail', rankingRules: ['subject'] },
    );
    const words = async (text: string) =>
      Object.fromEntries(
        (await s.search({ text, showRankingScoreDetails: true, hitsPerPage: 100 })).hits.map((h) => [
          h.id,
          h._rankingScoreDetails?.subject?.subjectWords,
        ]),
      );
    expect(await words('zed 6 lamp')).toEqual({ a: 1, b: 1, c: 3 });
    expect(await words('zed lamp')).toMatchObject({ a: 2, b: 1 });
  });

  it('variant: a name whose query phrase continues into another model ("zed 7 edge" for "zed 7") after one that does not', async () => {
    // The catalog's names insert "edge" between "7" and what follows "7" ("cell", "32"); "cell" is followed by "phones", which never follows "7".
    const evidence = [item('e1', 'zed 7 edge 32gb phone'), item('e2', 'zed 7 32gb phone')];
    expect(
      await order(
        [item('a', 'case for zed 7 edge cell phones'), item('b', 'case for zed 7 cell phones'), ...evidence],
        'zed 7 case',
        RETAIL,
      ),
    ).toEqual(['b', 'a', 'e2', 'e1']);
    // A stop word after the model ("7 and 8"), a word the query typed, or a word after a lone query word is no variant.
    const s = await serviceOf(
      [
        item('a', 'case for zed 7 edge cell phones'),
        item('b', 'case for zed 7 and 8 cell phones'),
        item('c', 'case for zed 7 edge'),
        ...evidence,
      ],
      RETAIL,
    );
    const variant = async (text: string) =>
      Object.fromEntries(
        (await s.search({ text, showRankingScoreDetails: true, hitsPerPage: 100 })).hits.map((h) => [
          h.id,
          h._rankingScoreDetails?.variant?.variantTerms,
        ]),
      );
    expect(await variant('zed 7 case')).toMatchObject({ a: 1, b: 0, e1: 1, e2: 0 });
    expect(await variant('zed 7 edge case')).toMatchObject({ a: 0, c: 0, e1: 0 });
    expect(await variant('7 case')).toMatchObject({ a: 0, e1: 0 });
  });

  it('variant: a name numbering the model otherwise ("zed 7" for "zed 6"), and never as typed, after one numbering it as typed', async () => {
    // Both hold every query word; a's 6 is only in its description (a case for the zed 7 that "also fits the zed 6").
    const items = [
      item('a', 'case for zed 7 edge', { description: 'zed 6' }),
      item('b', 'case for zed 6 edge', { description: 'zed 7' }),
      item('c', 'case for zed 7 and 6 edge'),
    ];
    expect(await order(items.slice(0, 2), 'zed 6 edge case', { profile: 'retail', rankingRules: ['variant'], tieBreak: [] })).toEqual([
      'b',
      'a',
    ]);
    const s = await serviceOf(items, { profile: 'retail', rankingRules: ['variant'] });
    const variant = async (text: string) =>
      Object.fromEntries(
        (await s.search({ text, showRankingScoreDetails: true })).hits.map((h) => [h.id, h._rankingScoreDetails?.variant?.variantTerms]),
      );
    // A name holding the query's number too is not another model ("for zed 7 and 6"); without a number in the query, nothing is renumbered.
    expect(await variant('zed 6 edge case')).toEqual({ a: 1, b: 0, c: 0 });
    expect(await variant('zed 7 edge case')).toEqual({ a: 0, b: 1, c: 0 });
    expect(await variant('zed edge case')).toEqual({ a: 0, b: 0, c: 0 });
  });

  it('bm25 ties: the name more of which the query covers first, then the text more of which it covers', async () => {
    expect(await order([item('a', 'lamp - midnight blue'), item('b', 'lamp - red')], 'lamp', { rankingRules: ['bm25'] })).toEqual([
      'b',
      'a',
    ]);
    const text = [
      item('a', 'lamp - red', { description: 'a lamp for a very long winter evening' }),
      item('b', 'lamp - red', { description: 'a lamp' }),
    ];
    expect(await order(text, 'lamp', { rankingRules: ['bm25'] })).toEqual(['b', 'a']);
  });

  it('after every rule, the lower price, then the name in alphabetical order, then the id', async () => {
    expect(await order([item('a', 'lamp - red', { price: 20 }), item('b', 'lamp - tan', { price: 10 })], 'lamp', RETAIL)).toEqual([
      'b',
      'a',
    ]);
    expect(await order([item('a', 'lamp - red', { price: null }), item('b', 'lamp - tan', { price: 10 })], 'lamp', RETAIL)).toEqual([
      'b',
      'a',
    ]);
    // The same price: variants in name order (coverage ties: "red" and "tan" are as long).
    expect(await order([item('a', 'lamp - tan', { price: 10 }), item('b', 'lamp - red', { price: 10 })], 'lamp', RETAIL)).toEqual([
      'b',
      'a',
    ]);
    expect(await order([item('b', 'lamp - red', { price: 10 }), item('a', 'lamp - red', { price: 10 })], 'lamp', RETAIL)).toEqual([
      'a',
      'b',
    ]);
  });

  it('tieBreak: the configured final order of hits equal on every rule, before the id', async () => {
    const items = [item('a', 'lamp - tan', { price: 10, stock: 0 }), item('b', 'lamp - red', { price: 20, stock: 5 })];
    expect(await order(items, 'lamp', { profile: 'retail', tieBreak: ['stock:desc'] })).toEqual(['b', 'a']);
    expect(await order(items, 'lamp', { profile: 'retail', tieBreak: ['name:desc'] })).toEqual(['a', 'b']);
    expect(await order([items[1]!, items[0]!], 'lamp', { profile: 'retail', tieBreak: [] })).toEqual(['a', 'b']);
    const s = await serviceOf(items, { profile: 'retail', tieBreak: ['stock:desc', 'price:asc'] });
    const { hits } = await s.search({ text: 'lamp', showRankingScoreDetails: true });
    expect(hits.map((h) => h._rankingScoreDetails?.tieBreak)).toEqual([
      { order: 10, values: { 'stock:desc': 5, 'price:asc': 20 } },
      { order: 10, values: { 'stock:desc': 0, 'price:asc': 10 } },
    ]);
  });

  it('priceIntent: on a query asking for a low price ("cheap lamp"), the lower price first', async () => {
    // The two differ only in price; the final order (tieBreak) would put the dearer one first.
    const items = [item('a', 'lamp', { price: 30 }), item('b', 'lamp', { price: 12 })];
    expect(await order(items, 'cheap lamp', { tieBreak: ['price:desc'] })).toEqual(['b', 'a']);
    expect(await order(items, 'lamp', { tieBreak: ['price:desc'] })).toEqual(['a', 'b']);
    // The price word is not searched: a listing calling itself cheap gains nothing by it.
    expect(await order([item('a', 'cheap lamp', { price: 30 }), item('b', 'tan lamp', { price: 12 })], 'cheap lamp')).toEqual(['b', 'a']);
    // After what the item is: a lamp before a cheaper lamp shade on "budget lamp".
    expect(await order([item('a', 'small lamp shade', { price: 5 }), item('b', 'table lamp', { price: 40 })], 'budget lamp')).toEqual([
      'b',
      'a',
    ]);
    // A word the catalog lacks one typo from a price word asks the same ("cheapp lamp"); one it has is searched ("cheapo").
    expect(await order(items, 'cheapp lamp', { tieBreak: ['price:desc'] })).toEqual(['b', 'a']);
    // A four-letter one too ("chep", "ceap"), unless a slip of it is a word beside the query's others ("chip" beside a lamp's "chip").
    expect(await order(items, 'chep lamp', { tieBreak: ['price:desc'] })).toEqual(['b', 'a']);
    const chips = [item('a', 'lamp with chip', { price: 30 }), item('b', 'lamp', { price: 12 })];
    expect(await order(chips, 'chep lamp', { tieBreak: ['price:desc'] })).toEqual(['a', 'b']);
    const cheapo = [item('a', 'lamp', { price: 30 }), item('b', 'lamp', { price: 12 }), item('c', 'cheapo lamp', { price: 50 })];
    expect(await order(cheapo, 'cheapo lamp', { tieBreak: ['price:desc'] })).toEqual(['c', 'a', 'b']);
    // One as near a word the catalog has is that word's slip: "chesp strap" is a chest strap, not a cheap strap.
    const straps = [item('a', 'chest strap', { price: 30 }), item('b', 'luggage strap', { price: 5 })];
    expect(await order(straps, 'chesp strap')).toEqual(['a', 'b']);
    // Autocomplete reads the slip as search does.
    const lamps = await serviceOf([item('a', 'brass lamp', { price: 30 }), item('b', 'table lamp', { price: 12 })], {
      tieBreak: ['price:desc'],
    });
    for (const query of ['cheap lamp', 'cheapp lamp'])
      expect((await lamps.autocomplete({ query })).suggestions.map((s) => s.text)).toEqual(['table lamp', 'brass lamp']);
  });

  it('priceIntent: its words and field are configurable; a price word alone, or with the option false, is searched as text', async () => {
    const items = [item('a', 'cheap lamp', { price: 30, sale: 1 }), item('b', 'tan lamp', { price: 12, sale: 50 })];
    expect(await order(items, 'cheap lamp', { profile: 'retail', priceIntent: false })).toEqual(['a', 'b']);
    expect(await order(items, 'cheap', RETAIL)).toEqual(['a']);
    expect(await order(items, 'cheap lamp', { profile: 'retail', priceIntent: { words: ['bargain'] } })).toEqual(['a', 'b']);
    expect(await order(items, 'bargain lamp', { profile: 'retail', priceIntent: { words: ['bargain'] } })).toEqual(['b', 'a']);
    expect(await order(items, 'cheap lamp', { profile: 'retail', priceIntent: { field: 'sale' } })).toEqual(['a', 'b']);
    // Without the rule in rankingRules, the words are searched.
    expect(await order(items, 'cheap lamp', { profile: 'retail', rankingRules: ['words', 'typo', 'proximity'] })).toEqual(['a', 'b']);
    const s = await serviceOf(items, RETAIL);
    const { hits } = await s.search({ text: 'cheap lamp', showRankingScoreDetails: true });
    expect(hits.map((h) => h._rankingScoreDetails?.priceIntent)).toEqual([
      { order: 5, value: 12 },
      { order: 5, value: 30 },
    ]);
    expect((await s.search({ text: 'lamp', showRankingScoreDetails: true })).hits[0]!._rankingScoreDetails).not.toHaveProperty(
      'priceIntent',
    );
  });

  it('customRanking: by the configured criteria', async () => {
    const items = [item('a', 'lamp', { popularity: 5 }), item('b', 'lamp', { popularity: 9 })];
    expect(await order(items, 'lamp', { customRanking: ['popularity:desc'] })).toEqual(['b', 'a']);
    expect(await order(items, 'lamp', { customRanking: ['popularity:asc'] })).toEqual(['a', 'b']);
    expect(await order(items, 'lamp')).toEqual(['a', 'b']);
  });

  it('bm25: more occurrences of the term, in a shorter field, first', async () => {
    expect(await order([item('a', 'lamp', { description: 'a lamp' }), item('b', 'lamp', { description: 'lamp lamp' })], 'lamp')).toEqual([
      'b',
      'a',
    ]);
  });

  it('id: the last tie-breaker', async () => {
    expect(await order([item('b', 'lamp'), item('a', 'lamp')], 'lamp')).toEqual(['a', 'b']);
  });

  it('applies the rules in the configured order', async () => {
    // a: exact word, far in the name; b: a stem match at the start.
    const items = [item('a', 'big red shiny lamp'), item('b', 'lamps big red shiny')];
    expect(await order(items, 'lamp', { rankingRules: ['attribute', 'exactness'] })).toEqual(['b', 'a']);
    expect(await order(items, 'lamp', { rankingRules: ['exactness', 'attribute'] })).toEqual(['a', 'b']);
  });

  it('an explicit sort applies before every rule', async () => {
    const items = [item('a', 'lamp', { price: 5 }), item('b', 'big lamp', { price: 1 })];
    expect(await order(items, 'lamp')).toEqual(['a', 'b']);
    expect((await (await serviceOf(items)).search({ text: 'lamp', sort: ['price:asc'] })).hits.map((h) => h.id)).toEqual(['b', 'a']);
  });

  it('placeholder search: sort, then customRanking, then id', async () => {
    const items = [
      item('a', 'x', { price: 2, popularity: 1 }),
      item('b', 'y', { price: 1, popularity: 2 }),
      item('c', 'z', { price: 2, popularity: 3 }),
    ];
    const s = await serviceOf(items, { customRanking: ['popularity:desc'] });
    expect((await s.search({ text: '' })).hits.map((h) => h.id)).toEqual(['c', 'b', 'a']);
    expect((await s.search({ text: '', sort: ['price:desc'] })).hits.map((h) => h.id)).toEqual(['c', 'a', 'b']);
  });
});

describe('matching', () => {
  it('makes every term optional, stop words never enough', async () => {
    const s = await serviceOf([item('a', 'the lamp'), item('b', 'the chair'), item('c', 'a table')]);
    expect((await s.search({ text: 'the lamp' })).hits.map((h) => h.id)).toEqual(['a']);
    expect((await s.search({ text: 'lamp chair' })).hits.map((h) => h.id).sort()).toEqual(['a', 'b']);
  });

  it('requires every term with matchingStrategy all (stop words still optional)', async () => {
    const s = await serviceOf([item('a', 'red lamp'), item('b', 'red chair')], { matchingStrategy: 'all' });
    expect((await s.search({ text: 'red lamp' })).hits.map((h) => h.id)).toEqual(['a']);
    expect((await s.search({ text: 'the red lamp' })).hits.map((h) => h.id)).toEqual(['a']);
  });

  it('searches a query of stop words only as ordinary words', async () => {
    const s = await serviceOf([item('a', 'The Who'), item('b', 'lamp')]);
    expect((await s.search({ text: 'the who' })).hits.map((h) => h.id)).toEqual(['a']);
  });

  it('matches two query words written as one in an item ("ear buds" finds "earbuds" for both words, and its stem)', async () => {
    // a and b differ only in writing the compound as one word; a's "earbuds" matches "ear" (a prefix) and "buds" (the joined word).
    const hooks = [item('b', 'zed ear hooks'), item('a', 'zed earbuds'), item('c', 'zed buds')];
    const all = await order(hooks, 'ear buds');
    expect([all[0], [...all].sort()]).toEqual(['a', ['a', 'b', 'c']]);
    const matched = async (items: Item[], text: string) => matchedWords(await serviceOf(items, { rankingRules: ['words'] }), text);
    expect(await matched([item('a', 'zed earbud'), item('c', 'zed buds')], 'ear buds')).toEqual({ a: 2, c: 1 });
    // Where "buds" is no word of the catalog, "ear" (a word of its own, not a form of "earbuds") still matches.
    expect(await order(hooks.slice(0, 2), 'ear buds')).toEqual(['a', 'b']);
    // A lone letter is not joined: "galaxy s" would join to "galaxys", a plural of "galaxy".
    expect(await matched([item('c', 'galaxy zed')], 'galaxy s')).toEqual({ c: 1 });

    // The compound as typed ranks before the joined word: a words-as-typed match for exactness.
    const both = await order([item('a', 'zed earbuds'), item('b', 'zed ear buds')], 'ear buds', { tieBreak: [] });
    expect(both).toEqual(['b', 'a']);
    // The joined word as typed counts as the words as typed: "dish washer" finds the dishwashers
    // before a soap naming "dish" and "washer" apart, and the two words apart in a name rank after.
    const kitchen = [
      item('s', 'Dish Soap for Washer'),
      item('d', 'Bosch 24 in. Dishwasher'),
      item('g', 'GE Built-In Dishwasher'),
      item('r', 'Dish Rack'),
    ];
    expect((await order(kitchen, 'dish washer')).slice(0, 3)).toEqual(['g', 'd', 's']);
    // A word typed in two may leave a stop word: "mo to" is a moto; two stop words join to nothing.
    const motos = [item('m', 'Moto G Plus Phone'), item('n', 'Moshi Case for G Plus Phone'), item('o', 'Mo Tools')];
    expect(await matched(motos, 'mo to g plus')).toEqual({ m: 3, n: 2, o: 1 });
    expect(await matched([item('i', 'zed into'), item('z', 'zed')], 'zed in to')).toEqual({ i: 1, z: 1 });
    // Which only a query of stop words shows, where they count: "in to" finds no "into".
    expect(await order([item('i', 'zed into'), item('j', 'in and to')], 'in to')).toEqual(['j']);
  });

  it('a word the catalog lacks ("ridgid", a brand it does not sell) matches nothing when its typos reach only items sharing no other query word', async () => {
    const items = [
      item('a', 'Rigid Foam Insulation Board 2 in.'),
      item('b', 'Rigid Conduit Pipe 1/2 in.'),
      item('c', 'Makita 18-Volt Hammer Drill'),
      item('d', 'Compact Brushless Cordless Drill'),
      item('e', 'Corded Electric Drill 6 Amp'),
    ];
    // Before, the rare "rigid" outweighed "drill" and the foam board came first.
    expect((await order(items, 'ridgid drill')).sort()).toEqual(['c', 'd', 'e']);
    expect((await order(items, 'ridgid hammer drill'))[0]).toBe('c');
    // Alone, or with no other word found as typed, it keeps its typos: "ridgid" finds "rigid".
    expect((await order(items, 'ridgid')).sort()).toEqual(['a', 'b']);
    expect(await order(items, 'ridgid drlil')).toContain('a');
    // A typo whose items also hold another query word is a typo of the word wanted ("rigid foam").
    expect((await order(items, 'ridgid foam'))[0]).toBe('a');
    // Two such typos meeting in an item keep it for neither: "boadr" (board) as typed would.
    expect((await order(items, 'ridgid boadr drill')).sort()).toEqual(['c', 'd', 'e']);
  });

  it('reads a word the catalog lacks, one typo from a word, as that word and the words of its stem ("runnng" reaches "runs")', async () => {
    const items = [item('a', 'Running Armband'), item('b', 'Armband for Long Runs'), item('c', 'Armband Case'), item('d', 'Runner Socks')];
    // As "running" typed right reaches "runs" through its stem: b matches both words, after a.
    expect(await matchedWords(await serviceOf(items), 'runnng armband')).toMatchObject({ a: 2, b: 2, c: 1 });
    expect((await order(items, 'runnng armband')).slice(0, 2)).toEqual(['a', 'b']);
    // A word the catalog has is not read so: "charger" reaches "charged" a typo away, not the
    // "charging" of its stem.
    const chargers = [item('p', 'Phone Charger'), item('q', 'Charged Battery'), item('r', 'Charging Dock')];
    expect(await order(chargers, 'charger')).not.toContain('r');
    // Nor a word whose stem the catalog has ("lamps": lamp): "clamps" a typo away does not bring "clamp".
    const lamps = [item('lamp', 'Desk Lamp'), item('clamps', 'Spring Clamps'), item('meter', 'Clamp Meter')];
    expect(await order(lamps, 'lamps')).not.toContain('meter');
  });

  it('reads a query word no item holds with the others as the word one typo more away that their items hold ("camping hair" is a chair)', async () => {
    const items = [
      item('chair', 'Folding Camping Chair'),
      item('chair2', 'Camping Chair with Cup Holder'),
      item('tent', 'Camping Tent 2-Person'),
      item('band', 'Elastic Hair Band'),
      item('office', 'Office Chair'),
      item('pink', 'Pink Polo Shirt'),
      item('pin', 'Enamel Pin Badge'),
      item('navy', 'Navy Polo Shirt'),
    ];
    const hits = await order(items, 'camping hair');
    expect(hits.slice(0, 2).sort()).toEqual(['chair', 'chair2']);
    // Only where another query word is: the office chair holds neither, and stays out.
    expect(hits).not.toContain('office');
    // The word as typed still matches: the hair band is found, after the chairs.
    expect(hits).toContain('band');
    // A 3-letter word takes no typo otherwise; beside "polo shirt", which items share, "pin" is pink.
    expect((await order(items, 'pin polo shirt'))[0]).toBe('pink');
    // A word found with the others is what was meant: "hair band" is no "chair band".
    expect(await order(items, 'hair band')).toEqual(['band']);
    // The rules reading the items' words see the reading: "camping chair" side by side, in the name.
    const camping = await serviceOf(items);
    const first = (await camping.search({ text: 'camping hair', showRankingScoreDetails: true })).hits[0];
    expect(first?._rankingScoreDetails?.proximity).toMatchObject({ distance: 1 });
    // Only there: an item whose other word is itself a typo ("campin") holds the reading by chance,
    // and it counts for nothing in it, not even where its words sit.
    const pads = await serviceOf([...items, item('pad', 'Campin Chair Pad'), item('stool', 'Campin Stool Pad')]);
    const details = Object.fromEntries(
      (await pads.search({ text: 'camping hair', showRankingScoreDetails: true })).hits.map((h) => [h.id, h._rankingScoreDetails]),
    );
    expect(details.pad?.words).toMatchObject({ matchingWords: 1 });
    expect(details.pad?.proximity).toEqual(details.stool?.proximity);
    // It counts as a typo: an item holding the word as typed with the others comes first.
    const typed = await order([...items, item('hairtent', 'Camping Tent Hair Dryer')], 'camping hair');
    expect(typed[0]).toBe('hairtent');
    // A short word that took no typo and shares an item or two with the others, through a rare
    // word it is the start of, is a slip too when its typo's items beside them are many more.
    const phones = [
      ...Array.from({ length: 12 }, (_, i) => item(`case${i}`, `Rugged Case for iPhone 6s ${i}`)),
      item('odd', 'iPhone 6s Csegus Edition'),
      item('phone', 'iPhone 6s'),
    ];
    // Beside a word of two letters that no item holds with the others either, a short word is
    // likelier half of a word typed in two ("lo ren" for lauren) than a slip ("ren" for red).
    const polos = [...Array.from({ length: 12 }, (_, i) => item(`red${i}`, `Red Polo Shirt ${i}`)), item('lauren', 'Lauren Polo Shirt')];
    const matched = Object.values(await matchedWords(await serviceOf(polos), 'lo ren polo'));
    expect(new Set(matched)).toEqual(new Set([1]));
    // The cases match "cse" as a typo (after the item writing its start as typed), and come before the phone.
    const cases = await order(phones, 'iphone 6s cse');
    expect(cases.slice(0, 13).sort()).toEqual(
      phones
        .slice(0, 13)
        .map((p) => p.id)
        .sort(),
    );
  });

  it('reads no query word as a slip for another word of the query ("cat car" is no "car car")', async () => {
    const items = [
      ...Array.from({ length: 3 }, (_, i) => item(`cat${i}`, `Cat Toy Mouse ${i}`)),
      ...Array.from({ length: 12 }, (_, i) => item(`car${i}`, `Car Seat Cover ${i}`)),
    ];
    // No item holds both words: the rarer one comes first, and no car seat cover matches "cat".
    expect((await order(items, 'cat car')).slice(0, 3).sort()).toEqual(['cat0', 'cat1', 'cat2']);
    expect(await order(items, 'cat car', { matchingStrategy: 'all' })).toEqual([]);
  });

  it('reads as a slip only a query word that may take a typo more: a size beside it ("xl") takes no turn from it', async () => {
    const items = [
      item('navy', 'Navy Polo Shirt'),
      item('pink', 'Pink Polo Shirt'),
      item('pin', 'Enamel Pin Badge'),
      item('pin2', 'Lapel Pin Badge'),
      item('hoodie', 'XL Hoodie'),
    ];
    // "xl", in fewer items and beside no other query word either, takes no typo more: "pin" is still read as pink.
    expect((await order(items, 'pin polo shirt'))[0]).toBe('pink');
    expect((await order(items, 'pin polo shirt xl'))[0]).toBe('pink');
  });

  it('matches a query word written as two in an item ("earbuds" finds "ear buds" side by side) when the word is rarer than each half', async () => {
    // b holds both halves apart, c the word itself: only a's halves side by side match, as the word as typed does (a space is one slip).
    const items = [item('a', 'zed ear buds'), item('b', 'zed ear hooks and buds'), item('c', 'zed earbuds')];
    const typed = async (text: string) =>
      Object.fromEntries(
        (await (await serviceOf(items)).search({ text, showRankingScoreDetails: true })).hits.map((h) => [
          h.id,
          h._rankingScoreDetails?.exactness?.exactWords,
        ]),
      );
    expect(await typed('earbuds')).toEqual({ a: 1, c: 1 });
    // So a word whose stem would read it as another ("iphonese": iphones) finds the two words side by side first.
    const phones = [
      item('p', 'Charging Dock for iPhones'),
      item('s', 'Apple iPhone SE 16GB'),
      item('t', 'Apple iPhone SE 64GB'),
      item('x', 'SE Earphones'),
    ];
    expect((await order(phones, 'iphonese')).slice(0, 2).sort()).toEqual(['s', 't']);
    // The halves' positions are the term's: what the item is decides ("earbuds" finds the earbuds
    // written apart before a cleaning kit named with the word as typed).
    const buds = [
      item('c', 'Earbuds Cleaning Kit'),
      item('e', 'Wireless Ear Buds'),
      item('f', 'Sport Ear Buds'),
      item('w', 'Ear Warmer'),
      item('h', 'Buds Holder'),
    ];
    expect((await order(buds, 'earbuds')).slice(0, 3)).toEqual(['f', 'e', 'c']);
    // The second half in any form: "doorknobs" finds the items writing "door knob", as "doorknob" does.
    const knobs = [
      item('l', 'Doorknob Lock Set'),
      item('s', 'Satin Door Knob'),
      item('b', 'Brass Door Knob'),
      item('d', 'Door Stop'),
      item('c', 'Cabinet Knob'),
    ];
    expect((await order(knobs, 'doorknobs')).sort()).toEqual(['b', 'l', 's']);
    // Not when the word is as common as a half (the catalog writes it as one), nor into a stop word ("for case").
    const many = [...items, item('d', 'zed earbuds kit'), item('e', 'oak deck over stain'), item('f', 'lamp for case')];
    expect(await order(many, 'earbuds')).toEqual(['c', 'd']);
    expect(await order(many, 'deckover')).toEqual(['e']);
    expect(await order(many, 'forcase')).toEqual([]);
    // Nor for another form of the word: "earbud" reads no "ear buds" where "earbuds" is as common,
    // nor the form of a half that is a stop word ("cartons" is no "cart on").
    expect(await order(many, 'earbud')).toEqual(['c', 'd']);
    const carts = [
      item('u', 'Utility Cart on Casters'),
      item('k', 'Moving Boxes and Cartons'),
      item('c', 'Shopping Cart'),
      item('v', 'Cart Cover'),
      item('l', 'Clip on Light'),
      item('s', 'Slip on Shoe'),
    ];
    expect(await order(carts, 'cartons')).toEqual(['k']);
  });

  it('matches a compound the catalog does not have by its head ("bathrobe" finds the robes), and only when the word reaches nothing', async () => {
    const items = [item('a', 'Terry Robe'), item('b', 'Linen Robes'), item('c', 'Bath Towel'), item('d', 'Silk Scarf')];
    // The head, in every form of its stem; not the first part alone ("bath" towel is no robe).
    expect((await order(items, 'bathrobe')).sort()).toEqual(['a', 'b']);
    // With other words: the head counts as that word matched.
    expect(await order(items, 'linen bathrobe')).toEqual(['b', 'a']);
    // Only the query's last word (what is sought), stop words aside: an unknown word before it is
    // more often a brand the catalog does not sell, whose tail would outweigh the rest.
    expect(await order(items, 'bathrobe silk')).toEqual(['d']);
    expect((await order(items, 'silk bathrobe for')).sort()).toEqual(['a', 'b', 'd']);
    // A shop's synonym for the word comes first: no compound is guessed.
    expect(await order([...items, item('e', 'Spa Gown')], 'bathrobe', { synonyms: { oneWay: { bathrobe: ['gown'] } } })).toEqual(['e']);
    // The longest head first: "rainscarf" is a kind of "scarf" (never "arf").
    expect(await order([...items, item('e', 'Arf Toy')], 'rainscarf')).toEqual(['d']);
    // A word the catalog has (or reaches through a typo) is not split.
    expect(await order([...items, item('e', 'Bathrobe Hook')], 'bathrobe')).toEqual(['e']);
    expect(await order([...items, item('e', 'Bathrobes Hook')], 'bathrobe')).toEqual(['e']);
    expect(await order([...items, item('e', 'Bathrobr Hook')], 'bathrobe')).toEqual(['e']);
    // A stop word as the head is no compound. (Two letters before a word the catalog has are two
    // typos of a word it has nowhere, see unknownWordTypos: "zzkart" is a kart, not a compound.)
    expect(await order([item('a', 'Go Kart'), item('b', 'For Kids')], 'zzkart')).toEqual(['a']);
    expect(await order([item('a', 'Lamp and shade')], 'bigand')).toEqual([]);
    expect(await order([item('a', 'Lamp for case')], 'forcase')).toEqual([]);
  });

  it('uses the configured stop words', async () => {
    const items = [item('a', 'lamp'), item('b', 'new chair')];
    expect((await (await serviceOf(items)).search({ text: 'new lamp' })).hits.map((h) => h.id).sort()).toEqual(['a', 'b']);
    expect((await (await serviceOf(items, { stopWords: ['new'] })).search({ text: 'new lamp' })).hits.map((h) => h.id)).toEqual(['a']);
  });

  it('matches stems both ways: "tops" finds "top", "battery" finds "batteries"', async () => {
    const s = await serviceOf([item('a', 'Tank top'), item('b', 'Spare batteries'), item('c', 'lamp')]);
    expect((await s.search({ text: 'tops' })).hits.map((h) => h.id)).toEqual(['a']);
    expect((await s.search({ text: 'battery' })).hits.map((h) => h.id)).toEqual(['b']);
  });

  it('matches every term as a prefix, and tolerates typos in short words by their length', async () => {
    const s = await serviceOf([item('a', 'Headphones wireless'), item('b', 'Speaker')]);
    expect((await s.search({ text: 'headph wireless' })).hits.map((h) => h.id)).toEqual(['a']);
    expect((await s.search({ text: 'speakr' })).hits.map((h) => h.id)).toEqual(['b']);
  });

  it('splits punctuation in documents and queries alike', async () => {
    const s = await serviceOf([item('a', 'BLACK+DECKER 18V drill'), item('b', 'USB-C cable'), item('c', 'lamp')]);
    expect((await s.search({ text: 'black decker' })).hits.map((h) => h.id)).toEqual(['a']);
    expect((await s.search({ text: 'BLACK+DECKER' })).hits[0]!.id).toBe('a');
    // "usbc" is no word of the catalog: it reaches "usb" with the typo such a word takes (see unknownWordTypos).
    expect((await s.search({ text: 'usbc' })).hits.map((h) => h.id)).toEqual(['b']);
    expect((await s.search({ text: 'usb c' })).hits[0]!.id).toBe('b');
  });

  it('expands synonyms: one-way in one direction, multi-way in all, phrases included', async () => {
    const items = [item('a', 'Television stand'), item('b', 'TV mount'), item('c', 'Cell phone holder'), item('d', 'Mobile charger')];
    const s = await serviceOf(items, { synonyms: { oneWay: { tv: ['television'] }, multiWay: [['mobile', 'cell phone']] } });
    const found = async (text: string) => (await s.search({ text })).hits.map((h) => h.id).sort();
    expect(await found('tv')).toEqual(['a', 'b']);
    expect(await found('television')).toEqual(['a']);
    expect(await found('mobile')).toEqual(['c', 'd']);
    expect(await found('cell phone')).toEqual(['c', 'd']);
  });

  it('refuses bad ranking options with a TypeError naming them', async () => {
    const catalog = await catalogOf([]);
    const make = (options: Partial<SearchServiceOptions>) => () => new SearchService({ catalog, ...options } as SearchServiceOptions);
    expect(make({ rankingRules: ['words', 'speed'] as never })).toThrow(/rankingRules\[1\]: unknown rule "speed"; use words, typo/);
    expect(make({ rankingRules: ['words', 'words'] })).toThrow(/rankingRules\[1\]: words is listed twice/);
    expect(make({ rankingRules: 'words' as never })).toThrow(/rankingRules must be an array/);
    expect(make({ customRanking: ['popularity'] })).toThrow(
      /customRanking\[0\] must have the form <field>:asc or <field>:desc, got "popularity"/,
    );
    expect(make({ tieBreak: ['price:asc', 'name'] })).toThrow(/tieBreak\[1\] must have the form <field>:asc or <field>:desc, got "name"/);
    expect(make({ tieBreak: 'price:asc' as never })).toThrow(/tieBreak must be an array/);
    expect(make({ matchingStrategy: 'any' as never })).toThrow(/matchingStrategy must be last, all or frequency/);
    expect(make({ stopWords: 'the' as never })).toThrow(/stopWords must be an array/);
    expect(make({ synonyms: { multiWay: [['tv', 3]] } as never })).toThrow(/synonyms\.multiWay\[0\]/);
    expect(make({ synonyms: { oneWay: { tv: 'television' } } as never })).toThrow(/synonyms\.oneWay\["tv"\]/);
    expect(make({ stemmer: 'porter' as never })).toThrow(/stemmer must be a function/);
    expect(make({ priceIntent: true as never })).toThrow(/priceIntent must be false or \{ words, field \}/);
    expect(make({ priceIntent: { words: 'cheap' as never } })).toThrow(/priceIntent\.words must be an array/);
    expect(make({ priceIntent: { field: '' } })).toThrow(/priceIntent\.field must be a field name/);
  });
});

describe('_rankingScore and _rankingScoreDetails', () => {
  const ITEMS = [
    item('a', 'galaxy case'),
    item('b', 'samsung galaxy case', { description: 'a slim case' }),
    item('c', 'galaxy', { description: 'phone case' }),
    item('d', 'galxy cases'),
  ];

  it('lies in [0, 1], is 1 only for a field equal to the query, and never increases down the hits', async () => {
    const s = await serviceOf(ITEMS);
    const r = await s.search({ text: 'galaxy case' });
    expect(r.hits.map((h) => h.id)).toEqual(['a', 'b', 'c', 'd']);
    expect(r.hits[0]!._rankingScore).toBe(1);
    for (const h of r.hits.slice(1)) expect(h._rankingScore).toBeLessThan(1);
    for (let i = 1; i < r.hits.length; i++) expect(r.hits[i - 1]!._rankingScore).toBeGreaterThan(r.hits[i]!._rankingScore);
    for (const h of r.hits) expect(h._rankingScore).toBeGreaterThan(0);
  });

  it('spreads: a full match lies in the top m/(m+1) of [0, 1], and the lower rules move it visibly there', async () => {
    const s = await serviceOf(ITEMS);
    const { hits } = await s.search({ text: 'galaxy case' });
    const [, b, c, d] = hits;
    // b, c and d match both terms, each worse than a (the name equal to the query) on a lower rule.
    for (const h of [b!, c!, d!]) {
      expect(h._rankingScore, h.id).toBeGreaterThan(2 / 3);
      expect(h._rankingScore, h.id).toBeLessThan(0.99);
    }
    expect(b!._rankingScore - d!._rankingScore).toBeGreaterThan(0.01);
  });

  it('depends on the document and the query only', async () => {
    const alone = await serviceOf([ITEMS[1]!]);
    const all = await serviceOf(ITEMS);
    for (const text of ['galaxy case', 'samsung', 'galaxy ca', 'samsnug galaxy']) {
      const x = (await alone.search({ text })).hits[0]?._rankingScore;
      const y = (await all.search({ text })).hits.find((h) => h.id === 'b')?._rankingScore;
      expect(x, text).toBeDefined();
      expect(x, text).toBe(y);
    }
  });

  it('rankingScoreThreshold drops lower hits from hits and totals', async () => {
    const s = await serviceOf(ITEMS);
    const all = await s.search({ text: 'galaxy case' });
    for (const h of all.hits) {
      const r = await s.search({ text: 'galaxy case', rankingScoreThreshold: h._rankingScore });
      expect(r.hits.map((x) => x.id)).toEqual(all.hits.filter((x) => x._rankingScore >= h._rankingScore).map((x) => x.id));
      expect(r.totalHits).toBe(r.hits.length);
    }
  });

  it('details each rule: its order, score, and what it counted', async () => {
    const s = await serviceOf(ITEMS, { profile: 'retail', customRanking: ['price:asc'] });
    const r = await s.search({ text: 'galaxy case', showRankingScoreDetails: true });
    const [a, , , d] = r.hits;
    expect(a!._rankingScoreDetails).toEqual({
      words: { order: 0, score: 1, matchingWords: 2, maxMatchingWords: 2 },
      typo: { order: 1, score: 1, typoCount: 0, maxTypoCount: 1 },
      exactness: { order: 2, score: 1, exactWords: 2, matchType: 'exactMatch' },
      subject: { order: 3, score: 1, head: 'case', headNamesItem: true, subjectWords: 2, maxSubjectWords: 2 },
      variant: { order: 4, score: 1, variantTerms: 0 },
      proximity: { order: 6, score: 1, distance: 1, minDistance: 1, maxDistance: 8 },
      attribute: { order: 7, score: 1, field: 'name', position: 0 },
      'price:asc': { order: 8, value: 10 },
      bm25: { order: 9, value: expect.any(Number), coverage: 1, textCoverage: 1 },
      tieBreak: { order: 10, values: { 'price:asc': 10, 'name:asc': 'galaxy case' } },
    });
    expect(d!._rankingScoreDetails).toMatchObject({
      words: { matchingWords: 2 },
      typo: { typoCount: 1, maxTypoCount: 1 },
      exactness: { exactWords: 0, matchType: 'noExactMatch' },
    });
    for (const h of r.hits) {
      for (const [rule, detail] of Object.entries(h._rankingScoreDetails!)) {
        if (detail?.score !== undefined) expect(detail.score, rule).toBeGreaterThanOrEqual(0);
        if (detail?.score !== undefined) expect(detail.score, rule).toBeLessThanOrEqual(1);
      }
    }
    expect((await s.search({ text: 'galaxy case' })).hits[0]).not.toHaveProperty('_rankingScoreDetails');
  });
});
