/**
 * Search profiles (src/search/naming.ts): the default `neutral` profile reads no retailer's
 * naming habit; `retail` adds them. The two probes of issue #26 on small hand-made catalogs.
 */
import { describe, expect, it } from 'vitest';
import { SearchService } from '../../src/index';
import { PROFILE_HABITS } from '../../src/search/naming';
import { nameWords } from '../../src/search/subject';
import { catalogOf, ids, item, serviceOf } from '../helpers/search';

describe('search profiles', () => {
  it('"ceiling fan": a ceiling fan named "… Ceiling Fan in Brushed Nickel" before exhaust fans "with Light"', async () => {
    const items = [
      item('a', 'Ceiling Mount Exhaust Fan with Light'),
      item('b', 'Quiet Ceiling Exhaust Fan with Light'),
      item('c', '52 in. Ceiling Fan in Brushed Nickel'),
    ];
    expect(ids(await (await serviceOf(items)).search({ text: 'ceiling fan' }))[0]).toBe('c');
  });

  it('"toilet": "… Toilet in White" names a toilet; "… Toilet Seat in White" a seat (a spaced "in" ends the phrase)', async () => {
    const items = [item('a', 'Round Closed Front Toilet Seat in White'), item('b', 'Two-Piece 1.28 GPF Elongated Toilet in White')];
    for (const profile of ['neutral', 'retail'] as const)
      expect(ids(await (await serviceOf(items, { profile })).search({ text: 'toilet' })), profile).toEqual(['b', 'a']);
    // Not a unit ("52 in Fan") nor a hyphenated "in" ("In-Ear", "2-in-1"): those phrases go on.
    const heads = (name: string) => {
      const { words, heads } = nameWords(name, PROFILE_HABITS.neutral);
      return words.filter((_, k) => heads & (1 << k));
    };
    expect(heads('Elongated Toilet in White')).toEqual(['toilet', 'white']);
    expect(heads('Wireless In-Ear Headphones')).toEqual(['headphones']);
    expect(heads('2-in-1 Laptop Stand')).toEqual(['stand']);
    expect(heads('Fits 52 in Fan Blades')).toEqual(['blades']);
    expect(heads('TV Stand for 52" in White')).toEqual(['white']);
  });

  it('"20 volt drill": a "20-Volt MAX" drill is no other model of the 20-Volt drills', async () => {
    // Names where "MAX" sits between "20-Volt" and what follows it elsewhere: the retail profile
    // reads it as a model variant, and puts the DEWALT drill after the HART one.
    const items = [
      item('a', 'HART 20-Volt Cordless Compact Drill Kit'),
      item('b', 'DEWALT 20-Volt MAX Cordless Drill Kit'),
      item('c', 'DEWALT 20-Volt MAX Cordless Circular Saw'),
      item('d', 'DEWALT 20-Volt MAX Cordless Impact Driver'),
      item('e', 'RYOBI 20-Volt Cordless Circular Saw'),
      item('f', 'RYOBI 20-Volt Cordless Impact Driver'),
    ];
    const catalog = await catalogOf(items);
    const top = async (profile?: 'retail') =>
      ids(await new SearchService({ catalog, profile }).search({ text: '20 volt drill', hitsPerPage: 2 }));
    expect(await top()).toEqual(['b', 'a']);
    expect(await top('retail')).toEqual(['a', 'b']);
  });

  it('reads separated name parts only in the retail profile', async () => {
    // "Zed Phone - Black": in retail, "Zed Phone" is a part named by "phone" and "Black" a label;
    // without parts, the name's last word is "black".
    const items = [item('a', 'Zed Phone - Black'), item('b', 'Zed Card Phone')];
    const catalog = await catalogOf(items);
    const subject = async (profile?: 'retail') =>
      (
        await new SearchService({ catalog, profile, rankingRules: ['subject'] }).search({ text: 'phone', showRankingScoreDetails: true })
      ).hits.map((h) => [h.id, h._rankingScoreDetails?.subject?.headNamesItem]);
    expect(await subject()).toEqual([
      ['b', true],
      ['a', false],
    ]);
    expect(await subject('retail')).toEqual([
      ['b', true],
      ['a', true],
    ]);
  });

  it('gives each profile its default rules and tie-break; explicit options override them', async () => {
    const items = [item('a', 'lamp', { price: 20 }), item('b', 'lamp', { price: 10 })];
    const catalog = await catalogOf(items);
    const details = async (options: Record<string, unknown>) =>
      (await new SearchService({ catalog, ...options }).search({ text: 'lamp', showRankingScoreDetails: true })).hits;
    const neutral = await details({});
    expect(neutral[0]!._rankingScoreDetails).not.toHaveProperty('variant');
    expect(neutral.map((h) => h.id)).toEqual(['a', 'b']); // name, then id
    expect((await details({ profile: 'retail' })).map((h) => h.id)).toEqual(['b', 'a']); // the lower price
    expect((await details({ profile: 'retail', tieBreak: [] })).map((h) => h.id)).toEqual(['a', 'b']);
    expect((await details({ profile: 'retail' }))[0]!._rankingScoreDetails).toHaveProperty('variant');
  });

  it('orders by BM25 before the place of the words in the neutral profile, after it in retail', async () => {
    // a has "lamp" earlier in a long name (attribute), b later in a short one (BM25's length normalisation).
    const catalog = await catalogOf([item('a', 'red lamp shade holder ring clip kit spare part'), item('b', 'big tall lamp kit')]);
    const order = async (profile?: 'retail') => ids(await new SearchService({ catalog, profile }).search({ text: 'lamp' }));
    expect(await order()).toEqual(['b', 'a']);
    expect(await order('retail')).toEqual(['a', 'b']);
  });

  it('refuses an unknown profile, naming it', async () => {
    const catalog = await catalogOf([]);
    expect(() => new SearchService({ catalog, profile: 'grocery' as 'retail' })).toThrow(
      'SearchService: profile must be one of neutral, retail, got "grocery"',
    );
  });
});
