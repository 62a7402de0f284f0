import { describe, expect, it } from 'vitest';
import { medianRun, type RunScores, scoreTable, targetsMissed } from './run-scores';

function run(performance: number, { accessibility = 100, bestPractices = 100 } = {}): RunScores {
  return {
    scores: { performance, accessibility, 'best-practices': bestPractices, seo: 92 },
    metrics: { FCP: 1200.4, LCP: 2100.6, TBT: 150, CLS: 0.0123, SI: 1300 },
    shortfalls: [],
  };
}

describe('the Lighthouse bench figures', () => {
  it('takes the run with the median performance score, the lower middle of an even count', () => {
    expect(medianRun([run(90), run(97), run(93)]).scores.performance).toBe(93);
    expect(medianRun([run(90), run(97), run(93), run(95)]).scores.performance).toBe(93);
    expect(() => medianRun([])).toThrow('no Lighthouse runs');
  });

  it("names each of issue 22's targets a run misses, and none when all are met", () => {
    expect(targetsMissed(run(95))).toEqual([]);
    expect(targetsMissed(run(94, { accessibility: 98, bestPractices: 100 }))).toEqual(['performance 94 < 95', 'accessibility 98 < 100']);
  });

  it("writes one Markdown row per page from its median run, with every run's performance", () => {
    const table = scoreTable([{ path: '/dialer', signedIn: true, runs: [run(90), run(97), run(93)] }]);
    expect(table[2]).toBe('| /dialer (signed in) | 93 (90, 97, 93) | 100 | 100 | 92 | 1200 / 2101 / 150 | 0.012 |');
  });
});
