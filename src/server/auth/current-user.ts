import type { FastifyReply, FastifyRequest } from 'fastify';
import type { SessionUser } from '../../common/api/session';
import { AppError } from '../http/app-error';
import type { Auth } from './auth';
import { authHeaders, forwardCookies } from './better-auth-bridge';

/**
 * Users already looked up for a request: the app-level session check (http/require-session.ts)
 * finds the user before the handler asks again, and a second lookup would query the database and
 * forward the renewed cookie twice.
 */
const foundUsers = new WeakMap<FastifyRequest, SessionUser | null>();
/** The id of the session each signed-in request was found with (a websocket remembers it, to close when it is revoked). */
const foundSessionIds = new WeakMap<FastifyRequest, string>();

/**
 * The signed-in user of this request, or null. Reading the session also renews it while it is
 * used (better-auth moves the expiry on once a day), so the renewed cookie is passed on.
 */
export async function findCurrentUser(auth: Auth, request: FastifyRequest, reply: FastifyReply): Promise<SessionUser | null> {
  const known = foundUsers.get(request);
  if (known !== undefined) return known;
  const { headers, response } = await auth.api.getSession({ headers: authHeaders(request), returnHeaders: true });
  forwardCookies(reply, headers);
  const user = response ? { id: response.user.id, email: response.user.email, fullName: response.user.name } : null;
  foundUsers.set(request, user);
  if (response) foundSessionIds.set(request, response.session.id);
  return user;
}

/** The session the request's user was found with by findCurrentUser, if any. */
export function currentSessionId(request: FastifyRequest): string | undefined {
  return foundSessionIds.get(request);
}

export async function requireUser(auth: Auth, request: FastifyRequest, reply: FastifyReply): Promise<SessionUser> {
  const user = await findCurrentUser(auth, request, reply);
  if (!user) throw AppError.unauthenticated();
  return user;
}
