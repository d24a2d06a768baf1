/**
 * An experiment's results from the store's per-variation aggregates and the campaign's
 * configuration: a pure function (`analyzeCampaign`) under `ExperimentService.results`.
 *
 * @module
 */
import type { CompiledCampaign } from '../decision/compile';
import type { ErrorDetail } from '../errors';
import type { VariationAggregate } from '../storage/events';
import {
  chanceToBeatBeta,
  chanceToBeatNormal,
  meanDifference,
  proportionDifference,
  relativeUplift,
  sampleMoments,
  sampleRatioMismatch,
  twoProportionZTest,
  welchTTest,
  type Estimate,
  type SampleRatioCheck,
  type SampleSums,
} from './statistics';
import { MAX_EVENT_NAME_LENGTH } from './track';

/**
 * What {@link abkit!ExperimentService.results} reads.
 *
 * @example
 * ```ts
 * const query: ResultsQuery = { environment: 'prod', campaignId: 'new-checkout', metric: 'purchase', since: Date.parse('2026-11-01') };
 * const results = await experiments.results(query);
 * ```
 */
export interface ResultsQuery {
  /** Environment. @defaultValue the engine's `defaultEnvironment` */
  environment?: string;
  /** The campaign, by id or slug. */
  campaignId: string;
  /** The conversion event (metric) name given to `track`. */
  metric: string;
  /** Only visitors first exposed at or after this time (epoch ms). */
  since?: number;
  /** Only exposures and events before this time (epoch ms). */
  until?: number;
}

/**
 * The conversion-rate comparison of a variation with its group's reference.
 *
 * @example
 * ```ts
 * const rate: RateComparison | undefined = results.groups[0]?.variations[1]?.comparison?.conversionRate;
 * if (rate?.pValue != null && rate.pValue < 0.05) console.log(`uplift ${rate.uplift?.estimate}`);
 * ```
 */
export interface RateComparison {
  /** Relative uplift (rate / reference rate − 1), 95% delta-method interval; null when the reference rate is 0. */
  readonly uplift: Estimate | null;
  /** Absolute difference of rates, 95% Wald interval. */
  readonly difference: Estimate | null;
  /** Pooled two-proportion z statistic. */
  readonly zScore: number | null;
  /** Two-sided p-value of the z-test. */
  readonly pValue: number | null;
  /** P(rate > reference rate), Beta(1, 1) priors. */
  readonly chanceToBeat: number;
}

/**
 * The value (e.g. revenue per exposed visitor) comparison of a variation with its group's reference.
 *
 * @example
 * ```ts
 * const value: ValueComparison | null | undefined = results.groups[0]?.variations[1]?.comparison?.value;
 * console.log(value?.uplift?.estimate, value?.pValue);
 * ```
 */
export interface ValueComparison {
  /** Relative uplift of the mean value per exposed visitor, 95% delta-method interval. */
  readonly uplift: Estimate | null;
  /** Absolute difference of means, 95% Welch interval. */
  readonly difference: Estimate | null;
  /** Welch's t statistic. */
  readonly tStatistic: number | null;
  /** Welch–Satterthwaite degrees of freedom. */
  readonly degreesOfFreedom: number | null;
  /** Two-sided p-value of Welch's t-test. */
  readonly pValue: number | null;
  /** P(mean > reference mean), normal approximation. */
  readonly chanceToBeat: number | null;
}

/**
 * One variation's results.
 *
 * @example
 * ```ts
 * for (const v of results.groups[0]!.variations) console.log(v.variationId, v.exposed, v.conversionRate, v.comparison?.conversionRate.pValue);
 * ```
 */
export interface VariationResult {
  /** The variation group, as `explain` and the activations name it. */
  readonly variationGroupId: string;
  /** The variation, as `explain` and the activations name it. */
  readonly variationId: string;
  /** Whether it is the group's reference (the one marked `reference`, else the first). */
  readonly reference: boolean;
  /** Its allocation in the current configuration; null when it is no longer configured. */
  readonly allocation: number | null;
  /** Unique visitors exposed (first activation in the window). */
  readonly exposed: number;
  /** Exposed visitors with the event after their first exposure. */
  readonly converted: number;
  /** `converted / exposed`; null when nobody was exposed. */
  readonly conversionRate: number | null;
  /** Sum of event values of exposed visitors after their exposure. */
  readonly valueSum: number;
  /** `valueSum / exposed`: the mean value per exposed visitor; null when nobody was exposed. */
  readonly meanValue: number | null;
  /** Sample standard deviation of the per-visitor value; null under two visitors. */
  readonly valueStandardDeviation: number | null;
  /** Against the reference; null for the reference itself. */
  readonly comparison: { readonly conversionRate: RateComparison; readonly value: ValueComparison | null } | null;
}

