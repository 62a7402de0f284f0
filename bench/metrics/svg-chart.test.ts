import { describe, expect, it } from 'vitest';
import { lineChart } from './svg-chart';

const TIMES = [0, 1000, 2000, 3000, 4000].map((ms) => Date.UTC(2026, 10, 26, 12, 0, 0) + ms);
const chart = (input: Partial<Parameters<typeof lineChart>[0]>) => lineChart({ width: 400, height: 200, times: TIMES, series: [], unit: 's', marks: [], ...input });

describe('lineChart', () => {
  it('breaks a line where it has no value, and shows a lone value as a dot', () => {
    const svg = chart({ series: [{ name: 'p95', values: [0.01, 0.02, null, 0.015, null] }] });
    expect(svg.match(/<polyline /g)).toHaveLength(1);
    expect(svg.match(/<circle /g)).toHaveLength(1);
  });

  it('steps its axis in round numbers of the unit shown, with the threshold dashed and labelled', () => {
    const svg = chart({ series: [{ name: 'p99', values: [0.001, 0.002, 0.004, 0.003, 0.002] }], threshold: { value: 0.02, label: '20 ms budget' } });
    expect([...svg.matchAll(/class="axis" text-anchor="end">([^<]+)</g)].map((match) => match[1])).toEqual(['0', '10 ms', '20 ms', '30 ms']);
    expect(svg).toContain('class="threshold"');
    expect(svg).toContain('20 ms budget');
  });

  it('says No data without lines, and marks only the moments inside its time range', () => {
    const svg = chart({ marks: [{ atMs: TIMES[0]! - 1000, number: 1 }, { atMs: TIMES[2]!, number: 2 }] });
    expect(svg).toContain('No data');
    expect([...svg.matchAll(/class="mark-label">(\d+)</g)].map((match) => match[1])).toEqual(['2']);
  });
});
