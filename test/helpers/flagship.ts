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
