import { eq } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import QRCode from 'qrcode';
import {
  accountSchema,
  changePasswordBodySchema,
  confirmTwoFactorBodySchema,
  enableTwoFactorResultSchema,
  passwordConfirmBodySchema,
  updateAccountBodySchema,
  updateAccountResultSchema,
  type Account,
} from '../../common/api/account';
import { okSchema } from '../../common/api/auth';
import type { Auth } from '../auth/auth';
import { authHeaders, forwardCookies, translateAuthError } from '../auth/better-auth-bridge';
import { currentSessionId, requireUser } from '../auth/current-user';
import { assertStrongPassword } from '../auth/password-rules';
import { user as userTable } from '../auth/schema';
import { claimTwoFactorCode } from '../auth/two-factor-replay';
import type { Database } from '../db/client';
import { AppError } from '../http/app-error';
import type { SessionSockets } from '../realtime/session-sockets';

const wrongPassword = new AppError(400, 'invalid_password', 'Password is incorrect', 'password');

async function loadAccount(db: Database, userId: string): Promise<Account> {
  const [row] = await db.select().from(userTable).where(eq(userTable.id, userId));
  if (!row) throw AppError.unauthenticated();
  return {
    id: row.id,
    fullName: row.name,
    email: row.email,
    emailVerified: row.emailVerified,
    phone: row.phone,
    twoFactorEnabled: row.twoFactorEnabled ?? false,
  };
}

export const accountRoutes: FastifyPluginAsyncZod<{ auth: Auth; db: Database; sessionSockets: SessionSockets }> = async (app, { auth, db, sessionSockets }) => {
  app.get('/account', { schema: { response: { 200: accountSchema } } }, async (request, reply) => {
    const user = await requireUser(auth, request, reply);
    return loadAccount(db, user.id);
  });

  app.patch('/account', { config: { sync: ['account'] }, schema: { body: updateAccountBodySchema, response: { 200: updateAccountResultSchema } } }, async (request, reply) => {
    const user = await requireUser(auth, request, reply);
    const { fullName, email, phone } = request.body;
    const headers = authHeaders(request);
    const current = await loadAccount(db, user.id);
    const wantsNewEmail = email !== undefined && email.toLowerCase() !== current.email;
    try {
      if (fullName !== undefined || phone !== undefined) {
        const result = await auth.api.updateUser({
          body: { ...(fullName !== undefined ? { name: fullName } : {}), ...(phone !== undefined ? { phone } : {}) },
          headers,
          returnHeaders: true,
        });
        forwardCookies(reply, result.headers);
      }
      // The address changes only once the link sent to the new address is followed.
      if (wantsNewEmail) await auth.api.changeEmail({ body: { newEmail: email, callbackURL: '/settings?tab=account' }, headers });
    } catch (error) {
      translateAuthError(error);
    }
    return { account: await loadAccount(db, user.id), pendingEmail: wantsNewEmail ? email.toLowerCase() : null };
  });

  app.post('/account/password', { schema: { body: changePasswordBodySchema, response: { 200: okSchema } } }, async (request, reply) => {
    const user = await requireUser(auth, request, reply);
    const { currentPassword, newPassword } = request.body;
    assertStrongPassword(newPassword, 'newPassword', user);
    try {
      const result = await auth.api.changePassword({
        body: { currentPassword, newPassword, revokeOtherSessions: true },
        headers: authHeaders(request),
        returnHeaders: true,
      });
      forwardCookies(reply, result.headers);
      await sessionSockets.passwordChanged(user.id, currentSessionId(request), result.response.token);
    } catch (error) {
      translateAuthError(error, { INVALID_PASSWORD: new AppError(400, 'invalid_password', 'Current password is incorrect', 'currentPassword') });
    }
    return { ok: true as const, message: 'Your password has been changed and your other sessions were signed out.' };
  });

  app.post('/account/two-factor/enable', { schema: { body: passwordConfirmBodySchema, response: { 200: enableTwoFactorResultSchema } } }, async (request, reply) => {
    await requireUser(auth, request, reply);
    try {
      const enabled = await auth.api.enableTwoFactor({ body: { password: request.body.password }, headers: authHeaders(request) });
      if (enabled.method !== 'totp') throw new Error('two-factor enable did not return a TOTP secret');
      const { totpURI, backupCodes } = enabled;
      const svg = await QRCode.toString(totpURI, { type: 'svg', margin: 1 });
      return { totpUri: totpURI, qrCode: `data:image/svg+xml;base64,${Buffer.from(svg).toString('base64')}`, backupCodes };
    } catch (error) {
      translateAuthError(error, { INVALID_PASSWORD: wrongPassword });
    }
  });

  app.post('/account/two-factor/confirm', { config: { sync: ['account'] }, schema: { body: confirmTwoFactorBodySchema, response: { 200: accountSchema } } }, async (request, reply) => {
    const user = await requireUser(auth, request, reply);
    const code = request.body.code.replace(/\s+/g, '');
    try {
      const result = await auth.api.verifyTOTP({ body: { code }, headers: authHeaders(request), returnHeaders: true });
      forwardCookies(reply, result.headers);
    } catch (error) {
      translateAuthError(error, {
        INVALID_CODE: new AppError(400, 'invalid_code', 'That code is not valid. Check your authenticator app and try again.', 'code'),
        TOTP_NOT_ENABLED: new AppError(400, 'two_factor_not_started', 'Start again: enter your password to set up two-factor authentication.'),
      });
    }
    await claimTwoFactorCode(db, user.id, code);
    return loadAccount(db, user.id);
  });

  app.post('/account/two-factor/disable', { config: { sync: ['account'] }, schema: { body: passwordConfirmBodySchema, response: { 200: accountSchema } } }, async (request, reply) => {
    const user = await requireUser(auth, request, reply);
    try {
      const result = await auth.api.disableTwoFactor({ body: { password: request.body.password }, headers: authHeaders(request), returnHeaders: true });
      forwardCookies(reply, result.headers);
    } catch (error) {
      translateAuthError(error, { INVALID_PASSWORD: wrongPassword });
    }
    return loadAccount(db, user.id);
  });
};