/**
 * One variation group's results.
 *
 * @example
 * ```ts
 * const group: GroupResult = results.groups[0]!;
 * if (group.sampleRatio?.mismatch) console.warn('exposures do not follow the allocation: check the set-up before reading results');
 * ```
 */
export interface GroupResult {
  readonly variationGroupId: string;
  readonly referenceVariationId: string;
  /** Chi-square of exposed counts against the allocations; null when it cannot be computed. */
  readonly sampleRatio: SampleRatioCheck | null;
  readonly variations: readonly VariationResult[];
}

/**
 * The result of {@link abkit!ExperimentService.results}.
 *
 * @example
 * ```ts
 * const results: ExperimentResults = await experiments.results({ campaignId: 'new-checkout', metric: 'purchase' });
 * console.log(results.groups.map((g) => g.variations.map((v) => `${v.variationId}: ${v.conversionRate}`)));
 * ```
 */
export interface ExperimentResults {
  readonly environmentId: string;
  readonly campaignId: string;
  readonly metric: string;
  readonly since: number | null;
  readonly until: number | null;
  /** Whether events of the metric carried values: value comparisons are given only then. */
  readonly valueMetric: boolean;
  /** Visitors exposed to more than one variation, attributed to none. */
  readonly multipleExposures: number;
  readonly groups: readonly GroupResult[];
}

/** Pushes a detail for each problem of a results query. */
export function resultsQueryProblems(query: ResultsQuery, details: ErrorDetail[]): void {
  if (query === null || typeof query !== 'object') {
    details.push({ path: [], message: 'must be an object' });
    return;
  }
  if (typeof query.campaignId !== 'string' || query.campaignId === '')
    details.push({ path: ['campaignId'], message: 'must be a non-empty string' });
  if (typeof query.metric !== 'string' || query.metric === '') details.push({ path: ['metric'], message: 'must be a non-empty string' });
  else if (query.metric.length > MAX_EVENT_NAME_LENGTH)
    details.push({ path: ['metric'], message: `must be at most ${MAX_EVENT_NAME_LENGTH} characters` });
  if (query.environment !== undefined && (typeof query.environment !== 'string' || query.environment === ''))
    details.push({ path: ['environment'], message: 'must be a non-empty string' });
  for (const field of ['since', 'until'] as const) {
    const v = query[field];
    if (v !== undefined && !(Number.isSafeInteger(v) && v >= 0))
      details.push({ path: [field], message: 'must be a non-negative integer (epoch milliseconds)' });
  }
  if (typeof query.since === 'number' && typeof query.until === 'number' && query.since >= query.until)
    details.push({ path: ['until'], message: 'must be after since' });
}

interface Row {
  readonly variationId: string;
  readonly allocation: number | null;
  readonly configuredReference: boolean;
  readonly sums: VariationAggregate | undefined;
}

const sumsOf = (r: Row): SampleSums => ({ n: r.sums?.exposed ?? 0, sum: r.sums?.valueSum ?? 0, sumSquares: r.sums?.valueSumSquares ?? 0 });
const proportionOf = (r: Row) => ({ exposed: r.sums?.exposed ?? 0, converted: r.sums?.converted ?? 0 });

function compareRates(reference: Row, row: Row): RateComparison {
  const a = proportionOf(reference);
  const b = proportionOf(row);
  const rateVariance = (p: { exposed: number; converted: number }) => {
    const rate = p.converted / p.exposed;
    return (rate * (1 - rate)) / p.exposed;
  };
  const test = twoProportionZTest(a, b);
  const defined = a.exposed > 0 && b.exposed > 0;
  return {
    uplift: defined ? relativeUplift(a.converted / a.exposed, rateVariance(a), b.converted / b.exposed, rateVariance(b)) : null,
    difference: proportionDifference(a, b),
    zScore: test?.statistic ?? null,
    pValue: test?.pValue ?? null,
    chanceToBeat: chanceToBeatBeta(a, b),
  };
}

