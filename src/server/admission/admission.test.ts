import { describe, expect, it } from 'vitest';
import { tiers, type Tier } from '../../common/plans';
import { admitCall, admitsIncoming } from './admission';

/** The calls carried from which each plan's new calls are refused. */
function refusedFrom(maxCalls: number, admit: (tier: Tier, carried: number, maxCalls: number) => boolean): Record<Tier, number> {
  const first = (tier: Tier) => {
    let carried = 0;
    while (admit(tier, carried, maxCalls)) carried += 1;
    return carried;
  };
  return Object.fromEntries(tiers.map((tier) => [tier, first(tier)])) as Record<Tier, number>;
}

describe('admitCall', () => {
  it('refuses Free calls from 90 % of the capacity, Premium from 95 %, Platinum only at the cap', () => {
    expect(refusedFrom(20, admitCall)).toEqual({ free: 18, premium: 19, platinum: 20 });
    expect(refusedFrom(100, admitCall)).toEqual({ free: 90, premium: 95, platinum: 100 });
    expect(refusedFrom(1000, admitCall)).toEqual({ free: 900, premium: 950, platinum: 1000 });
  });

  it('on a capacity of 10, refuses Free at 9 while Premium and Platinum go on to the cap', () => {
    expect(refusedFrom(10, admitCall)).toEqual({ free: 9, premium: 10, platinum: 10 });
  });

  it('lets every plan use the only call of an instance sized for one', () => {
    expect(refusedFrom(1, admitCall)).toEqual({ free: 1, premium: 1, platinum: 1 });
  });

  it('refuses everyone past the cap', () => {
    for (const tier of tiers) expect(admitCall(tier, 1001, 1000)).toBe(false);
  });
});

describe('admitsIncoming', () => {
  it('lets a call ring by the callee’s plan, with the same shares', () => {
    expect(refusedFrom(20, admitsIncoming)).toEqual({ free: 18, premium: 19, platinum: 20 });
  });
});
