/**
 * `abkit/flagship`: what a user of the stock Flagship JS SDK (`@flagship.io/js-sdk`) needs to run
 * it against abkit. The SDK itself is not a dependency: these helpers only speak its documented
 * extension points (`hitCacheImplementation`, flag metadata) and abkit's HTTP interface.
 *
 * What cannot work with the stock SDK, and why:
 * - Its exposures (activate hits) go to the hard-coded `https://decision.flagship.io/v2/activate`,
 *   whatever `decisionApiUrl` says, and `onVisitorExposed` fires only after that host accepted
 *   them; so neither reaches abkit by itself. {@link createExposureForwarder} gives two ways in.
 * - BUCKETING mode downloads its file from the hard-coded Flagship CDN; use BUCKETING_EDGE with
 *   `initialBucketing` fetched from abkit's `GET /v2/{envId}/bucketing.json` instead.
 * - `trigger_hit` is hard-coded to false in DECISION-API mode, so abkit records no activation
 *   while deciding for SDK users.
 * - The SDK's bucketing (5.2) has no SEMVER operators (they never match), compares strings
 *   case-sensitively, and throws on a string operator whose context key is missing (see
 *   {@link flagshipSdkBucketing}).
 *
 * @module abkit/flagship
 */
import type { BucketingConfig, Targeting } from '../model/bucketing-config';

/**
 * Options of {@link createExposureForwarder}.
 *
 * @example
 * ```ts
 * const options: ExposureForwarderOptions = { decisionApiUrl: 'https://abkit.example.com/v2/', envId: 'prod', apiKey: process.env.ABKIT_KEY };
 * const exposures = createExposureForwarder(options);
 * ```
 */
export interface ExposureForwarderOptions {
  /** abkit's decision API base, as given to the SDK (`…/v2/`); activations go to `{decisionApiUrl}activate`. */
  decisionApiUrl: string;
  /** The environment (`cid`). */
  envId: string;
  /** Sent as `x-api-key` when the environment has one. */
  apiKey?: string;
  /** The fetch function. @defaultValue `globalThis.fetch` */
  fetch?: (input: string, init: RequestInit) => Promise<Response>;
  /** Called when forwarding from the hit cache fails (the SDK would only log it). @defaultValue `console.error` */
  onError?: (error: unknown) => void;
}

/**
 * One hit as the Flagship SDK hands it to `hitCacheImplementation.cacheHit`.
 *
 * @example
 * ```ts
 * const hit: FlagshipCachedHit = { version: 1, data: { visitorId: 'v1', type: 'ACTIVATE', content: { variationGroupId: 'vg1', variationId: 'var1' } } };
 * await createExposureForwarder({ decisionApiUrl, envId }).hitCache.cacheHit({ [crypto.randomUUID()]: hit });
 * ```
 */
export interface FlagshipCachedHit {
  version?: number;
  data: { visitorId?: string; anonymousId?: string | null; type: string; content?: object; time?: number };
}

/**
 * A Flagship SDK `hitCacheImplementation` that forwards activate hits to abkit instead of
 * caching them (see {@link createExposureForwarder}).
 *
 * @example
 * ```ts
 * import { DecisionMode, Flagship } from '@flagship.io/js-sdk';
 * const hitCache: FlagshipHitCache = createExposureForwarder({ decisionApiUrl, envId }).hitCache;
 * const initialBucketing = flagshipSdkBucketing(await (await fetch(`${decisionApiUrl}${envId}/bucketing.json`)).json());
 * await Flagship.start(envId, apiKey, { decisionMode: DecisionMode.BUCKETING_EDGE, initialBucketing, hitCacheImplementation: hitCache });
 * ```
 */
export interface FlagshipHitCache {
  /** Forwards the activate hits among `hits` (others are ignored), each hit key once. */
  cacheHit(hits: Record<string, FlagshipCachedHit>): Promise<void>;
  /** Nothing is kept, so nothing is replayed. */
  lookupHits(): Promise<Record<string, never>>;
  /** Nothing is kept. */
  flushHits(hitKeys: string[]): Promise<void>;
  /** Nothing is kept. */
  flushAllHits(): Promise<void>;
}

