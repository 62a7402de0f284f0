import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Auth } from '../auth/auth';
import { findCurrentUser } from '../auth/current-user';
import { AppError } from './app-error';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Served without a session (sign-in, health, provider webhooks): the reason sits beside the route. */
    public?: boolean;
    /** The 401's message on this route, where the product gives one of its own. */
    unauthenticatedMessage?: string;
    /**
     * Checks the session once the body is parsed, for a route whose 401 names what the body asked
     * for (the swift-payment compatibility route): a body that is not JSON answers 400 there first.
     */
    sessionCheckedAfterParsing?: boolean;
  }
}

/** Whether a matched route is part of the API (its declared path, so any encoding of a URL is judged by the route it reaches). */
export function isApiRoute(routeUrl: string | undefined): boolean {
  return routeUrl !== undefined && (routeUrl.startsWith('/api/') || routeUrl.startsWith('/functions/'));
}

/**
 * Every API route needs a session unless its options say `config: { public: true }`, so a route
 * added tomorrow is closed by default. The check runs before the body is even parsed: without a
 * session the answer is 401 whatever was sent (broken JSON included), and the schema is never
 * described to a stranger. The user found stays with the request for `requireUser` and the
 * websocket upgrades.
 */
export function requireSessions(app: FastifyInstance, auth: Auth) {
  const check = async (request: FastifyRequest, reply: FastifyReply) => {
    const user = await findCurrentUser(auth, request, reply);
    if (!user) throw AppError.unauthenticated(request.routeOptions.config.unauthenticatedMessage);
  };
  const guarded = (request: FastifyRequest) => !request.is404 && isApiRoute(request.routeOptions.url) && !request.routeOptions.config.public;
  app.addHook('preParsing', async (request, reply) => {
    if (guarded(request) && !request.routeOptions.config.sessionCheckedAfterParsing) await check(request, reply);
  });
  app.addHook('preValidation', async (request, reply) => {
    if (guarded(request) && request.routeOptions.config.sessionCheckedAfterParsing) await check(request, reply);
  });
}
