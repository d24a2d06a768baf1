/**
 * `npm run bench -- decision`: one visitor's decision over 10, 100 and 1000 campaigns, in process:
 * abkit without and with memory writes, the bare murmur3 baseline (one hash per variation group),
 * the same hashes the way abkit computes them (group prefixes compiled, the visitor encoded once),
 * GrowthBook (classic `GrowthBook` and multi-user `GrowthBookClient`) on equivalent experiments,
 * and the Flagship JS SDK's bucketing. Rows alternate, A/B, over seven short rounds, each row after
 * a full garbage collection; a row's ratio is the median of its per-round ratios to the baseline
 * measured in the same round, which holds better than a ratio of medians on a shared, noisy machine.
 *
 * The writes row decides for 65,536 returning visitors: each decision reads the visitor's sticky
 * assignments and records its activations (new visitors' writes are in decision-heap.ts). Its ids
 * are built before measuring, so the row pays no string building the other rows do not (a
 * template literal per decision made a cons string that the store's hash then flattened, an
 * allocation of the harness counted as the engine's). They are parsed twice from one JSON text,
 * as a server receives them: flat strings, distinct objects of equal content. The store is filled
 * by deciding once for every id of the first parse, and the row decides with the second, so its
 * lookups compare contents as in production rather than finding the very string the store keeps.
 */
import { GrowthBook, GrowthBookClient } from '@growthbook/growthbook';
import { Flagship } from '@flagship.io/js-sdk';
import { startFlagshipBucketing } from '../helpers/flagship';
import { DecisionEngine, memoryStorage, type BucketingConfig } from '../../src/index';
import { hashPrefix, KeyHasher } from '../../src/decision/bucketing';
import { hashString } from '../helpers/murmur3';
import { campaigns, CONTEXT } from './decision';
import { collectGarbage } from './gc';
import { measure } from './measure';

// abkit's targeting operators as GrowthBook conditions (same keys and values).
function condition(targetings: { key: string; operator: string; value: unknown }[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const t of targetings) {
    if (t.key === 'fs_all_users') continue;
    const v = t.value;
    const c =
      t.operator === 'EQUALS'
        ? Array.isArray(v)
          ? { $in: v }
          : { $eq: v }
        : t.operator === 'NOT_EQUALS'
          ? { $ne: v }
          : t.operator === 'CONTAINS'
            ? { $regex: String(v) }
            : t.operator === 'GREATER_THAN'
              ? { $gt: v }
              : t.operator === 'LOWER_THAN_OR_EQUALS'
                ? { $lte: v }
                : t.operator === 'SEMVER_GREATER_THAN_OR_EQUALS'
                  ? { $vgte: v }
                  : t.operator === 'EXISTS'
                    ? { $exists: true }
                    : undefined;
    if (!c) throw new Error(`no GrowthBook condition for ${t.operator}`);
    out[t.key] = { ...(out[t.key] as object | undefined), ...c };
  }
  return out;
}

function growthbookFeatures(config: BucketingConfig): Record<string, unknown> {
  const features: Record<string, unknown> = {};
  config.campaigns.forEach((c, i) => {
    const group = c.variationGroups[0]!;
    features[`flag${i}`] = {
      defaultValue: null,
      rules: [
        {
          key: c.id,
          hashAttribute: 'id',
          condition: condition(group.targeting.targetingGroups[0]!.targetings as never),
          variations: group.variations.map((v) => v.id),
          weights: group.variations.map((v) => (v.allocation ?? 0) / 100),
        },
      ],
    };
  });
  return features;
}

const ROUNDS = 7;

