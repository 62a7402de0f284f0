import { describe, expect, it } from 'vitest';
import { histogramQuantile } from './histogram-quantile';

const buckets = (pairs: [number, number][]) => pairs.map(([upperBound, count]) => ({ upperBound, count }));
// 100 observations: 10 up to 0.1, 50 up to 0.5, 90 up to 1, all up to +Inf.
const HISTOGRAM = buckets([
  [0.1, 10],
  [0.5, 50],
  [1, 90],
  [Infinity, 100],
]);

describe('histogramQuantile', () => {
  it('interpolates linearly inside the bucket holding the rank', () => {
    expect(histogramQuantile(0.5, HISTOGRAM)).toBeCloseTo(0.5, 10);
    expect(histogramQuantile(0.3, HISTOGRAM)).toBeCloseTo(0.1 + 0.4 * (20 / 40), 10);
    expect(histogramQuantile(0.05, HISTOGRAM)).toBeCloseTo(0.05, 10);
  });

  it('answers the highest finite bound for a rank in the +Inf bucket', () => {
    expect(histogramQuantile(0.95, HISTOGRAM)).toBe(1);
    expect(histogramQuantile(1, HISTOGRAM)).toBe(1);
  });

  it('reads buckets in any order, sums those of the same bound and evens out counts that dip', () => {
    // HISTOGRAM split over two series whose only difference was a label summed away.
    const shuffled = buckets([
      [Infinity, 60],
      [0.5, 30],
      [0.1, 5],
      [1, 40],
      [0.1, 5],
      [1, 50],
      [0.5, 20],
      [Infinity, 40],
    ]);
    expect(histogramQuantile(0.5, shuffled)).toBeCloseTo(0.5, 10);
    expect(histogramQuantile(0.5, buckets([[0.1, 10], [0.5, 50], [1, 49.9], [Infinity, 100]]))).toBeCloseTo(0.5, 10);
  });

  it('has no value without a +Inf bucket, with one bucket or no observations', () => {
    expect(histogramQuantile(0.5, buckets([[0.1, 1], [1, 2]]))).toBeNaN();
    expect(histogramQuantile(0.5, buckets([[Infinity, 3]]))).toBeNaN();
    expect(histogramQuantile(0.5, buckets([[0.1, 0], [Infinity, 0]]))).toBeNaN();
  });

  it('is ±Inf for a quantile outside [0, 1]', () => {
    expect(histogramQuantile(-0.1, HISTOGRAM)).toBe(-Infinity);
    expect(histogramQuantile(1.1, HISTOGRAM)).toBe(Infinity);
  });
});
