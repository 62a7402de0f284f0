import { z } from 'zod/mini';
import { paidPlans, tiers } from '../plans';
import { miniTextField } from './mini-text-field';
import { subscriptionStatusSchema } from './subscription';

/** Paystack's reference alphabet: letters, digits, '-', '.', '='. */
export const PAYMENT_REFERENCE_PATTERN = /^[A-Za-z0-9.=-]{1,100}$/;

export const planTypeField = z.pipe(
  miniTextField('planType').check(z.trim(), z.toLowerCase()),
  z.enum(paidPlans, { error: 'planType must be premium or platinum' }),
);

/** An amount in major units as the client shows it (100 for $100): checked against the server's price (also by swift-payment.ts). */
export const amountField = (label: string) =>
  z.number({ error: `${label} must be a number` }).check(z.nonnegative(`${label} must not be negative`), z.lte(1e12, `${label} is too large`));

const callbackUrlField = z.pipe(miniTextField('callbackUrl'), z.url({ protocol: /^https?$/, error: 'callbackUrl must be an absolute http(s) URL' }));

/**
 * POST /api/v1/payments. The server alone sets the price; amounts, when given, must be the plan's
 * (422 otherwise), so a page showing a stale price never charges what it did not show.
 */
export const createPaymentBodySchema = z.strictObject({
  planType: planTypeField,
  amountUSD: z.optional(amountField('amountUSD')),
  amountNGN: z.optional(amountField('amountNGN')),
  /** Where the provider sends the browser back (with ?reference=…); this site only. Default /payment/receipt. */
  callbackUrl: z.optional(callbackUrlField),
});

export const paymentSessionSchema = z.object({
  reference: z.string(),
  /** The provider's checkout page. */
  paymentUrl: z.string(),
  planType: z.enum(paidPlans),
  amountUsd: z.string(),
  amountNgn: z.string(),
});

export const paymentReferenceParamsSchema = z.object({ reference: miniTextField('reference') });

/** The provider's transaction statuses (docs/providers.md#paystack) as Voxline reports them. */
export const paymentStatuses = ['success', 'failed', 'abandoned', 'ongoing', 'pending', 'processing', 'queued', 'reversed'] as const;
export type PaymentStatus = (typeof paymentStatuses)[number];

export const verificationSchema = z.object({
  /** The payment succeeded and its plan is active (now or by an earlier verification). */
  verified: z.boolean(),
  status: z.enum(paymentStatuses),
  message: z.string(),
  planType: z.enum(paidPlans),
  subscription: subscriptionStatusSchema,
});

/** docs/product.md §3 payment receipt, in the API's camelCase (the compatibility route answers the prototype's snake_case names). */
export const receiptSchema = z.object({
  company: z.string(),
  reference: z.string(),
  /** ISO; null when the provider gave no date. */
  transactionDate: z.nullable(z.string()),
  customerName: z.string(),
  customerEmail: z.string(),
  planType: z.enum(paidPlans),
  /** Decimal strings with two places. */
  amountUsd: z.string(),
  amountNgn: z.string(),
  status: z.literal('success'),
  paymentProcessor: z.string(),
  /** How the customer paid, e.g. 'Visa card ending 4081'; null when the provider did not say. */
  paymentMethod: z.nullable(z.string()),
  subscription: z.nullable(z.object({ tier: z.enum(tiers), expiresAt: z.string() })),
});

export type CreatePaymentBody = z.input<typeof createPaymentBodySchema>;
export type PaymentSession = z.infer<typeof paymentSessionSchema>;
export type Verification = z.infer<typeof verificationSchema>;
export type Receipt = z.infer<typeof receiptSchema>;
