import type { FastifyInstance } from 'fastify';
import type { SyncTopic } from '../../common/realtime';
import type { Auth } from '../auth/auth';
import { findCurrentUser } from '../auth/current-user';
import { announceChange, type SyncChannel } from './announce-change';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** What a successful request to this route changes for its user: their other tabs reload it (docs/architecture.md#sync). */
    sync?: readonly SyncTopic[];
  }
}

/**
 * A route that changes something of the user's says so beside it (`config: { sync: [...] }`);
 * once it answered with success, the user's tabs are told. After the answer, so that a tab
 * reloading at once reads what was saved; a refused or failed request changed nothing.
 */
export function announceRouteChanges(app: FastifyInstance, auth: Auth, channel: SyncChannel) {
  app.addHook('onResponse', async (request, reply) => {
    const topics = request.routeOptions.config.sync;
    if (!topics || reply.statusCode < 200 || reply.statusCode >= 300) return;
    // Already found by the session check every such route passes, so this reads no session again.
    const user = await findCurrentUser(auth, request, reply);
    if (user) await announceChange(channel, user.id, topics);
  });
}
