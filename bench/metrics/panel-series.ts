import type { Panel } from './dashboard-panels';
import { evaluate } from './evaluate';
import type { Labels } from './prometheus-text';
import type { SeriesStore } from './series-store';

/** One line of a panel: its legend and its value at each time of the render (null where it has none). */
export interface ChartSeries {
  name: string;
  values: (number | null)[];
}

/** Grafana's legend format: `{{label}}` is the series' label, or nothing; with nothing left, the label set. */
export function legendName(format: string, labels: Labels): string {
  const name = format.replace(/\{\{\s*(\w+)\s*\}\}/g, (_, label: string) => labels[label] ?? '').replace(/\s+/g, ' ').trim();
  if (name !== '') return name;
  const pairs = Object.entries(labels).map(([label, value]) => `${label}="${value}"`);
  return `{${pairs.join(', ')}}`;
}

/**
 * A panel's lines over `times` (ms), as Grafana's range query would draw them: each target
 * evaluated at each time with rates over `windowMs`, a line per legend, in name order.
 */
export function panelSeries(panel: Panel, store: SeriesStore, times: readonly number[], windowMs: number): ChartSeries[] {
  const lines = new Map<string, (number | null)[]>();
  for (const target of panel.targets) {
    for (const [index, atMs] of times.entries()) {
      for (const element of evaluate(target.query, store, atMs, windowMs)) {
        if (!Number.isFinite(element.value)) continue;
        const name = legendName(target.legend, element.labels);
        let values = lines.get(name);
        if (!values) {
          values = new Array<number | null>(times.length).fill(null);
          lines.set(name, values);
        }
        values[index] = element.value;
      }
    }
  }
  return [...lines.entries()].sort(([a], [b]) => a.localeCompare(b)).map(([name, values]) => ({ name, values }));
}
