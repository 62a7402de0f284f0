import { isAPIError } from 'better-auth/api';
import { eq } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  okSchema,
  passwordResetConfirmBodySchema,
  passwordResetRequestBodySchema,
  signInBodySchema,
  signInResultSchema,
  signUpBodySchema,
  signUpResultSchema,
  twoFactorVerifyBodySchema,
} from '../../common/api/auth';
import { sessionAnswerSchema } from '../../common/api/session';
import { isAdmin } from '../admin/admins';
import type { Config } from '../config';
import type { Database } from '../db/client';
import { AppError } from '../http/app-error';
import type { SessionSockets } from '../realtime/session-sockets';
import { beginLimitedAttempt, clientNetwork, rateLimited, type RateLimiter } from '../http/rate-limiter';
import type { Auth } from './auth';
import { authHeaders, forwardCookies, translateAuthError } from './better-auth-bridge';
import { findCurrentUser } from './current-user';
import { assertStrongPassword, assertStrongResetPassword } from './password-rules';
import { pendingTwoFactorUserId, twoFactorLockMsLeft } from './pending-two-factor';
import { resetTokenOwner } from './reset-token-owner';
import { session as sessionTable } from './schema';
import { claimTwoFactorCode } from './two-factor-replay';

const MINUTE = 60_000;
const limits = {
  signUpPerIp: { limit: 10, windowMs: 60 * MINUTE },
  // Failed attempts only (decision 013). A wrong password counts against its account from its address
  // and against the address's ceiling, never against the account alone: guesses from elsewhere cannot
  // stop the owner's sign-in. A wrong code also counts against the user: only the password gets that far.
  signInFailuresPerAccountAndIp: { limit: 10, windowMs: 15 * MINUTE },
  signInFailuresPerIp: { limit: 100, windowMs: 15 * MINUTE },
  twoFactorFailuresPerUser: { limit: 10, windowMs: 15 * MINUTE },
  twoFactorFailuresPerIp: { limit: 20, windowMs: 15 * MINUTE },
  resetPerIp: { limit: 10, windowMs: 15 * MINUTE },
  resetPerEmail: { limit: 3, windowMs: 15 * MINUTE },
};

const tooManySignInFailures = 'Too many failed sign-in attempts from this device.';
const tooManyWrongCodesHere = 'Too many wrong codes from this device.';
const tooManyWrongCodesForAccount = 'Too many wrong codes for this account.';

/** better-auth's code for a failure it answered (INVALID_EMAIL_OR_PASSWORD, INVALID_CODE…). */
const betterAuthCode = (error: unknown) => (isAPIError(error) ? (error.body as { code?: string } | undefined)?.code : undefined);

const invalidCredentials = new AppError(401, 'invalid_credentials', 'Invalid email or password');
const invalidCode = new AppError(401, 'invalid_code', 'That code is not valid. Check your authenticator app and try again.');

interface AuthRouteOptions {
  auth: Auth;
  config: Config;
  db: Database;
  rateLimiter: RateLimiter;
  /** Closes the websockets of the sessions that signing out and resets end. */
  sessionSockets: SessionSockets;
}

