import { betterAuth } from 'better-auth';
import { drizzleAdapter } from 'better-auth/adapters/drizzle';
import { twoFactor } from 'better-auth/plugins';
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from '../../common/api/auth';
import type { Config } from '../config';
import type { Database } from '../db/client';
import type { Mailer } from '../mail/mailer';
import { changeEmailMessage, confirmEmailMessage, resetPasswordMessage } from '../mail/templates';
import { authLogTo, type AuthLog } from './auth-log';
import * as authTables from './schema';

const DAY_SECONDS = 24 * 60 * 60;

export interface AuthDependencies {
  config: Config;
  db: Database;
  mailer: Mailer;
  secret: string;
  log: AuthLog;
}

/** better-auth on our database: email and password, reset and change of email by link, TOTP two-factor. */
export function createAuth({ config, db, mailer, secret, log }: AuthDependencies) {
  const secure = config.NODE_ENV === 'production' && config.publicUrl.startsWith('https://');
  return betterAuth({
    appName: 'Voxline',
    baseURL: config.publicUrl,
    basePath: '/api/auth',
    secret,
    trustedOrigins: [new URL(config.publicUrl).origin],
    database: drizzleAdapter(db, { provider: 'pg', schema: authTables }),
    emailAndPassword: {
      enabled: true,
      // Decision 014; our routes also refuse a guessable password before better-auth is asked.
      minPasswordLength: PASSWORD_MIN_LENGTH,
      maxPasswordLength: PASSWORD_MAX_LENGTH,
      // docs/product.md §4: after signing up the person logs in on the Login tab.
      autoSignIn: false,
      requireEmailVerification: config.REQUIRE_EMAIL_VERIFICATION,
      resetPasswordTokenExpiresIn: 60 * 60,
      revokeSessionsOnPasswordReset: true,
      sendResetPassword: async ({ user, token }) => {
        const url = `${config.publicUrl}/auth?tab=updatePassword&token=${encodeURIComponent(token)}`;
        await mailer.send(resetPasswordMessage(user.email, user.name, url));
      },
    },
    emailVerification: {
      sendOnSignUp: true,
      sendOnSignIn: config.REQUIRE_EMAIL_VERIFICATION,
      expiresIn: DAY_SECONDS,
      sendVerificationEmail: async ({ user, url }) => {
        // A change of address sends the link to the new address; better-auth passes it as user.email.
        const isChange = new URL(url).searchParams.get('callbackURL')?.startsWith('/settings') ?? false;
        await mailer.send(isChange ? changeEmailMessage(user.email, user.name, url) : confirmEmailMessage(user.email, user.name, url));
      },
    },
    user: {
      changeEmail: { enabled: true },
      additionalFields: { phone: { type: 'string', required: false, input: true } },
    },
    session: {
      expiresIn: 7 * DAY_SECONDS,
      updateAge: DAY_SECONDS,
    },
    // Our routes in front of better-auth do the rate limiting (per IP and per address).
    rateLimit: { enabled: false },
    advanced: {
      useSecureCookies: secure,
      cookiePrefix: 'voxline',
      // Fastify knows the client's address; authHeaders() passes it in this header, overwriting any sent.
      ipAddress: { ipAddressHeaders: ['x-voxline-client-ip'] },
    },
    plugins: [twoFactor({ issuer: 'Voxline', backupCodeOptions: { amount: 10, length: 10 } })],
    logger: { disabled: config.NODE_ENV === 'test', level: 'debug', log: authLogTo(log) },
  });
}

export type Auth = ReturnType<typeof createAuth>;
