/** A cumulative histogram bucket: how many observations were at most `upperBound`. */
export interface Bucket {
  upperBound: number;
  count: number;
}

/**
 * PromQL's `histogram_quantile(q, …)` over one histogram's buckets (rates or counts): finds the
 * bucket holding the q-th observation and interpolates linearly inside it, as Prometheus's
 * bucketQuantile does. The highest finite bound stands for anything in the +Inf bucket; the
 * first bucket starts at 0. NaN without a +Inf bucket, with fewer than two buckets, or with no
 * observations; ±Inf for q outside [0, 1].
 */
export function histogramQuantile(q: number, buckets: readonly Bucket[]): number {
  if (Number.isNaN(q)) return Number.NaN;
  if (q < 0) return -Infinity;
  if (q > 1) return Infinity;
  const sorted = coalesce([...buckets].sort((a, b) => a.upperBound - b.upperBound));
  if (sorted.length < 2 || sorted[sorted.length - 1]!.upperBound !== Infinity) return Number.NaN;
  // Counts rated separately can come out a hair non-monotonic; Prometheus evens them out the same way.
  for (let i = 1; i < sorted.length; i += 1) sorted[i]!.count = Math.max(sorted[i]!.count, sorted[i - 1]!.count);
  const observations = sorted[sorted.length - 1]!.count;
  if (!(observations > 0)) return Number.NaN;
  let rank = q * observations;
  const b = sorted.findIndex((bucket) => bucket.count >= rank);
  if (b === sorted.length - 1) return sorted[sorted.length - 2]!.upperBound;
  if (b === 0 && sorted[0]!.upperBound <= 0) return sorted[0]!.upperBound;
  let start = 0;
  let count = sorted[b]!.count;
  if (b > 0) {
    start = sorted[b - 1]!.upperBound;
    count -= sorted[b - 1]!.count;
    rank -= sorted[b - 1]!.count;
  }
  return start + (sorted[b]!.upperBound - start) * (rank / count);
}

/** Buckets of the same bound (from series told apart only by a dropped label) summed into one. */
function coalesce(sorted: Bucket[]): Bucket[] {
  const merged: Bucket[] = [];
  for (const bucket of sorted) {
    const last = merged[merged.length - 1];
    if (last && last.upperBound === bucket.upperBound) last.count += bucket.count;
    else merged.push({ ...bucket });
  }
  return merged;
}
