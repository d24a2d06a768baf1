/**
 * abkit's bucketing against the real Flagship JS SDK (`@flagship.io/js-sdk` 5.2).
 *
 * SDK path: the SDK's `MurmurHash` class and `BucketingManager` are not exported by any entry
 * point of the package (the node bundle exports only `Flagship`, `Visitor`, enums, flag classes),
 * so this file drives the whole SDK in `DecisionMode.BUCKETING_EDGE`: `Flagship.start` with
 * `initialBucketing` set to a bucketing file built here, then one `Flagship.newVisitor` +
 * `visitor.fetchFlags()` per visitor id, reading `visitor.getFlag(key).metadata` to see which
 * variation (if any) the SDK assigned. Edge mode decides locally (BucketingManager.getVariation:
 * `murmurHash3Int32(variationGroupId + visitorId) % 100` walked over the allocations) and never
 * touches the network for decisions; usage tracking and the batching loop are switched off, and
 * edge mode only queues hits (consent hits; nothing flushes them, as this file never calls
 * `Flagship.close()`), so the SDK starts no timer and sends nothing. 10,000 visitors take about
 * a second.
 *
 * Each (visitor, variation group) decision is compared three ways: the SDK, abkit's
 * `DecisionEngine.decide`, and abkit's `variationBucket` + `pickVariation` with thresholds
 * computed here. The bucket itself is also checked against an independent MurmurHash3
 * implementation written below.
 *
 * The SDK hashes `charCodeAt(i) & 0xff` per UTF-16 code unit, which equals the UTF-8 bytes
 * only for ASCII; abkit hashes UTF-8 bytes (like the Flagship decision API), so the SDK
 * comparison uses ASCII ids and non-ASCII ids are checked against fixed vectors instead.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { Flagship } from '@flagship.io/js-sdk';
import { startFlagshipBucketing } from '../helpers/flagship';
import { prng } from '../../examples/demo/generate-products';
import { DecisionEngine, memoryStorage } from '../../src/index';
import { pickVariation } from '../../src/decision/bucketing';
import { hashString, murmur3, variationBucket } from '../helpers/murmur3';

// ---------------------------------------------------------------------------------------------
// Independent reference: textbook MurmurHash3 x86_32 over bytes (SMHasher's MurmurHash3_x86_32),
// with 32-bit multiplication done on 16-bit halves rather than Math.imul, and blocks read
// little-endian through a DataView.
// ---------------------------------------------------------------------------------------------

function mul32(a: number, b: number): number {
  const lo = (a & 0xffff) * b;
  const hi = (((a >>> 16) * b) & 0xffff) * 0x10000;
  return (lo + hi) >>> 0;
}

function rotl32(x: number, r: number): number {
  return ((x << r) | (x >>> (32 - r))) >>> 0;
}

function fmix32(h: number): number {
  h = (h ^ (h >>> 16)) >>> 0;
  h = mul32(h, 0x85ebca6b);
  h = (h ^ (h >>> 13)) >>> 0;
  h = mul32(h, 0xc2b2ae35);
  return (h ^ (h >>> 16)) >>> 0;
}

function referenceMurmur3(data: Uint8Array, seed = 0): number {
  const c1 = 0xcc9e2d51;
  const c2 = 0x1b873593;
  const view = new DataView(data.buffer, data.byteOffset, data.byteLength);
  const nblocks = Math.floor(data.length / 4);
  let h1 = seed >>> 0;
  for (let i = 0; i < nblocks; i++) {
    let k1 = view.getUint32(i * 4, true);
    k1 = mul32(k1, c1);
    k1 = rotl32(k1, 15);
    k1 = mul32(k1, c2);
    h1 = (h1 ^ k1) >>> 0;
    h1 = rotl32(h1, 13);
    h1 = (mul32(h1, 5) + 0xe6546b64) >>> 0;
  }
  const tail = nblocks * 4;
  const rest = data.length & 3;
  if (rest > 0) {
    let k1 = 0;
    if (rest === 3) k1 ^= data[tail + 2]! << 16;
    if (rest >= 2) k1 ^= data[tail + 1]! << 8;
    k1 ^= data[tail]!;
    k1 = mul32(k1 >>> 0, c1);
    k1 = rotl32(k1, 15);
    k1 = mul32(k1, c2);
    h1 = (h1 ^ k1) >>> 0;
  }
  h1 = (h1 ^ data.length) >>> 0;
  return fmix32(h1);
}

const utf8 = (text: string): Uint8Array => new TextEncoder().encode(text);
const referenceHash = (text: string): number => referenceMurmur3(utf8(text));

// ---------------------------------------------------------------------------------------------
// Visitor ids: deterministic (mulberry32), ASCII only, of many shapes and lengths.
// ---------------------------------------------------------------------------------------------

const mulberry32 = prng;

const VISITOR_COUNT = 10_000;

function visitorIds(count: number): string[] {
  const random = mulberry32(0xab1c17);
  const int = (n: number) => Math.floor(random() * n);
  const hex = (n: number) => Array.from({ length: n }, () => '0123456789abcdef'[int(16)]).join('');
  const printable = (n: number) => Array.from({ length: n }, () => String.fromCharCode(0x20 + int(0x5f))).join('');
  const anyAscii = (n: number) => Array.from({ length: n }, () => String.fromCharCode(1 + int(0x7f))).join('');
  const shapes: Array<(i: number) => string> = [
    (i) => `visitor-${i}`,
    () => `${hex(8)}-${hex(4)}-4${hex(3)}-${hex(4)}-${hex(12)}`,
    () => String(int(1e9)),
    () => printable(1 + int(40)),
    () => anyAscii(1 + int(12)),
    () => `user_${hex(1 + int(20))}@example.com`,
    () => printable(60 + int(80)),
  ];
  const ids = new Set<string>();
  for (let i = 0; ids.size < count; i++) ids.add(shapes[i % shapes.length]!(i));
  return [...ids];
}

// ---------------------------------------------------------------------------------------------
// The bucketing file: one campaign per allocation split (each with its own flag key, so the
// SDK's flags tell which campaign and variation it chose), plus one campaign with two variation
// groups to check that the first targeted group is the one bucketed.
// ---------------------------------------------------------------------------------------------

interface SplitVariation {
  id: string;
  allocation?: number;
  reference?: boolean;
}

interface Split {
  campaign: string;
  group: string;
  variations: SplitVariation[];
}

const SPLITS: Split[] = [
  {
    campaign: 'c-50-50',
    group: 'c1ntlk0bd5ah02ap2v1g',
    variations: [
      { id: 'v50a', allocation: 50, reference: true },
      { id: 'v50b', allocation: 50 },
    ],
  },
  {
    campaign: 'c-10-20-70',
    group: 'vg-10-20-70',
    variations: [
      { id: 'v10', allocation: 10, reference: true },
      { id: 'v20', allocation: 20 },
      { id: 'v70', allocation: 70 },
    ],
  },
  {
    campaign: 'c-33-33-34',
    group: 'g',
    variations: [
      { id: 'v33a', allocation: 33, reference: true },
      { id: 'v33b', allocation: 33 },
      { id: 'v34', allocation: 34 },
    ],
  },
  {
    campaign: 'c-25-25-gap',
    group: 'vg25',
    variations: [
      { id: 'v25a', allocation: 25, reference: true },
      { id: 'v25b', allocation: 25 },
    ],
  },
  {
    campaign: 'c-zero-middle',
    group: 'vgzero',
    variations: [
      { id: 'vz40', allocation: 40, reference: true },
      { id: 'vz0', allocation: 0 },
      { id: 'vz60', allocation: 60 },
    ],
  },
  {
    campaign: 'c-missing-middle',
    group: 'vg-missing-alloc',
    variations: [{ id: 'vm30a', allocation: 30, reference: true }, { id: 'vm-none' }, { id: 'vm30b', allocation: 30 }],
  },
  {
    campaign: 'c-ref-no-alloc',
    group: 'cf0h1t3ihtlg01e7ff10',
    variations: [
      { id: 'vr-ref', reference: true },
      { id: 'vr50a', allocation: 50 },
      { id: 'vr50b', allocation: 50 },
    ],
  },
  {
    campaign: 'c-1-1-98',
    group: 'vg-tiny-slices-0123456789-0123456789-abcdefgh',
    variations: [
      { id: 'v1a', allocation: 1, reference: true },
      { id: 'v1b', allocation: 1 },
      { id: 'v98', allocation: 98 },
    ],
  },
  {
    campaign: 'c-quarters',
    group: 'vgqt',
    variations: [
      { id: 'vq1', allocation: 25, reference: true },
      { id: 'vq2', allocation: 25 },
      { id: 'vq3', allocation: 25 },
      { id: 'vq4', allocation: 25 },
    ],
  },
  {
    campaign: 'c-fractional',
    group: 'vg-frac',
    variations: [
      { id: 'vf12', allocation: 12.5, reference: true },
      { id: 'vf37', allocation: 37.5 },
      { id: 'vf50', allocation: 50 },
    ],
  },
  { campaign: 'c-single-100', group: 'vg-one', variations: [{ id: 'vone', allocation: 100 }] },
  { campaign: 'c-single-5', group: 'vg-five', variations: [{ id: 'vfive', allocation: 5 }] },
];

/** Campaign whose first variation group targets `plan == gold`; everyone else gets the second. */
const TARGETED = {
  campaign: 'c-two-groups',
  gold: {
    group: 'vg-gold',
    variations: [
      { id: 'vg-gold-a', allocation: 30, reference: true },
      { id: 'vg-gold-b', allocation: 70 },
    ],
  },
  rest: {
    group: 'vg-rest',
    variations: [
      { id: 'vg-rest-a', allocation: 60, reference: true },
      { id: 'vg-rest-b', allocation: 20 },
    ],
  },
} as const;

