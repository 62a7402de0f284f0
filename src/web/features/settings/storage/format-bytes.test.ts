import { describe, expect, it } from 'vitest';
import { formatBytes } from './format-bytes';

describe('formatBytes', () => {
  it.each([
    [0, '0 bytes'],
    [1, '1 byte'],
    [999, '999 bytes'],
    [1000, '1.0 kB'],
    [48_213, '48 kB'],
    [2_400_000, '2.4 MB'],
    [999_960, '1.0 MB'],
    [9_960, '10 kB'],
    [12_600_000, '13 MB'],
    [3_210_000_000, '3.2 GB'],
  ])('%d bytes read %s', (bytes, words) => {
    expect(formatBytes(bytes)).toBe(words);
  });
});
