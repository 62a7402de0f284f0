import { describe, expect, it } from 'vitest';
import { calibratedCpuSlowdown } from './cpu-slowdown';

describe('the CPU slowdown calibrated from the benchmark index', () => {
  it('passes through the points of Lighthouse’s calculator', () => {
    expect(calibratedCpuSlowdown(150)).toBe(1);
    expect(calibratedCpuSlowdown(800)).toBe(2);
    expect(calibratedCpuSlowdown(1300)).toBe(3);
    expect(calibratedCpuSlowdown(1533)).toBeCloseTo(4, 2);
    expect(calibratedCpuSlowdown(2000)).toBeCloseTo(6, 2);
  });

  it('is straight between them and never below 1x', () => {
    expect(calibratedCpuSlowdown(1050)).toBeCloseTo(2.5, 5);
    expect(calibratedCpuSlowdown(475)).toBeCloseTo(1.5, 5);
    expect(calibratedCpuSlowdown(100)).toBe(1);
  });

  it('refuses an index that is not a positive number', () => {
    expect(() => calibratedCpuSlowdown(Number.NaN)).toThrow(/positive number \(got NaN\)/);
    expect(() => calibratedCpuSlowdown(0)).toThrow(RangeError);
  });
});