function compareValues(reference: Row, row: Row): ValueComparison {
  const a = sumsOf(reference);
  const b = sumsOf(row);
  const ma = sampleMoments(a);
  const mb = sampleMoments(b);
  const test = welchTTest(a, b);
  return {
    uplift: ma && mb ? relativeUplift(ma.mean, ma.variance / a.n, mb.mean, mb.variance / b.n) : null,
    difference: meanDifference(a, b),
    tStatistic: test?.statistic ?? null,
    degreesOfFreedom: test?.degreesOfFreedom ?? null,
    pValue: test?.pValue ?? null,
    chanceToBeat: chanceToBeatNormal(a, b),
  };
}

/**
 * Builds the results of a campaign from the store's aggregates: per variation group of the
 * configuration (then any group only the activation log knows), every configured variation
 * (exposed or not) then any variation only the log knows, each compared with the group's
 * reference.
 *
 * @example
 * ```ts
 * const rows = await storage.events.aggregate({ environmentId: 'prod', campaignId: campaign.id, event: 'purchase' });
 * const results = analyzeCampaign(campaign, rows, { environmentId: 'prod', metric: 'purchase' });
 * ```
 */
export function analyzeCampaign(
  campaign: Pick<CompiledCampaign, 'id' | 'groups'>,
  aggregates: readonly VariationAggregate[],
  query: { environmentId: string; metric: string; since?: number; until?: number },
): ExperimentResults {
  const byGroup = new Map<string, Map<string, VariationAggregate>>();
  let multipleExposures = 0;
  let valued = 0;
  for (const a of aggregates) {
    valued += a.valued;
    if (a.variationGroupId === null || a.variationId === null) {
      multipleExposures += a.exposed;
      continue;
    }
    let g = byGroup.get(a.variationGroupId);
    if (!g) byGroup.set(a.variationGroupId, (g = new Map()));
    g.set(a.variationId, a);
  }
  const groups: GroupResult[] = [];
  const build = (groupId: string, configured: readonly { id: string; allocation: number; reference: boolean }[]) => {
    const seen = byGroup.get(groupId) ?? new Map<string, VariationAggregate>();
    const rows: Row[] = configured.map((v) => ({
      variationId: v.id,
      allocation: v.allocation,
      configuredReference: v.reference,
      sums: seen.get(v.id),
    }));
    const known = new Set(configured.map((v) => v.id));
    for (const [id, sums] of [...seen].sort(([x], [y]) => (x < y ? -1 : x > y ? 1 : 0))) {
      if (!known.has(id)) rows.push({ variationId: id, allocation: null, configuredReference: false, sums });
    }
    const reference = rows.find((r) => r.configuredReference) ?? rows[0]!;
    const srm = sampleRatioMismatch(
      rows.map((r) => r.sums?.exposed ?? 0),
      rows.map((r) => r.allocation ?? 0),
    );
    groups.push({
      variationGroupId: groupId,
      referenceVariationId: reference.variationId,
      sampleRatio: srm,
      variations: rows.map((r): VariationResult => {
        const exposed = r.sums?.exposed ?? 0;
        const moments = sampleMoments(sumsOf(r));
        return {
          variationGroupId: groupId,
          variationId: r.variationId,
          reference: r === reference,
          allocation: r.allocation,
          exposed,
          converted: r.sums?.converted ?? 0,
          conversionRate: exposed > 0 ? (r.sums?.converted ?? 0) / exposed : null,
          valueSum: r.sums?.valueSum ?? 0,
          meanValue: exposed > 0 ? (r.sums?.valueSum ?? 0) / exposed : null,
          valueStandardDeviation: moments ? Math.sqrt(moments.variance) : null,
          comparison:
            r === reference ? null : { conversionRate: compareRates(reference, r), value: valued > 0 ? compareValues(reference, r) : null },
        };
      }),
    });
  };
  for (const g of campaign.groups)
    build(
      g.id,
      g.variations.map((v) => ({ id: v.id, allocation: v.allocation, reference: v.decision.variation.reference })),
    );
  const configuredGroups = new Set(campaign.groups.map((g) => g.id));
  for (const id of [...byGroup.keys()].sort()) if (!configuredGroups.has(id)) build(id, []);
  return {
    environmentId: query.environmentId,
    campaignId: campaign.id,
    metric: query.metric,
    since: query.since ?? null,
    until: query.until ?? null,
    valueMetric: valued > 0,
    multipleExposures,
    groups,
  };
}
