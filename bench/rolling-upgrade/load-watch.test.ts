import { describe, expect, it } from 'vitest';
import { secondRanges } from './load-watch';

describe('secondRanges', () => {
  it('writes whole seconds as short ranges, in order', () => {
    expect(secondRanges([9, 3, 4, 5, 5])).toBe('+3–5 s, +9 s');
    expect(secondRanges([12])).toBe('+12 s');
    expect(secondRanges([])).toBe('');
  });
});
