import { z } from 'zod/mini';
import { miniTextField } from './mini-text-field';
import { sessionUserSchema } from './session';

// zod/mini, as the session's schema: the sign-in page loads these (decision 021). Schemas written in
// classic zod take them as they are (account.ts); their methods are zod/mini's functions here.

/** Decision 014: at least 10 characters, and zxcvbn's score 3 (src/common/password-strength.ts), checked by the server. */
export const PASSWORD_MIN_LENGTH = 10;
export const PASSWORD_MAX_LENGTH = 128;

export const emailField = z.pipe(
  miniTextField('Email').check(z.minLength(1, 'Email is required'), z.maxLength(254, 'Email must be at most 254 characters')),
  z.email({ error: 'Enter a valid email address' }),
);
/** The length rule only: how guessable the password is needs the dictionaries, loaded apart (decision 014). */
export const newPasswordField = miniTextField('Password').check(
  z.minLength(PASSWORD_MIN_LENGTH, `Password must be at least ${PASSWORD_MIN_LENGTH} characters`),
  z.maxLength(PASSWORD_MAX_LENGTH, `Password must be at most ${PASSWORD_MAX_LENGTH} characters`),
);
export const fullNameField = miniTextField('Full name').check(
  z.trim(),
  z.minLength(1, 'Full name is required'),
  z.maxLength(100, 'Full name must be at most 100 characters'),
);
/** A password being checked, not chosen: any length up to the maximum. */
export const passwordField = miniTextField('Password').check(z.minLength(1, 'Password is required'), z.maxLength(PASSWORD_MAX_LENGTH, 'Password is too long'));

export const signUpBodySchema = z.strictObject({ fullName: fullNameField, email: emailField, password: newPasswordField });
export const signUpResultSchema = z.object({ emailVerificationRequired: z.boolean() });

export const signInBodySchema = z.strictObject({ email: emailField, password: passwordField });
export const signInResultSchema = z.discriminatedUnion('status', [
  z.object({ status: z.literal('signed-in'), user: sessionUserSchema }),
  z.object({ status: z.literal('two-factor-required') }),
]);

/** A 6-digit authenticator code, or one of the backup codes. */
export const twoFactorCodeField = miniTextField('Code').check(z.trim(), z.minLength(6, 'Enter the 6-digit code or a backup code'), z.maxLength(32, 'That code is too long'));
export const twoFactorVerifyBodySchema = z.strictObject({ code: twoFactorCodeField });

export const passwordResetRequestBodySchema = z.strictObject({ email: emailField });
export const passwordResetConfirmBodySchema = z.strictObject({
  token: miniTextField('Reset link', { required: 'The reset link is incomplete' }).check(z.minLength(1, 'The reset link is incomplete'), z.maxLength(512, 'The reset link is invalid')),
  newPassword: newPasswordField,
});

/** What the forms that choose a new password check before sending it: typed twice, the same both times. The copy stays in the browser. */
export const newPasswordConfirmationField = z.string().check(z.minLength(1, 'Type the new password again'));
export const sameNewPassword = (form: { newPassword: string; confirmation: string }) => form.newPassword === form.confirmation;
export const NEW_PASSWORDS_DIFFER = { message: 'The new passwords do not match.', path: ['confirmation'] };

/** The form of the reset email's link: the new password, typed twice. */
export const newPasswordWithConfirmationSchema = z
  .object({ newPassword: newPasswordField, confirmation: newPasswordConfirmationField })
  .check(z.refine(sameNewPassword, NEW_PASSWORDS_DIFFER));

export const okSchema = z.object({ ok: z.literal(true), message: z.optional(z.string()) });

export type SignUpBody = z.infer<typeof signUpBodySchema>;
export type SignInBody = z.infer<typeof signInBodySchema>;
export type SignInResult = z.infer<typeof signInResultSchema>;
