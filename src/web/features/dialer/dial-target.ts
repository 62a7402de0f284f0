import { parsePhoneNumberFromString } from 'libphonenumber-js';
import { countries, DEFAULT_COUNTRY, type CountryOption } from '../../../common/countries';

export const defaultCountry: CountryOption = countries.find((country) => country.code === DEFAULT_COUNTRY)!;

/** Splits an international number into one of the dialer's countries and the digits after its code. */
export function splitInternational(input: string): { country: CountryOption; digits: string } | null {
  const parsed = parsePhoneNumberFromString(input.trim());
  if (!parsed) return null;
  const dialCode = `+${parsed.countryCallingCode}`;
  const country = countries.find((c) => c.code === parsed.country) ?? countries.find((c) => c.dialCode === dialCode);
  if (!country) return null;
  return { country, digits: parsed.nationalNumber };
}

/** docs/product.md §5: the number input keeps digits only. */
export function digitsOnly(value: string): string {
  return value.replace(/\D/g, '');
}
