import type { CountryCode } from 'libphonenumber-js';

/** docs/product.md §3 country option, plus the national trunk prefix (the '0' of a UK '020…'), when the country has one. */
export interface CountryOption {
  name: string;
  code: CountryCode;
  dialCode: string;
  flag: string;
  popular: boolean;
  trunkPrefix: string | null;
}

/** The dialer's and the number search's 20 countries (docs/product.md §2, §9): the 10 popular first, US leading. */
export const countries = [
  { name: 'United States', code: 'US', dialCode: '+1', flag: '🇺🇸', popular: true, trunkPrefix: '1' },
  { name: 'United Kingdom', code: 'GB', dialCode: '+44', flag: '🇬🇧', popular: true, trunkPrefix: '0' },
  { name: 'Canada', code: 'CA', dialCode: '+1', flag: '🇨🇦', popular: true, trunkPrefix: '1' },
  { name: 'Australia', code: 'AU', dialCode: '+61', flag: '🇦🇺', popular: true, trunkPrefix: '0' },
  { name: 'Germany', code: 'DE', dialCode: '+49', flag: '🇩🇪', popular: true, trunkPrefix: '0' },
  { name: 'France', code: 'FR', dialCode: '+33', flag: '🇫🇷', popular: true, trunkPrefix: '0' },
  { name: 'India', code: 'IN', dialCode: '+91', flag: '🇮🇳', popular: true, trunkPrefix: '0' },
  { name: 'Nigeria', code: 'NG', dialCode: '+234', flag: '🇳🇬', popular: true, trunkPrefix: '0' },
  { name: 'Brazil', code: 'BR', dialCode: '+55', flag: '🇧🇷', popular: true, trunkPrefix: '0' },
  { name: 'Mexico', code: 'MX', dialCode: '+52', flag: '🇲🇽', popular: true, trunkPrefix: null },
  { name: 'Spain', code: 'ES', dialCode: '+34', flag: '🇪🇸', popular: false, trunkPrefix: null },
  { name: 'Italy', code: 'IT', dialCode: '+39', flag: '🇮🇹', popular: false, trunkPrefix: null },
  { name: 'Netherlands', code: 'NL', dialCode: '+31', flag: '🇳🇱', popular: false, trunkPrefix: '0' },
  { name: 'Sweden', code: 'SE', dialCode: '+46', flag: '🇸🇪', popular: false, trunkPrefix: '0' },
  { name: 'Japan', code: 'JP', dialCode: '+81', flag: '🇯🇵', popular: false, trunkPrefix: '0' },
  { name: 'South Africa', code: 'ZA', dialCode: '+27', flag: '🇿🇦', popular: false, trunkPrefix: '0' },
  { name: 'Kenya', code: 'KE', dialCode: '+254', flag: '🇰🇪', popular: false, trunkPrefix: '0' },
  { name: 'Ghana', code: 'GH', dialCode: '+233', flag: '🇬🇭', popular: false, trunkPrefix: '0' },
  { name: 'Ireland', code: 'IE', dialCode: '+353', flag: '🇮🇪', popular: false, trunkPrefix: '0' },
  { name: 'New Zealand', code: 'NZ', dialCode: '+64', flag: '🇳🇿', popular: false, trunkPrefix: '0' },
] as const satisfies readonly CountryOption[];

export type SupportedCountryCode = (typeof countries)[number]['code'];

/** The ISO codes of the 20 countries, in list order (for z.enum). */
export const countryCodes = countries.map((country) => country.code) as [SupportedCountryCode, ...SupportedCountryCode[]];

export const popularCountries: readonly CountryOption[] = countries.filter((country) => country.popular);
export const otherCountries: readonly CountryOption[] = countries.filter((country) => !country.popular);

/** docs/product.md §5: the number search and the dialer start on the US. */
export const DEFAULT_COUNTRY: SupportedCountryCode = 'US';

export function isSupportedCountry(code: string): code is SupportedCountryCode {
  return countries.some((country) => country.code === code);
}

export function findCountry(code: string): CountryOption | undefined {
  return countries.find((country) => country.code === code);
}
