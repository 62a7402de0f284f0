import { describe, expect, it } from 'vitest';
import { ArrivalGaps } from './arrival-gaps';

describe('ArrivalGaps', () => {
  it('is the longest time between two arrivals, the first counted from the first frame sent', () => {
    const gaps = new ArrivalGaps(1_000);
    for (const at of [1_030, 1_050, 1_070, 1_400, 1_420]) gaps.arrived(at);
    gaps.sendingEnded(1_410);
    expect(gaps).toMatchObject({ longestMs: 330, longestEndedAt: 1_400 });
  });

  it('counts frames that stopped coming before the sending did', () => {
    const gaps = new ArrivalGaps(0);
    gaps.arrived(20);
    gaps.arrived(40);
    gaps.sendingEnded(2_000);
    expect(gaps).toMatchObject({ longestMs: 1_960, longestEndedAt: 2_000 });
  });

  it('is the whole call when no frame arrived', () => {
    const gaps = new ArrivalGaps(500);
    gaps.sendingEnded(3_500);
    expect(gaps).toMatchObject({ longestMs: 3_000, longestEndedAt: 3_500 });
  });
});
