import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { okSchema } from '../../common/api/auth';
import { createPaymentBodySchema, paymentReferenceParamsSchema, paymentSessionSchema, receiptSchema, verificationSchema } from '../../common/api/payments';
import type { Auth } from '../auth/auth';
import { requireUser } from '../auth/current-user';
import { AppError } from '../http/app-error';
import type { RateLimiter } from '../http/rate-limiter';
import { isPaystackSignatureValid } from '../providers/payments/paystack/webhook-signature';
import type { PaymentService } from './service';

const MINUTE = 60_000;
// Each session and verification reaches the payment provider.
export const paymentLimits = {
  sessionsPerUser: { limit: 20, windowMs: 60 * MINUTE },
  verificationsPerUser: { limit: 60, windowMs: MINUTE },
};

export interface PaymentsRouteOptions {
  auth: Auth;
  payments: PaymentService;
  rateLimiter: RateLimiter;
  publicUrl: string;
}

/** This site's own addresses: PUBLIC_URL, and the address this request came to (the Vite dev server's, in development). */
export function siteOrigins(request: FastifyRequest, publicUrl: string): string[] {
  const origins = [new URL(publicUrl).origin];
  try {
    const own = new URL(`${request.protocol}://${request.host}`).origin;
    if (!origins.includes(own)) origins.push(own);
  } catch {
    // A Host header that is not a host names no address of ours.
  }
  return origins;
}

export const paymentsRoutes: FastifyPluginAsyncZod<PaymentsRouteOptions> = async (app, { auth, payments, rateLimiter, publicUrl }) => {
  app.post('/payments', { schema: { body: createPaymentBodySchema, response: { 201: paymentSessionSchema } } }, async (request, reply) => {
    const user = await requireUser(auth, request, reply);
    await rateLimiter.hit(`payments-session:user:${user.id}`, paymentLimits.sessionsPerUser);
    return reply.code(201).send(await payments.createSession(user, request.body, siteOrigins(request, publicUrl)));
  });

  app.post('/payments/:reference/verify', { schema: { params: paymentReferenceParamsSchema, response: { 200: verificationSchema } } }, async (request, reply) => {
    const user = await requireUser(auth, request, reply);
    await rateLimiter.hit(`payments-verify:user:${user.id}`, paymentLimits.verificationsPerUser);
    return payments.verify(user.id, request.params.reference);
  });

  app.get('/payments/:reference/receipt', { schema: { params: paymentReferenceParamsSchema, response: { 200: receiptSchema } } }, async (request, reply) => {
    const user = await requireUser(auth, request, reply);
    return payments.receipt(user.id, request.params.reference);
  });
};

/**
 * Paystack's webhook (PAYMENTS=paystack; 404 otherwise). The body is kept raw: the signature is
 * the HMAC of the exact bytes sent. A bad or missing signature changes nothing (401); a good
 * charge.success is verified with Paystack before anything is activated. Other events are
 * acknowledged and ignored, so Paystack stops retrying them.
 */
export const paystackWebhookRoutes: FastifyPluginAsync<{ payments: PaymentService; secretKey: string | null }> = async (app, { payments, secretKey }) => {
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'buffer', bodyLimit: 256 * 1024 }, (_request, body, done) => done(null, body));

  app.post('/webhook', { config: { public: true }, schema: { response: { 200: okSchema } } }, async (request) => {
    if (!secretKey) throw AppError.notFound('Paystack is not the payment provider');
    const raw = request.body;
    if (!Buffer.isBuffer(raw) || !isPaystackSignatureValid(secretKey, raw, request.headers['x-paystack-signature'])) {
      throw new AppError(401, 'invalid_signature', 'The webhook signature is missing or wrong');
    }
    let event: { event?: unknown; data?: { reference?: unknown } };
    try {
      event = JSON.parse(raw.toString('utf8')) as typeof event;
    } catch {
      throw new AppError(400, 'invalid_json', 'The request body is not valid JSON');
    }
    if (event.event === 'charge.success' && typeof event.data?.reference === 'string') {
      await payments.verifyFromWebhook(event.data.reference);
    } else {
      request.log.info({ event: event.event }, 'Paystack webhook ignored');
    }
    return { ok: true as const };
  });
};
