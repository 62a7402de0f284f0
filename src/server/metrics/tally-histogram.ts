import type { Metric, Registry } from 'prom-client';

/**
 * A histogram for a per-frame hot path: `observe` adds to plain numbers. prom-client's Histogram
 * hashes its labels and allocates two objects on every observation (about 0.35 µs), which at 50
 * frames a second per call is garbage the media path otherwise never makes (docs/benchmarks.md).
 * prom-client reads it at each scrape like any of its own metrics.
 */
export class TallyHistogram {
  /** Observations per bucket, not cumulative; the last is the +Inf bucket. */
  private readonly counts: Float64Array;
  private sum = 0;
  private count = 0;

  constructor(private readonly upperBounds: readonly number[]) {
    this.counts = new Float64Array(upperBounds.length + 1);
  }

  observe(value: number) {
    let bucket = 0;
    while (bucket < this.upperBounds.length && value > this.upperBounds[bucket]!) bucket += 1;
    this.counts[bucket] = this.counts[bucket]! + 1;
    this.sum += value;
    this.count += 1;
  }

  /** Adds the histogram to `registry` as `name`, in the shape prom-client's own histograms take. */
  register(registry: Registry, name: string, help: string) {
    const metric = {
      name,
      help,
      type: 'histogram',
      aggregator: 'sum',
      get: async () => this.snapshot(name, help),
      reset: () => {
        this.counts.fill(0);
        this.sum = 0;
        this.count = 0;
      },
    };
    // The registry reads only these members (get, reset); its type lists prom-client's own classes.
    registry.registerMetric(metric as unknown as Metric);
  }

  /** What prom-client's Histogram#get answers: cumulative buckets, then the sum and the count. */
  private snapshot(name: string, help: string) {
    let cumulative = 0;
    const buckets = this.upperBounds.map((le, index) => {
      cumulative += this.counts[index]!;
      return { metricName: `${name}_bucket`, labels: { le }, value: cumulative };
    });
    return {
      name,
      help,
      type: 'histogram',
      aggregator: 'sum',
      values: [
        ...buckets,
        { metricName: `${name}_bucket`, labels: { le: '+Inf' }, value: this.count },
        { metricName: `${name}_sum`, labels: {}, value: this.sum },
        { metricName: `${name}_count`, labels: {}, value: this.count },
      ],
    };
  }
}
