import { describe, expect, it } from 'vitest';
import { formatNgn, formatUsd, moreNumbersAdvice, numbersInWords, planPrice, plans, planWithMoreNumbers, tierName, usdMinorToNgnMinor } from './plans';
import { voiceTypes } from './voice';

describe('plans', () => {
  it('price Premium at $100 and Platinum at $150 a month, in naira at 1720 to the dollar (docs/product.md §9)', () => {
    expect(planPrice('premium')).toEqual({ usdMinor: 10_000, ngnMinor: 17_200_000 });
    expect(planPrice('platinum')).toEqual({ usdMinor: 15_000, ngnMinor: 25_800_000 });
    // amountNGN is the rounded product, in whole naira.
    expect(usdMinorToNgnMinor(99)).toBe(170_300);
  });

  it('give Free 10 minutes and the normal voice, Premium 150 and the 5 basic accents, Platinum everything (docs/architecture.md#plans-and-metering)', () => {
    expect(plans.free).toMatchObject({ monthlyMinutes: 10, voiceTypes: ['normal'], pitchAndSpeed: false });
    expect(plans.premium).toMatchObject({ monthlyMinutes: 150, voiceTypes: ['normal', 'caucasian', 'european', 'hispanic', 'african'], pitchAndSpeed: true });
    expect(plans.platinum).toMatchObject({ monthlyMinutes: null, voiceTypes, pitchAndSpeed: true });
  });

  it('let Free hold 1 phone number, Premium 3 and Platinum 10, and say which plan allows more', () => {
    expect([plans.free.maxNumbers, plans.premium.maxNumbers, plans.platinum.maxNumbers]).toEqual([1, 3, 10]);
    expect([planWithMoreNumbers('free'), planWithMoreNumbers('premium'), planWithMoreNumbers('platinum')]).toEqual(['premium', 'platinum', null]);
    expect(moreNumbersAdvice('free')).toBe('Upgrade to Premium for up to 3.');
    expect(moreNumbersAdvice('premium')).toBe('Upgrade to Platinum for up to 10.');
    expect(moreNumbersAdvice('platinum')).toBe('Release a number to add another.');
    expect([numbersInWords(1), numbersInWords(3)]).toEqual(['1 number', '3 numbers']);
  });

  it('state on their cards the days the retention job keeps each plan’s files and history (src/server/retention)', () => {
    expect(plans.free.retentionDays).toEqual({ recordings: 0, voicemail: 30, history: 90 });
    expect(plans.premium.retentionDays).toEqual({ recordings: 90, voicemail: 90, history: 90 });
    expect(plans.platinum.retentionDays).toEqual({ recordings: 365, voicemail: 365, history: 365 });
    expect(plans.premium.features).toEqual(expect.arrayContaining(['Call recording, kept 90 days', 'Voicemail kept 90 days']));
    expect(plans.platinum.features).toEqual(expect.arrayContaining(['Recordings, voicemail and call history kept for a year']));
  });

  it('show amounts with two decimals and their sign, and names capitalised', () => {
    expect(formatUsd(10_000)).toBe('$100.00');
    expect(formatNgn(17_200_000)).toBe('₦172,000.00');
    expect(formatNgn(5)).toBe('₦0.05');
    expect(tierName('platinum')).toBe('Platinum');
  });
});
