import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import { isUuid } from '../db/errors';
import { sendError } from '../http/error-handler';
import { toProviderCallEvent, vonageCallEventSchema } from '../providers/telephony/vonage/call-events';
import { VonageWebhookVerifier } from '../providers/telephony/vonage/signed-webhook';
import type { CallService } from './call-service';

export interface VonageProviderRouteOptions {
  calls: CallService;
  /** Absent unless TELEPHONY=vonage: then every request here is refused. */
  vonage: { signatureSecret: string; applicationId: string } | null;
}

/** Calls whose media socket passed the token check on upgrade, for the handler that follows. */
const claimedCalls = new WeakMap<FastifyRequest, string>();

const notVonage = { code: 'not_found', message: 'Vonage is not this server’s telephony provider' } as const;

/**
 * What Vonage calls back during a call (PROVIDERS.md): the event webhook, signed with the
 * account's signature secret, and the media websocket its NCCO connects to, authenticated by the
 * one-time token in its URL. Mounted at /api/v1/providers/vonage.
 */
export const vonageProviderRoutes: FastifyPluginAsync<VonageProviderRouteOptions> = async (app, { calls, vonage }) => {
  const verifier = vonage ? new VonageWebhookVerifier(vonage) : null;

  // The signature covers the raw bytes of the body, so this plugin reads JSON bodies itself.
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (_request, body, done) => done(null, body));

  app.post('/events', async (request, reply) => {
    if (!verifier) return sendError(reply, 404, notVonage);
    const rawBody = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
    const verdict = verifier.verify(request.headers.authorization, rawBody);
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

    const { call: callId } = request.query as { call?: string };
    const event = toProviderCallEvent(parsed.data);
    request.log.info({ callId, status: parsed.data.status, detail: parsed.data.detail }, 'Vonage call event');
    // Anything else (another leg, a call already over) is acknowledged, or Vonage would retry it.
    if (event && callId && isUuid(callId)) await calls.applyProviderEvent(callId, parsed.data.uuid, event);
    return reply.code(200).send({ ok: true });
  });

  app.get(
    '/media',
    {
      websocket: true,
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
