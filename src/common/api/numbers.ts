import { z } from 'zod/mini';
import { countryCodes, DEFAULT_COUNTRY } from '../countries';
import { tiers } from '../plans';
import { miniTextField } from './mini-text-field';

export const FRIENDLY_NAME_MAX_LENGTH = 100;
/** How many available numbers one search returns. */
export const NUMBER_SEARCH_LIMIT = 10;

/** One of the 20 countries of src/common/countries.ts, by ISO code (case-insensitive). */
export const countryField = z.pipe(
  miniTextField('Country').check(z.trim(), z.toUpperCase()),
  z.enum(countryCodes, { error: 'Choose one of the listed countries' }),
);

/**
 * Digits the national number starts with (what follows the country code): '415' finds +1 415 … in
 * the US. A leading trunk prefix ('020' in the UK) or '+' with the country code is also understood.
 * Spaces, dashes, dots and brackets are ignored; '' means no pattern.
 */
export const numberPatternField = z.pipe(
  z
    .pipe(
      miniTextField('Pattern').check(z.trim(), z.maxLength(24, 'Pattern must be at most 24 characters'), z.regex(/^\+?[\d\s().-]*$/, 'Pattern may contain digits only')),
      z.transform((value) => value.replace(/[^\d+]/g, '')),
    )
    .check(z.refine((value) => value.replace('+', '').length <= 15, 'Pattern must be at most 15 digits')),
  z.transform((value) => (value === '' || value === '+' ? undefined : value)),
);

/** '' or null clears the friendly name. */
export const friendlyNameField = z.pipe(
  z
    .pipe(
      z.union([z.null(), miniTextField('Friendly name')], { error: 'Friendly name must be text' }),
      z.transform((value) => (value === null ? '' : value.trim())),
    )
    .check(z.refine((value) => value.length <= FRIENDLY_NAME_MAX_LENGTH, `Friendly name must be at most ${FRIENDLY_NAME_MAX_LENGTH} characters`)),
  z.transform((value) => (value === '' ? null : value)),
);

/** A number as the search answered it, in E.164: '+', the country code, then the national number. */
const e164NumberField = miniTextField('Phone number').check(
  z.trim(),
  z.regex(/^\+[1-9]\d{5,14}$/, 'Phone number must be in E.164 form: + and the country code, e.g. +14155550123'),
);

export const searchNumbersQuerySchema = z.object({
  country: z._default(countryField, DEFAULT_COUNTRY),
  pattern: z.optional(numberPatternField),
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
  friendlyName: z.optional(friendlyNameField),
});

export const renameNumberBodySchema = z.strictObject({ friendlyName: friendlyNameField });

/** A number the user rents. `monthlyCost` is a decimal string in `currency` (ISO 4217). */
export const ownedNumberSchema = z.object({
  id: z.string(),
  phoneNumber: z.string(),
  friendlyName: z.nullable(z.string()),
  active: z.boolean(),
  country: z.string(),
  monthlyCost: z.string(),
  currency: z.string(),
  createdAt: z.string(),
});

export const ownedNumbersSchema = z.object({ numbers: z.array(ownedNumberSchema) });

/** How many numbers the plan in force lets the user hold at once (an expired paid plan counts as Free). */
export const numberLimitSchema = z.object({ tier: z.enum(tiers), maxNumbers: z.int() });

/** GET /api/v1/numbers: the numbers, and the plan's limit the Add Number dialog shows once it is reached. */
export const numbersListSchema = z.extend(ownedNumbersSchema, { limit: numberLimitSchema });

export const numberIdParamsSchema = z.object({ id: miniTextField('Number id') });

export type SearchNumbersQuery = z.input<typeof searchNumbersQuerySchema>;
export type AvailableNumber = z.infer<typeof availableNumberSchema>;
export type RentNumberBody = z.input<typeof rentNumberBodySchema>;
export type RenameNumberBody = z.input<typeof renameNumberBodySchema>;
export type OwnedNumber = z.infer<typeof ownedNumberSchema>;
export type NumberLimit = z.infer<typeof numberLimitSchema>;
