import { z } from 'zod';
import { toE164 } from '../phone';
import { emailField, fullNameField, NEW_PASSWORDS_DIFFER, newPasswordConfirmationField, newPasswordField, passwordField, sameNewPassword, twoFactorCodeField } from './auth';
import { textField } from './fields';

export const accountSchema = z.object({
  id: z.string(),
  fullName: z.string(),
  email: z.string(),
  emailVerified: z.boolean(),
  phone: z.string().nullable(),
  twoFactorEnabled: z.boolean(),
});

/** '' clears the phone number; anything else must be a valid number in international form. */
const phoneField = textField('Phone number')
  .max(32, 'Phone number is too long')
  .transform((value, ctx) => {
    if (value.trim() === '') return null;
    const e164 = toE164(value);
    if (!e164) {
      ctx.addIssue({ code: 'custom', message: 'Enter a valid phone number with its country code, e.g. +1 415 555 0100' });
      return z.NEVER;
    }
    return e164;
  });

export const updateAccountBodySchema = z
  .strictObject({ fullName: z.optional(fullNameField), email: z.optional(emailField), phone: phoneField.optional() })
  .refine((body) => Object.keys(body).length > 0, 'Nothing to update');

export const updateAccountResultSchema = z.object({
  account: accountSchema,
  /** Set when an email change waits for the link sent to the new address. */
  pendingEmail: z.string().nullable(),
});

export const changePasswordBodySchema = z.strictObject({
  currentPassword: textField('Current password').min(1, 'Current password is required').max(128, 'Current password is too long'),
  newPassword: newPasswordField,
});

/** The Change Password form: the body, and the new password typed a second time. */
export const changePasswordFormSchema = changePasswordBodySchema
  .extend({ confirmation: newPasswordConfirmationField })
  .refine(sameNewPassword, NEW_PASSWORDS_DIFFER);

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
