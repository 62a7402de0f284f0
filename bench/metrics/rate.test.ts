import { describe, expect, it } from 'vitest';
import { counterRate, type Point } from './rate';

/** A counter scraped every second from `fromS` (s), its values `values`. */
const scraped = (fromS: number, values: number[]): Point[] => values.map((v, i) => ({ t: (fromS + i) * 1000, v }));

describe('counterRate', () => {
  it('is the increase per second of a counter scraped across the whole window', () => {
    // Points at 1..10 s in the window (0, 10 s]: 9 s sampled, extrapolated by 1 s to the start.
    expect(counterRate(scraped(1, [110, 120, 130, 140, 150, 160, 170, 180, 190, 200]), 0, 10_000)).toBeCloseTo(10, 10);
  });

  it('adds a reset back: the counter went on from zero', () => {
    // +10, +10, then a restart to 5 (counted as 5 more), then +10: 35 over 4 s, extrapolated to 5 s of a 5 s window.
    expect(counterRate(scraped(1, [100, 110, 120, 5, 15]), 0, 5000)).toBeCloseTo((35 * 5) / 4 / 5, 10);
  });

  it('extrapolates only half a scrape interval past points that stop short of the window edges', () => {
    // A series that started at 6 s in a window (0, 10 s]: 2 s sampled, +0.5 s on each side.
    expect(counterRate(scraped(6, [1000, 1020, 1040]), 0, 10_000)).toBeCloseTo((40 * 3) / 2 / 10, 10);
  });

  it('does not extrapolate back past the time the counter was zero', () => {
    // +4 over 2 s from 0.5 at 1 s: zero was 0.25 s before it, nearer than the window's start at 0 s.
    expect(counterRate(scraped(1, [0.5, 2.5, 4.5]), 0, 3000)).toBeCloseTo((4 * 2.25) / 2 / 3, 10);
  });

  it('has no value with fewer than two points', () => {
    expect(counterRate(scraped(1, [5]), 0, 5000)).toBeNaN();
    expect(counterRate([], 0, 5000)).toBeNaN();
  });
});
