import type { FastifyReply, FastifyRequest } from 'fastify';
import type { SessionUser } from '../../common/api/session';
import type { Auth } from '../auth/auth';
import { requireUser } from '../auth/current-user';
import { AppError } from '../http/app-error';

/** Whether `email` is one of ADMIN_EMAILS (already lower-cased by config.ts): case does not matter. */
export function isAdmin(email: string, adminEmails: readonly string[]): boolean {
  return adminEmails.includes(email.toLowerCase());
}

/**
 * The signed-in administrator of this request. Anyone else signed in gets 403 before the request
 * is read, so the admin routes' inputs are never described to them; without a session, 401.
 */
export async function requireAdmin(auth: Auth, adminEmails: readonly string[], request: FastifyRequest, reply: FastifyReply): Promise<SessionUser> {
  const user = await requireUser(auth, request, reply);
  if (!isAdmin(user.email, adminEmails)) throw new AppError(403, 'admin_only', 'Only Voxline administrators can do this.');
  return user;
}
