import { describe, expect, it } from 'vitest';
import type { ListenerFigures } from './audio-analysis';
import { callFigures } from './call-figures';

function listener(delays: number[], change: Partial<ListenerFigures> = {}): ListenerFigures {
  return {
    delays: delays.map((delayMs, i) => ({ atMs: i * 250, delayMs, score: 0.9 })),
    unmatchedAtMs: [],
    delayP50Ms: null,
    delayP95Ms: null,
    gaps: [],
    longestGapMs: 0,
    heardShare: 1,
    correlation: 0.95,
    ...change,
  };
}

describe('callFigures', () => {
  it('pools the listeners’ delays less the delay the call adds on purpose', () => {
    const figures = callFigures([listener([400, 410, 420]), listener([500, 510, 520, 530])], 300);
    expect(figures.delayP50Ms).toBe(200);
    expect(figures.delayP95Ms).toBe(230);
  });

  it('takes the longest gap and the worst correlation of any listener, and counts the long gaps of all', () => {
    const figures = callFigures(
      [
        listener([100], { longestGapMs: 250, gaps: [{ startMs: 0, endMs: 250 }, { startMs: 900, endMs: 1_000 }], heardShare: 0.9, correlation: 0.8 }),
        listener([100], { longestGapMs: 300, gaps: [{ startMs: 0, endMs: 300 }], heardShare: 0.7 }),
      ],
      0,
    );
    expect(figures).toMatchObject({ longestGapMs: 300, gapsOver200Ms: 2, correlation: 0.8 });
    expect(figures.heardShare).toBeCloseTo(0.8);
  });

  it('has no delay or correlation when a listener heard nothing recognisable', () => {
    const figures = callFigures([listener([]), listener([], { correlation: null })], 0);
    expect(figures).toMatchObject({ delayP50Ms: null, delayP95Ms: null, correlation: null });
  });
});
