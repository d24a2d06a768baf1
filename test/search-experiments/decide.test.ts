import { describe, expect, it } from 'vitest';
import { createAbkit, type ExperimentService } from '../../src/index';
import { SearchExperiments } from '../../src/http/index';
import { campaign } from '../helpers/configs';
import { item } from '../helpers/search';
import { searchCampaign } from '../helpers/search-campaign';

const ITEMS = [
  item('a', 'Phone case', { popularity: 1 }),
  item('b', 'Phone case', { popularity: 9 }),
  item('c', 'Phone charger', { popularity: 5 }),
];
const BY_POPULARITY = { rankingRules: ['customRanking', 'words'], customRanking: ['popularity:desc'] };

/** An abkit with catalog `acme` holding ITEMS and the campaigns given, in the engine's default environment. */
async function setUp(campaigns: unknown[]) {
  const abkit = createAbkit();
  const { catalog } = await abkit.catalogs.create({ identifier: 'acme' });
  await catalog.batch(ITEMS.map((product) => ({ operation: 'create-replace' as const, product })));
  await catalog.sync();
  await abkit.engine.load({ campaigns });
  const handler = abkit.handler();
  const get = async (query: string) => {
    const response = await handler(new Request(`http://localhost/search?index=acme_Catalog&${query}`));
    return { status: response.status, body: await response.json() };
  };
  const hitIds = async (query: string) => (await get(query)).body.hits.map((h: { id: string }) => h.id);
  return { abkit, handler, get, hitIds };
}

/** The variation id `/v2/campaigns` gives a visitor for campaign `id`. */
async function v2Variation(handler: (r: Request) => Promise<Response>, visitorId: string, id: string): Promise<string | undefined> {
  const response = await handler(
    new Request('http://localhost/v2/campaigns', {
      method: 'POST',
      body: JSON.stringify({ visitor_id: visitorId, trigger_hit: false }),
    }),
  );
  const body = (await response.json()) as { campaigns: { id: string; variation: { id: string } }[] };
  return body.campaigns.find((c) => c.id === id)?.variation.id;
}

