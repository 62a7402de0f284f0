import { parsePhoneNumberFromString } from 'libphonenumber-js';
import { describe, expect, it } from 'vitest';
import { countries } from '../../../../common/countries';
import { isReservedNumber } from '../../../../common/phone';
import { TelephonyError } from '../telephony-provider';
import { createLocalCarrier } from './local-carrier';

describe('the virtual carrier (TELEPHONY=local)', () => {
  it.each(countries.map((country) => [country.name, country.code] as const))('offers 10 distinct numbers valid for %s', async (_name, code) => {
    const carrier = createLocalCarrier({ seed: 'countries' });
    const offers = await carrier.searchNumbers({ country: code, limit: 10 });
    expect(offers).toHaveLength(10);
    expect(new Set(offers.map((offer) => offer.phoneNumber)).size).toBe(10);
    for (const offer of offers) {
      const parsed = parsePhoneNumberFromString(offer.phoneNumber);
      expect(parsed?.number, offer.phoneNumber).toBe(offer.phoneNumber);
      expect(parsed?.isValid(), offer.phoneNumber).toBe(true);
      expect(parsed?.country, offer.phoneNumber).toBe(code);
      expect(isReservedNumber(offer.phoneNumber)).toBe(false);
      expect(offer.country).toBe(code);
      expect(offer.monthlyCost.amountMinor).toBeGreaterThan(0);
      expect(offer.monthlyCost.currency).toBe('USD');
    }
  });

  it('finds US numbers starting with 415 for the pattern 415', async () => {
    const offers = await createLocalCarrier({ seed: 'area-code' }).searchNumbers({ country: 'US', startsWith: '415', limit: 10 });
    expect(offers).toHaveLength(10);
    for (const offer of offers) expect(offer.phoneNumber).toMatch(/^\+1415\d{7}$/);
  });

  it('follows longer patterns and other countries', async () => {
    const london = await createLocalCarrier({ seed: 'london' }).searchNumbers({ country: 'GB', startsWith: '20', limit: 5 });
    expect(london).toHaveLength(5);
    for (const offer of london) expect(offer.phoneNumber).toMatch(/^\+4420\d{8}$/);
    const lagos = await createLocalCarrier({ seed: 'lagos' }).searchNumbers({ country: 'NG', startsWith: '803', limit: 5 });
    for (const offer of lagos) expect(offer.phoneNumber).toMatch(/^\+234803/);
  });

  it('never offers the fictional 555-01xx numbers, even when asked for them', async () => {
    const offers = await createLocalCarrier({ seed: 'fiction' }).searchNumbers({ country: 'US', startsWith: '41555501', limit: 10 });
    expect(offers).toEqual([]);
  });

  it('gives up quickly on a pattern no valid number starts with', async () => {
    const started = Date.now();
    expect(await createLocalCarrier({ seed: 'none' }).searchNumbers({ country: 'US', startsWith: '0', limit: 10 })).toEqual([]);
    expect(Date.now() - started).toBeLessThan(3_000);
  });

  it('gives the same list for the same seed, and another for another seed', async () => {
    const search = { country: 'US', startsWith: '415', limit: 10 } as const;
    const first = await createLocalCarrier({ seed: 'a' }).searchNumbers(search);
    expect(await createLocalCarrier({ seed: 'a' }).searchNumbers(search)).toEqual(first);
    const other = await createLocalCarrier({ seed: 'b' }).searchNumbers(search);
    expect(other.map((offer) => offer.phoneNumber)).not.toEqual(first.map((offer) => offer.phoneNumber));
  });

  it('never offers a number already rented, and still offers a full list', async () => {
    const search = { country: 'GB', limit: 10 } as const;
    const before = await createLocalCarrier({ seed: 'rented' }).searchNumbers(search);
    const rented = new Set(before.slice(0, 4).map((offer) => offer.phoneNumber));
    const carrier = createLocalCarrier({ seed: 'rented', findRented: async (numbers) => new Set(numbers.filter((number) => rented.has(number))) });
    const after = await carrier.searchNumbers(search);
    expect(after).toHaveLength(10);
    for (const offer of after) expect(rented.has(offer.phoneNumber)).toBe(false);
    expect(after.slice(0, 6)).toEqual(before.slice(4));
  });

  it('rents a valid number instantly at its monthly price', async () => {
    const carrier = createLocalCarrier({ seed: 'rent' });
    const [offer] = await carrier.searchNumbers({ country: 'DE', limit: 1 });
    expect(await carrier.rentNumber({ country: 'DE', phoneNumber: offer!.phoneNumber })).toEqual({ monthlyCost: offer!.monthlyCost });
    await expect(carrier.configureInboundVoice({ country: 'DE', phoneNumber: offer!.phoneNumber })).resolves.toBeUndefined();
    await expect(carrier.releaseNumber({ country: 'DE', phoneNumber: offer!.phoneNumber })).resolves.toBeUndefined();
  });

  it.each([
    ['a number of another country', 'US', '+442079460958'],
    ['an invalid number', 'US', '+1415'],
    ['the sound-test line', 'US', '+14155550100'],
  ] as const)('refuses to rent %s', async (_label, country, phoneNumber) => {
    const rent = createLocalCarrier().rentNumber({ country, phoneNumber });
    await expect(rent).rejects.toBeInstanceOf(TelephonyError);
    await expect(rent).rejects.toMatchObject({ failure: 'number_unavailable' });
  });
});