export async function benchDecisionPeers(): Promise<void> {
  const ids = Array.from({ length: 4096 }, (_, i) => `visitor-${i}-${(i * 2654435761) >>> 0}`);
  // Two parses of one text: flat strings, equal by content, distinct objects (as in two requests).
  const text = JSON.stringify(Array.from({ length: 65536 }, (_, i) => `${ids[i & 4095]!}-${i}`));
  const stored = JSON.parse(text) as string[];
  const requested = JSON.parse(text) as string[];
  let n = 0;
  let sink = 0;
  console.log(
    '\n## Decisions in process vs peers (ops/s = decisions per second; ratio to the bare-hash baseline of the same size; medians of 7 alternated rounds, ratios per round)',
  );
  for (const size of [10, 100, 1000]) {
    const config = campaigns(size);
    const groups = config.campaigns.map((c) => c.variationGroups[0]!.id);
    const prefixes = groups.map(hashPrefix);
    const hasher = new KeyHasher();
    const lean = new DecisionEngine({ storage: memoryStorage() });
    await lean.load(config);
    const writing = new DecisionEngine({ storage: memoryStorage({ maxActivations: 100_000 }) });
    await writing.load(config);
    for (const visitorId of stored) await writing.decide({ visitorId, context: CONTEXT });
    const features = growthbookFeatures(config);
    const keys = Object.keys(features);
    const client = new GrowthBookClient().initSync({ payload: { features } as never });
    await startFlagshipBucketing('env-bench', config);
    const ops: [string, () => unknown][] = [
      [
        'bare murmur3, one hash per variation group (baseline)',
        () => {
          const id = ids[n++ & 4095]!;
          for (const g of groups) sink ^= hashString(g, id);
        },
      ],
      // Not the baseline: how much of abkit's lead over it comes from its cheaper hashing alone.
      [
        "same hashes with compiled group prefixes (abkit's KeyHasher)",
        () => {
          hasher.reset(ids[n++ & 4095]!);
          for (const p of prefixes) sink ^= hasher.hash(p);
        },
      ],
      [
        'abkit engine.decide, no writes',
        async () => {
          sink ^= (await lean.decide({ visitorId: ids[n++ & 4095]!, context: CONTEXT, triggerHit: false, visitorConsent: false })).campaigns
            .length;
        },
      ],
      [
        'abkit engine.decide, memory writes (assignments + activations)',
        async () => {
          sink ^= (await writing.decide({ visitorId: requested[n++ & 65535]!, context: CONTEXT })).campaigns.length;
        },
      ],
      [
        'GrowthBook classic (new GrowthBook per visitor, evalFeature each)',
        () => {
          const gb = new GrowthBook({ features: features as never, attributes: { id: ids[n++ & 4095]!, ...CONTEXT } });
          for (const k of keys) sink ^= gb.evalFeature(k).on ? 1 : 0;
          gb.destroy();
        },
      ],
      [
        'GrowthBook multi-user (GrowthBookClient.evalFeature with user context)',
        () => {
          const user = { attributes: { id: ids[n++ & 4095]!, ...CONTEXT } };
          for (const k of keys) sink ^= client.evalFeature(k, user).on ? 1 : 0;
        },
      ],
      [
        '@flagship.io/js-sdk bucketing (newVisitor + fetchFlags)',
        async () => {
          const visitor = Flagship.newVisitor({ visitorId: ids[n++ & 4095]!, context: CONTEXT, hasConsented: false });
          await visitor.fetchFlags();
          sink ^= visitor.getFlags().size;
        },
      ],
    ];
    const results = new Map<string, number[]>(ops.map(([name]) => [name, []]));
    for (let round = 0; round < ROUNDS; round++) {
      for (const [name, op] of ops) {
        // Each row starts on a collected heap: one row's garbage is not collected on another's time.
        collectGarbage();
        results.get(name)!.push((await measure(name, op, undefined, size >= 1000 ? 0.5 : 0.3)).opsPerSec);
      }
    }
    const med = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1]!;
    const base = results.get(ops[0]![0])!;
    console.log(`\n### ${size} campaigns`);
    for (const [name] of ops) {
      const runs = results.get(name)!;
      const ratio = med(runs.map((v, round) => v / base[round]!));
      console.log(
        `${name.padEnd(72)} ${Math.round(med(runs)).toLocaleString('en-US').padStart(10)} ops/s  ${ratio.toFixed(3)} × bare hash`,
      );
    }
    const leanRuns = results.get(ops[2]![0])!;
    const writes = results.get(ops[3]![0])!.map((v, round) => v / leanRuns[round]!);
    console.log(`${'abkit memory writes / abkit no writes (target ≥ 0.5)'.padEnd(72)} ${med(writes).toFixed(3).padStart(16)}`);
    await Flagship.close();
  }
  if (sink === 0.5) console.log(sink);
}