const flagKey = (campaign: string) => `flag_${campaign.replace(/-/g, '_')}`;

const ALL_USERS = { targetingGroups: [{ targetings: [{ key: 'fs_all_users', operator: 'EQUALS', value: '' }] }] };

function variationsOf(campaign: string, variations: readonly SplitVariation[]) {
  return variations.map((v) => ({
    id: v.id,
    ...(v.reference === undefined ? {} : { reference: v.reference }),
    ...(v.allocation === undefined ? {} : { allocation: v.allocation }),
    modifications: { type: 'FLAG', value: { [flagKey(campaign)]: v.id } },
  }));
}

const bucketingFile = {
  panic: false,
  campaigns: [
    ...SPLITS.map((s) => ({
      id: s.campaign,
      type: 'ab',
      slug: null,
      variationGroups: [{ id: s.group, targeting: ALL_USERS, variations: variationsOf(s.campaign, s.variations) }],
    })),
    {
      id: TARGETED.campaign,
      type: 'ab',
      slug: null,
      variationGroups: [
        {
          id: TARGETED.gold.group,
          targeting: { targetingGroups: [{ targetings: [{ key: 'plan', operator: 'EQUALS', value: 'gold' }] }] },
          variations: variationsOf(TARGETED.campaign, TARGETED.gold.variations),
        },
        { id: TARGETED.rest.group, targeting: ALL_USERS, variations: variationsOf(TARGETED.campaign, TARGETED.rest.variations) },
      ],
    },
  ],
};