/**
 * A visitor's exposure to a flag, as the SDK describes them (`visitor.visitorId`,
 * `visitor.anonymousId`, `flag.metadata`).
 *
 * @example
 * ```ts
 * const flag = visitor.getFlag('buttonColor');
 * const exposure: FlagExposure = { visitorId: visitor.visitorId, anonymousId: visitor.anonymousId, metadata: flag.metadata };
 * ```
 */
export interface FlagExposure {
  visitorId: string;
  anonymousId?: string | null;
  metadata: { variationGroupId: string; variationId: string };
}

/**
 * What {@link createExposureForwarder} returns.
 *
 * @example
 * ```ts
 * const { hitCache, expose }: ExposureForwarder = createExposureForwarder({ decisionApiUrl, envId });
 * ```
 */
export interface ExposureForwarder {
  /** For `Flagship.start(…, { hitCacheImplementation })`: forwards the SDK's own activate hits. */
  readonly hitCache: FlagshipHitCache;
  /** Records one exposure in abkit (`POST /v2/activate`); rejects when abkit refuses it. */
  expose(exposure: FlagExposure): Promise<void>;
}

/** Remembered hit keys, so a hit the SDK caches again (after a failed flush) is forwarded once. */
const REMEMBERED_HITS = 10_000;

/**
 * Records the stock Flagship SDK's exposures in abkit, two ways:
 * - `hitCache`, given as the SDK's `hitCacheImplementation`: in BUCKETING_EDGE mode the SDK hands
 *   every activate hit (`flag.getValue(default, true)`, `flag.visitorExposed()`) to the hit
 *   cache at once, and this forwards it to abkit's `POST /v2/activate`. In DECISION-API mode the
 *   SDK caches an activate hit only after Flagship's own host refused it, so use `expose` there.
 * - `expose({ visitorId, anonymousId, metadata })`, called by the application when it shows a
 *   flag, in any mode.
 *
 * @example
 * ```ts
 * import { createExposureForwarder } from 'abkit/flagship';
 * const exposures = createExposureForwarder({ decisionApiUrl: 'https://abkit.example.com/v2/', envId: 'prod' });
 * const flag = visitor.getFlag('buttonColor');
 * const color = flag.getValue('grey', false);
 * await exposures.expose({ visitorId: visitor.visitorId, anonymousId: visitor.anonymousId, metadata: flag.metadata });
 * ```
 */
