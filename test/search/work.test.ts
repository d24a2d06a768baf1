/**
 * The cost of a query is bounded by the dictionary, never by the length of a term: counted
 * through SearchService.work (dictionary nodes visited, postings read, documents read), not timed.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { SearchService } from '../../src/index';
import { Analyzer, MAX_WORD_LENGTH } from '../../src/search/analysis';
import { matchQuery } from '../../src/search/matching';
import { SearchIndex } from '../../src/search/search-index';
import type { CatalogItem } from '../../src/storage/catalog';
import { item } from '../helpers/search';
import { MAX_HITS_PER_PAGE } from '../../src/search/query';
import { loadBestBuy } from '../helpers/bestbuy';
import { describeWithBestBuy } from '../helpers/bestbuy-suite';

describeWithBestBuy('bounded work on the 3,291 Best Buy products', () => {
  let service: SearchService;

  beforeAll(async () => {
    service = new SearchService({ catalog: (await loadBestBuy()).catalog, profile: 'retail' });
    await service.search({ text: '' });
  });

  it('a 512-character word costs no more than a 65-character one, and reads no document', async () => {
    const work = async (text: string) => {
      await service.search({ text });
      const search = service.work;
      await service.autocomplete({ query: text });
      return { search, autocomplete: service.work };
    };
    const long = await work('a'.repeat(512));
    const cut = await work('a'.repeat(MAX_WORD_LENGTH));
    for (const w of [long.search, long.autocomplete]) {
      expect(w).toEqual(cut.search);
      // The path of "aaa…" in the trie and the siblings met on the way: a few hundred nodes at most.
      expect(w.dictionaryNodes).toBeLessThan(MAX_WORD_LENGTH * 40);
      expect(w.postingsRead).toBe(0);
      expect(w.documentsRead).toBe(0);
    }
  });

  it('the variant rule reads the names holding a query word once per index, then nothing', async () => {
    const fresh = new SearchService({ catalog: (await loadBestBuy()).catalog, profile: 'retail' });
    await fresh.search({ text: 'galaxy s7 case' });
    const first = fresh.work.variantWordsRead;
    // At most every name word of the items holding "galaxy", "s" or "7" (names have ~12 words).
    expect(first).toBeGreaterThan(0);
    expect(first).toBeLessThan(3 * 3291 * 20);
    await fresh.search({ text: 'galaxy s7 case' });
    expect(fresh.work.variantWordsRead).toBe(0);
  });

  it('the variant rule judges a pair of name words once, however many hits hold it', async () => {
    const fresh = new SearchService({ catalog: (await loadBestBuy()).catalog, profile: 'retail' });
    // "samsung galaxy" opens hundreds of names: judging the pair once per hit read its follower
    // list once per hit (2.8 s at 100,000 items); judged once, the work is the names read once.
    const { hits, totalHits } = await fresh.search({ text: 'samsung galaxy case', hitsPerPage: MAX_HITS_PER_PAGE });
    expect(totalHits).toBeGreaterThan(100);
    expect(hits.length).toBe(Math.min(totalHits, MAX_HITS_PER_PAGE));
    expect(fresh.work.variantWordsRead).toBeLessThan(2 * 3 * 3291 * 20);
    await fresh.search({ text: 'samsung galaxy case', hitsPerPage: MAX_HITS_PER_PAGE });
    expect(fresh.work.variantWordsRead).toBe(0);
  });

  it('the commonest word reads about a page of documents, not the 3,291 candidates', async () => {
    // Every product is in cell-phones: "phone" matches all of them, and they tie on words and typo.
    const { totalHits, hits } = await service.search({ text: 'phone' });
    expect(totalHits).toBe(3291);
    expect(hits.length).toBe(20);
    expect(service.work.candidates).toBe(3291);
    expect(service.work.documentsRead).toBeLessThanOrEqual(40);
    // Bounds are read from the postings: once more what collecting the candidates read.
    expect(service.work.postingsRead).toBeLessThanOrEqual(2 * 3291 * 3);
    await service.search({ text: 'cell phone', page: 2 });
    expect(service.work.documentsRead).toBeLessThanOrEqual(100);
    // Proximity decides among hundreds of galaxy cases: their query words' positions are read, not the documents.
    await service.search({ text: 'galaxy case' });
    expect(service.work.candidates).toBeGreaterThan(2000);
    expect(service.work.documentsRead).toBeLessThanOrEqual(40);
    expect(service.work.positionsRead).toBeLessThan(service.work.candidates / 2);
    // The subject's model runs ('iphone' counts only after 'apple' where the catalog reads it so) are read with the positions.
    await service.search({ text: 'apple iphone' });
    expect(service.work.candidates).toBe(3291);
    expect(service.work.documentsRead).toBeLessThanOrEqual(40);
    // A threshold reads what neither bounds nor positions decide: here, the page.
    const kept = await service.search({ text: 'apple iphone', rankingScoreThreshold: 0.95 });
    expect(kept.totalHits).toBeGreaterThan(20);
    expect(kept.totalHits).toBeLessThan(3291);
    expect(service.work.documentsRead).toBeLessThanOrEqual(40);
    // A threshold of 0 keeps every candidate without reading one more.
    await service.search({ text: 'galaxy case', rankingScoreThreshold: 0 });
    expect(service.work.documentsRead).toBeLessThanOrEqual(40);
  });

  it('a long word with typos allowed visits a bounded part of the dictionary', async () => {
    await service.search({ text: 'samsunggalaxyotterboxdefenderseries' });
    const typos = service.work;
    await service.search({ text: 'samsunggalaxyotterboxdefenderseriesxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx' });
    const longer = service.work;
    // Every row is pruned once all its cells exceed 2 typos: no more nodes for a longer term.
    expect(longer.dictionaryNodes).toBeLessThanOrEqual(typos.dictionaryNodes);
    expect(typos.dictionaryNodes).toBeLessThan(5000);
  });

  it('ten long terms cost at most ten times one', async () => {
    const term = 'x'.repeat(50);
    await service.search({ text: term });
    const one = service.work.dictionaryNodes;
    await service.search({
      text: Array.from({ length: 12 }, () => term)
        .join(' ')
        .slice(0, 512),
    });
    expect(service.work.dictionaryNodes).toBeLessThanOrEqual(10 * one);
  });
});

describe('work counted outside the dictionary', () => {
  it('a word the catalog writes as two counts the postings it merges to find the halves side by side', async () => {
    const items = ['Wireless Ear Buds', 'Ear Buds Case', 'Ear Warmer', 'Buds Holder', 'Earbuds Pro'].map((name, i) => item(`i${i}`, name));
    const analyzer = new Analyzer();
    const index = await SearchIndex.build(1, items as unknown as CatalogItem[], {}, analyzer);
    const postings = (text: string) => matchQuery(index, analyzer, analyzer.query(text, 10)).work.postings;
    // "earbuds" (1 item) is rarer than "ear" (3) and "buds" (3): their two lists are merged once.
    expect(postings('earbuds')).toBe(6);
    // A word no two catalog words make merges nothing.
    expect(postings('warmer')).toBe(0);
  });
});
