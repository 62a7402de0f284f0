import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { mediaConfigSchema } from '../../common/media';
import type { Auth } from '../auth/auth';
import { requireUser } from '../auth/current-user';
import { iceServersFor, type IceServerSettings } from './webrtc/ice-servers';

/** What a signed-in browser needs before it connects a call's audio (docs/calls.md#media). */
export const mediaRoutes: FastifyPluginAsyncZod<{ auth: Auth; webrtc: boolean; iceServers: IceServerSettings }> = async (app, { auth, webrtc, iceServers }) => {
  app.get('/media/config', { schema: { response: { 200: mediaConfigSchema } } }, async (request, reply) => {
    const user = await requireUser(auth, request, reply);
    // TURN credentials are made per user and expire: never cached by a browser or a proxy.
    void reply.header('cache-control', 'no-store');
    return { webrtc, iceServers: webrtc ? iceServersFor(user.id, iceServers, new Date()) : [] };
  });
};
