import type { FastifyReply } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Receipt } from '../../common/api/payments';
import {
  createPaymentSessionPayloadSchema,
  referencePayloadSchema,
  swiftPaymentRequestSchema,
  swiftPaymentResultSchema,
  type SwiftPaymentFailure,
  type SwiftPaymentResult,
} from '../../common/api/swift-payment';
import { requireUser } from '../auth/current-user';
import { AppError } from '../http/app-error';
import { toApiError } from '../http/error-handler';
import { readPayload } from '../http/read-payload';
import { pathForLog } from '../http/request-log';
import { paymentLimits, siteOrigins, type PaymentsRouteOptions } from './routes';

/** docs/product.md §8: what each action's failure message starts with. */
const FAILURE_PREFIX: Record<string, string> = {
  createPaymentSession: 'Failed to create payment session',
  verifyPayment: 'Failed to verify payment',
  getPaymentReceipt: 'Failed to generate receipt',
};

const toCompatReceipt = (receipt: Receipt) => ({
  company: receipt.company,
  reference: receipt.reference,
  transaction_date: receipt.transactionDate,
  customer_name: receipt.customerName,
  customer_email: receipt.customerEmail,
  plan_type: receipt.planType,
  amount_usd: Number(receipt.amountUsd),
  amount_ngn: Number(receipt.amountNgn),
  status: receipt.status,
  payment_processor: receipt.paymentProcessor,
  payment_method: receipt.paymentMethod,
  ...(receipt.subscription ? { subscription: { tier: receipt.subscription.tier, expires_at: receipt.subscription.expiresAt } } : {}),
});

/**
 * docs/product.md §7's backend function 'swift-payment' as a compatibility route (docs/architecture.md#compatibility-routes) over the
 * payment service. Answers carry the prototype's field names; a failure keeps its HTTP status and answers
 * success false with docs/product.md §8's message, beside the API's usual error object.
 */
export const swiftPaymentRoutes: FastifyPluginAsyncZod<PaymentsRouteOptions> = async (app, { auth, payments, rateLimiter, publicUrl }) => {
  app.post(
    '/swift-payment',
    {
      // Its 401 says which action failed ("Failed to verify payment: …"), read from the body.
      config: { sessionCheckedAfterParsing: true },
      schema: {
        body: swiftPaymentRequestSchema,
        response: { 200: swiftPaymentResultSchema },
      },
      errorHandler: (error, request, reply) => {
        const action = (request.body as { action?: unknown } | undefined)?.action;
        const prefix = (typeof action === 'string' ? FAILURE_PREFIX[action] : undefined) ?? 'Payment request failed';
        const { status, body } = toApiError(error);
        if (status >= 500) request.log.error({ err: error, url: pathForLog(request.url), method: request.method }, 'request failed');
        const retryAfter = error instanceof AppError && status === 429 ? (error.cause as { retryAfterSec?: number } | undefined)?.retryAfterSec : undefined;
        if (retryAfter) void reply.header('retry-after', String(retryAfter));
        const failure: SwiftPaymentFailure = { success: false, message: `${prefix}: ${body.message}`, error: body };
        // Outside the 200 schema: failures have their own shape.
        return (reply as FastifyReply).code(status).type('application/json; charset=utf-8').send(failure);
      },
    },
    async (request, reply): Promise<SwiftPaymentResult> => {
      const user = await requireUser(auth, request, reply);
      const { action, payload } = request.body;
      switch (action) {
        case 'createPaymentSession': {
          const { email, amountUSD, amountNGN, planType, userId, callbackUrl } = readPayload(createPaymentSessionPayloadSchema, payload);
          if (userId !== undefined && userId !== user.id) throw new AppError(403, 'forbidden', 'You can only pay for your own account', 'payload.userId');
          if (email !== undefined && email.toLowerCase() !== user.email.toLowerCase()) {
            throw new AppError(403, 'forbidden', 'The email must be your account\'s email address', 'payload.email');
          }
          await rateLimiter.hit(`payments-session:user:${user.id}`, paymentLimits.sessionsPerUser);
          const session = await payments.createSession(user, { planType, amountUSD, amountNGN, callbackUrl }, siteOrigins(request, publicUrl));
          return { success: true, paymentUrl: session.paymentUrl, reference: session.reference, message: 'Payment session created' };
        }
        case 'verifyPayment': {
          const { reference } = readPayload(referencePayloadSchema, payload);
          await rateLimiter.hit(`payments-verify:user:${user.id}`, paymentLimits.verificationsPerUser);
          const verification = await payments.verify(user.id, reference);
          return { success: verification.verified, status: verification.status, message: verification.message };
        }
        case 'getPaymentReceipt': {
          const { reference } = readPayload(referencePayloadSchema, payload);
          return { success: true, receipt: toCompatReceipt(await payments.receipt(user.id, reference)) };
        }
        default:
          throw new AppError(400, 'unknown_action', 'Unknown action', 'action');
      }
    },
  );
};
