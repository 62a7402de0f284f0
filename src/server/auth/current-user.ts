import type { FastifyReply, FastifyRequest } from 'fastify';
import type { SessionUser } from '../../common/api/session';
import { AppError } from '../http/app-error';
import type { Auth } from './auth';
import { authHeaders, forwardCookies } from './better-auth-bridge';

/**
 * The signed-in user of this request, or null. Reading the session also renews it while it is
 * used (better-auth moves the expiry on once a day), so the renewed cookie is passed on.
 */
export async function findCurrentUser(auth: Auth, request: FastifyRequest, reply: FastifyReply): Promise<SessionUser | null> {
  const { headers, response } = await auth.api.getSession({ headers: authHeaders(request), returnHeaders: true });
  forwardCookies(reply, headers);
  if (!response) return null;
  return { id: response.user.id, email: response.user.email, fullName: response.user.name };
}

export async function requireUser(auth: Auth, request: FastifyRequest, reply: FastifyReply): Promise<SessionUser> {
  const user = await findCurrentUser(auth, request, reply);
  if (!user) throw AppError.unauthenticated();
  return user;
}
