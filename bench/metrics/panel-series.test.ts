import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { dashboardRows } from './dashboard-panels';
import { legendName, panelSeries } from './panel-series';
import { parsePrometheusText } from './prometheus-text';
import { SeriesStore } from './series-store';

const FIXTURE = parsePrometheusText(fs.readFileSync(new URL('fixtures/voxline-metrics.txt', import.meta.url), 'utf8'));

describe('legendName', () => {
  it('fills in labels as Grafana does, and falls back to the label set', () => {
    expect(legendName('p95 {{direction}}', { direction: 'outbound' })).toBe('p95 outbound');
    expect(legendName('{{kind}} {{ instance }}', { instance: 'a:1' })).toBe('a:1');
    expect(legendName('{{kind}}', { state: 'idle' })).toBe('{state="idle"}');
  });
});

describe('panelSeries', () => {
  it('draws a line in every panel from a scrape of every metric the dashboard reads', () => {
    // The fixture, then everything doubled a second later and again at 3 s: counters that moved and gauges.
    const store = new SeriesStore();
    for (const [index, factor] of [1, 2, 3].entries()) {
      store.addScrape('127.0.0.1:9464', (index + 1) * 1000, FIXTURE.map((sample) => ({ ...sample, value: sample.value * factor })));
    }
    const times = [2000, 3000];
    const empty = dashboardRows.flatMap((row) => row.panels).filter((panel) => panelSeries(panel, store, times, 2000).length === 0);
    expect(empty.map((panel) => panel.title)).toEqual([]);

    const callsUp = dashboardRows[0]!.panels[0]!;
    expect(panelSeries(callsUp, store, times, 2000)).toEqual([
      { name: 'inbound answered', values: [40, 60] },
      { name: 'outbound answered', values: [40, 60] },
      { name: 'outbound ringing', values: [2, 3] },
    ]);
  });
});
