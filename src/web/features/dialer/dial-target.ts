import { countries, DEFAULT_COUNTRY, type CountryOption } from '../../../common/countries';

export const defaultCountry: CountryOption = countries.find((country) => country.code === DEFAULT_COUNTRY)!;

/**
 * The number input keeps the keypad's keys: digits, and `*` and `#`, which type like digits
 * (docs/calls.md#touch-tones); the dialled number itself must be digits only (docs/product.md §5,
 * `touchToneKeysIn`).
 */
export function keypadKeysOnly(value: string): string {
  return value.replace(/[^\d*#]/g, '');
}

/** Whether the entered number holds `*` or `#`, which are touch-tones for a call in progress, not part of a number. */
export function touchToneKeysIn(value: string): boolean {
  return /[*#]/.test(value);
}
