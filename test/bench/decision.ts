/**
 * Decision throughput on a 100-campaign environment, against a baseline measured in the same
 * run: the irreducible work of hashing the visitor once per variation group.
 */
import { DecisionEngine, memoryStorage, type BucketingConfig } from '../../src/index';
import { createDecisionHandler } from '../../src/http/decision';
import { hashString } from '../helpers/murmur3';
import { measure, type Row } from './measure';

const OPERATORS: [string, unknown][] = [
  ['EQUALS', 'gold'],
  ['NOT_EQUALS', 'banned'],
  ['CONTAINS', 'shop'],
  ['GREATER_THAN', 3],
  ['LOWER_THAN_OR_EQUALS', 5000],
  ['SEMVER_GREATER_THAN_OR_EQUALS', '2.0.0'],
  ['EXISTS', true],
  ['EQUALS', ['fr', 'de', 'es']],
];
const KEYS = ['plan', 'plan', 'page', 'visits', 'cart', 'appVersion', 'country', 'country'];

/** `size` campaigns of three variations each, with mixed targeting (one in ten targets everyone). */
export function campaigns(size: number): BucketingConfig {
  const campaigns = Array.from({ length: size }, (_, i) => {
    const targetings =
      i % 10 === 0
        ? [{ key: 'fs_all_users', operator: 'EQUALS', value: '' }]
        : [0, 1, 2].map((k) => {
            const j = (i + k * 3) % OPERATORS.length;
            return { key: KEYS[j]!, operator: OPERATORS[j]![0], value: OPERATORS[j]![1] };
          });
    return {
      id: `campaign-${i}`,
      type: i % 3 === 0 ? 'toggle' : 'ab',
      variationGroups: [
        {
          id: `vg-${i}`,
          targeting: { targetingGroups: [{ targetings }] },
          variations: [
            { id: `c${i}-a`, reference: true, allocation: 34, modifications: { type: 'FLAG', value: { [`flag${i}`]: 'a' } } },
            { id: `c${i}-b`, allocation: 33, modifications: { type: 'FLAG', value: { [`flag${i}`]: 'b' } } },
            { id: `c${i}-c`, allocation: 33, modifications: { type: 'FLAG', value: { [`flag${i}`]: 'c' } } },
          ],
        },
      ],
    };
  });
  return { campaigns } as BucketingConfig;
}

/** The visitor context every decision benchmark uses. */
export const CONTEXT = { plan: 'gold', page: 'shop/cart', visits: 7, cart: 120.5, appVersion: '2.3.1', country: 'fr' };
const context = CONTEXT;

/** The 100-campaign environment. */
export function hundredCampaigns(): BucketingConfig {
  return campaigns(100);
}

export async function benchDecision(): Promise<Row[]> {
  const ids = Array.from({ length: 4096 }, (_, i) => `visitor-${i}-${(i * 2654435761) >>> 0}`);
  const groups = Array.from({ length: 100 }, (_, i) => `vg-${i}`);
  const cfg = hundredCampaigns();

  const lean = new DecisionEngine({ storage: memoryStorage() });
  await lean.load(cfg);
  const full = new DecisionEngine({ storage: memoryStorage() });
  await full.load(cfg);
  const handler = createDecisionHandler({ engine: lean });
  const bodies = ids.map((id) => JSON.stringify({ visitor_id: id, context, trigger_hit: false, visitor_consent: false }));

  let sink = 0;
  let n = 0;
  const baseline = await measure('baseline: 100 murmur3 hashes (one per variation group)', () => {
    const id = ids[n++ & 4095]!;
    for (const g of groups) sink ^= hashString(g, id);
  });
  const rows: Row[] = [baseline];
  rows.push(
    await measure(
      'engine.decide, no storage writes (trigger_hit false, no consent)',
      async () => {
        const r = await lean.decide({ visitorId: ids[n++ & 4095]!, context, triggerHit: false, visitorConsent: false });
        sink ^= r.campaigns.length;
      },
      baseline,
    ),
  );
  rows.push(
    await measure(
      'engine.decide, full path (sticky assignments + activations, memory)',
      async () => {
        const r = await full.decide({ visitorId: `${ids[n & 4095]!}-${n++}`, context });
        sink ^= r.campaigns.length;
      },
      baseline,
    ),
  );
  rows.push(
    await measure(
      'HTTP handler POST /v2/campaigns (Request → Response, JSON both ways)',
      async () => {
        const res = await handler(new Request('http://bench/v2/campaigns', { method: 'POST', body: bodies[n++ & 4095]! }));
        sink ^= (await res.text()).length;
      },
      baseline,
    ),
  );
  if (sink === 0.5) console.log(sink);
  return rows;
}
