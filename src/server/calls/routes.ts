import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { callHistorySchema, callLinesSchema, callRecordSchema, dtmfBodySchema, dtmfResultSchema, placeCallBodySchema, placeCallResultSchema } from '../../common/api/calls';
import { callMediaFiguresSchema } from '../../common/call-quality';
import { socketCodecs } from '../../common/media';
import type { Auth } from '../auth/auth';
import { requireUser } from '../auth/current-user';
import type { Database } from '../db/client';
import { isUuid } from '../db/errors';
import { AppError } from '../http/app-error';
import { requireSocketUser, socketOwners } from '../realtime/routes';
import type { SessionSockets } from '../realtime/session-sockets';
import { findCall, listHistory, recordMediaFigures, toCallRecord } from './call-records';
import type { CallService } from './call-service';

const callParams = z.object({ id: z.string() });
/** What the call's media websocket carries (docs/calls.md#media): raw PCM unless the browser asks for Opus. */
const mediaQuery = z.object({ codec: z.enum(socketCodecs).default('pcm') });

/** RFC 6455 allows a close reason 123 bytes of UTF-8; this one quotes the browser, so it is cut by bytes. */
function closeReason(text: string): string {
  let reason = '';
  for (const char of text) {
    if (Buffer.byteLength(reason + char) > 123) break;
    reason += char;
  }
  return reason;
}

interface CallRouteOptions {
  auth: Auth;
  db: Database;
  calls: CallService;
  sessionSockets: SessionSockets;
  soundTestNumber: string;
}

export const callRoutes: FastifyPluginAsyncZod<CallRouteOptions> = async (app, { auth, db, calls, sessionSockets, soundTestNumber }) => {
  // docs/product.md §5: 'Authentication required' / 'Please log in to make calls'.
  const callsConfig = { unauthenticatedMessage: 'Please log in to make calls' };

  app.post('/calls', { config: callsConfig, schema: { body: placeCallBodySchema, response: { 201: placeCallResultSchema } } }, async (request, reply) => {
    const user = await requireUser(auth, request, reply);
    return reply.code(201).send(await calls.place(user, request.body));
  });

  app.get('/calls', { schema: { response: { 200: callHistorySchema } } }, async (request, reply) => {
    const user = await requireUser(auth, request, reply);
    return { calls: await listHistory(db, user.id) };
  });

  app.get('/calls/lines', { config: { public: true }, schema: { response: { 200: callLinesSchema } } }, async () => ({ soundTestNumber }));

  app.get('/calls/:id', { schema: { params: callParams, response: { 200: callRecordSchema } } }, async (request, reply) => {
    const user = await requireUser(auth, request, reply);
    const row = isUuid(request.params.id) ? await findCall(db, user.id, request.params.id) : undefined;
    if (!row) throw AppError.notFound('No such call');
    return toCallRecord(row);
  });

  app.post('/calls/:id/hangup', { schema: { params: callParams, response: { 200: callRecordSchema } } }, async (request, reply) => {
    const user = await requireUser(auth, request, reply);
    if (!isUuid(request.params.id)) throw AppError.notFound('No such call');
    await calls.hangup(user.id, request.params.id);
    const row = await findCall(db, user.id, request.params.id);
    if (!row) throw AppError.notFound('No such call');
    return toCallRecord(row);
  });

  app.post('/calls/:id/dtmf', { schema: { params: callParams, body: dtmfBodySchema, response: { 200: dtmfResultSchema } } }, async (request, reply) => {
    const user = await requireUser(auth, request, reply);
    if (!isUuid(request.params.id)) throw AppError.notFound('No such call');
    return calls.sendDtmf(user.id, request.params.id, request.body.digits);
  });

  app.put('/calls/:id/media-figures', { schema: { params: callParams, body: callMediaFiguresSchema, response: { 204: z.null() } } }, async (request, reply) => {
    const user = await requireUser(auth, request, reply);
    if (!isUuid(request.params.id) || !(await recordMediaFigures(db, user.id, request.params.id, request.body))) throw AppError.notFound('No such call');
    return reply.code(204).send(null);
  });

  app.get('/calls/:id/media', { websocket: true, preValidation: requireSocketUser(auth) }, (socket, request) => {
    const owner = socketOwners.get(request);
    const { id } = request.params as { id: string };
    if (!owner || !isUuid(id)) {
      socket.close(4404, 'No such call in progress');
      return;
    }
    const query = mediaQuery.safeParse(request.query);
    if (!query.success) {
      socket.close(4400, closeReason(`Unknown audio codec: ${String((request.query as { codec?: unknown }).codec)}`));
      return;
    }
    // Signing out (or a password change elsewhere) ends the call this socket carries.
    sessionSockets.track(socket, owner.user.id, owner.sessionId, () => void calls.endForSignOut(owner.user.id, id));
    void calls.attachBrowser(owner.user, id, socket, query.data.codec);
  });
};
