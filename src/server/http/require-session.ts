import type { FastifyInstance } from 'fastify';
import type { Auth } from '../auth/auth';
import { findCurrentUser } from '../auth/current-user';
import { AppError } from './app-error';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Served without a session (sign-in, health, provider webhooks): the reason sits beside the route. */
    public?: boolean;
    /** The 401's message on this route, where the product gives one of its own. */
    unauthenticatedMessage?: string;
  }
}

/** Whether a matched route is part of the API (its declared path, so any encoding of a URL is judged by the route it reaches). */
export function isApiRoute(routeUrl: string | undefined): boolean {
  return routeUrl !== undefined && (routeUrl.startsWith('/api/') || routeUrl.startsWith('/functions/'));
}

/**
 * Every API route needs a session unless its options say `config: { public: true }`, so a route
 * added tomorrow is closed by default. The check runs before the body is validated: without a
 * session the answer is 401 whatever was sent, and the schema is never described to a stranger.
 * The user found stays with the request for `requireUser` and the websocket upgrades.
 */
export function requireSessions(app: FastifyInstance, auth: Auth) {
  app.addHook('preValidation', async (request, reply) => {
    if (request.is404 || !isApiRoute(request.routeOptions.url)) return;
    const { config } = request.routeOptions;
    if (config.public) return;
    const user = await findCurrentUser(auth, request, reply);
    if (!user) throw AppError.unauthenticated(config.unauthenticatedMessage);
  });
}
