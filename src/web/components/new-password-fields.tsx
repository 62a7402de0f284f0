import { get, useFormState, type FieldError, type FieldValues, type Path } from 'react-hook-form';
import { PASSWORD_MIN_LENGTH } from '../../common/api/auth';
import type { ZodForm } from '../lib/zod-form';
import { FormInput } from './form-input';
import { PasswordStrengthFeedback, type PasswordStrength } from './password-strength';

interface NewPasswordFieldProps<T extends FieldValues> {
  id: string;
  label: string;
  form: ZodForm<T>;
  name: Path<T>;
  /** usePasswordStrength's judgement of the field's value, shown under the field as it is typed. */
  strength: PasswordStrength;
}

/** A password being chosen, with the rules it has to meet and how well it meets them. */
export function NewPasswordField<T extends FieldValues>({ id, label, form, name, strength }: NewPasswordFieldProps<T>) {
  const feedbackId = `${id}-strength`;
  const { errors } = useFormState({ control: form.control, name });
  // A password refused for being guessable has the strength check's words as its error: said once.
  const saidByError = strength.verdict !== null && (get(errors, name) as FieldError | undefined)?.message === strength.verdict.message;
  return (
    <FormInput
      form={form}
      name={name}
      id={id}
      label={label}
      type="password"
      autoComplete="new-password"
      required
      minLength={PASSWORD_MIN_LENGTH}
      onFocus={strength.prepare}
      aria-describedby={saidByError ? undefined : feedbackId}
    >
      {!saidByError && <PasswordStrengthFeedback id={feedbackId} verdict={strength.verdict} pending={strength.pending} />}
    </FormInput>
  );
}

interface NewPasswordFieldsProps<T extends FieldValues> {
  id: string;
  confirmLabel: string;
  form: ZodForm<T>;
  newPasswordName: Path<T>;
  confirmationName: Path<T>;
  strength: PasswordStrength;
}

/** A new password and the same password again. */
export function NewPasswordFields<T extends FieldValues>({ id, confirmLabel, form, newPasswordName, confirmationName, strength }: NewPasswordFieldsProps<T>) {
  return (
    <>
      <NewPasswordField id={`${id}-new`} label="New password" form={form} name={newPasswordName} strength={strength} />
      <FormInput form={form} name={confirmationName} id={`${id}-confirm`} label={confirmLabel} type="password" autoComplete="new-password" required />
    </>
  );
}
