import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parsePrometheusText } from './prometheus-text';

const FIXTURE = fs.readFileSync(new URL('fixtures/voxline-metrics.txt', import.meta.url), 'utf8');

describe('parsePrometheusText', () => {
  it('reads what prom-client serves: gauges, counters and histogram series, comments skipped', () => {
    const samples = parsePrometheusText(FIXTURE);
    expect(samples).toContainEqual({ name: 'voxline_calls_active', labels: { direction: 'outbound', state: 'ringing' }, value: 1 });
    expect(samples).toContainEqual({ name: 'voxline_process_cpu_seconds_total', labels: {}, value: 12.5 });
    expect(samples).toContainEqual({ name: 'voxline_call_setup_seconds_bucket', labels: { le: '+Inf', direction: 'outbound' }, value: 6 });
    expect(samples).toContainEqual({ name: 'voxline_call_setup_seconds_sum', labels: { direction: 'outbound' }, value: 2.88 });
    expect(samples.some((sample) => sample.name.startsWith('#'))).toBe(false);
  });

  it('unescapes label values and reads special values, exponents and timestamps', () => {
    const text = [
      'm{path="C:\\\\dir",quote="say \\"hi\\"",lines="a\\nb",} 1e-3 1700000000000',
      'up +Inf',
      'down -Inf',
      'gone NaN',
      'spaced{ a="1" }   2',
    ].join('\n');
    expect(parsePrometheusText(text)).toEqual([
      { name: 'm', labels: { path: 'C:\\dir', quote: 'say "hi"', lines: 'a\nb' }, value: 0.001 },
      { name: 'up', labels: {}, value: Infinity },
      { name: 'down', labels: {}, value: -Infinity },
      { name: 'gone', labels: {}, value: Number.NaN },
      { name: 'spaced', labels: { a: '1' }, value: 2 },
    ]);
  });

  it('names the line and what is wrong with it', () => {
    expect(() => parsePrometheusText('ok 1\nbad{a="1"} many')).toThrow('line 2 of the metrics is not a sample ("many" is not a number): bad{a="1"} many');
    expect(() => parsePrometheusText('m{a="1} 2')).toThrow("label a's value is not closed");
    expect(() => parsePrometheusText('m{a="\\t"} 2')).toThrow("label a's value has an unknown escape \\t");
    expect(() => parsePrometheusText('m{a="1" b="2"} 2')).toThrow('a comma or } was expected after label a');
    expect(() => parsePrometheusText('m{a="1",a="2"} 2')).toThrow('label a is repeated');
    expect(() => parsePrometheusText('m 1 2 3')).toThrow('a value and an optional timestamp were expected');
    expect(() => parsePrometheusText('{a="1"} 2')).toThrow('a metric name was expected');
  });
});
