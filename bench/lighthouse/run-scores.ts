import type { Result } from 'lighthouse';

export const CATEGORIES = ['performance', 'accessibility', 'best-practices', 'seo'] as const;
type CategoryId = (typeof CATEGORIES)[number];

/** Issue 22's targets: the least score each category must reach (SEO has none). */
const TARGETS: Partial<Record<CategoryId, number>> = { performance: 95, accessibility: 100, 'best-practices': 100 };

const METRICS = {
  FCP: 'first-contentful-paint',
  LCP: 'largest-contentful-paint',
  TBT: 'total-blocking-time',
  CLS: 'cumulative-layout-shift',
  SI: 'speed-index',
} as const;
type MetricName = keyof typeof METRICS;

/** What the bench keeps of one Lighthouse run. */
export interface RunScores {
  /** 0–100, null when the category did not run. */
  scores: Record<CategoryId, number | null>;
  /** Lighthouse's simulated figures: ms, except CLS (unitless). */
  metrics: Record<MetricName, number | null>;
  /** The scored audits that lost points, as `category: audit id (display value)`. */
  shortfalls: string[];
}

export function scoresOf(result: Result): RunScores {
  const scores = Object.fromEntries(
    CATEGORIES.map((id) => {
      const score = result.categories[id]?.score;
      return [id, typeof score === 'number' ? Math.round(score * 100) : null];
    }),
  ) as Record<CategoryId, number | null>;
  const metrics = Object.fromEntries(Object.entries(METRICS).map(([name, id]) => [name, result.audits[id]?.numericValue ?? null])) as Record<MetricName, number | null>;
  const shortfalls: string[] = [];
  for (const id of CATEGORIES) {
    for (const ref of result.categories[id]?.auditRefs ?? []) {
      const audit = result.audits[ref.id];
      if (ref.weight === 0 || !audit || audit.score === null || audit.score >= 1) continue;
      shortfalls.push(`${id}: ${ref.id}${audit.displayValue ? ` (${audit.displayValue})` : ''}`);
    }
  }
  return { scores, metrics, shortfalls };
}

/** The run with the median performance score (Lighthouse's advice for noisy machines); runs must not be empty. */
export function medianRun(runs: readonly RunScores[]): RunScores {
  if (runs.length === 0) throw new Error('no Lighthouse runs to take the median of');
  const sorted = [...runs].sort((a, b) => (a.scores.performance ?? -1) - (b.scores.performance ?? -1));
  return sorted[Math.floor((sorted.length - 1) / 2)]!;
}

/** The targets a run misses, as `performance 91 < 95`. */
export function targetsMissed(run: RunScores): string[] {
  return Object.entries(TARGETS).flatMap(([id, least]) => {
    const score = run.scores[id as CategoryId];
    return score === null || score < least ? [`${id} ${score ?? 'not measured'} < ${least}`] : [];
  });
}

export interface PageRuns {
  path: string;
  signedIn: boolean;
  runs: RunScores[];
}

function ms(value: number | null) {
  return value === null ? '–' : `${Math.round(value)}`;
}

/** A Markdown table of each page's median run, ready for docs/benchmarks.md. */
export function scoreTable(pages: readonly PageRuns[]): string[] {
  const lines = [
    '| page | performance (each run) | accessibility | best practices | SEO | FCP / LCP / TBT (ms) | CLS |',
    '| --- | --- | --- | --- | --- | --- | --- |',
  ];
  for (const { path, signedIn, runs } of pages) {
    const median = medianRun(runs);
    const { scores, metrics } = median;
    const each = runs.map((run) => run.scores.performance ?? '–').join(', ');
    const cls = metrics.CLS === null ? '–' : metrics.CLS.toFixed(3);
    lines.push(
      `| ${path}${signedIn ? ' (signed in)' : ''} | ${scores.performance ?? '–'} (${each}) | ${scores.accessibility ?? '–'} | ${scores['best-practices'] ?? '–'} | ${scores.seo ?? '–'} | ${ms(metrics.FCP)} / ${ms(metrics.LCP)} / ${ms(metrics.TBT)} | ${cls} |`,
    );
  }
  return lines;
}
