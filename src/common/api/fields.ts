import { z } from 'zod';
import { textFieldRules, type TextFieldOptions } from './text-field-rules';

/**
 * `miniTextField` (mini-text-field.ts) in classic zod, for the schemas only the server loads (the
 * admin's, the compatibility routes', client error reports), written with classic zod's methods.
 */
export function textField(label: string, options: TextFieldOptions = {}) {
  const rules = textFieldRules(label, options);
  return z
    .string({ error: rules.typeError })
    .refine(rules.noControls, rules.controlsMessage)
    .refine(rules.noLoneSurrogates, rules.loneSurrogateMessage);
}
