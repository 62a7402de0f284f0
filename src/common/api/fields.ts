import { z } from 'zod';
import { countryCodes } from '../countries';

/** A string field whose messages say whether it was missing or of the wrong type. */
export function textField(label: string) {
  return z.string({ error: (issue) => (issue.input === undefined || issue.input === null ? `${label} is required` : `${label} must be text`) });
}

/** One of the 20 countries of src/common/countries.ts, by ISO code (case-insensitive). */
export const countryField = textField('Country')
  .trim()
  .toUpperCase()
  .pipe(z.enum(countryCodes, { error: 'Choose one of the listed countries' }));
