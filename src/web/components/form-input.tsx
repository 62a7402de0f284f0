import type { ComponentProps } from 'react';
import { get, useFormState, type FieldError, type FieldValues, type Path, type RegisterOptions } from 'react-hook-form';
import type { ZodForm } from '../lib/zod-form';
import { FormField } from './form-field';

type FormInputProps<T extends FieldValues> = Omit<ComponentProps<typeof FormField>, 'form' | 'name' | 'error' | 'onChange' | 'onBlur' | 'value' | 'defaultValue' | 'ref'> & {
  form: ZodForm<T>;
  name: Path<T>;
  /** Extra register options, such as an onChange that shares the value with another form. */
  options?: RegisterOptions<T, Path<T>>;
};

/** A FormField bound to a field of a useZodForm form: the field's error shows under it, is announced, and marks it invalid. */
export function FormInput<T extends FieldValues>({ form, name, options, ...props }: FormInputProps<T>) {
  const { errors } = useFormState({ control: form.control, name });
  const error = get(errors, name) as FieldError | undefined;
  return <FormField {...props} {...form.register(name, options)} error={error?.message || null} />;
}
