import { PASSWORD_MIN_LENGTH } from '../../common/api/auth';
import { FormField } from './form-field';

interface NewPasswordFieldProps {
  id: string;
  label: string;
  value: string;
  onChange: (value: string) => void;
}

/** A password being chosen, with the rule it has to meet. */
export function NewPasswordField({ id, label, value, onChange }: NewPasswordFieldProps) {
  return (
    <FormField
      id={id}
      label={label}
      type="password"
      autoComplete="new-password"
      required
      minLength={PASSWORD_MIN_LENGTH}
      value={value}
      onChange={(event) => onChange(event.target.value)}
      hint={<>At least {PASSWORD_MIN_LENGTH} characters.</>}
    />
  );
}

interface NewPasswordFieldsProps {
  id: string;
  confirmLabel: string;
  newPassword: string;
  confirmation: string;
  onNewPasswordChange: (value: string) => void;
  onConfirmationChange: (value: string) => void;
}

/** A new password and the same password again. */
export function NewPasswordFields({ id, confirmLabel, newPassword, confirmation, onNewPasswordChange, onConfirmationChange }: NewPasswordFieldsProps) {
  return (
    <>
      <NewPasswordField id={`${id}-new`} label="New password" value={newPassword} onChange={onNewPasswordChange} />
      <FormField
        id={`${id}-confirm`}
        label={confirmLabel}
        type="password"
        autoComplete="new-password"
        required
        value={confirmation}
        onChange={(event) => onConfirmationChange(event.target.value)}
      />
    </>
  );
}
