import type { Row } from './dashboard-panels';
import type { ChartSeries } from './panel-series';
import { lineChart, PALETTE } from './svg-chart';
import { panelWidth } from './grafana-dashboard';
import { formatValue } from './units';

/** What the page shows: the run it comes from, its moments, and each panel's lines over `times`. */
export interface DashboardRender {
  title: string;
  /** Lines under the title: what ran, when, and how the values were computed. */
  notes: string[];
  times: readonly number[];
  marks: readonly { atMs: number; text: string }[];
  rows: readonly Row[];
  /** Each panel's lines, by row and panel index. */
  series: readonly (readonly ChartSeries[])[][];
}

/** The page is this wide; Grafana's 24 columns share it. */
export const PAGE_WIDTH = 1600;
const GAP = 8;
const CHART_HEIGHT = 190;

const escape = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

const STYLE = `
body { margin: 0; padding: 12px; width: ${PAGE_WIDTH - 24}px; background: #111217; color: #ccccdc; font: 12px/1.4 Inter, 'Helvetica Neue', Arial, sans-serif; }
h1 { font-size: 18px; font-weight: 500; margin: 0 0 4px; color: #fff; }
.notes { margin: 0 0 8px; color: #8e8e9e; }
.notes p { margin: 2px 0; }
ol.marks { margin: 4px 0 8px; padding-left: 22px; color: #8e8e9e; columns: 2; }
h2 { font-size: 14px; font-weight: 500; margin: 14px 0 6px; color: #fff; }
.row { display: grid; grid-template-columns: repeat(24, 1fr); gap: ${GAP}px; }
.panel { background: #181b1f; border: 1px solid #2c3235; border-radius: 2px; padding: 6px 8px; min-width: 0; }
.panel h3 { font-size: 12px; font-weight: 500; margin: 0 0 4px; color: #ccccdc; }
.legend { display: flex; flex-wrap: wrap; gap: 2px 12px; margin-top: 4px; }
.legend span { white-space: nowrap; overflow: hidden; text-overflow: ellipsis; max-width: 100%; }
.legend i { display: inline-block; width: 12px; height: 3px; margin: 0 4px 3px 0; vertical-align: middle; }
.legend b { font-weight: 400; color: #8e8e9e; }
svg .grid { stroke: #2c3235; stroke-width: 1; }
svg .axis { fill: #8e8e9e; font-size: 10px; }
svg .mark { stroke: #5794f2; stroke-dasharray: 2 3; stroke-width: 1; }
svg .mark-label { fill: #5794f2; font-size: 9px; }
svg .threshold { stroke: #f2495c; stroke-dasharray: 6 4; stroke-width: 1.5; }
svg .threshold-label { fill: #f2495c; font-size: 10px; }
svg .no-data { fill: #8e8e9e; font-size: 13px; }
`;

function legend(series: readonly ChartSeries[], unit: Parameters<typeof formatValue>[1]): string {
  const items = series.map((line, index) => {
    const values = line.values.filter((value): value is number => value !== null);
    const last = values[values.length - 1];
    const stats = last === undefined ? '' : ` <b>max ${escape(formatValue(Math.max(...values), unit))}, last ${escape(formatValue(last, unit))}</b>`;
    return `<span><i style="background:${PALETTE[index % PALETTE.length]}"></i>${escape(line.name)}${stats}</span>`;
  });
  return `<div class="legend">${items.join('')}</div>`;
}

/**
 * The dashboard as a static HTML page: each row and panel where Grafana places them (same widths
 * on a 24-column grid), each panel's lines as an inline SVG chart with the run's moments marked,
 * and a legend with each line's maximum and last value.
 */
export function renderDashboardHtml(render: DashboardRender): string {
  const columnWidth = (PAGE_WIDTH - 24 - 23 * GAP) / 24;
  const marks = render.marks.map((mark, index) => ({ atMs: mark.atMs, number: index + 1 }));
  const rows = render.rows.map((row, rowIndex) => {
    const width = panelWidth(row.panels.length);
    const panels = row.panels.map((panel, panelIndex) => {
      const series = render.series[rowIndex]![panelIndex]!;
      const chartWidth = Math.floor(width * columnWidth + (width - 1) * GAP - 18);
      const chart = lineChart({ width: chartWidth, height: CHART_HEIGHT, times: render.times, series, unit: panel.unit, threshold: panel.threshold, marks });
      return `<section class="panel" style="grid-column: span ${width}" title="${escape(panel.description)}"><h3>${escape(panel.title)}</h3>${chart}${legend(series, panel.unit)}</section>`;
    });
    return `<h2>${escape(row.title)}</h2><div class="row">${panels.join('')}</div>`;
  });
  const clock = (ms: number) => new Date(ms).toISOString().slice(11, 19);
  return [
    '<!doctype html>',
    `<html lang="en"><head><meta charset="utf-8"><title>${escape(render.title)}</title><style>${STYLE}</style></head><body>`,
    `<h1>${escape(render.title)}</h1>`,
    `<div class="notes">${render.notes.map((note) => `<p>${escape(note)}</p>`).join('')}</div>`,
    render.marks.length > 0 ? `<ol class="marks">${render.marks.map((mark) => `<li>${clock(mark.atMs)} UTC: ${escape(mark.text)}</li>`).join('')}</ol>` : '',
    ...rows,
    '</body></html>',
  ].join('\n');
}
