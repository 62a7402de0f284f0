import { parseCookies } from 'better-auth/cookies';
import { constantTimeEqual, makeSignature } from 'better-auth/crypto';
import { eq } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import type { Database } from '../db/client';
import type { Auth } from './auth';
import { twoFactor } from './schema';

// better-auth's name for the cookie of a sign-in that waits on its second factor (two-factor plugin).
const TWO_FACTOR_COOKIE = 'two_factor';

/**
 * The user whose sign-in waits on a second factor in this request, or null. better-auth's two-factor
 * cookie carries, signed with the auth secret, the identifier of a verification row whose value is the
 * user's id. Knowing the user before the code is checked lets wrong codes count against the account
 * whichever address they come from.
 */
export async function pendingTwoFactorUserId(auth: Auth, request: FastifyRequest): Promise<string | null> {
  const context = await auth.$context;
  const signed = parseCookies(request.headers.cookie ?? '').get(context.createAuthCookie(TWO_FACTOR_COOKIE).name);
  const dot = signed?.lastIndexOf('.') ?? -1;
  if (!signed || dot < 1) return null;
  const identifier = signed.slice(0, dot);
  if (!constantTimeEqual(signed.slice(dot + 1), await makeSignature(identifier, context.secret))) return null;
  const pending = await context.internalAdapter.findVerificationValue(identifier);
  return pending && pending.expiresAt > new Date() ? pending.value : null;
}

/** How long better-auth's own lock on the user's second factor, set after repeated wrong codes, still lasts. */
export async function twoFactorLockMsLeft(db: Database, userId: string): Promise<number> {
  const [row] = await db.select({ lockedUntil: twoFactor.lockedUntil }).from(twoFactor).where(eq(twoFactor.userId, userId));
  return Math.max(0, (row?.lockedUntil?.getTime() ?? 0) - Date.now());
}
