import { z } from 'zod';
import { DEFAULT_COUNTRY } from '../countries';
import { plans } from '../plans';
import { placeCallBodySchema, placeCallResultSchema, voiceSettingsSchema } from './calls';
import { textField } from './fields';
import { countryField, friendlyNameField, numberPatternField } from './numbers';

/**
 * docs/product.md §7's backend function 'vonage-phone' (POST /functions/v1/vonage-phone, body {action, payload}),
 * kept as a compatibility route over the same services as /api/v1/numbers. Payloads ignore unknown
 * fields, as the seed's function did.
 */
export const vonagePhoneRequestSchema = z.object({
  action: textField('action').trim().min(1, 'action is required'),
  payload: z.unknown().optional(),
});

/** A number as searchNumbers answered it, in Vonage's msisdn form: E.164 digits without '+' (a leading '+' is accepted). */
const msisdnField = textField('Number')
  .trim()
  .regex(/^\+?\d{6,15}$/, 'Choose a number from the search results');

/** Only voice numbers are offered; `features` may name VOICE as a string or a one-element list. */
const featuresField = z.union([z.literal('VOICE'), z.array(z.literal('VOICE')).max(1)], { error: 'Only VOICE numbers are offered' });

export const searchNumbersPayloadSchema = z.object({
  country: z._default(countryField, DEFAULT_COUNTRY),
  pattern: z.optional(numberPatternField),
  features: featuresField.optional(),
});

/** `userId`, when given, must be the signed-in user's own id (403 otherwise). */
export const provisionNumberPayloadSchema = z.object({
  country: countryField,
  msisdn: msisdnField,
  userId: textField('userId').optional(),
  friendlyName: z.optional(friendlyNameField),
});

export const listUserNumbersPayloadSchema = z.object({ userId: textField('userId').optional() });

/**
 * The user's numbers to check for ringing calls, in E.164 or msisdn form; all of them when left out.
 * Each must be the user's own (403 otherwise), as must `userId` when given.
 */
export const checkIncomingCallsPayloadSchema = z.object({
  userNumbers: z
    .array(textField('Number').trim().regex(/^\+?\d{6,15}$/, 'Each number must be a phone number, such as 14155550123'), { error: 'userNumbers must be a list of phone numbers' })
    .max(plans.platinum.maxNumbers, `userNumbers may name at most ${plans.platinum.maxNumbers} numbers`)
    .optional(),
  userId: textField('userId').optional(),
});

/** The same rules as POST /api/v1/calls. */
export const initiateCallPayloadSchema = z.object(placeCallBodySchema.shape);

/** docs/product.md §7: sent when the voice is not the default one. */
export const initiateCallWithVoiceChangePayloadSchema = initiateCallPayloadSchema.extend({ voiceSettings: voiceSettingsSchema });

export const compatNumberSchema = z.object({
  id: z.string(),
  phone_number: z.string(),
  friendly_name: z.string().nullable(),
  active: z.boolean(),
});

export const searchNumbersResultSchema = z.object({
  numbers: z.array(z.object({ msisdn: z.string(), cost: z.string(), country: z.string(), currency: z.string() })),
});
export const provisionNumberResultSchema = z.object({ success: z.literal(true), number: compatNumberSchema });
export const listUserNumbersResultSchema = z.object({ numbers: z.array(compatNumberSchema) });

/** A call ringing for the user, in the seed's snake_case like listUserNumbers' numbers. */
const compatRingingCallSchema = z.object({
  id: z.string(),
  from_number: z.string(),
  to_number: z.string(),
  status: z.literal('ringing'),
  started_at: z.string(),
});
export const checkIncomingCallsResultSchema = z.object({ calls: z.array(compatRingingCallSchema) });

/** The call actions answer what POST /api/v1/calls answers: the call, its media path and rate. */
export const vonagePhoneResultSchema = z.union([searchNumbersResultSchema, provisionNumberResultSchema, listUserNumbersResultSchema, checkIncomingCallsResultSchema, placeCallResultSchema]);

export type VonagePhoneResult = z.infer<typeof vonagePhoneResultSchema>;
