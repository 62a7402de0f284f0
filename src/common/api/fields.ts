import { z } from 'zod';
import { countryCodes } from '../countries';

// C0 controls, DEL and C1 controls (Unicode's category Cc), and the line and paragraph separators:
// PostgreSQL refuses NUL in text (an unexpected error for the request), and the others break lines,
// logs and exports where one line is meant.
const SINGLE_LINE_CONTROLS = /[\p{Cc}\u2028\u2029]/u;
const MULTI_LINE_CONTROLS = /(?![\t\n])[\p{Cc}\u2028\u2029]/u;
// Half of a UTF-16 pair without its other half: JSON lets it through, and PostgreSQL would store
// U+FFFD in its place, not what was sent.
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

interface TextFieldOptions {
  /** Allows tab and newline (\n), for text written over several lines. */
  multiline?: boolean;
  /** The message when the field is missing, where the product has its own words for it. */
  required?: string;
}

/**
 * The one string primitive of request schemas: messages say whether it was missing or of the wrong
 * type, and control characters are refused before any other check (trimming included), so every
 * field built on it answers 400 naming itself rather than failing in the database.
 */
export function textField(label: string, { multiline = false, required = `${label} is required` }: TextFieldOptions = {}) {
  const controls = multiline ? MULTI_LINE_CONTROLS : SINGLE_LINE_CONTROLS;
  return z
    .string({ error: (issue) => (issue.input === undefined || issue.input === null ? required : `${label} must be text`) })
    .refine((value) => !controls.test(value), `${label} must not contain control characters`)
    .refine((value) => !LONE_SURROGATE.test(value), `${label} contains a broken character: type it again`);
}

/** One of the 20 countries of src/common/countries.ts, by ISO code (case-insensitive). */
export const countryField = textField('Country')
  .trim()
  .toUpperCase()
  .pipe(z.enum(countryCodes, { error: 'Choose one of the listed countries' }));
