import type { SupportedCountryCode } from '../../../common/countries';

/** A price in minor units (cents) of an ISO 4217 currency. */
export interface Money {
  amountMinor: number;
  currency: string;
}

export interface NumberOffer {
  /** E.164 digits without '+', as Vonage names numbers. */
  msisdn: string;
  country: SupportedCountryCode;
  monthlyCost: Money;
}

export interface NumberSearch {
  country: SupportedCountryCode;
  /** Digits the national number starts with (after the country code, without a trunk prefix). */
  startsWith?: string;
  limit: number;
}

export interface NumberRef {
  country: SupportedCountryCode;
  msisdn: string;
}

export type TelephonyFailure =
  /** The number cannot be had (taken by someone else, or never offered). */
  | 'number_unavailable'
  /** The provider refused: bad credentials, no balance, a country rule. */
  | 'rejected'
  /** The provider could not be reached or answered nonsense. */
  | 'unreachable';

/** A provider failure; `message` is the provider's reason, written for the user. */
export class TelephonyError extends Error {
  override readonly name = 'TelephonyError';

  constructor(
    readonly failure: TelephonyFailure,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

/**
 * One carrier behind Voxline's numbers (and, with the calls work, its calls): TELEPHONY=local is
 * the built-in virtual carrier, TELEPHONY=vonage the Vonage APIs. Methods throw TelephonyError.
 */
export interface TelephonyProvider {
  readonly name: 'local' | 'vonage';
  /** Numbers offered for rent now; a search reserves nothing. */
  searchNumbers(search: NumberSearch): Promise<NumberOffer[]>;
  /** Buys the number for our account; answers its monthly price. */
  rentNumber(number: NumberRef): Promise<{ monthlyCost: Money }>;
  /** Routes the number's inbound calls to Voxline (idempotent). */
  configureInboundVoice(number: NumberRef): Promise<void>;
  /** Gives the number back; a number already gone counts as released. */
  releaseNumber(number: NumberRef): Promise<void>;
}
