import type { Labels, Sample } from './prometheus-text';
import type { Point } from './rate';

/** A stored point; a stale one marks where the series ended: gone from its target's scrape, or the scrape failed. */
interface StoredPoint extends Point {
  stale?: true;
}

interface Series {
  labels: Labels;
  points: StoredPoint[];
}

/** How far back an instant selector looks for a series' latest point, as Prometheus's default. */
const LOOKBACK_MS = 5 * 60_000;

function keyOf(name: string, labels: Labels): string {
  return JSON.stringify([name, ...Object.keys(labels).sort().map((label) => [label, labels[label]])]);
}

function matches(series: Series, matchers: Labels): boolean {
  return Object.entries(matchers).every(([label, value]) => (series.labels[label] ?? '') === value);
}

/**
 * The scrapes of a run, kept as Prometheus keeps them: each sample gets its target's `instance`
 * label and the scrape's time, and a series its target no longer shows, or whose target failed
 * to answer, is marked stale so that it ends there instead of lingering for the look-back.
 */
export class SeriesStore {
  private readonly byKey = new Map<string, Series>();
  private readonly byName = new Map<string, Series[]>();
  private readonly live = new Map<string, Set<Series>>();

  /** Records a scrape of `instance` at `atMs`: its samples, or null when the scrape failed. */
  addScrape(instance: string, atMs: number, samples: readonly Sample[] | null): void {
    const before = this.live.get(instance) ?? new Set<Series>();
    const now = new Set<Series>();
    for (const sample of samples ?? []) {
      const labels = { ...sample.labels, instance };
      const key = keyOf(sample.name, labels);
      let series = this.byKey.get(key);
      if (!series) {
        series = { labels, points: [] };
        this.byKey.set(key, series);
        this.byName.set(sample.name, [...(this.byName.get(sample.name) ?? []), series]);
      }
      series.points.push({ t: atMs, v: sample.value });
      now.add(series);
    }
    for (const series of before) if (!now.has(series)) series.points.push({ t: atMs, v: Number.NaN, stale: true });
    this.live.set(instance, now);
  }

  /** The series named `name` with every label of `matchers`, each with its latest value at or before `atMs` (an instant selector). */
  instant(name: string, matchers: Labels, atMs: number): { labels: Labels; value: number }[] {
    const found: { labels: Labels; value: number }[] = [];
    for (const series of this.byName.get(name) ?? []) {
      if (!matches(series, matchers)) continue;
      const latest = series.points.findLast((point) => point.t <= atMs);
      if (latest && !latest.stale && atMs - latest.t < LOOKBACK_MS) found.push({ labels: series.labels, value: latest.v });
    }
    return found;
  }

  /** The series named `name` with every label of `matchers`, each with its points in (startMs, endMs], stale marks left out (a range selector). */
  range(name: string, matchers: Labels, startMs: number, endMs: number): { labels: Labels; points: Point[] }[] {
    const found: { labels: Labels; points: Point[] }[] = [];
    for (const series of this.byName.get(name) ?? []) {
      if (!matches(series, matchers)) continue;
      const points = series.points.filter((point) => point.t > startMs && point.t <= endMs && !point.stale);
      if (points.length > 0) found.push({ labels: series.labels, points });
    }
    return found;
  }
}
