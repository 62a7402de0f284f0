import type { Unit } from './dashboard-panels';
import type { ChartSeries } from './panel-series';
import { displayFactor, formatValue } from './units';

/** Grafana's classic palette, in its order. */
export const PALETTE = ['#7EB26D', '#EAB839', '#6ED0E0', '#EF843C', '#E24D42', '#1F78C1', '#BA43A9', '#705DA0', '#508642', '#CCA300', '#447EBC', '#C15C17'];

export interface ChartInput {
  width: number;
  height: number;
  /** The render's times (ms), one per value of each series. */
  times: readonly number[];
  series: readonly ChartSeries[];
  unit: Unit;
  threshold?: { value: number; label: string };
  /** Moments of the run to mark with a numbered vertical line. */
  marks: readonly { atMs: number; number: number }[];
}

const AXIS_LEFT = 64;
const AXIS_BOTTOM = 20;
const TOP = 8;
const RIGHT = 8;
const Y_TICKS = 4;

const escape = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** A round step (1, 2 or 5 times a power of ten) that splits `span` into about `count` parts. */
function niceStep(span: number, count: number): number {
  const raw = span / count;
  const power = 10 ** Math.floor(Math.log10(raw));
  return [1, 2, 5, 10].find((factor) => factor * power >= raw)! * power;
}

const clock = (ms: number) => new Date(ms).toISOString().slice(11, 19);

/** A time series panel's chart, as SVG: axes in the panel's unit, a line per series, the threshold dashed. */
export function lineChart({ width, height, times, series, unit, threshold, marks }: ChartInput): string {
  const plotWidth = width - AXIS_LEFT - RIGHT;
  const plotHeight = height - TOP - AXIS_BOTTOM;
  const first = times[0] ?? 0;
  const last = times[times.length - 1] ?? first + 1;
  const values = series.flatMap((line) => line.values.filter((value): value is number => value !== null));
  const highest = Math.max(0, ...values, threshold ? threshold.value * 1.1 : 0);
  // Lines all at zero get Grafana's default range, 0 to 1.
  const factor = displayFactor(highest, unit);
  const step = highest > 0 ? niceStep(highest / factor, Y_TICKS) * factor : 1 / Y_TICKS;
  const top = highest > 0 ? Math.ceil(highest / step) * step : 1;
  const x = (ms: number) => AXIS_LEFT + ((ms - first) / Math.max(1, last - first)) * plotWidth;
  const y = (value: number) => TOP + plotHeight - (value / top) * plotHeight;
  const parts: string[] = [];

  for (let tick = 0; tick <= Math.round(top / step); tick += 1) {
    const value = tick * step;
    parts.push(`<line x1="${AXIS_LEFT}" x2="${width - RIGHT}" y1="${y(value)}" y2="${y(value)}" class="grid"/>`);
    parts.push(`<text x="${AXIS_LEFT - 6}" y="${y(value) + 4}" class="axis" text-anchor="end">${escape(formatValue(value, unit))}</text>`);
  }
  const timeStep = niceStep((last - first) / 1000, 5) * 1000;
  for (let ms = Math.ceil(first / timeStep) * timeStep; ms <= last; ms += timeStep) {
    parts.push(`<line x1="${x(ms)}" x2="${x(ms)}" y1="${TOP}" y2="${TOP + plotHeight}" class="grid"/>`);
    parts.push(`<text x="${x(ms)}" y="${height - 5}" class="axis" text-anchor="middle">${clock(ms)}</text>`);
  }
  for (const mark of marks.filter(({ atMs }) => atMs >= first && atMs <= last)) {
    parts.push(`<line x1="${x(mark.atMs)}" x2="${x(mark.atMs)}" y1="${TOP}" y2="${TOP + plotHeight}" class="mark"/>`);
    parts.push(`<text x="${x(mark.atMs) + 2}" y="${TOP + 9}" class="mark-label">${mark.number}</text>`);
  }
  if (threshold) {
    parts.push(`<line x1="${AXIS_LEFT}" x2="${width - RIGHT}" y1="${y(threshold.value)}" y2="${y(threshold.value)}" class="threshold"/>`);
    parts.push(`<text x="${width - RIGHT - 4}" y="${y(threshold.value) - 4}" class="threshold-label" text-anchor="end">${escape(threshold.label)}</text>`);
  }
  for (const [index, line] of series.entries()) {
    const colour = PALETTE[index % PALETTE.length];
    // Runs of consecutive values, each one line; a value alone is a dot, which a line of one point would not show.
    const runs: string[][] = [];
    for (const [i, value] of line.values.entries()) {
      if (value === null) continue;
      const point = `${x(times[i]!).toFixed(1)},${y(value).toFixed(1)}`;
      if (i > 0 && line.values[i - 1] !== null) runs[runs.length - 1]!.push(point);
      else runs.push([point]);
    }
    for (const run of runs) {
      if (run.length === 1) {
        const [cx, cy] = run[0]!.split(',');
        parts.push(`<circle cx="${cx}" cy="${cy}" r="2" fill="${colour}"/>`);
      } else parts.push(`<polyline points="${run.join(' ')}" fill="none" stroke="${colour}" stroke-width="1.5"/>`);
    }
  }
  if (series.length === 0) parts.push(`<text x="${AXIS_LEFT + plotWidth / 2}" y="${TOP + plotHeight / 2}" class="no-data" text-anchor="middle">No data</text>`);
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}">${parts.join('')}</svg>`;
}
