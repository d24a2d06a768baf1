/**
 * A Prometheus histogram for the per-request path. prom-client's `Histogram.observe` validates
 * and hashes the label set on every call (a tenth of the server's own work per request); this
 * one finds a series with one `Map` lookup of its label values and counts in a typed array, and
 * builds prom-client's exposition values only when `/metrics` is read.
 *
 * @module
 */
import type { Metric, Registry } from 'prom-client';

// 200 and '200' are one label value, as in prom-client. Status codes come with every request:
// their strings are made (and hashed) once, not on each observation.
const statusKeys: string[] = [];
const key = (value: string | number): string => {
  if (typeof value === 'string') return value;
  if (Number.isInteger(value) && value >= 100 && value < 600) return (statusKeys[value] ??= String(value));
  return String(value);
};

interface Series {
  readonly labels: Record<string, string | number>;
  /** Observations per bucket (not cumulative); the last slot is above every bound. */
  readonly counts: Float64Array;
  sum: number;
  count: number;
}

/**
 * A histogram registered in a prom-client registry, with the text output of prom-client's own.
 *
 * @example
 * ```ts
 * const latency = new LatencyHistogram({ name: 'app_seconds', help: 'Latency', labelNames: ['route'], buckets: [0.01, 0.1, 1], registers: [registry] });
 * latency.observe({ route: '/search' }, 0.004);
 * ```
 */
export class LatencyHistogram<L extends string> {
  readonly name: string;
  readonly help: string;
  readonly type = 'histogram';
  readonly aggregator = 'sum';
  readonly #labelNames: readonly L[];
  readonly #bounds: readonly number[];
  readonly #tree = new Map<unknown, unknown>();
  /** Every series, in the order they appeared (prom-client's order). */
  #series: Series[] = [];

  constructor(options: {
    name: string;
    help: string;
    labelNames: readonly [L, ...L[]];
    buckets: readonly number[];
    registers: readonly Registry[];
  }) {
    this.name = options.name;
    this.help = options.help;
    this.#labelNames = options.labelNames;
    this.#bounds = [...options.buckets].sort((a, b) => a - b);
    for (const registry of options.registers) registry.registerMetric(this as unknown as Metric);
  }

  /** Counts one observation (in seconds) for a label set. */
  observe(labels: Readonly<Record<L, string | number>>, value: number): void {
    this.observeValues(
      this.#labelNames.map((name) => labels[name]),
      value,
    );
  }

  /**
   * {@link observe} with the label values given in the order of the label names: the per-request
   * path reads an array instead of looking each name up in a record.
   */
  observeValues(values: readonly (string | number)[], value: number): void {
    if (!Number.isFinite(value)) throw new TypeError(`${this.name}: value is not a finite number: ${value}`);
    // One Map level per label, keyed by the values themselves: no key string is built, and the
    // route patterns and methods are the same string objects each time (their hash is kept).
    let level: Map<unknown, unknown> = this.#tree;
    const names = this.#labelNames;
    for (let i = 0; i < names.length - 1; i++) {
      const v = key(values[i]!);
      let next = level.get(v) as Map<unknown, unknown> | undefined;
      if (!next) level.set(v, (next = new Map()));
      level = next;
    }
    const last = key(values[names.length - 1]!);
    let series = level.get(last) as Series | undefined;
    if (!series) {
      const own: Record<string, string | number> = {};
      names.forEach((name, i) => {
        own[name] = values[i]!;
      });
      series = { labels: own, counts: new Float64Array(this.#bounds.length + 1), sum: 0, count: 0 };
      level.set(last, series);
      this.#series.push(series);
    }
    const bounds = this.#bounds;
    let i = 0;
    while (i < bounds.length && value > bounds[i]!) i++;
    series.counts[i]!++;
    series.sum += value;
    series.count++;
  }

  /** The values prom-client's registry writes out (cumulative buckets, `+Inf`, sum, count). */
  async get() {
    const values: { labels: Record<string, string | number>; value: number; metricName: string }[] = [];
    for (const series of this.#series) {
      let cumulative = 0;
      this.#bounds.forEach((bound, i) => {
        cumulative += series.counts[i]!;
        values.push({ labels: { le: bound, ...series.labels }, value: cumulative, metricName: `${this.name}_bucket` });
      });
      values.push({ labels: { le: '+Inf', ...series.labels }, value: series.count, metricName: `${this.name}_bucket` });
      values.push({ labels: series.labels, value: series.sum, metricName: `${this.name}_sum` });
      values.push({ labels: series.labels, value: series.count, metricName: `${this.name}_count` });
    }
    return { name: this.name, help: this.help, type: this.type, aggregator: this.aggregator, values };
  }

  /** Forgets every observation (prom-client's `registry.resetMetrics()`). */
  reset(): void {
    this.#tree.clear();
    this.#series = [];
  }
}
