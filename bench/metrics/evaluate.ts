import { histogramQuantile } from './histogram-quantile';
import type { Labels } from './prometheus-text';
import type { Query } from './query';
import { counterRate } from './rate';
import type { SeriesStore } from './series-store';

/** One element of an instant vector: a series' labels (no `__name__`) and its value. */
export interface Element {
  labels: Labels;
  value: number;
}

const signature = (labels: Labels) => JSON.stringify(Object.keys(labels).sort().map((label) => [label, labels[label]]));

function pick(labels: Labels, names: readonly string[]): Labels {
  const picked: Labels = {};
  for (const name of names) if (labels[name] !== undefined && labels[name] !== '') picked[name] = labels[name];
  return picked;
}

function groupBy(elements: Element[], labelsOf: (labels: Labels) => Labels): Map<string, { labels: Labels; elements: Element[] }> {
  const groups = new Map<string, { labels: Labels; elements: Element[] }>();
  for (const element of elements) {
    const labels = labelsOf(element.labels);
    const key = signature(labels);
    const group = groups.get(key) ?? { labels, elements: [] };
    group.elements.push(element);
    groups.set(key, group);
  }
  return groups;
}

/** `$1` or `${1}` in a label_replace replacement, as Go's regexp Expand reads them. */
function expand(replacement: string, match: RegExpExecArray): string {
  return replacement.replace(/\$(?:\{(\w+)\}|(\d+))/g, (_, braced: string | undefined, bare: string | undefined) => match[Number(braced ?? bare)] ?? '');
}

/**
 * The value of `query` at `atMs`, as Prometheus would give it, with rates over the `windowMs`
 * before it. Every instance counts (the dashboard's instance filter at All).
 */
export function evaluate(query: Query, store: SeriesStore, atMs: number, windowMs: number): Element[] {
  const inner = (of: Query) => evaluate(of, store, atMs, windowMs);
  switch (query.kind) {
    case 'selector':
      return store.instant(query.metric, query.matchers, atMs);
    case 'rate':
      return store
        .range(query.metric, query.matchers, atMs - windowMs, atMs)
        .map(({ labels, points }) => ({ labels, value: counterRate(points, atMs - windowMs, atMs) }))
        .filter((element) => !Number.isNaN(element.value));
    case 'aggregate': {
      const combine = query.op === 'sum' ? (values: number[]) => values.reduce((a, b) => a + b, 0) : (values: number[]) => Math.max(...values);
      const groups = groupBy(inner(query.of), (labels) => pick(labels, query.by));
      return [...groups.values()].map(({ labels, elements }) => ({ labels, value: combine(elements.map((element) => element.value)) }));
    }
    case 'quantile': {
      const withBounds = inner(query.of).filter((element) => element.labels.le !== undefined);
      const groups = groupBy(withBounds, ({ le: _le, ...rest }) => rest);
      return [...groups.values()].map(({ labels, elements }) => ({
        labels,
        value: histogramQuantile(
          query.q,
          elements.map((element) => ({ upperBound: element.labels.le === '+Inf' ? Infinity : Number(element.labels.le), count: element.value })),
        ),
      }));
    }
    case 'topk': {
      // NaN sorts last, as Prometheus ranks it.
      const rank = (value: number) => (Number.isNaN(value) ? -Infinity : value);
      return inner(query.of)
        .sort((a, b) => rank(b.value) - rank(a.value))
        .slice(0, query.k);
    }
    case 'label-replace': {
      const regex = new RegExp(`^(?:${query.regex})$`);
      return inner(query.of).map((element) => {
        const match = regex.exec(element.labels[query.source] ?? '');
        if (!match) return element;
        const labels = { ...element.labels, [query.destination]: expand(query.replacement, match) };
        if (labels[query.destination] === '') delete labels[query.destination];
        return { labels, value: element.value };
      });
    }
    case 'divide': {
      const right = new Map(inner(query.right).map((element) => [signature(element.labels), element.value]));
      return inner(query.left).flatMap((element) => {
        const divisor = right.get(signature(element.labels));
        return divisor === undefined ? [] : [{ labels: element.labels, value: element.value / divisor }];
      });
    }
    case 'scale':
      return inner(query.of).map((element) => ({ labels: element.labels, value: element.value * query.factor }));
  }
}
