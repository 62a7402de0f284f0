import { describe, expect, it } from 'vitest';
import { HEARD_LEVEL, meterLevel, rmsOf } from './microphone-level';

describe('microphone level', () => {
  it('is the RMS of the samples', () => {
    expect(rmsOf(new Float32Array([0.5, -0.5, 0.5, -0.5]))).toBeCloseTo(0.5);
    expect(rmsOf(new Float32Array(0))).toBe(0);
  });

  it('maps -60…0 dBFS onto 0…100', () => {
    expect(meterLevel(0)).toBe(0);
    expect(meterLevel(0.0001)).toBe(0);
    expect(meterLevel(0.001)).toBe(0);
    expect(meterLevel(0.01)).toBe(33);
    expect(meterLevel(1)).toBe(100);
    expect(meterLevel(2)).toBe(100);
  });

  it('counts a speaking voice (around -30 dBFS) as heard, and room hiss (-65 dBFS) as not', () => {
    expect(meterLevel(10 ** (-30 / 20))).toBeGreaterThanOrEqual(HEARD_LEVEL);
    expect(meterLevel(10 ** (-65 / 20))).toBeLessThan(HEARD_LEVEL);
  });
});
