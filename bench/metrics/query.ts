import type { Labels } from './prometheus-text';

/**
 * The few PromQL shapes the dashboard uses, as data: written out as PromQL for Grafana
 * (`toPromQL`) and evaluated on scraped samples for the static render (evaluate.ts), so that the
 * two cannot say different things.
 */
export type Query =
  /** `metric{…}`: a gauge's latest values. */
  | { kind: 'selector'; metric: string; matchers: Labels }
  /** `rate(metric{…}[window])`: a counter's increase per second. */
  | { kind: 'rate'; metric: string; matchers: Labels }
  | { kind: 'aggregate'; op: 'sum' | 'max'; by: string[]; of: Query }
  | { kind: 'quantile'; q: number; of: Query }
  | { kind: 'topk'; k: number; of: Query }
  /** `label_replace(of, destination, replacement, source, regex)`. */
  | { kind: 'label-replace'; of: Query; destination: string; replacement: string; source: string; regex: string }
  | { kind: 'divide'; left: Query; right: Query }
  | { kind: 'scale'; of: Query; factor: number };

export const gauge = (metric: string, matchers: Labels = {}): Query => ({ kind: 'selector', metric, matchers });
export const rate = (metric: string, matchers: Labels = {}): Query => ({ kind: 'rate', metric, matchers });
export const sum = (by: string[], of: Query): Query => ({ kind: 'aggregate', op: 'sum', by, of });
export const max = (by: string[], of: Query): Query => ({ kind: 'aggregate', op: 'max', by, of });
export const topk = (k: number, of: Query): Query => ({ kind: 'topk', k, of });
export const divide = (left: Query, right: Query): Query => ({ kind: 'divide', left, right });
export const scale = (of: Query, factor: number): Query => ({ kind: 'scale', of, factor });
export const labelReplace = (of: Query, destination: string, replacement: string, source: string, regex: string): Query => ({
  kind: 'label-replace',
  of,
  destination,
  replacement,
  source,
  regex,
});

/** `histogram_quantile(q, sum by (le, …by) (rate(histogram_bucket{…}[window])))`: a quantile of a histogram's recent observations. */
export const histogramQuantile = (q: number, histogram: string, by: string[] = [], matchers: Labels = {}): Query => ({
  kind: 'quantile',
  q,
  of: sum(['le', ...by], rate(`${histogram}_bucket`, matchers)),
});

/** How the PromQL reads in Grafana: the rate window and the instance filter are its variables. */
const RATE_WINDOW = '$__rate_interval';
const INSTANCE_FILTER = 'instance=~"$instance"';

const quoted = (text: string) => JSON.stringify(text);

function selectorText(metric: string, matchers: Labels): string {
  const parts = [...Object.entries(matchers).map(([label, value]) => `${label}=${quoted(value)}`), INSTANCE_FILTER];
  return `${metric}{${parts.join(', ')}}`;
}

/** The query as Grafana sends it to Prometheus. */
export function toPromQL(query: Query): string {
  switch (query.kind) {
    case 'selector':
      return selectorText(query.metric, query.matchers);
    case 'rate':
      return `rate(${selectorText(query.metric, query.matchers)}[${RATE_WINDOW}])`;
    case 'aggregate':
      return `${query.op}${query.by.length > 0 ? ` by (${query.by.join(', ')}) ` : ''}(${toPromQL(query.of)})`;
    case 'quantile':
      return `histogram_quantile(${query.q}, ${toPromQL(query.of)})`;
    case 'topk':
      return `topk(${query.k}, ${toPromQL(query.of)})`;
    case 'label-replace':
      return `label_replace(${toPromQL(query.of)}, ${[query.destination, query.replacement, query.source, query.regex].map(quoted).join(', ')})`;
    case 'divide':
      return `${toPromQL(query.left)} / ${toPromQL(query.right)}`;
    case 'scale':
      return `${toPromQL(query.of)} * ${query.factor}`;
  }
}
