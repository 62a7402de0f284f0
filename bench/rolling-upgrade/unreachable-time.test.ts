import { describe, expect, it } from 'vitest';
import { UnreachableTime } from './unreachable-time';

describe('UnreachableTime', () => {
  it('sums the stretches a tab was neither listening nor on a call, and keeps the longest', () => {
    const time = new UnreachableTime();
    time.update(true, 0);
    time.update(false, 1_000);
    time.update(false, 1_200);
    time.update(true, 1_500);
    time.update(false, 4_000);
    time.update(true, 6_000);
    expect(time).toMatchObject({ totalMs: 2_500, longestMs: 2_000, spells: 2, unreachable: false });
  });

  it('says when a stretch is still open', () => {
    const time = new UnreachableTime();
    time.update(false, 10);
    expect(time.unreachable).toBe(true);
    expect(time.totalMs).toBe(0);
  });
});
