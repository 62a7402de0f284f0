// C0 controls, DEL and C1 controls (Unicode's category Cc), and the line and paragraph separators:
// PostgreSQL refuses NUL in text (an unexpected error for the request), and the others break lines,
// logs and exports where one line is meant.
const SINGLE_LINE_CONTROLS = /[\p{Cc}\u2028\u2029]/u;
const MULTI_LINE_CONTROLS = /(?![\t\n])[\p{Cc}\u2028\u2029]/u;
// Half of a UTF-16 pair without its other half: JSON lets it through, and PostgreSQL would store
// U+FFFD in its place, not what was sent.
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

export interface TextFieldOptions {
  /** Allows tab and newline (\n), for text written over several lines. */
  multiline?: boolean;
  /** The message when the field is missing, where the product has its own words for it. */
  required?: string;
}

/**
 * What every text field of a request checks, and the words it says, apart from zod: the zod/mini
 * builder of the schemas the web client loads (`mini-text-field.ts`) and the classic one of the
 * server's own (`fields.ts`) apply the same rules.
 */
export function textFieldRules(label: string, { multiline = false, required = `${label} is required` }: TextFieldOptions = {}) {
  const controls = multiline ? MULTI_LINE_CONTROLS : SINGLE_LINE_CONTROLS;
  return {
    typeError: (issue: { input?: unknown }) => (issue.input === undefined || issue.input === null ? required : `${label} must be text`),
    noControls: (value: string) => !controls.test(value),
    controlsMessage: `${label} must not contain control characters`,
    noLoneSurrogates: (value: string) => !LONE_SURROGATE.test(value),
    loneSurrogateMessage: `${label} contains a broken character: type it again`,
  };
}
