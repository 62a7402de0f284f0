import { describe, expect, it } from 'vitest';
import { displayFactor, formatValue } from './units';

describe('formatValue', () => {
  it('writes each unit about as Grafana does', () => {
    expect(formatValue(0.000_42, 's')).toBe('420 µs');
    expect(formatValue(0.0123, 's')).toBe('12.3 ms');
    expect(formatValue(95, 's')).toBe('1.58 min');
    expect(formatValue(0.0215, 'percentunit')).toBe('2.15%');
    expect(formatValue(48_234_496, 'bytes')).toBe('46 MiB');
    expect(formatValue(2500, 'short')).toBe('2.5 K');
    expect(formatValue(12.25, 'reqps')).toBe('12.3 req/s');
    expect(formatValue(0.5, 'cpm')).toBe('0.5 cpm');
    expect(formatValue(0, 's')).toBe('0');
    expect(formatValue(0, 'percentunit')).toBe('0%');
  });
});

describe('displayFactor', () => {
  it('is what one displayed number is worth around a value', () => {
    expect(displayFactor(0.0123, 's')).toBe(0.001);
    expect(displayFactor(800, 's')).toBe(60);
    expect(displayFactor(0.5, 'percentunit')).toBe(0.01);
    expect(displayFactor(48_234_496, 'bytes')).toBe(1024 ** 2);
  });
});
