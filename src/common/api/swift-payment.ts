import { z } from 'zod';
import { paidPlans, tiers } from '../plans';
import { textField } from './fields';
import { amountField, createPaymentBodySchema, paymentStatuses, planTypeField } from './payments';

/**
 * docs/product.md §7's backend function 'swift-payment' (POST /functions/v1/swift-payment, body {action, payload}),
 * kept as a compatibility route over the same payment service as /api/v1/payments. Payloads ignore
 * unknown fields, as the seed's function did.
 */
export const swiftPaymentRequestSchema = z.object({
  action: textField('action').trim().min(1, 'action is required'),
  payload: z.unknown().optional(),
});

/** docs/product.md §3 payment session request. `userId` and `email`, when given, must be the signed-in user's own. */
export const createPaymentSessionPayloadSchema = z.object({
  email: textField('email').trim().optional(),
  amountUSD: amountField('amountUSD'),
  amountNGN: amountField('amountNGN'),
  planType: planTypeField,
  userId: textField('userId').optional(),
  callbackUrl: createPaymentBodySchema.shape.callbackUrl,
});

export const referencePayloadSchema = z.object({
  reference: textField('reference').trim().min(1, 'reference is required'),
});

/** Every failure: success false and docs/product.md §8's 'Failed to … : {reason}' message, beside the API's error shape. */
export const swiftPaymentFailureSchema = z.object({
  success: z.literal(false),
  message: z.string(),
  error: z.object({ code: z.string(), message: z.string(), field: z.string().optional() }),
});

export const createPaymentSessionResultSchema = z.object({
  success: z.literal(true),
  paymentUrl: z.string(),
  reference: z.string(),
  message: z.string(),
});

export const verifyPaymentResultSchema = z.object({
  success: z.boolean(),
  status: z.enum(paymentStatuses),
  message: z.string(),
});

/** docs/product.md §3 payment receipt, field names as the seed read them. */
export const compatReceiptSchema = z.object({
  company: z.string(),
  reference: z.string(),
  transaction_date: z.string().nullable(),
  customer_name: z.string(),
  customer_email: z.string(),
  plan_type: z.enum(paidPlans),
  amount_usd: z.number(),
  amount_ngn: z.number(),
  status: z.literal('success'),
  payment_processor: z.string(),
  payment_method: z.string().nullable(),
  subscription: z.object({ tier: z.enum(tiers), expires_at: z.string() }).optional(),
});

export const getPaymentReceiptResultSchema = z.object({ success: z.literal(true), receipt: compatReceiptSchema });

export const swiftPaymentResultSchema = z.union([createPaymentSessionResultSchema, verifyPaymentResultSchema, getPaymentReceiptResultSchema]);

export type SwiftPaymentResult = z.infer<typeof swiftPaymentResultSchema>;
export type SwiftPaymentFailure = z.infer<typeof swiftPaymentFailureSchema>;