/** Running totals: -1 for a variation with allocation 0 or none. */
function thresholdsOf(variations: readonly SplitVariation[]): number[] {
  let total = 0;
  return variations.map((v) => {
    if (!v.allocation) return -1;
    total += v.allocation;
    return total;
  });
}

/** Every third visitor has `plan: 'gold'` (the SDK and abkit compare it identically: same case). */
const contextOf = (index: number): Record<string, string> => (index % 3 === 0 ? { plan: 'gold' } : {});

interface Decision {
  group: string | null;
  variation: string | null;
}

interface Row {
  visitorId: string;
  sdk: Map<string, Decision>;
  engine: Map<string, Decision>;
}

const ids = visitorIds(VISITOR_COUNT);
const campaignIds = bucketingFile.campaigns.map((c) => c.id);
const rows: Row[] = [];

beforeAll(async () => {
  await startFlagshipBucketing('env-bucketing', bucketingFile);
  const engine = new DecisionEngine({ storage: memoryStorage() });
  await engine.load(bucketingFile);

  const sdkResults: Array<Map<string, Decision>> = [];
  for (let i = 0; i < ids.length; i++) {
    const visitor = Flagship.newVisitor({ visitorId: ids[i]!, context: contextOf(i), hasConsented: true });
    await visitor.fetchFlags();
    const decided = new Map<string, Decision>();
    for (const campaign of campaignIds) {
      const flag = visitor.getFlag(flagKey(campaign));
      if (!flag.exists()) {
        decided.set(campaign, { group: null, variation: null });
        continue;
      }
      const meta = flag.metadata;
      // The flag value is the variation id: metadata and value must tell the same story.
      expect(flag.getValue('', false)).toBe(meta.variationId);
      expect(meta.campaignId).toBe(campaign);
      decided.set(campaign, { group: meta.variationGroupId, variation: meta.variationId });
    }
    sdkResults.push(decided);
  }

  for (let i = 0; i < ids.length; i++) {
    const result = await engine.decide({ visitorId: ids[i]!, context: contextOf(i), triggerHit: false, visitorConsent: false });
    const decided = new Map<string, Decision>(campaignIds.map((c) => [c, { group: null, variation: null }]));
    for (const c of result.campaigns) decided.set(c.id, { group: c.variationGroupId, variation: c.variation.id });
    rows.push({ visitorId: ids[i]!, sdk: sdkResults[i]!, engine: decided });
  }
}, 120_000);

