import { z } from 'zod/mini';
import { textFieldRules, type TextFieldOptions } from './text-field-rules';

/**
 * The one string primitive of request schemas: messages say whether it was missing or of the wrong
 * type, and control characters are refused before any other check (trimming included), so every
 * field built on it answers 400 naming itself rather than failing in the database. zod/mini, as
 * every schema the web client loads: classic zod's methods cannot be tree-shaken and would add
 * 12 kB to the pages (decision 021).
 */
export function miniTextField(label: string, options: TextFieldOptions = {}) {
  const rules = textFieldRules(label, options);
  return z.string({ error: rules.typeError }).check(z.refine(rules.noControls, rules.controlsMessage), z.refine(rules.noLoneSurrogates, rules.loneSurrogateMessage));
}
