import { z } from 'zod/mini';
import { textFieldRules, type TextFieldOptions } from './text-field-rules';

/**
 * `textField` (fields.ts) in zod/mini, for the schemas the public pages load: classic zod's
 * methods cannot be tree-shaken and would cost the sign-in page 12 kB (decision 021).
 */
export function miniTextField(label: string, options: TextFieldOptions = {}) {
  const rules = textFieldRules(label, options);
  return z.string({ error: rules.typeError }).check(z.refine(rules.noControls, rules.controlsMessage), z.refine(rules.noLoneSurrogates, rules.loneSurrogateMessage));
}