describe('bucketing agrees with @flagship.io/js-sdk (edge mode, ASCII visitor ids)', () => {
  it('uses 10,000 distinct ASCII visitor ids of many shapes', () => {
    expect(ids.length).toBe(VISITOR_COUNT);
    expect(new Set(ids).size).toBe(VISITOR_COUNT);
    expect(ids.every((id) => /^[\x01-\x7f]+$/.test(id))).toBe(true);
    const lengths = new Set(ids.map((id) => id.length % 4));
    expect(lengths).toEqual(new Set([0, 1, 2, 3]));
  });

  it('DecisionEngine.decide assigns exactly what the SDK assigns, for every visitor and campaign', () => {
    const disagreements: string[] = [];
    let compared = 0;
    for (const row of rows) {
      for (const campaign of campaignIds) {
        const sdk = row.sdk.get(campaign)!;
        const engine = row.engine.get(campaign)!;
        compared++;
        if (sdk.group !== engine.group || sdk.variation !== engine.variation) {
          disagreements.push(`${JSON.stringify(row.visitorId)} ${campaign}: sdk ${JSON.stringify(sdk)} abkit ${JSON.stringify(engine)}`);
        }
      }
    }
    expect(compared).toBe(VISITOR_COUNT * campaignIds.length);
    expect(disagreements.slice(0, 20)).toEqual([]);
    expect(disagreements.length).toBe(0);
  });

  it('variationBucket + pickVariation pick the SDK variation, and the bucket matches the reference hash', () => {
    const disagreements: string[] = [];
    const groups: Array<{ campaign: string; group: string; variations: readonly SplitVariation[]; applies: (i: number) => boolean }> = [
      ...SPLITS.map((s) => ({ ...s, applies: () => true })),
      { campaign: TARGETED.campaign, ...TARGETED.gold, applies: (i: number) => contextOf(i).plan === 'gold' },
      { campaign: TARGETED.campaign, ...TARGETED.rest, applies: (i: number) => contextOf(i).plan !== 'gold' },
    ];
    rows.forEach((row, i) => {
      for (const g of groups) {
        if (!g.applies(i)) continue;
        const bucket = variationBucket(g.group, row.visitorId);
        const expectedBucket = referenceHash(g.group + row.visitorId) % 100;
        if (bucket !== expectedBucket)
          disagreements.push(`${JSON.stringify(row.visitorId)} ${g.group}: bucket ${bucket} reference ${expectedBucket}`);
        const index = pickVariation(thresholdsOf(g.variations), bucket);
        const direct = index < 0 ? null : g.variations[index]!.id;
        const sdk = row.sdk.get(g.campaign)!;
        if (direct !== sdk.variation || (direct !== null && sdk.group !== g.group)) {
          disagreements.push(`${JSON.stringify(row.visitorId)} ${g.group}: pickVariation ${direct} sdk ${JSON.stringify(sdk)}`);
        }
      }
    });
    expect(disagreements.slice(0, 20)).toEqual([]);
  });

  it('the comparison is not vacuous: every allocated variation and every gap is hit in proportion', () => {
    const count = (campaign: string, variation: string | null) => rows.filter((r) => r.sdk.get(campaign)!.variation === variation).length;
    const near = (actual: number, percent: number, population = VISITOR_COUNT) => {
      const expected = (population * percent) / 100;
      // 10,000 draws: a few standard deviations of a binomial, never below ±1% of the population.
      const tolerance = Math.max(4 * Math.sqrt(population * (percent / 100) * (1 - percent / 100)), population * 0.01);
      expect(Math.abs(actual - expected), `${actual} vs ${expected}`).toBeLessThanOrEqual(tolerance);
    };
    for (const s of SPLITS) {
      let allocated = 0;
      for (const v of s.variations) {
        const n = count(s.campaign, v.id);
        if (!v.allocation) expect(n, `${s.campaign}/${v.id} has no allocation`).toBe(0);
        else near(n, v.allocation);
        allocated += v.allocation ?? 0;
      }
      near(count(s.campaign, null), 100 - allocated);
    }
    // Group selection: gold visitors (a third) are bucketed in vg-gold, the others in vg-rest.
    const gold = rows.filter((_, i) => contextOf(i).plan === 'gold');
    expect(gold.every((r) => r.sdk.get(TARGETED.campaign)!.group === TARGETED.gold.group)).toBe(true);
    const rest = rows.filter((_, i) => contextOf(i).plan !== 'gold');
    const restTracked = rest.filter((r) => r.sdk.get(TARGETED.campaign)!.group !== null);
    expect(restTracked.every((r) => r.sdk.get(TARGETED.campaign)!.group === TARGETED.rest.group)).toBe(true);
    near(rest.length - restTracked.length, 20, rest.length);
  });
});

