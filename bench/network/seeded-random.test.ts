import { describe, expect, it } from 'vitest';
import { derivedSeed, seededRandom } from './seeded-random';

function take(random: () => number, count: number) {
  return Array.from({ length: count }, random);
}

describe('seededRandom', () => {
  it('gives the same sequence for the same seed and another for another seed', () => {
    expect(take(seededRandom(42), 100)).toEqual(take(seededRandom(42), 100));
    expect(take(seededRandom(42), 100)).not.toEqual(take(seededRandom(43), 100));
  });

  it('stays in [0, 1) and spreads evenly over it', () => {
    const values = take(seededRandom(7), 100_000);
    expect(Math.min(...values)).toBeGreaterThanOrEqual(0);
    expect(Math.max(...values)).toBeLessThan(1);
    const tenths = new Array<number>(10).fill(0);
    for (const value of values) tenths[Math.floor(value * 10)]! += 1;
    for (const count of tenths) {
      expect(count).toBeGreaterThan(9_500);
      expect(count).toBeLessThan(10_500);
    }
  });

  it('derives distinct, repeatable streams from one seed', () => {
    expect(derivedSeed(1, 0)).toBe(derivedSeed(1, 0));
    expect(derivedSeed(1, 0)).not.toBe(derivedSeed(1, 1));
    expect(take(seededRandom(derivedSeed(1, 0)), 10)).not.toEqual(take(seededRandom(derivedSeed(1, 1)), 10));
  });
});
