import { describe, expect, it } from 'vitest';
import { nationalPattern } from './service';

describe('nationalPattern', () => {
  it.each([
    ['US', '415', '415'],
    ['US', '1415', '415'],
    ['US', '+1415', '415'],
    ['GB', '020', '20'],
    ['GB', '+4420', '20'],
    ['GB', '7700', '7700'],
    ['IT', '06', '06'],
    ['MX', '55', '55'],
    ['US', '1', undefined],
    ['US', undefined, undefined],
  ] as const)('reads %s pattern %s as national digits %s', (country, pattern, expected) => {
    expect(nationalPattern(country, pattern)).toBe(expected);
  });
});
