import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import type { SessionUser } from '../../common/api/session';
import type { Auth } from '../auth/auth';
import { findCurrentUser } from '../auth/current-user';
import { sendError } from '../http/error-handler';
import type { RealtimeHub } from './realtime-hub';

/** Users found by the upgrade's pre-validation, for the websocket handler that follows. */
export const socketUsers = new WeakMap<FastifyRequest, SessionUser>();

/** Checks the session cookie before a websocket upgrade; a signed-out request gets 401, not a socket. */
export function requireSocketUser(auth: Auth) {
  return async (request: FastifyRequest, reply: Parameters<typeof sendError>[0]) => {
    const user = await findCurrentUser(auth, request, reply);
    if (!user) return sendError(reply, 401, { code: 'unauthenticated', message: 'You need to sign in first' });
    socketUsers.set(request, user);
  };
}

export const realtimeRoutes: FastifyPluginAsync<{ auth: Auth; hub: RealtimeHub }> = async (app, { auth, hub }) => {
  app.get('/realtime', { websocket: true, preValidation: requireSocketUser(auth) }, (socket, request) => {
    const user = socketUsers.get(request);
    if (!user) {
      socket.close(4401, 'unauthenticated');
      return;
    }
    hub.join(user, socket);
  });
};
