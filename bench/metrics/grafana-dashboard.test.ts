import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { buildTestApp } from '../../tests/support/test-app';
import { dashboardJson } from './grafana-dashboard';

const COMMITTED = new URL('../../docs/grafana/voxline-dashboard.json', import.meta.url);

/** What a running server exposes at /metrics: every series name, and the metrics that are Voxline's own. */
async function serverMetrics() {
  const token = 'dashboard-test-token-0123456789abcdef';
  const server = await buildTestApp({ env: { METRICS_TOKEN: token } });
  try {
    const scraped = await server.app.inject({ method: 'GET', url: '/metrics', headers: { authorization: `Bearer ${token}` } });
    // Every metric is declared by its TYPE line, whether or not it has a sample yet.
    const declared = [...scraped.body.matchAll(/^# TYPE (\S+) (\S+)$/gm)].map(([, name = '', type = '']) => ({ name, type }));
    const series = new Set(declared.flatMap(({ name, type }) => (type === 'histogram' ? ['_bucket', '_sum', '_count'].map((suffix) => name + suffix) : [name])));
    // Node's own metrics are many; a dashboard shows the few that matter, but every one of Voxline's.
    const voxlines = declared.map(({ name }) => name).filter((name) => !/^voxline_(nodejs|process)_/.test(name));
    return { series, voxlines };
  } finally {
    await server.close();
  }
}

interface GrafanaPanel {
  type: string;
  title: string;
  gridPos: { h: number; w: number; x: number; y: number };
  datasource?: { uid: string };
  targets?: { expr: string; refId: string }[];
}

const dashboard = JSON.parse(dashboardJson()) as {
  panels: GrafanaPanel[];
  templating: { list: { name: string; type: string; definition?: string }[] };
};

describe('the Grafana dashboard', () => {
  it('is committed as generated from the panel list (npm run bench:dashboard -- --json-only writes it)', () => {
    expect(fs.readFileSync(COMMITTED, 'utf8')).toBe(dashboardJson());
  });

  it('queries only the metrics the server exposes, and each of Voxline’s own', async () => {
    const { series, voxlines } = await serverMetrics();
    const queries = [...dashboard.panels.flatMap((panel) => panel.targets ?? []).map((target) => target.expr), ...dashboard.templating.list.map((variable) => variable.definition ?? '')];
    const read = new Set(queries.flatMap((query) => [...query.matchAll(/\b(voxline_\w+)\b/g)].map((match) => match[1]!)));
    expect([...read].filter((name) => !series.has(name))).toEqual([]);
    const base = (name: string) => name.replace(/_(bucket|sum|count)$/, '');
    const covered = new Set([...read].flatMap((name) => [name, base(name)]));
    expect(voxlines.filter((name) => !covered.has(name))).toEqual([]);
  });

  it('reads Prometheus through the ${datasource} variable and filters by $instance', () => {
    expect(dashboard.templating.list.map(({ name, type }) => ({ name, type }))).toEqual([
      { name: 'datasource', type: 'datasource' },
      { name: 'instance', type: 'query' },
    ]);
    for (const panel of dashboard.panels.filter((each) => each.type !== 'row')) {
      expect(panel.datasource?.uid, panel.title).toBe('${datasource}');
      for (const target of panel.targets ?? []) {
        const selectors = [...target.expr.matchAll(/\bvoxline_\w+(\{[^}]*\})?/g)].map((match) => match[1] ?? '');
        expect(selectors.filter((selector) => !selector.includes('instance=~"$instance"')), target.expr).toEqual([]);
      }
    }
  });

  it('lays out its rows in order with panels that neither overlap nor leave the 24-column grid', () => {
    expect(dashboard.panels.filter((panel) => panel.type === 'row').map((panel) => panel.title)).toEqual(['Calls', 'Media and voice', 'Realtime', 'HTTP', 'Runtime', 'Data', 'Business']);
    const taken = new Set<string>();
    for (const { gridPos, title } of dashboard.panels) {
      expect(gridPos.x + gridPos.w, title).toBeLessThanOrEqual(24);
      for (let x = gridPos.x; x < gridPos.x + gridPos.w; x += 1) {
        for (let y = gridPos.y; y < gridPos.y + gridPos.h; y += 1) {
          expect(taken.has(`${x},${y}`), `${title} overlaps at ${x},${y}`).toBe(false);
          taken.add(`${x},${y}`);
        }
      }
    }
  });
});
