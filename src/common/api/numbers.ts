import { z } from 'zod';
import { DEFAULT_COUNTRY } from '../countries';
import { tiers } from '../plans';
import { countryField, textField } from './fields';

export const FRIENDLY_NAME_MAX_LENGTH = 100;
/** How many available numbers one search returns. */
export const NUMBER_SEARCH_LIMIT = 10;

/**
 * Digits the national number starts with (what follows the country code): '415' finds +1 415 … in
 * the US. A leading trunk prefix ('020' in the UK) or '+' with the country code is also understood.
 * Spaces, dashes, dots and brackets are ignored; '' means no pattern.
 */
export const numberPatternField = textField('Pattern')
  .trim()
  .max(24, 'Pattern must be at most 24 characters')
  .regex(/^\+?[\d\s().-]*$/, 'Pattern may contain digits only')
  .transform((value) => value.replace(/[^\d+]/g, ''))
  .refine((value) => value.replace('+', '').length <= 15, 'Pattern must be at most 15 digits')
  .transform((value) => (value === '' || value === '+' ? undefined : value));

/** '' or null clears the friendly name. */
export const friendlyNameField = z
  .union([z.null(), textField('Friendly name')], { error: 'Friendly name must be text' })
  .transform((value) => (value === null ? '' : value.trim()))
  .refine((value) => value.length <= FRIENDLY_NAME_MAX_LENGTH, `Friendly name must be at most ${FRIENDLY_NAME_MAX_LENGTH} characters`)
  .transform((value) => (value === '' ? null : value));

/** A number as the search answered it, in E.164: '+', the country code, then the national number. */
const e164NumberField = textField('Phone number')
  .trim()
  .regex(/^\+[1-9]\d{5,14}$/, 'Phone number must be in E.164 form: + and the country code, e.g. +14155550123');

export const searchNumbersQuerySchema = z.object({
  country: countryField.default(DEFAULT_COUNTRY),
  pattern: numberPatternField.optional(),
});

/** A number offered for rent, `phoneNumber` in E.164. `cost` is the monthly price as a decimal string in `currency` (ISO 4217). */
export const availableNumberSchema = z.object({
  phoneNumber: z.string(),
  country: z.string(),
  cost: z.string(),
  currency: z.string(),
});

export const availableNumbersSchema = z.object({ numbers: z.array(availableNumberSchema) });

export const rentNumberBodySchema = z.strictObject({
  country: countryField,
  phoneNumber: e164NumberField,
  friendlyName: friendlyNameField.optional(),
});

export const renameNumberBodySchema = z.strictObject({ friendlyName: friendlyNameField });

/** A number the user rents. `monthlyCost` is a decimal string in `currency` (ISO 4217). */
export const ownedNumberSchema = z.object({
  id: z.string(),
  phoneNumber: z.string(),
  friendlyName: z.string().nullable(),
  active: z.boolean(),
  country: z.string(),
  monthlyCost: z.string(),
  currency: z.string(),
  createdAt: z.string(),
});

export const ownedNumbersSchema = z.object({ numbers: z.array(ownedNumberSchema) });

/** How many numbers the plan in force lets the user hold at once (an expired paid plan counts as Free). */
export const numberLimitSchema = z.object({ tier: z.enum(tiers), maxNumbers: z.number().int() });

/** GET /api/v1/numbers: the numbers, and the plan's limit the Add Number dialog shows once it is reached. */
export const numbersListSchema = ownedNumbersSchema.extend({ limit: numberLimitSchema });

export const numberIdParamsSchema = z.object({ id: textField('Number id') });

export type SearchNumbersQuery = z.input<typeof searchNumbersQuerySchema>;
export type AvailableNumber = z.infer<typeof availableNumberSchema>;
export type RentNumberBody = z.input<typeof rentNumberBodySchema>;
export type RenameNumberBody = z.input<typeof renameNumberBodySchema>;
export type OwnedNumber = z.infer<typeof ownedNumberSchema>;
export type NumberLimit = z.infer<typeof numberLimitSchema>;
