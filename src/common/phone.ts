import { parsePhoneNumberFromString, type CountryCode } from 'libphonenumber-js';

/** The number in E.164 (+14155550100) when it is valid, else null. Without a + it is read in `defaultCountry`. */
export function toE164(input: string, defaultCountry?: CountryCode): string | null {
  const parsed = parsePhoneNumberFromString(input.trim(), defaultCountry);
  return parsed?.isValid() ? parsed.number : null;
}

/** docs/product.md §5: +1 numbers of 12 characters show as +1 (AAA) BBB-CCCC; others in international format. */
export function formatPhoneNumber(e164: string): string {
  if (/^\+1\d{10}$/.test(e164)) return `+1 (${e164.slice(2, 5)}) ${e164.slice(5, 8)}-${e164.slice(8)}`;
  return parsePhoneNumberFromString(e164)?.formatInternational() ?? e164;
}

/**
 * North American 555-0100 to 555-0199 numbers are reserved for fiction (and hold Voxline's
 * sound-test line, docs/calls.md): they are never offered for rent and never rented.
 */
export function isReservedNumber(e164: string): boolean {
  return /^\+1\d{3}5550[1]\d{2}$/.test(e164);
}
