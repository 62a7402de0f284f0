import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import type { SessionUser } from '../../common/api/session';
import type { Auth } from '../auth/auth';
import { currentSessionId, findCurrentUser } from '../auth/current-user';
import { sendError } from '../http/error-handler';
import type { RealtimeHub } from './realtime-hub';
import type { SessionSockets } from './session-sockets';

/** Who opened a websocket, and with which session (closed when that session is revoked). */
export interface SocketOwner {
  user: SessionUser;
  sessionId: string;
}

/** Owners found by the upgrade's pre-validation, for the websocket handler that follows. */
export const socketOwners = new WeakMap<FastifyRequest, SocketOwner>();

/** Checks the session cookie before a websocket upgrade; a signed-out request gets 401, not a socket. */
export function requireSocketUser(auth: Auth) {
  return async (request: FastifyRequest, reply: Parameters<typeof sendError>[0]) => {
    const user = await findCurrentUser(auth, request, reply);
    const sessionId = currentSessionId(request);
    if (!user || !sessionId) return sendError(reply, 401, { code: 'unauthenticated', message: 'You need to sign in first' });
    socketOwners.set(request, { user, sessionId });
  };
}

export const realtimeRoutes: FastifyPluginAsync<{ auth: Auth; hub: RealtimeHub; sessionSockets: SessionSockets }> = async (app, { auth, hub, sessionSockets }) => {
  app.get('/realtime', { websocket: true, preValidation: requireSocketUser(auth) }, (socket, request) => {
    const owner = socketOwners.get(request);
    if (!owner) {
      socket.close(4401, 'unauthenticated');
      return;
    }
    sessionSockets.track(socket, owner.user.id, owner.sessionId, () => hub.signedOut(socket));
    hub.join(owner.user, socket);
  });
};
