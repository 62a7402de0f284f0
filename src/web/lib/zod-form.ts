import { zodResolver } from '@hookform/resolvers/zod';
import { useForm, type FieldValues, type Path, type UseFormProps, type UseFormReturn } from 'react-hook-form';
import type { $ZodType, input } from 'zod/v4/core';
import { ApiError } from './api-client';
import { withErrorReference } from './error-reference';

/** A form of useZodForm: its values are the schema's input, as typed. */
export type ZodForm<T extends FieldValues> = UseFormReturn<T, unknown, T>;

/**
 * react-hook-form checked by one of the shared request schemas of src/common. The submit handler
 * gets the values as typed, not the schema's output: the server parses them with the same schema,
 * and some outputs (a number in E.164, an empty email as null) are its reading, not what it takes.
 * Errors show after the first submit, then follow each change.
 */
export function useZodForm<S extends $ZodType<FieldValues, FieldValues>>(schema: S, options: Omit<UseFormProps<input<S>, unknown, input<S>>, 'resolver'>) {
  return useForm<input<S>, unknown, input<S>>({
    ...options,
    resolver: zodResolver(schema, undefined, { raw: true }),
    mode: 'onSubmit',
    reValidateMode: 'onChange',
  });
}

/**
 * Puts a failed request's error where it belongs: on the field the server named when the form has
 * it (without the 'field: ' a validation message starts with), else on the form as `root.server`,
 * with the reference a person can quote to support.
 */
function showServerError<T extends FieldValues>(form: ZodForm<T>, error: unknown) {
  const message = error instanceof Error ? error.message : String(error);
  if (error instanceof ApiError && error.field && Object.hasOwn(form.getValues(), error.field)) {
    const reason = message.startsWith(`${error.field}: `) ? message.slice(error.field.length + 2) : message;
    form.setError(error.field as Path<T>, { type: 'server', message: reason }, { shouldFocus: true });
    return;
  }
  form.setError('root.server', { type: 'server', message: withErrorReference(message, error) });
}

/**
 * The form's onSubmit: checks the values, then runs `send`, which is pending (the submit button
 * with it) until its promise settles; a failure it throws is shown by showServerError.
 * `onInvalid` runs instead of `send` when a field is wrong.
 */
export function submitHandler<T extends FieldValues>(form: ZodForm<T>, send: (values: T) => Promise<unknown> | void, onInvalid?: () => void) {
  return form.handleSubmit(async (values) => {
    try {
      await send(values);
    } catch (error) {
      showServerError(form, error);
    }
  }, onInvalid);
}

/**
 * An onInvalid for submitHandler that adds the product's one message for missing input
 * (docs/product.md §5) as `root.missing`, shown above the fields' own errors, when one of `fields`
 * is blank.
 */
export function reportMissing<T extends FieldValues>(form: ZodForm<T>, fields: Path<T>[], message: string) {
  return () => {
    const blank = fields.some((field) => {
      const value: unknown = form.getValues(field);
      return value === undefined || value === null || String(value).trim() === '';
    });
    if (blank) form.setError('root.missing', { type: 'required', message });
  };
}
