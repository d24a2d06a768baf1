import fc from 'fast-check';
import { Histogram, Registry } from 'prom-client';
import { describe, expect, it } from 'vitest';
import { LatencyHistogram } from '../../server/histogram';

const BUCKETS = [0.001, 0.01, 0.1, 1];
const LABELS = ['method', 'route', 'status'] as const;

describe('LatencyHistogram', () => {
  it("writes the same Prometheus text as prom-client's Histogram for the same observations", async () => {
    const observation = fc.record({
      method: fc.constantFrom('GET', 'POST'),
      route: fc.constantFrom('/v2/campaigns', '/search', 'unmatched', 'a "quoted" \\ route'),
      status: fc.constantFrom(200, 204, 404, '200'),
      value: fc.oneof(fc.double({ min: 0, max: 5, noNaN: true }), fc.constantFrom(...BUCKETS)),
    });
    await fc.assert(
      fc.asyncProperty(fc.array(observation, { maxLength: 40 }), async (observations) => {
        const [theirs, ours] = [new Registry(), new Registry()];
        const reference = new Histogram({
          name: 'x_seconds',
          help: 'Latency "of" x',
          labelNames: LABELS,
          buckets: BUCKETS,
          registers: [theirs],
        });
        const fast = new LatencyHistogram({
          name: 'x_seconds',
          help: 'Latency "of" x',
          labelNames: LABELS,
          buckets: BUCKETS,
          registers: [ours],
        });
        for (const { value, ...labels } of observations) {
          reference.observe(labels, value);
          // Both entries: a label record, and the values in label-name order.
          if (value < 2.5) fast.observe(labels, value);
          else fast.observeValues([labels.method, labels.route, labels.status], value);
        }
        expect(await ours.metrics()).toBe(await theirs.metrics());
      }),
      { numRuns: 200 },
    );
  });

  it('forgets its series on reset, and refuses a value that is not a finite number', async () => {
    const registry = new Registry();
    const h = new LatencyHistogram({ name: 'y_seconds', help: 'y', labelNames: ['route'], buckets: BUCKETS, registers: [registry] });
    h.observe({ route: '/a' }, 0.5);
    expect(await registry.metrics()).toMatch(/^y_seconds_count\{route="\/a"\} 1$/m);
    registry.resetMetrics();
    expect(await registry.metrics()).not.toMatch(/y_seconds_count/);
    expect(() => h.observe({ route: '/a' }, Number.NaN)).toThrow(/y_seconds: value is not a finite number/);
  });
});