describe('SearchExperiments.decide', () => {
  it('decides as /v2 does for the same visitor, and the variation ranks with its settings', async () => {
    const { abkit, handler, hitIds } = await setUp([
      campaign({ id: 'flags', split: [50, 50] }),
      searchCampaign('rank', [{}, BY_POPULARITY]),
    ]);
    const seen = new Map<string, number>();
    for (let i = 0; i < 40; i++) {
      const visitorId = `v${i}`;
      const decided = await abkit.searchExperiments.decide('acme', visitorId);
      const variationId = decided?.variations[0]?.variationId;
      expect(variationId).toBe(await v2Variation(handler, visitorId, 'rank'));
      seen.set(variationId!, (seen.get(variationId!) ?? 0) + 1);
      // The observable difference: the reference ranks by words then id, the variation by popularity.
      expect(await hitIds(`text=phone+case&visitorId=${visitorId}`)).toEqual(variationId === 'rank-v1' ? ['b', 'c', 'a'] : ['a', 'b', 'c']);
    }
    expect([...seen.keys()].sort()).toEqual(['rank-v0', 'rank-v1']);
    // Without a visitor, the catalog's own settings.
    expect(await hitIds('text=phone+case')).toEqual(['a', 'b', 'c']);
  });

  it('records one exposure per visitor, only of search campaigns, through the experiments', async () => {
    const { abkit, get } = await setUp([campaign({ id: 'flags', split: [50, 50] }), searchCampaign('rank', [{}, BY_POPULARITY])]);
    for (let k = 0; k < 3; k++) {
      for (const visitorId of ['v1', 'v2']) expect((await get(`text=phone&visitorId=${visitorId}`)).status).toBe(200);
      await abkit.handler()(new Request('http://localhost/autocomplete?client_id=acme&query=pho&visitorId=v3'));
    }
    const activations = await abkit.experiments.listActivations({ environmentId: 'default' });
    expect(activations.map((a) => [a.visitorId, a.campaignId]).sort()).toEqual([
      ['v1', 'rank'],
      ['v2', 'rank'],
      ['v3', 'rank'],
    ]);
    // Forgotten (a bounded memory), an exposure is recorded again: results count the visitor once.
    const forgetful = new SearchExperiments({ engine: abkit.engine, experiments: abkit.experiments, maxRememberedExposures: 1 });
    for (const visitorId of ['v1', 'v2', 'v1']) await forgetful.decide('acme', visitorId);
    const results = await abkit.experiments.results({ campaignId: 'rank', metric: 'search_click' });
    expect(results.groups[0]!.variations.reduce((n, v) => n + v.exposed, 0)).toBe(3);
  });

  it('keeps the sticky assignment /v2 keeps when allocations change', async () => {
    const { abkit, handler } = await setUp([searchCampaign('rank', [{}, BY_POPULARITY])]);
    const before = new Map<string, string>();
    for (let i = 0; i < 20; i++) before.set(`v${i}`, (await abkit.searchExperiments.decide('acme', `v${i}`))!.variations[0]!.variationId);
    await abkit.engine.load({ campaigns: [searchCampaign('rank', [{}, BY_POPULARITY], { allocation: [10, 90] })] });
    for (const [visitorId, variationId] of before) {
      expect((await abkit.searchExperiments.decide('acme', visitorId))!.variations[0]!.variationId).toBe(variationId);
      expect(await v2Variation(handler, visitorId, 'rank')).toBe(variationId);
    }
  });

  it('applies a campaign to its catalog only, and targets by the context given', async () => {
    const gold = [[{ key: 'plan', operator: 'EQUALS', value: 'gold' }]];
    const { abkit, hitIds } = await setUp([
      searchCampaign('other', [{ catalog: 'other' }, { catalog: 'other', rankingRules: ['bm25'] }]),
      searchCampaign('gold', [BY_POPULARITY], { allocation: [100], targeting: gold as never }),
    ]);
    expect(await abkit.searchExperiments.decide('acme', 'v1')).toEqual({ settings: {}, semanticRatio: undefined, variations: [] });
    const decided = await abkit.searchExperiments.decide('acme', 'v1', { plan: 'gold' });
    expect(decided?.variations.map((v) => v.campaignId)).toEqual(['gold']);
    expect(await hitIds('text=phone+case&visitorId=v2&context[plan]=gold')).toEqual(['b', 'c', 'a']);
    expect(await hitIds('text=phone+case&visitorId=v2&context[plan]=silver')).toEqual(['a', 'b', 'c']);
    await abkit.engine.load({ campaigns: [searchCampaign('other', [{ catalog: 'other' }, { catalog: 'other', rankingRules: ['bm25'] }])] });
    expect(await abkit.searchExperiments.decide('acme', 'v1')).toBeUndefined();
    expect((await abkit.searchExperiments.decide('other', 'v1'))?.variations).toHaveLength(1);
  });

  it('decides and writes nothing when no campaign tests search', async () => {
    const { abkit, get } = await setUp([campaign({ id: 'flags', split: [50, 50] })]);
    expect(await abkit.searchExperiments.decide('acme', 'v1')).toBeUndefined();
    expect((await get('text=phone&visitorId=v1')).status).toBe(200);
    expect(await abkit.experiments.listActivations({ environmentId: 'default' })).toEqual([]);
    expect(await abkit.storage.assignments.get('default', 'v1')).toEqual(await abkit.storage.assignments.get('default', 'nobody'));
    expect(await abkit.searchExperiments.track('acme', [{ type: 'click', visitorId: 'v1' }])).toBe(0);
  });

  it('names a bad visitorId or context parameter (400)', async () => {
    const { get } = await setUp([searchCampaign('rank', [{}, BY_POPULARITY])]);
    const long = 'x'.repeat(257);
    expect(await get(`text=phone&visitorId=${long}`)).toEqual({
      status: 400,
      body: expect.objectContaining({ details: [{ parameter: 'visitorId', message: 'is 257 characters long; the limit is 256' }] }),
    });
    expect((await get('text=phone&visitorId=v1&context[plan][]=a')).body.details).toEqual([
      { parameter: 'context[plan]', message: 'must be one value (context[key]=value)' },
    ]);
    expect((await get('text=phone&context[plan]=gold')).body.details).toEqual([
      { parameter: 'context', message: 'is read only with a visitorId' },
    ]);
  });

  it("applies a variation's merchandising and behaviour ranking, whose rules are checked where campaigns are loaded", async () => {
    const pinned = {
      merchandising: [{ id: 'pin-charger', query: { contains: ['phone'] }, pin: [{ itemId: 'c', position: 1 }] }],
      behaviour: true,
    };
    const { abkit, hitIds } = await setUp([searchCampaign('merch', [{}, pinned], { allocation: [0, 100] })]);
    expect(await hitIds('text=phone+case&visitorId=v1')).toEqual(['c', 'a', 'b']);
    expect(await hitIds('text=phone+case')).toEqual(['a', 'b', 'c']);
    // A bad rule is refused where the campaign is loaded, at its path in the campaign.
    await abkit.admin.createAccount('ops', { id: 'acme' });
    await abkit.admin.createEnvironment('ops', 'acme', { id: 'prod' });
    const bad = searchCampaign('merch', [
      {},
      { merchandising: [{ id: 'x', query: { contains: ['tv'] }, pin: [{ itemId: 'c', position: 0 }] }] },
    ]);
    await expect(abkit.remote.putCampaign('acme', 'prod', 'merch', bad)).rejects.toMatchObject({
      details: [
        {
          path: ['variationGroups', 0, 'variations', 1, 'modifications', 'value', 'merchandising', 0, 'pin', 0, 'position'],
          message: 'must be an integer from 1 to 1000',
        },
      ],
    });
    await expect(abkit.remote.putCampaign('acme', 'prod', 'merch', searchCampaign('merch', [{}, { behaviour: 'yes' }]))).rejects.toThrow(
      /modifications\.value\.behaviour/,
    );
  });

  it('checks its options', () => {
    const { engine, experiments } = createAbkit();
    expect(() => new SearchExperiments({ engine, experiments: {} as ExperimentService })).toThrow(
      'SearchExperiments: experiments must be an ExperimentService',
    );
    expect(() => new SearchExperiments({ engine, experiments, maxRememberedExposures: 0 })).toThrow(
      'SearchExperiments: maxRememberedExposures must be a positive integer, got 0',
    );
    expect(() => new SearchExperiments({ engine, experiments, environment: '' })).toThrow(/environment must be an id/);
  });
});
