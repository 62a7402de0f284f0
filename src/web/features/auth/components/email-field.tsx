import type { FieldValues, Path } from 'react-hook-form';
import { FormInput } from '../../../components/form-input';
import type { ZodForm } from '../../../lib/zod-form';

/** The email field the login, sign-up and reset forms share: `onEmailChange` carries the address over between them. */
export function EmailField<T extends FieldValues & { email: string }>({ id, form, onEmailChange }: { id: string; form: ZodForm<T>; onEmailChange: (email: string) => void }) {
  return (
    <FormInput
      form={form}
      name={'email' as Path<T>}
      options={{
        // A phone keyboard's autocomplete leaves a space after the address.
        setValueAs: (value: string) => value.trim(),
        onChange: (event: { target: { value: string } }) => onEmailChange(event.target.value),
      }}
      id={id}
      label="Email"
      type="email"
      autoComplete="email"
      required
      placeholder="you@example.com"
    />
  );
}