export const authRoutes: FastifyPluginAsyncZod<AuthRouteOptions> = async (app, { auth, config, db, rateLimiter, sessionSockets }) => {
  app.post('/auth/sign-up', { config: { public: true }, schema: { body: signUpBodySchema, response: { 201: signUpResultSchema } } }, async (request, reply) => {
    await rateLimiter.hit(`sign-up:ip:${request.ip}`, limits.signUpPerIp);
    const { fullName, email, password } = request.body;
    assertStrongPassword(password, 'password', { fullName, email });
    try {
      await auth.api.signUpEmail({ body: { name: fullName, email, password, callbackURL: '/auth' }, headers: authHeaders(request) });
    } catch (error) {
      translateAuthError(error);
    }
    return reply.code(201).send({ emailVerificationRequired: config.REQUIRE_EMAIL_VERIFICATION });
  });

  app.post('/auth/sign-in', { config: { public: true }, schema: { body: signInBodySchema, response: { 200: signInResultSchema } } }, async (request, reply) => {
    const { email, password } = request.body;
    const network = clientNetwork(request.ip);
    const accountHere = `sign-in:account:${email.toLowerCase()}:ip:${network}`;
    const attempt = await beginLimitedAttempt(rateLimiter, [
      { key: accountHere, rule: limits.signInFailuresPerAccountAndIp, reason: tooManySignInFailures },
      { key: `sign-in:ip:${network}`, rule: limits.signInFailuresPerIp, reason: tooManySignInFailures },
    ]);
    let signedIn;
    try {
      signedIn = await auth.api.signInEmail({ body: { email, password, callbackURL: '/auth' }, headers: authHeaders(request), returnHeaders: true });
    } catch (error) {
      if (betterAuthCode(error) === 'INVALID_EMAIL_OR_PASSWORD') await attempt.failed();
      else await attempt.release();
      translateAuthError(error, {
        INVALID_EMAIL_OR_PASSWORD: invalidCredentials,
        EMAIL_NOT_VERIFIED: new AppError(403, 'email_not_verified', 'Please confirm your email address first: we have sent you a new link.'),
      });
    }
    // The password was right: this attempt and the mistakes before it from this device no longer count.
    await attempt.release();
    await rateLimiter.clear(accountHere);
    const { headers, response } = signedIn;
    forwardCookies(reply, headers);
    if ('twoFactorRedirect' in response && response.twoFactorRedirect) return { status: 'two-factor-required' as const };
    if (!('user' in response)) throw new Error('better-auth signed in without a user');
    return { status: 'signed-in' as const, user: { id: response.user.id, email: response.user.email, fullName: response.user.name } };
  });

  app.post('/auth/two-factor', { config: { public: true }, schema: { body: twoFactorVerifyBodySchema, response: { 200: signInResultSchema } } }, async (request, reply) => {
    const userId = await pendingTwoFactorUserId(auth, request);
    const attempt = await beginLimitedAttempt(rateLimiter, [
      ...(userId ? [{ key: `two-factor:user:${userId}`, rule: limits.twoFactorFailuresPerUser, reason: tooManyWrongCodesForAccount }] : []),
      { key: `two-factor:ip:${clientNetwork(request.ip)}`, rule: limits.twoFactorFailuresPerIp, reason: tooManyWrongCodesHere },
    ]);
    const code = request.body.code.replace(/\s+/g, '');
    const isTotp = /^\d{6}$/.test(code);
    let result: { headers: Headers; response: { token?: string | undefined; user: { id: string; email: string; name: string } } };
    try {
      result = isTotp
        ? await auth.api.verifyTOTP({ body: { code }, headers: authHeaders(request), returnHeaders: true })
        : await auth.api.verifyBackupCode({ body: { code }, headers: authHeaders(request), returnHeaders: true });
    } catch (error) {
      const failure = betterAuthCode(error);
      if (failure === 'INVALID_CODE' || failure === 'INVALID_BACKUP_CODE') await attempt.failed();
      else await attempt.release();
      // better-auth locks the second factor itself after ten wrong codes in a row, which can outlast our window.
      if (failure === 'ACCOUNT_TEMPORARILY_LOCKED' && userId) throw rateLimited(tooManyWrongCodesForAccount, await twoFactorLockMsLeft(db, userId));
      translateAuthError(error, {
        INVALID_CODE: invalidCode,
        INVALID_BACKUP_CODE: invalidCode,
        INVALID_TWO_FACTOR_COOKIE: new AppError(401, 'two_factor_expired', 'Your sign-in attempt has expired. Please log in again.'),
        // better-auth ends a pending sign-in after 5 wrong codes: only the password step starts another.
        TOO_MANY_ATTEMPTS_REQUEST_NEW_CODE: new AppError(401, 'two_factor_expired', 'Too many wrong codes for this sign-in. Please log in again.'),
      });
    }
    const { user, token } = result.response;
    if (isTotp && !(await claimTwoFactorCode(db, user.id, code))) {
      if (token) await db.delete(sessionTable).where(eq(sessionTable.token, token));
      await attempt.failed();
      throw new AppError(401, 'code_already_used', 'That code was already used. Wait for the next code in your authenticator app.');
    }
    await attempt.release();
    forwardCookies(reply, result.headers);
    return { status: 'signed-in' as const, user: { id: user.id, email: user.email, fullName: user.name } };
  });

  app.post('/auth/password-reset', { config: { public: true }, schema: { body: passwordResetRequestBodySchema, response: { 200: okSchema } } }, async (request) => {
    const email = request.body.email.toLowerCase();
    await rateLimiter.hit(`reset:ip:${request.ip}`, limits.resetPerIp);
    await rateLimiter.hit(`reset:email:${email}`, limits.resetPerEmail);
    try {
      await auth.api.requestPasswordReset({ body: { email }, headers: authHeaders(request) });
    } catch (error) {
      translateAuthError(error);
    }
    // The same answer whether or not the address has an account.
    return { ok: true as const, message: 'If an account uses this address, a reset link is on its way.' };
  });

  app.post('/auth/password-reset/confirm', { config: { public: true }, schema: { body: passwordResetConfirmBodySchema, response: { 200: okSchema } } }, async (request) => {
    await rateLimiter.hit(`reset:ip:${request.ip}`, limits.resetPerIp);
    const { token, newPassword } = request.body;
    await assertStrongResetPassword(auth, token, newPassword);
    // Known before the reset spends the token: better-auth ends all the user's sessions with it.
    const userId = await resetTokenOwner(auth, token);
    try {
      await auth.api.resetPassword({ body: { token, newPassword }, headers: authHeaders(request) });
    } catch (error) {
      translateAuthError(error, { INVALID_TOKEN: new AppError(400, 'invalid_token', 'This reset link is invalid or has expired', 'token') });
    }
    if (userId) await sessionSockets.revoked(userId);
    return { ok: true as const };
  });

  app.post('/auth/sign-out', { config: { public: true }, schema: { response: { 200: okSchema } } }, async (request, reply) => {
    const headers = authHeaders(request);
    const user = await findCurrentUser(auth, request, reply);
    // docs/product.md §4: global scope. Every session of the user ends, not only this browser's.
    if (user) await auth.api.revokeSessions({ headers });
    try {
      const result = await auth.api.signOut({ headers, returnHeaders: true });
      forwardCookies(reply, result.headers);
    } catch (error) {
      // A session that is already gone is what signing out asks for.
      translateAuthError(error, {});
    }
    if (user) await sessionSockets.revoked(user.id);
    return { ok: true as const };
  });

  // Public, answering null to a visitor who is not signed in: a 401 here, on every page a signed-out
  // visitor opens, would be an error in the browser's console (docs/decisions/025).
  app.get('/session', { config: { public: true }, schema: { response: { 200: sessionAnswerSchema } } }, async (request, reply) => {
    const user = await findCurrentUser(auth, request, reply);
    if (!user) return null;
    return { user, isAdmin: isAdmin(user.email, config.ADMIN_EMAILS) };
  });
};

/** The links in confirmation emails point at better-auth's verify-email endpoint, served as is. */
export const authLinkRoutes: FastifyPluginAsyncZod<{ auth: Auth; config: Config }> = async (app, { auth, config }) => {
  app.get('/api/auth/verify-email', { config: { public: true } }, async (request, reply) => {
    const url = new URL(request.url, config.publicUrl);
    const response = await auth.handler(new Request(url, { method: 'GET', headers: authHeaders(request) }));
    forwardCookies(reply, response.headers);
    const location = response.headers.get('location');
    if (location) return reply.redirect(location, response.status === 301 ? 301 : 302);
    return reply.code(response.status).type(response.headers.get('content-type') ?? 'application/json').send(await response.text());
  });
};
