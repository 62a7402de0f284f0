/** A scraped value at a time (ms since the epoch). */
export interface Point {
  t: number;
  v: number;
}

/**
 * PromQL's `rate()` over a counter's points in the window (start, end] (ms): the increase, with
 * counter resets added back, per second, extrapolated towards the window's edges the way
 * Prometheus's extrapolatedRate does (not past half a scrape interval beyond the first and last
 * points, nor below zero before the first). NaN with fewer than two points, where Prometheus
 * returns nothing.
 */
export function counterRate(points: readonly Point[], startMs: number, endMs: number): number {
  if (points.length < 2) return Number.NaN;
  const first = points[0]!;
  const last = points[points.length - 1]!;
  let increase = last.v - first.v;
  for (let i = 1; i < points.length; i += 1) {
    const previous = points[i - 1]!.v;
    if (points[i]!.v < previous) increase += previous;
  }
  const sampledSeconds = (last.t - first.t) / 1000;
  const averageGap = sampledSeconds / (points.length - 1);
  const threshold = averageGap * 1.1;
  let toStart = (first.t - startMs) / 1000;
  let toEnd = (endMs - last.t) / 1000;
  if (toStart >= threshold) toStart = averageGap / 2;
  if (toEnd >= threshold) toEnd = averageGap / 2;
  // A counter starts at zero: the extrapolation does not reach back before the time it was zero.
  if (increase > 0 && first.v >= 0) toStart = Math.min(toStart, sampledSeconds * (first.v / increase));
  const extrapolatedSeconds = sampledSeconds + toStart + toEnd;
  return (increase * (extrapolatedSeconds / sampledSeconds)) / ((endMs - startMs) / 1000);
}
