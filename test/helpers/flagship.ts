/** The Flagship JS SDK started offline on a bucketing file (edge mode: no network, no tracking). */
import { DecisionMode, Flagship, LogLevel, type BucketingDTO } from '@flagship.io/js-sdk';

export async function startFlagshipBucketing(envId: string, bucketing: unknown): Promise<void> {
  await Flagship.start(envId, 'api-key-unused', {
    decisionMode: DecisionMode.BUCKETING_EDGE,
    initialBucketing: bucketing as BucketingDTO,
    logLevel: LogLevel.NONE,
    fetchNow: false,
    reuseVisitorIds: false,
    disableDeveloperUsageTracking: true,
    trackingManagerConfig: { batchIntervals: 0 },
  });
}

/**
 * Options for a Flagship SDK that calls a local abkit at `origin` and keeps its errors in `log`:
 * no fetch at start, no buffering, no usage tracking, and a hit pool that never flushes (a flush
 * would go to Flagship's host, which is unreachable here).
 */
export function sdkAgainstAbkit(origin: string, log: string[]) {
  return {
    decisionApiUrl: `${origin}/v2/`,
    timeout: 5,
    logLevel: LogLevel.ERROR,
    onLog: (_level: LogLevel, tag: string, message: string) => log.push(`${tag}: ${message}`),
    fetchNow: false,
    reuseVisitorIds: false,
    fetchFlagsBufferingTime: 0,
    disableDeveloperUsageTracking: true,
    trackingManagerConfig: { batchIntervals: 0, poolMaxSize: 1_000_000 },
  };
}
