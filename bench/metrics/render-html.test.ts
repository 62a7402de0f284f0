import { describe, expect, it } from 'vitest';
import { dashboardJson } from './grafana-dashboard';
import { dashboardRows } from './dashboard-panels';
import { renderDashboardHtml } from './render-html';

describe('renderDashboardHtml', () => {
  it('places each panel as wide as Grafana does, in the same order, with its title', () => {
    const html = renderDashboardHtml({
      title: 'Voxline <render>',
      notes: ['a & b'],
      times: [1000, 2000],
      marks: [{ atMs: 1500, text: 'tabs listening' }],
      rows: dashboardRows,
      series: dashboardRows.map((row) => row.panels.map(() => [{ name: 'line', values: [1, 2] }])),
    });
    const rendered = [...html.matchAll(/grid-column: span (\d+)" title="[^"]*"><h3>([^<]+)<\/h3>/g)].map((match) => ({ w: Number(match[1]), title: match[2] }));
    const grafana = (JSON.parse(dashboardJson()) as { panels: { type: string; title: string; gridPos: { w: number } }[] }).panels
      .filter((panel) => panel.type !== 'row')
      .map((panel) => ({ w: panel.gridPos.w, title: panel.title }));
    expect(rendered).toEqual(grafana);
    expect(html).toContain('<h1>Voxline &lt;render&gt;</h1>');
    expect(html).toContain('<p>a &amp; b</p>');
    expect(html).toContain('00:00:01 UTC: tabs listening');
  });
});
