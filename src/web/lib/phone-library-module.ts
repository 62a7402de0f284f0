import { parsePhoneNumberFromString } from 'libphonenumber-js';
import { countries, type CountryOption } from '../../common/countries';

export { formatPhoneNumber, toE164 } from '../../common/phone';

/** Splits an international number into one of the dialer's countries and the digits after its code. */
export function splitInternational(input: string): { country: CountryOption; digits: string } | null {
  const parsed = parsePhoneNumberFromString(input.trim());
  if (!parsed) return null;
  const dialCode = `+${parsed.countryCallingCode}`;
  const country = countries.find((c) => c.code === parsed.country) ?? countries.find((c) => c.dialCode === dialCode);
  if (!country) return null;
  return { country, digits: parsed.nationalNumber };
}
