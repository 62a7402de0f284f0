import type { PaymentStatus } from '../../../common/api/payments';

export type PaymentFailure =
  /** The provider has no transaction with this reference. */
  | 'not_found'
  /** The provider refused the request: bad key, a field it finds invalid, a reused reference. */
  | 'rejected'
  /** The provider could not be reached, or answered something we cannot read. */
  | 'unreachable';

/** A provider failure; `message` is the provider's reason, written for people. */
export class PaymentError extends Error {
  override readonly name = 'PaymentError';

  constructor(
    readonly failure: PaymentFailure,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

export interface CheckoutRequest {
  /** Ours: made by the server, bound to one user and one plan. */
  reference: string;
  email: string;
  /** In minor units (kobo) of `currency`. */
  amountMinor: number;
  currency: 'NGN';
  /** Where the checkout sends the browser back, with ?reference=…. */
  callbackUrl: string;
  metadata: Record<string, unknown>;
}

/** A transaction as the provider reports it; only `status` 'success' with our amount and currency is a payment. */
export interface ProviderTransaction {
  reference: string;
  status: PaymentStatus;
  amountMinor: number;
  currency: string;
  paidAt: Date | null;
  /** e.g. 'Visa card ending 4081'; null when the provider did not say. */
  paymentMethod: string | null;
  /** The provider's words on the outcome ('Successful', 'Declined'). */
  gatewayResponse: string | null;
}

/**
 * One card payment provider: PAYMENTS=sandbox is the built-in test checkout, PAYMENTS=paystack the
 * Paystack API. Methods throw PaymentError.
 */
export interface PaymentProvider {
  readonly name: 'sandbox' | 'paystack';
  /** How receipts name the provider. */
  readonly displayName: string;
  /** Opens a checkout for the request; answers the page to send the browser to. */
  initialize(request: CheckoutRequest): Promise<{ paymentUrl: string }>;
  /** The transaction's state now, asked of the provider (never taken from the browser). */
  verify(reference: string): Promise<ProviderTransaction>;
}

/** A card payment's method as receipts show it: 'Visa card ending 4081'. */
export function describeCard(brand: string | null | undefined, last4: string | null | undefined): string | null {
  if (!last4) return null;
  const name = brand ? `${brand.charAt(0).toUpperCase()}${brand.slice(1).toLowerCase()} card` : 'Card';
  return `${name} ending ${last4}`;
}