describe('MurmurHash3 x86_32 over UTF-8 bytes: fixed vectors', () => {
  // Published MurmurHash3_x86_32 vectors (SMHasher; the widely quoted verification table),
  // checked first against the reference implementation above, then against abkit.
  const published: Array<[input: string, seed: number, hash: number]> = [
    ['', 0, 0],
    ['', 1, 0x514e28b7],
    ['', 0xffffffff, 0x81f16f39],
    ['\0\0\0\0', 0, 0x2362f9de],
    ['aaaa', 0x9747b28c, 0x5a97808a],
    ['aaa', 0x9747b28c, 0x283e0130],
    ['aa', 0x9747b28c, 0x5d211726],
    ['a', 0x9747b28c, 0x7fa09ea6],
    ['abcd', 0x9747b28c, 0xf0478627],
    ['abc', 0x9747b28c, 0xc84a62dd],
    ['ab', 0x9747b28c, 0x74875592],
    ['Hello, world!', 0x9747b28c, 0x24884cba],
    ['ππππππππ', 0x9747b28c, 0xd58063c1],
    ['The quick brown fox jumps over the lazy dog', 0x9747b28c, 0x2fa826cd],
    ['hello', 0, 613153351],
    ['The quick brown fox jumps over the lazy dog', 0, 0x2e4ff723],
  ];

  it.each(published)('reference murmur3(%j, seed %d) is the published value', (input, seed, hash) => {
    expect(referenceMurmur3(utf8(input), seed)).toBe(hash);
  });

  it.each(published)('abkit murmur3(%j, seed %d) is the published value', (input, seed, hash) => {
    const bytes = utf8(input);
    expect(murmur3(bytes, bytes.length, seed)).toBe(hash);
    if (seed === 0) expect(hashString(input)).toBe(hash);
  });

  it('hashes only the first `length` bytes of a longer buffer', () => {
    const bytes = utf8('hello, and more bytes after it');
    expect(murmur3(bytes, 5)).toBe(613153351);
  });

  const nonAscii = [
    'élodie',
    '訪問者-42',
    '🙂visitor',
    'visitor🙂',
    'Zoë Saldaña',
    'ß',
    'naïve-café-ü',
    'Ελληνικά',
    'مرحبا',
    '\u0080',
    '\u00ff',
    '\u0100',
    'a\u0300',
    '𝔘𝔫𝔦𝔠𝔬𝔡𝔢',
    '🙂'.repeat(300),
    `${'x'.repeat(250)}é`,
  ];

  it.each(nonAscii)('hashString(%j) is murmur3 of its UTF-8 bytes', (id) => {
    expect(hashString(id)).toBe(referenceHash(id));
    expect(hashString('', id)).toBe(referenceHash(id));
  });

  it.each(nonAscii)('variationBucket(group, %j) hashes UTF-8(group + id), with ASCII or non-ASCII group ids', (id) => {
    for (const group of ['c1ntlk0bd5ah02ap2v1g', 'vg', 'groupé', '群组']) {
      expect(variationBucket(group, id)).toBe(referenceHash(group + id) % 100);
      expect(hashString(group, id)).toBe(referenceHash(group + id));
    }
  });

  it('pins a few non-ASCII values, so the UTF-8 choice cannot change silently', () => {
    // Computed with the reference implementation above over TextEncoder bytes.
    const pinned: Array<[id: string, hash: number, bucket: number]> = [
      ['élodie', 3197941554, 54],
      ['訪問者-42', 1763552212, 12],
      ['🙂visitor', 986007138, 38],
    ];
    for (const [id, hash, bucket] of pinned) {
      expect(referenceHash(id)).toBe(hash);
      expect(hashString(id)).toBe(hash);
      expect(hashString(id) % 100).toBe(bucket);
      expect(variationBucket('', id)).toBe(bucket);
    }
    // UTF-8 differs from hashing the low byte of each UTF-16 code unit (what the JS SDK does):
    const lowBytes = Uint8Array.from({ length: 'élodie'.length }, (_, i) => 'élodie'.charCodeAt(i) & 0xff);
    expect(referenceMurmur3(lowBytes)).toBe(3964453306);
    expect(hashString('élodie')).not.toBe(referenceMurmur3(lowBytes));
  });

  it('lone surrogates hash as TextEncoder encodes them (U+FFFD)', () => {
    for (const id of ['\ud800', 'a\udc00b', 'visitor-\ud83d']) {
      expect(hashString(id)).toBe(referenceHash(id));
      expect(hashString(id)).toBe(referenceHash(id.replace(/[\ud800-\udfff]/g, '\ufffd')));
    }
  });

  it('stays correct across buffer growth and alternating ASCII / non-ASCII inputs', () => {
    const inputs = ['short', '🙂'.repeat(2000), 'visitor-1', 'é'.repeat(700), 'x'.repeat(5000), 'ü'];
    for (let round = 0; round < 3; round++) {
      for (const text of inputs) {
        expect(hashString(text)).toBe(referenceHash(text));
        expect(hashString('vg-', text)).toBe(referenceHash(`vg-${text}`));
      }
    }
  });
});
