import { describe, expect, it } from 'vitest';
import { DecisionEngine, memoryStorage, ValidationError } from '../../src/index';
import { parseBucketingConfig } from '../../src/model/bucketing-config';
import { RANKING_RULE_NAMES } from '../../src/model/search-settings';
import { RANKING_RULES } from '../../src/search/ranking';
import { campaign } from '../helpers/configs';
import { searchCampaign } from '../helpers/search-campaign';

/** The details of the ValidationError loading `config` throws, as `path: message`. */
function problems(config: unknown): string[] {
  try {
    parseBucketingConfig(config);
  } catch (error) {
    if (!(error instanceof ValidationError)) throw error;
    return error.details.map((d) => `${d.path.join('.')}: ${d.message}`);
  }
  return [];
}

describe('the search modification type', () => {
  it('accepts a reference of {} and a variation with each setting', () => {
    const config = {
      campaigns: [
        searchCampaign('rank', [
          {},
          {
            catalog: 'acme',
            rankingRules: ['words', 'customRanking', 'bm25'],
            customRanking: ['popularity:desc'],
            synonyms: { multiWay: [['tv', 'television']], oneWay: { iphone: ['apple phone'] } },
            semanticRatio: 0.5,
            merchandising: [{ id: 'tv-week', query: { contains: ['tv'] }, pin: [{ itemId: 'a', position: 1 }] }],
            behaviour: { enabled: true, rerank: { maxShift: 2 } },
            substitutes: true,
          },
        ]),
      ],
    };
    // The reference names no catalog while b names one: refused below; here both name it.
    config.campaigns[0]!.variationGroups[0]!.variations[0]!.modifications.value = { catalog: 'acme' };
    expect(problems(config)).toEqual([]);
  });

  it('names the path of a bad setting where campaigns are loaded', async () => {
    const config = {
      campaigns: [
        campaign({ id: 'flags', split: [50, 50] }),
        searchCampaign('rank', [{}, { rankingRules: ['words', 'typo', 'popularity'], semanticRatio: 2, customRanking: ['price'] }]),
      ],
    };
    expect(problems(config)).toEqual([
      'campaigns.1.variationGroups.0.variations.1.modifications.value.rankingRules.2: Invalid option: expected one of "words"|"typo"|"subject"|"variant"|"priceIntent"|"proximity"|"attribute"|"exactness"|"customRanking"|"bm25"',
      'campaigns.1.variationGroups.0.variations.1.modifications.value.customRanking.0: must be <field>:asc or <field>:desc',
      'campaigns.1.variationGroups.0.variations.1.modifications.value.semanticRatio: Too big: expected number to be <=1',
    ]);
    const engine = new DecisionEngine({ storage: memoryStorage() });
    await expect(engine.load(config)).rejects.toThrow(/variations\[1\]\.modifications\.value\.rankingRules\[2\]/);
  });

  it('checks merchandising rules and behaviour settings where campaigns are loaded, as catalog settings are checked', () => {
    const config = {
      campaigns: [
        searchCampaign('merch', [
          {},
          {
            merchandising: [{ id: 'tv', query: { contains: ['tv'] }, pin: [{ itemId: 'a', position: 0 }] }],
            behaviour: { rerank: { maxShift: 99 } },
          },
        ]),
      ],
    };
    expect(problems(config)).toEqual([
      'campaigns.0.variationGroups.0.variations.1.modifications.value.merchandising.0.pin.0.position: must be an integer from 1 to 1000',
      'campaigns.0.variationGroups.0.variations.1.modifications.value.behaviour.rerank.maxShift: must be an integer from 0 to 50',
    ]);
  });

  it('refuses unknown keys, a rule listed twice, and a group mixing types or catalogs', () => {
    const mixed = searchCampaign('mixed', [{}, { catalog: 'acme' }, { rankingRules: ['words', 'words'], rankinRules: [] }]);
    const group = mixed.variationGroups[0]!;
    group.variations.push({ id: 'flag', allocation: 0, modifications: { type: 'FLAG', value: { x: 1 } } });
    // Every problem at once, each at its path.
    expect(problems({ campaigns: [mixed] })).toEqual([
      'campaigns.0.variationGroups.0.variations.2.modifications.value.rankingRules.1: words is listed twice',
      'campaigns.0.variationGroups.0.variations.2.modifications.value: unknown key(s) rankinRules; known: catalog, rankingRules, customRanking, synonyms, semanticRatio, merchandising, behaviour, substitutes',
      "campaigns.0.variationGroups.0.variations.1.modifications.value.catalog: must be absent like variation 0's: the variations of a group apply to the same catalog",
      "campaigns.0.variationGroups.0.variations.3.modifications.type: must be \"search\" like variation 0's: a group testing search settings holds search modifications only (the reference's value {} keeps the catalog's settings)",
    ]);
  });

  it('leaves other modification types as they were (any value)', () => {
    const config = { campaigns: [campaign({ id: 'flags', split: [50, 50] })] };
    config.campaigns[0]!.variationGroups[0]!.variations[1]!.modifications = { type: 'JSON', value: { rankingRules: 42 } };
    expect(problems(config)).toEqual([]);
  });

  it('knows the ranking rules the search service has', () => {
    expect([...RANKING_RULE_NAMES].sort()).toEqual([...RANKING_RULES].sort());
  });
});