export function createExposureForwarder(options: ExposureForwarderOptions): ExposureForwarder {
  const { decisionApiUrl, envId, apiKey, onError = (e: unknown) => console.error(e) } = options;
  if (typeof decisionApiUrl !== 'string' || !/^https?:\/\//i.test(decisionApiUrl)) {
    throw new TypeError(`createExposureForwarder: decisionApiUrl must be an http(s) URL, got ${JSON.stringify(decisionApiUrl)}`);
  }
  if (typeof envId !== 'string' || envId === '') throw new TypeError('createExposureForwarder: envId must be a non-empty string');
  const fetcher = options.fetch ?? ((input: string, init: RequestInit) => globalThis.fetch(input, init));
  const url = `${decisionApiUrl.endsWith('/') ? decisionApiUrl : `${decisionApiUrl}/`}activate`;
  const headers: Record<string, string> = { 'content-type': 'application/json', ...(apiKey ? { 'x-api-key': apiKey } : {}) };

  async function post(batch: { vid: string; aid: string | null; caid: string; vaid: string }[]): Promise<void> {
    const response = await fetcher(url, { method: 'POST', headers, body: JSON.stringify({ cid: envId, batch }) });
    if (response.status !== 204) {
      const text = await response.text().catch(() => '');
      throw new Error(`abkit refused the activation (${response.status}): ${text.slice(0, 500)}`);
    }
  }

  const forwarded = new Set<string>();
  const remember = (key: string) => {
    forwarded.add(key);
    // Sets iterate in insertion order: drop the oldest.
    if (forwarded.size > REMEMBERED_HITS) forwarded.delete(forwarded.values().next().value!);
  };

  const hitCache: FlagshipHitCache = {
    async cacheHit(hits) {
      const batch: { vid: string; aid: string | null; caid: string; vaid: string }[] = [];
      const keys: string[] = [];
      for (const [key, hit] of Object.entries(hits ?? {})) {
        const content = hit?.data?.content;
        if (hit?.data?.type !== 'ACTIVATE' || !content || forwarded.has(key)) continue;
        const { visitorId, anonymousId, variationGroupId, variationId } = content as Record<string, unknown>;
        if (typeof visitorId !== 'string' || typeof variationGroupId !== 'string' || typeof variationId !== 'string') continue;
        batch.push({
          vid: visitorId,
          aid: typeof anonymousId === 'string' ? anonymousId : null,
          caid: variationGroupId,
          vaid: variationId,
        });
        keys.push(key);
      }
      if (batch.length === 0) return;
      try {
        await post(batch);
        keys.forEach(remember);
      } catch (error) {
        onError(error);
      }
    },
    lookupHits: async () => ({}),
    flushHits: async () => undefined,
    flushAllHits: async () => undefined,
  };

  return {
    hitCache,
    async expose({ visitorId, anonymousId, metadata }) {
      await post([{ vid: visitorId, aid: anonymousId ?? null, caid: metadata.variationGroupId, vaid: metadata.variationId }]);
    },
  };
}

const STRING_OPERATORS = new Set(['CONTAINS', 'NOT_CONTAINS', 'STARTS_WITH', 'ENDS_WITH']);

/**
 * A copy of a configuration that the Flagship JS SDK (5.2) can bucket without throwing: before
 * each string operator (CONTAINS, NOT_CONTAINS, STARTS_WITH, ENDS_WITH) on a context key, the
 * targeting group gets `{ key, operator: 'EXISTS', value: true }`. The SDK calls
 * `visitorValue.toString()` in those operators, so a visitor without the key makes
 * `fetchFlags` throw and lose every flag; abkit already treats a missing key as a non-match for
 * them, so the copy decides exactly as the original in abkit. What it cannot fix: the SDK has no
 * SEMVER operators (never a match) and compares strings case-sensitively.
 *
 * @example
 * ```ts
 * import { DecisionMode, Flagship } from '@flagship.io/js-sdk';
 * const file = await (await fetch('https://abkit.example.com/v2/prod/bucketing.json')).json();
 * await Flagship.start('prod', apiKey, { decisionMode: DecisionMode.BUCKETING_EDGE, initialBucketing: flagshipSdkBucketing(file) });
 * ```
 */
export function flagshipSdkBucketing(
  config: BucketingConfig,
): Omit<BucketingConfig, 'accountSettings'> & { accountSettings?: NonNullable<BucketingConfig['accountSettings']> } {
  // The SDK's type has no null accountSettings (abkit's files may say null: none).
  const { accountSettings, ...rest } = config;
  return {
    ...rest,
    ...(accountSettings ? { accountSettings } : {}),
    campaigns: config.campaigns.map((campaign) => ({
      ...campaign,
      variationGroups: campaign.variationGroups.map((group) => ({
        ...group,
        targeting: {
          ...group.targeting,
          targetingGroups: group.targeting.targetingGroups.map((tg) => {
            const targetings: Targeting[] = [];
            const guarded = new Set<string>();
            for (const t of tg.targetings) {
              if (STRING_OPERATORS.has(t.operator) && t.key !== 'fs_users' && t.key !== 'fs_all_users' && !guarded.has(t.key)) {
                guarded.add(t.key);
                targetings.push({ key: t.key, operator: 'EXISTS', value: true });
              }
              targetings.push(t);
            }
            return { ...tg, targetings };
          }),
        },
      })),
    })),
  };
}

export type { BucketingConfig } from '../model/bucketing-config';
