import { z } from 'zod/mini';
import { voiceTypes } from '../voice';
import { voiceSettingsSchema } from './calls';
import { miniTextField } from './mini-text-field';

export const CONTACT_NAME_MAX_LENGTH = 100;
export const CONTACT_PHONE_MAX_LENGTH = 32;
export const CONTACT_EMAIL_MAX_LENGTH = 254;
export const CONTACT_SEARCH_MAX_LENGTH = 100;

export const contactNameField = miniTextField('Name').check(
  z.trim(),
  z.minLength(1, 'Name is required'),
  z.maxLength(CONTACT_NAME_MAX_LENGTH, `Name must be at most ${CONTACT_NAME_MAX_LENGTH} characters`),
);

/**
 * As typed: the server reads it with libphonenumber-js (without a country code, in the country of
 * the user's first rented number, else the US) and stores it in E.164.
 */
export const contactPhoneField = miniTextField('Phone number').check(
  z.trim(),
  z.minLength(1, 'Phone number is required'),
  z.maxLength(CONTACT_PHONE_MAX_LENGTH, `Phone number must be at most ${CONTACT_PHONE_MAX_LENGTH} characters`),
);

const emailFormat = z.email();

/** Optional (docs/product.md §5): '' or null is stored as null; anything else must be an address. */
export const contactEmailField = z.pipe(
  z
    .pipe(
      z.union([z.null(), miniTextField('Email')], { error: 'Email must be text' }),
      z.transform((value) => (value === null ? '' : value.trim())),
    )
    .check(
      z.refine((value) => value.length <= CONTACT_EMAIL_MAX_LENGTH, `Email must be at most ${CONTACT_EMAIL_MAX_LENGTH} characters`),
      z.refine((value) => value === '' || emailFormat.safeParse(value).success, 'Enter a valid email address'),
    ),
  z.transform((value) => (value === '' ? null : value)),
);

/** The voice calls to the contact use (issue 20 item 5): null uses the caller's own settings. */
const contactVoiceField = z.nullable(
  z.strictObject(voiceSettingsSchema.shape, {
    error: (issue) =>
      issue.code === 'unrecognized_keys'
        ? `Voice has unknown settings: ${issue.keys.join(', ')}`
        : 'Voice must be null (use my default) or an object with voiceType, pitch and speed',
  }),
);

export const createContactBodySchema = z.strictObject({
  name: contactNameField,
  phoneNumber: contactPhoneField,
  email: z.optional(contactEmailField),
  voice: z.optional(contactVoiceField),
});

export const updateContactBodySchema = z
  .strictObject({
    name: z.optional(contactNameField),
    phoneNumber: z.optional(contactPhoneField),
    email: z.optional(contactEmailField),
    voice: z.optional(contactVoiceField),
  })
  .check(z.refine((body) => Object.keys(body).length > 0, 'Nothing to update'));

export const contactsQuerySchema = z.object({
  q: z.optional(
    miniTextField('Search').check(z.trim(), z.maxLength(CONTACT_SEARCH_MAX_LENGTH, `Search must be at most ${CONTACT_SEARCH_MAX_LENGTH} characters`)),
  ),
});

/** A contact; phoneNumber in E.164. */
export const contactSchema = z.object({
  id: z.string(),
  name: z.string(),
  phoneNumber: z.string(),
  email: z.nullable(z.string()),
  /** Stored values, already on the step; null uses the caller's own settings. */
  voice: z.nullable(z.object({ voiceType: z.enum(voiceTypes), pitch: z.number(), speed: z.number() })),
});

export const contactsSchema = z.object({ contacts: z.array(contactSchema) });

export const contactIdParamsSchema = z.object({ id: miniTextField('Contact id') });

export type Contact = z.infer<typeof contactSchema>;
export type CreateContactBody = z.input<typeof createContactBodySchema>;
export type UpdateContactBody = z.input<typeof updateContactBodySchema>;
