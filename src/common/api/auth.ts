import { z } from 'zod';
import { sessionUserSchema } from './session';

export const PASSWORD_MIN_LENGTH = 8;
export const PASSWORD_MAX_LENGTH = 128;

export const emailField = z.email({ error: 'Enter a valid email address' }).max(254, 'Email must be at most 254 characters');
export const newPasswordField = z
  .string({ error: 'Password is required' })
  .min(PASSWORD_MIN_LENGTH, `Password must be at least ${PASSWORD_MIN_LENGTH} characters`)
  .max(PASSWORD_MAX_LENGTH, `Password must be at most ${PASSWORD_MAX_LENGTH} characters`);
export const fullNameField = z
  .string({ error: 'Full name is required' })
  .trim()
  .min(1, 'Full name is required')
  .max(100, 'Full name must be at most 100 characters');
const passwordField = z.string({ error: 'Password is required' }).min(1, 'Password is required').max(PASSWORD_MAX_LENGTH, 'Password is too long');

export const signUpBodySchema = z.strictObject({ fullName: fullNameField, email: emailField, password: newPasswordField });
export const signUpResultSchema = z.object({ emailVerificationRequired: z.boolean() });

export const signInBodySchema = z.strictObject({ email: emailField, password: passwordField });
export const signInResultSchema = z.discriminatedUnion('status', [
  z.object({ status: z.literal('signed-in'), user: sessionUserSchema }),
  z.object({ status: z.literal('two-factor-required') }),
]);

/** A 6-digit authenticator code, or one of the backup codes. */
export const twoFactorCodeField = z
  .string({ error: 'Enter the code' })
  .trim()
  .min(6, 'Enter the 6-digit code or a backup code')
  .max(32, 'That code is too long');
export const twoFactorVerifyBodySchema = z.strictObject({ code: twoFactorCodeField });

export const passwordResetRequestBodySchema = z.strictObject({ email: emailField });
export const passwordResetConfirmBodySchema = z.strictObject({
  token: z.string({ error: 'The reset link is incomplete' }).min(1, 'The reset link is incomplete').max(512, 'The reset link is invalid'),
  newPassword: newPasswordField,
});

export const okSchema = z.object({ ok: z.literal(true), message: z.string().optional() });

export type SignUpBody = z.infer<typeof signUpBodySchema>;
export type SignInBody = z.infer<typeof signInBodySchema>;
export type SignInResult = z.infer<typeof signInResultSchema>;
