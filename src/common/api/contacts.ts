import { z } from 'zod';
import { voiceTypes } from '../voice';
import { voiceSettingsSchema } from './calls';
import { textField } from './fields';

export const CONTACT_NAME_MAX_LENGTH = 100;
export const CONTACT_PHONE_MAX_LENGTH = 32;
export const CONTACT_EMAIL_MAX_LENGTH = 254;
export const CONTACT_SEARCH_MAX_LENGTH = 100;

export const contactNameField = textField('Name')
  .trim()
  .min(1, 'Name is required')
  .max(CONTACT_NAME_MAX_LENGTH, `Name must be at most ${CONTACT_NAME_MAX_LENGTH} characters`);

/**
 * As typed: the server reads it with libphonenumber-js (without a country code, in the country of
 * the user's first rented number, else the US) and stores it in E.164.
 */
export const contactPhoneField = textField('Phone number')
  .trim()
  .min(1, 'Phone number is required')
  .max(CONTACT_PHONE_MAX_LENGTH, `Phone number must be at most ${CONTACT_PHONE_MAX_LENGTH} characters`);

const emailFormat = z.email();

/** Optional (docs/product.md §5): '' or null is stored as null; anything else must be an address. */
export const contactEmailField = z
  .union([z.null(), textField('Email')], { error: 'Email must be text' })
  .transform((value) => (value === null ? '' : value.trim()))
  .refine((value) => value.length <= CONTACT_EMAIL_MAX_LENGTH, `Email must be at most ${CONTACT_EMAIL_MAX_LENGTH} characters`)
  .refine((value) => value === '' || emailFormat.safeParse(value).success, 'Enter a valid email address')
  .transform((value) => (value === '' ? null : value));

/** The voice calls to the contact use (issue 20 item 5): null uses the caller's own settings. */
const contactVoiceField = z
  .strictObject(voiceSettingsSchema.shape, {
    error: (issue) =>
      issue.code === 'unrecognized_keys'
        ? `Voice has unknown settings: ${issue.keys.join(', ')}`
        : 'Voice must be null (use my default) or an object with voiceType, pitch and speed',
  })
  .nullable();

export const createContactBodySchema = z.strictObject({
  name: contactNameField,
  phoneNumber: contactPhoneField,
  email: contactEmailField.optional(),
  voice: contactVoiceField.optional(),
});

export const updateContactBodySchema = z
  .strictObject({
    name: contactNameField.optional(),
    phoneNumber: contactPhoneField.optional(),
    email: contactEmailField.optional(),
    voice: contactVoiceField.optional(),
  })
  .refine((body) => Object.keys(body).length > 0, 'Nothing to update');

export const contactsQuerySchema = z.object({
  q: textField('Search')
    .trim()
    .max(CONTACT_SEARCH_MAX_LENGTH, `Search must be at most ${CONTACT_SEARCH_MAX_LENGTH} characters`)
    .optional(),
});

/** A contact; phoneNumber in E.164. */
export const contactSchema = z.object({
  id: z.string(),
  name: z.string(),
  phoneNumber: z.string(),
  email: z.string().nullable(),
  /** Stored values, already on the step; null uses the caller's own settings. */
  voice: z.object({ voiceType: z.enum(voiceTypes), pitch: z.number(), speed: z.number() }).nullable(),
});

export const contactsSchema = z.object({ contacts: z.array(contactSchema) });

export const contactIdParamsSchema = z.object({ id: textField('Contact id') });

export type Contact = z.infer<typeof contactSchema>;
export type CreateContactBody = z.input<typeof createContactBodySchema>;
export type UpdateContactBody = z.input<typeof updateContactBodySchema>;
