import type { CallOutcome } from '../../../common/calls';
import type { SupportedCountryCode } from '../../../common/countries';

/** A price in minor units (cents) of an ISO 4217 currency. */
export interface Money {
  amountMinor: number;
  currency: string;
}

export interface NumberOffer {
  /** E.164 (+14155550123): a provider converts its own formats at its edge. */
  phoneNumber: string;
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
  /** E.164. */
  phoneNumber: string;
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

/** A call to an outside number, placed through the provider's network (docs/calls.md#routing, rule 3). */
export interface OutboundCallRequest {
  /** Our call's id; the provider echoes it in the media socket's first message. */
  callId: string;
  /** E.164: one of the user's rented numbers. */
  from: string;
  /** E.164: the number dialled. */
  to: string;
  /** The provider media websocket (ws:// or wss://), carrying a one-time token. */
  mediaUrl: string;
  /** Where the provider posts the call's status events. */
  eventUrl: string;
  /** How long the far side may ring before the provider gives up. */
  ringTimeoutSec: number;
}

/** What a provider's status event means to the call engine. */
export type ProviderCallEvent =
  | { type: 'ringing' }
  | { type: 'answered' }
  | { type: 'ended'; outcome: CallOutcome; reason: string | null };

/** Calls the provider carries itself. Methods throw TelephonyError. */
export interface ProviderCalls {
  /** Starts the call; answers the provider's id for it once the provider has accepted it. */
  place(request: OutboundCallRequest): Promise<{ providerCallId: string }>;
  /** Hangs the call up; a call already over counts as hung up. */
  hangup(providerCallId: string): Promise<void>;
  /** Says `message` to the far side (synthesised speech), then ends the call. */
  sayAndHangUp(providerCallId: string, message: string): Promise<void>;
  /** Plays touch-tones (0-9, * and #) to the far side of an answered call. */
  sendDtmf(providerCallId: string, digits: string): Promise<void>;
}

/**
 * One carrier behind Voxline's numbers and calls: TELEPHONY=local is the built-in virtual carrier,
 * TELEPHONY=vonage the Vonage APIs. Methods throw TelephonyError.
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
  /**
   * The numbers (E.164) whose inbound calls the provider routes to Voxline now: still held by our
   * account and pointed at our application. Left out by a carrier whose numbers always reach us.
   */
  routedNumbers?(): Promise<Set<string>>;
  /**
   * Places calls to outside numbers over the provider's network. The virtual carrier has none: the
   * call engine answers those calls itself with an echo.
   */
  readonly calls?: ProviderCalls;
}
