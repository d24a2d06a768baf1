/**
 * `words`' second rank: of items matching the same query terms, those holding more of them
 * outside prose (a field far longer on average than the name: a description) first.
 */
import { describe, expect, it } from 'vitest';
import type { SearchServiceOptions } from '../../src/index';
import { Analyzer } from '../../src/search/analysis';
import { proseFields } from '../../src/search/prose';
import { SearchIndex } from '../../src/search/search-index';
import type { CatalogItem } from '../../src/storage/catalog';
import { type Item, item, serviceOf } from '../helpers/search';

const WORDS = { rankingRules: ['words'], tieBreak: [] } as const satisfies Omit<SearchServiceOptions, 'catalog'>;

const LETTERS = 'bcdfghjklmnpqrstvwxz';
/** A description of `length` words (letters only: digits would split them), `word` the first when given. */
const prose = (length: number, word?: string): string =>
  [
    ...(word ? [word] : []),
    ...Array.from({ length: length - (word ? 1 : 0) }, (_, i) => `f${LETTERS[i % 20]}${LETTERS[(i / 20) | 0]}`),
  ].join(' ');

async function search(items: readonly Item[], text: string, options: Omit<SearchServiceOptions, 'catalog'> = WORDS) {
  return (await (await serviceOf(items, options)).search({ text, hitsPerPage: 100 })).hits;
}

describe('words: terms found outside prose', () => {
  it('puts the item whose name holds a term before the one whose long description alone does (ids sort the loser first)', async () => {
    const items = [item('a', 'red lamp', { description: prose(30, 'table') }), item('b', 'red lamp table', { description: prose(30) })];
    expect((await search(items, 'red lamp table')).map((h) => h.id)).toEqual(['b', 'a']);
  });

  it('applies with every matching strategy', async () => {
    const items = [item('a', 'red lamp', { description: prose(30, 'table') }), item('b', 'red lamp table', { description: prose(30) })];
    for (const matchingStrategy of ['last', 'all'] as const)
      expect((await search(items, 'red lamp table', { ...WORDS, matchingStrategy })).map((h) => h.id)).toEqual(['b', 'a']);
  });

  it('counts a term outside prose by the words it reaches without a typo, not by a word one typo away', async () => {
    // "table" as typed in a's description; in a's name only "cable", one typo away.
    const items = [item('a', 'lamp cable', { description: prose(30, 'table') }), item('b', 'lamp table', { description: prose(30) })];
    expect((await search(items, 'lamp table')).map((h) => h.id)).toEqual(['b', 'a']);
  });

  it('does not tell a short second field (a brand, a category) from the name', async () => {
    const items = [item('a', 'red lamp', { description: 'table' }), item('b', 'red lamp table', { description: 'ikea' })];
    expect((await search(items, 'red lamp table')).map((h) => h.id)).toEqual(['a', 'b']);
  });

  it('still ranks more matched terms first, wherever they are', async () => {
    const items = [item('a', 'red lamp', { description: prose(30, 'table') }), item('b', 'red lamp', { description: prose(30) })];
    expect((await search(items, 'red lamp table')).map((h) => h.id)).toEqual(['a', 'b']);
  });

  it('scores every term in the name 1, a term only in the description below, a missing term lower', async () => {
    const items = [
      item('a', 'red lamp', { description: prose(30, 'table') }),
      item('b', 'red lamp table', { description: prose(30) }),
      item('c', 'red lamp', { description: prose(30) }),
    ];
    const score = new Map((await search(items, 'red lamp table')).map((h) => [h.id, h._rankingScore]));
    expect(score.get('b')).toBe(1);
    expect(score.get('a')!).toBeLessThan(1);
    expect(score.get('c')!).toBeLessThan(score.get('a')!);
  });
});

describe('proseFields', () => {
  it('marks the fields after the first whose mean length is over three times the first one', async () => {
    const items = [item('a', 'red lamp', { brand: 'ikea', description: prose(7) })] as unknown as CatalogItem[];
    const index = await SearchIndex.build(1, items, { searchableFields: ['name', 'brand', 'description'] }, new Analyzer());
    expect(proseFields(index)).toBe(1 << 2);
    // Six words to two: not yet prose.
    const short = [item('a', 'red lamp', { description: prose(6) })] as unknown as CatalogItem[];
    expect(proseFields(await SearchIndex.build(1, short, { searchableFields: ['name', 'description'] }, new Analyzer()))).toBe(0);
  });
});
