import { describe, expect, it } from 'vitest';
import { evaluate } from './evaluate';
import { parsePrometheusText } from './prometheus-text';
import { divide, gauge, histogramQuantile, labelReplace, max, rate, scale, sum, topk } from './query';
import { SeriesStore } from './series-store';

const WINDOW_MS = 4000;

/** Scrapes of two instances at 1 s intervals; each scrape's text is made from its second. */
function storeOf(textAt: (second: number, instance: 'a' | 'b') => string | null, seconds: number): SeriesStore {
  const store = new SeriesStore();
  for (let second = 1; second <= seconds; second += 1) {
    for (const instance of ['a', 'b'] as const) {
      const text = textAt(second, instance);
      store.addScrape(instance, second * 1000, text === null ? null : parsePrometheusText(text));
    }
  }
  return store;
}

const values = (elements: { labels: Record<string, string>; value: number }[]) =>
  Object.fromEntries(elements.map(({ labels, value }) => [JSON.stringify(labels), Number(value.toFixed(6))]));

describe('evaluate', () => {
  it('gives a gauge per instance, summed or maxed by the labels asked for', () => {
    const store = storeOf((second, instance) => `tabs{kind="realtime"} ${instance === 'a' ? 10 : 30}\ntabs{kind="media"} ${second}`, 3);
    expect(values(evaluate(gauge('tabs', { kind: 'realtime' }), store, 3000, WINDOW_MS))).toEqual({
      '{"kind":"realtime","instance":"a"}': 10,
      '{"kind":"realtime","instance":"b"}': 30,
    });
    expect(values(evaluate(sum(['kind'], gauge('tabs')), store, 3000, WINDOW_MS))).toEqual({ '{"kind":"realtime"}': 40, '{"kind":"media"}': 6 });
    expect(values(evaluate(max([], gauge('tabs')), store, 3000, WINDOW_MS))).toEqual({ '{}': 30 });
  });

  it('ends a series where its instance stops answering or drops it, instead of keeping its last value', () => {
    const store = storeOf((second, instance) => (instance === 'b' && second >= 3 ? null : second >= 4 ? 'other 1' : 'tabs 5'), 4);
    expect(values(evaluate(sum(['instance'], gauge('tabs')), store, 2000, WINDOW_MS))).toEqual({ '{"instance":"a"}': 5, '{"instance":"b"}': 5 });
    expect(values(evaluate(sum(['instance'], gauge('tabs')), store, 3000, WINDOW_MS))).toEqual({ '{"instance":"a"}': 5 });
    expect(evaluate(gauge('tabs'), store, 4000, WINDOW_MS)).toEqual([]);
  });

  it('rates counters over the window, per series, and scales them', () => {
    // Instance a counts 10 a second, b 2 a second; the window (4 s, 8 s] holds 4 points of each.
    const store = storeOf((second, instance) => `frames_total{direction="in"} ${second * (instance === 'a' ? 10 : 2)}`, 8);
    expect(values(evaluate(sum([], rate('frames_total')), store, 8000, WINDOW_MS))).toEqual({ '{}': 12 });
    expect(values(evaluate(scale(sum(['instance'], rate('frames_total')), 60), store, 8000, WINDOW_MS))).toEqual({ '{"instance":"a"}': 600, '{"instance":"b"}': 120 });
    expect(evaluate(rate('frames_total'), store, 1000, WINDOW_MS)).toEqual([]);
  });

  it('takes quantiles of histograms from the rates of their buckets, summed over instances', () => {
    // Each second, each instance observes one value in (0.1, 0.5] and one in (0.5, 1].
    const histogram = (second: number) => [`t_bucket{le="0.1",route="/x"} 0`, `t_bucket{le="0.5",route="/x"} ${second}`, `t_bucket{le="1",route="/x"} ${2 * second}`, `t_bucket{le="+Inf",route="/x"} ${2 * second}`].join('\n');
    const store = storeOf(histogram, 6);
    expect(values(evaluate(histogramQuantile(0.5, 't', ['route']), store, 6000, WINDOW_MS))).toEqual({ '{"route":"/x"}': 0.5 });
    expect(values(evaluate(histogramQuantile(0.75, 't'), store, 6000, WINDOW_MS))).toEqual({ '{}': 0.75 });
  });

  it('replaces labels, divides matching series and keeps the top k', () => {
    const store = storeOf(
      (second) =>
        [
          `requests_total{status="200"} ${second * 8}`,
          `requests_total{status="204"} ${second * 2}`,
          `requests_total{status="503"} ${second}`,
          `lost_total{transport="opus"} ${second}`,
          `frames_total{transport="opus",direction="in"} ${second * 50}`,
          `frames_total{transport="opus",direction="out"} ${second * 50}`,
          `frames_total{transport="pcm",direction="in"} ${second * 50}`,
        ].join('\n'),
      6,
    );
    const byClass = sum(['class'], labelReplace(rate('requests_total'), 'class', '${1}xx', 'status', '(.).*'));
    expect(values(evaluate(byClass, store, 6000, WINDOW_MS))).toEqual({ '{"class":"2xx"}': 20, '{"class":"5xx"}': 2 });
    const share = divide(sum(['transport'], rate('lost_total')), sum(['transport'], rate('frames_total', { direction: 'in' })));
    expect(values(evaluate(share, store, 6000, WINDOW_MS))).toEqual({ '{"transport":"opus"}': 0.02 });
    expect(values(evaluate(topk(1, sum(['status'], rate('requests_total'))), store, 6000, WINDOW_MS))).toEqual({ '{"status":"200"}': 16 });
  });
});
