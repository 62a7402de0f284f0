import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { toE164 } from '../../common/phone';
import { fromMsisdn } from '../providers/telephony/vonage/msisdn';
import { sendError } from '../http/error-handler';
import { toProviderCallEvent, vonageCallEventSchema } from '../providers/telephony/vonage/call-events';
import { VonageWebhookVerifier } from '../providers/telephony/vonage/signed-webhook';
import type { WebhookIdStore } from '../providers/telephony/vonage/webhook-ids';
import { inboundNcco, talkNcco } from '../providers/telephony/vonage/vonage-provider';
import type { CallService } from './call-service';

export interface VonageProviderRouteOptions {
  calls: CallService;
  /**
   * Absent unless TELEPHONY=vonage: then every request here is refused. `seenIds` holds the ids of
   * the webhooks accepted, in Redis when there are several instances; while it cannot be reached a
   * webhook is refused with 503 (Vonage sends it again) rather than accepted unchecked.
   */
  vonage: { signatureSecret: string; applicationId: string; seenIds: WebhookIdStore } | null;
}

/** Calls whose media socket passed the token check on upgrade, for the handler that follows. */
const claimedCalls = new WeakMap<FastifyRequest, string>();

/** The answer webhook's fields Voxline reads (docs/providers.md#vonage-webhooks): query parameters (GET) or JSON (POST). */
const vonageAnswerSchema = z.object({ uuid: z.string().min(1), to: z.string().min(1), from: z.string().optional() });

const notVonage = { code: 'not_found', message: 'Vonage is not this server’s telephony provider' } as const;

/**
 * What Vonage calls back during a call (docs/providers.md#vonage-webhooks): the event webhook, signed with the
 * account's signature secret, and the media websocket its NCCO connects to, authenticated by the
 * one-time token in its URL. Mounted at /api/v1/providers/vonage.
 */
export const vonageProviderRoutes: FastifyPluginAsync<VonageProviderRouteOptions> = async (app, { calls, vonage }) => {
  const verifier = vonage ? new VonageWebhookVerifier(vonage) : null;

  // The signature covers the raw bytes of the body, so this plugin reads JSON bodies itself.
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (_request, body, done) => done(null, body));

  // Called by Vonage, not a person: each request is signed (webhooks) or carries a one-time token (media).
  const config = { public: true };

  app.post('/events', { config }, async (request, reply) => {
    if (!verifier) return sendError(reply, 404, notVonage);
    const rawBody = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
    const verdict = await verifier.verify(request.headers.authorization, rawBody);
    if (!verdict.ok) {
      request.log.warn({ reason: verdict.reason }, 'refused a Vonage webhook');
      return sendError(reply, 401, { code: 'invalid_signature', message: 'The webhook signature could not be verified' });
    }
    let parsed: ReturnType<typeof vonageCallEventSchema.safeParse>;
    try {
      parsed = vonageCallEventSchema.safeParse(JSON.parse(rawBody.toString('utf8')));
    } catch {
      return sendError(reply, 400, { code: 'invalid_json', message: 'The request body is not valid JSON' });
    }
    if (!parsed.success) return sendError(reply, 400, { code: 'invalid_input', message: 'An event needs a uuid and a status' });

    // Events of an inbound call's own leg come to the application's event URL, without our id.
    const { call: named } = request.query as { call?: string };
    const event = toProviderCallEvent(parsed.data);
    request.log.info({ callId: named, status: parsed.data.status, detail: parsed.data.detail }, 'Vonage call event');
    // Anything else (another leg, a call already over) is acknowledged, or Vonage would retry it.
    // Held on an instance that does not answer, the event is refused with 503: Vonage sends it again.
    if (event) await calls.receiveProviderEvent(parsed.data.uuid, event, typeof named === 'string' ? named : undefined);
    return reply.code(200).send({ ok: true });
  });

  // A call to one of our numbers: connect the caller to our media socket while the owner's tabs
  // ring, or tell the caller why not. Vonage sends it as GET unless the application says POST.
  const answer = async (request: FastifyRequest, reply: FastifyReply, rawBody: Buffer, fields: unknown) => {
    if (!verifier) return sendError(reply, 404, notVonage);
    const verdict = await verifier.verify(request.headers.authorization, rawBody);
    if (!verdict.ok) {
      request.log.warn({ reason: verdict.reason }, 'refused a Vonage answer webhook');
      return sendError(reply, 401, { code: 'invalid_signature', message: 'The webhook signature could not be verified' });
    }
    const parsed = vonageAnswerSchema.safeParse(fields);
    const to = parsed.success ? toE164(fromMsisdn(parsed.data.to)) : null;
    if (!parsed.success || !to) return sendError(reply, 400, { code: 'invalid_input', message: 'An answer webhook needs a uuid and the number called (to)' });
    // A withheld caller id arrives as words ("Unknown"), not digits.
    const from = toE164(fromMsisdn(parsed.data.from ?? '')) ?? 'Unknown';
    const decision = await calls.answerProviderInbound(parsed.data.uuid, from, to);
    request.log.info({ to, action: decision.action }, 'Vonage inbound call');
    return reply.code(200).send(decision.action === 'connect' ? inboundNcco(decision) : talkNcco(decision.message));
  };
  app.get('/answer', { config }, (request, reply) => answer(request, reply, Buffer.alloc(0), request.query));
  app.post('/answer', { config }, (request, reply) => {
    const rawBody = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
    let fields: unknown;
    try {
      fields = JSON.parse(rawBody.toString('utf8'));
    } catch {
      fields = null;
    }
    return answer(request, reply, rawBody, fields);
  });

  app.get(
    '/media',
    {
      websocket: true,
      config,
      preValidation: async (request, reply) => {
        if (!verifier) return sendError(reply, 404, notVonage);
        const { token } = request.query as { token?: string };
        const callId = typeof token === 'string' && token ? calls.claimProviderMedia(token) : null;
        if (!callId) return sendError(reply, 401, { code: 'invalid_token', message: 'This media link is not valid (unknown, used or expired)' });
        claimedCalls.set(request, callId);
      },
    },
    (socket, request) => {
      const callId = claimedCalls.get(request);
      if (!callId) {
        socket.close(4401, 'invalid token');
        return;
      }
      void calls.attachProviderMedia(callId, socket);
    },
  );
};
