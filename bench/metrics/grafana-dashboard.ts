import { dashboardRows, type Panel } from './dashboard-panels';
import { toPromQL } from './query';

/** Grafana's grid is 24 columns wide; a panel is 8 rows of 30 px high. */
const GRID_COLUMNS = 24;
const PANEL_HEIGHT = 8;
/** Grafana 10's dashboard schema; newer versions migrate it on import. */
const SCHEMA_VERSION = 39;
const REFERENCE_IDS = 'ABCDEFGHIJ';

const DATASOURCE = { type: 'prometheus', uid: '${datasource}' };

/** The width of each of a row's `count` panels: they share the row evenly. */
export function panelWidth(count: number): number {
  if (GRID_COLUMNS % count !== 0) throw new Error(`a row of ${count} panels does not divide Grafana's ${GRID_COLUMNS} columns`);
  return GRID_COLUMNS / count;
}

function timeseries(panel: Panel, id: number, gridPos: { h: number; w: number; x: number; y: number }) {
  const { threshold } = panel;
  return {
    type: 'timeseries',
    id,
    title: panel.title,
    description: panel.description,
    datasource: DATASOURCE,
    gridPos,
    fieldConfig: {
      defaults: {
        unit: panel.unit,
        min: 0,
        color: { mode: 'palette-classic' },
        custom: {
          drawStyle: 'line',
          lineWidth: 1,
          fillOpacity: 10,
          showPoints: 'never',
          spanNulls: false,
          thresholdsStyle: { mode: threshold ? 'dashed' : 'off' },
        },
        thresholds: {
          mode: 'absolute',
          steps: [{ color: 'green', value: null }, ...(threshold ? [{ color: 'red', value: threshold.value }] : [])],
        },
      },
      overrides: [],
    },
    options: {
      legend: { displayMode: 'list', placement: 'bottom', showLegend: true },
      tooltip: { mode: 'multi', sort: 'desc' },
    },
    targets: panel.targets.map((target, index) => ({
      datasource: DATASOURCE,
      editorMode: 'code',
      expr: toPromQL(target.query),
      legendFormat: target.legend,
      range: true,
      refId: REFERENCE_IDS[index],
    })),
  };
}

/** The Grafana dashboard of docs/grafana/voxline-dashboard.json, built from the panel list. */
function grafanaDashboard() {
  const panels: object[] = [];
  let id = 1;
  let y = 0;
  for (const row of dashboardRows) {
    panels.push({ type: 'row', id: id++, title: row.title, collapsed: false, gridPos: { h: 1, w: GRID_COLUMNS, x: 0, y }, panels: [] });
    y += 1;
    const w = panelWidth(row.panels.length);
    for (const [index, panel] of row.panels.entries()) panels.push(timeseries(panel, id++, { h: PANEL_HEIGHT, w, x: index * w, y }));
    y += PANEL_HEIGHT;
  }
  return {
    id: null,
    uid: 'voxline-overview',
    title: 'Voxline',
    description: 'Calls, media, realtime, HTTP, runtime, data and business metrics of Voxline instances (docs/operations.md).',
    tags: ['voxline'],
    editable: true,
    graphTooltip: 1,
    fiscalYearStartMonth: 0,
    liveNow: false,
    refresh: '30s',
    schemaVersion: SCHEMA_VERSION,
    time: { from: 'now-1h', to: 'now' },
    timepicker: {},
    timezone: '',
    version: 1,
    links: [],
    annotations: {
      list: [
        {
          builtIn: 1,
          datasource: { type: 'grafana', uid: '-- Grafana --' },
          enable: true,
          hide: true,
          iconColor: 'rgba(0, 211, 255, 1)',
          name: 'Annotations & Alerts',
          type: 'dashboard',
        },
      ],
    },
    templating: {
      list: [
        { name: 'datasource', label: 'Data source', type: 'datasource', query: 'prometheus', current: {}, hide: 0, refresh: 1, regex: '', options: [] },
        {
          name: 'instance',
          label: 'Instance',
          type: 'query',
          datasource: DATASOURCE,
          query: { query: 'label_values(voxline_process_cpu_seconds_total, instance)', refId: 'instances' },
          definition: 'label_values(voxline_process_cpu_seconds_total, instance)',
          current: {},
          hide: 0,
          includeAll: true,
          allValue: '.+',
          multi: true,
          refresh: 2,
          regex: '',
          sort: 1,
          options: [],
        },
      ],
    },
    panels,
  };
}

/** The dashboard file's text: two-space JSON and a final newline, as committed. */
export function dashboardJson(): string {
  return `${JSON.stringify(grafanaDashboard(), null, 2)}\n`;
}
