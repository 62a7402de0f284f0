import { z } from 'zod/mini';
import { toE164 } from '../phone';
import { emailField, fullNameField, NEW_PASSWORDS_DIFFER, newPasswordConfirmationField, newPasswordField, passwordField, sameNewPassword, twoFactorCodeField } from './auth';
import { miniTextField } from './mini-text-field';

export const accountSchema = z.object({
  id: z.string(),
  fullName: z.string(),
  email: z.string(),
  emailVerified: z.boolean(),
  phone: z.nullable(z.string()),
  twoFactorEnabled: z.boolean(),
});

/** '' clears the phone number; anything else must be a valid number in international form. */
const phoneField = z.pipe(
  miniTextField('Phone number').check(z.maxLength(32, 'Phone number is too long')),
  z.transform((value, ctx) => {
    if (value.trim() === '') return null;
    const e164 = toE164(value);
    if (!e164) {
      ctx.issues.push({ code: 'custom', message: 'Enter a valid phone number with its country code, e.g. +1 415 555 0100', input: value });
      return z.NEVER;
    }
    return e164;
  }),
);

export const updateAccountBodySchema = z
  .strictObject({ fullName: z.optional(fullNameField), email: z.optional(emailField), phone: z.optional(phoneField) })
  .check(z.refine((body) => Object.keys(body).length > 0, 'Nothing to update'));

export const updateAccountResultSchema = z.object({
  account: accountSchema,
  /** Set when an email change waits for the link sent to the new address. */
  pendingEmail: z.nullable(z.string()),
});

export const changePasswordBodySchema = z.strictObject({
  currentPassword: miniTextField('Current password').check(z.minLength(1, 'Current password is required'), z.maxLength(128, 'Current password is too long')),
  newPassword: newPasswordField,
});

/** The Change Password form: the body, and the new password typed a second time. */
export const changePasswordFormSchema = z
  .extend(changePasswordBodySchema, { confirmation: newPasswordConfirmationField })
  .check(z.refine(sameNewPassword, NEW_PASSWORDS_DIFFER));

export const passwordConfirmBodySchema = z.strictObject({ password: passwordField });

export const enableTwoFactorResultSchema = z.object({
  totpUri: z.string(),
  /** The otpauth URI as a QR code, an SVG data URL. */
  qrCode: z.string(),
  backupCodes: z.array(z.string()),
});

export const confirmTwoFactorBodySchema = z.strictObject({ code: twoFactorCodeField });

export type Account = z.infer<typeof accountSchema>;
export type UpdateAccountBody = z.input<typeof updateAccountBodySchema>;
export type EnableTwoFactorResult = z.infer<typeof enableTwoFactorResultSchema>;
