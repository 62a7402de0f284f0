import { getCountryCallingCode, Metadata } from 'libphonenumber-js';
import { describe, expect, it } from 'vitest';
import { countries, countryCodes, findCountry, isSupportedCountry, otherCountries, popularCountries } from './countries';

const flagOf = (code: string) => String.fromCodePoint(...[...code].map((letter) => 0x1f1e6 + letter.charCodeAt(0) - 65));

describe('the country list (docs/product.md §2, §9)', () => {
  it('has 20 countries: 10 popular then 10 more, the US first', () => {
    expect(countries).toHaveLength(20);
    expect(popularCountries).toHaveLength(10);
    expect(otherCountries).toHaveLength(10);
    expect(countries[0]!.code).toBe('US');
    expect(new Set(countryCodes).size).toBe(20);
    expect(countries.slice(0, 10).every((country) => country.popular)).toBe(true);
  });

  it('gives each country its real dial code, flag and trunk prefix', () => {
    const metadata = new Metadata();
    for (const country of countries) {
      expect(country.dialCode, country.code).toBe(`+${getCountryCallingCode(country.code)}`);
      expect(country.flag, country.code).toBe(flagOf(country.code));
      metadata.selectNumberingPlan(country.code);
      const plan = metadata.numberingPlan as unknown as { nationalPrefix(): string | undefined };
      expect(country.trunkPrefix, country.code).toBe(plan.nationalPrefix() || null);
    }
  });

  it('finds a country by code', () => {
    expect(findCountry('GB')?.name).toBe('United Kingdom');
    expect(findCountry('XX')).toBeUndefined();
    expect(isSupportedCountry('NG')).toBe(true);
    expect(isSupportedCountry('FR ')).toBe(false);
  });
});
