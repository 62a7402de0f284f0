import { PASSWORD_MIN_LENGTH } from '../../common/api/auth';
import { FormField } from './form-field';
import { PasswordStrengthFeedback, type PasswordStrength } from './password-strength';

interface NewPasswordFieldProps {
  id: string;
  label: string;
  value: string;
  onChange: (value: string) => void;
  /** usePasswordStrength's judgement of `value`, shown under the field as it is typed. */
  strength: PasswordStrength;
}

/** A password being chosen, with the rules it has to meet and how well it meets them. */
export function NewPasswordField({ id, label, value, onChange, strength }: NewPasswordFieldProps) {
  const feedbackId = `${id}-strength`;
  return (
    <FormField
      id={id}
      label={label}
      type="password"
      autoComplete="new-password"
      required
      minLength={PASSWORD_MIN_LENGTH}
      value={value}
      onFocus={strength.prepare}
      onChange={(event) => onChange(event.target.value)}
      aria-describedby={feedbackId}
    >
      <PasswordStrengthFeedback id={feedbackId} verdict={strength.verdict} />
    </FormField>
  );
}

interface NewPasswordFieldsProps {
  id: string;
  confirmLabel: string;
  newPassword: string;
  confirmation: string;
  onNewPasswordChange: (value: string) => void;
  onConfirmationChange: (value: string) => void;
  strength: PasswordStrength;
}

/** A new password and the same password again. */
export function NewPasswordFields({ id, confirmLabel, newPassword, confirmation, onNewPasswordChange, onConfirmationChange, strength }: NewPasswordFieldsProps) {
  return (
    <>
      <NewPasswordField id={`${id}-new`} label="New password" value={newPassword} onChange={onNewPasswordChange} strength={strength} />
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
