import { Histogram, Registry } from 'prom-client';
import { describe, expect, it } from 'vitest';
import { TallyHistogram } from './tally-histogram';

const BOUNDS = [0.00001, 0.0001, 0.001, 0.02];

describe('TallyHistogram', () => {
  it("reads at a scrape exactly as prom-client's own histogram of the same observations", async () => {
    const ours = new Registry();
    const theirs = new Registry();
    const tally = new TallyHistogram(BOUNDS);
    tally.register(ours, 'frame_seconds', 'Time per frame');
    const reference = new Histogram({ name: 'frame_seconds', help: 'Time per frame', buckets: BOUNDS, registers: [theirs] });
    // Below the first bound, on a bound, between bounds and past the last.
    for (const value of [0.000001, 0.00001, 0.00005, 0.0005, 0.0005, 0.001, 0.019, 0.02, 0.5]) {
      tally.observe(value);
      reference.observe(value);
    }
    expect(await ours.metrics()).toBe(await theirs.metrics());
  });

  it('reads zero in every bucket before any observation, and again once reset', async () => {
    const registry = new Registry();
    const tally = new TallyHistogram(BOUNDS);
    tally.register(registry, 'frame_seconds', 'Time per frame');
    const empty = await registry.metrics();
    expect(empty).toContain('frame_seconds_bucket{le="0.00001"} 0');
    expect(empty).toContain('frame_seconds_bucket{le="+Inf"} 0');
    expect(empty).toContain('frame_seconds_count 0');
    tally.observe(0.001);
    expect(await registry.metrics()).toContain('frame_seconds_count 1');
    registry.resetMetrics();
    expect(await registry.metrics()).toBe(empty);
  });
});
