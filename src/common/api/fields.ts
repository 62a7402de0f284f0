import { z } from 'zod';
import { countryCodes } from '../countries';
import { textFieldRules, type TextFieldOptions } from './text-field-rules';

/**
 * The one string primitive of request schemas: messages say whether it was missing or of the wrong
 * type, and control characters are refused before any other check (trimming included), so every
 * field built on it answers 400 naming itself rather than failing in the database.
 */
export function textField(label: string, options: TextFieldOptions = {}) {
  const rules = textFieldRules(label, options);
  return z
    .string({ error: rules.typeError })
    .refine(rules.noControls, rules.controlsMessage)
    .refine(rules.noLoneSurrogates, rules.loneSurrogateMessage);
}

/** One of the 20 countries of src/common/countries.ts, by ISO code (case-insensitive). */
export const countryField = textField('Country')
  .trim()
  .toUpperCase()
  .pipe(z.enum(countryCodes, { error: 'Choose one of the listed countries' }));
