import { useId, useState, type FormEvent } from 'react';
import { toast } from 'sonner';
import type { Account, UpdateAccountBody } from '../../../../common/api/account';
import { FormField } from '../../../components/form-field';
import { PendingButton } from '../../../components/pending-button';
import { ApiError } from '../../../lib/api-client';
import { withErrorReference } from '../../../lib/error-reference';
import { useUpdateAccount } from '../api/update-account';

type AccountField = 'fullName' | 'email' | 'phone';

interface FieldError {
  field: AccountField;
  message: string;
}

function fieldErrorOf(error: Error): FieldError | null {
  if (!(error instanceof ApiError) || !error.field) return null;
  const field = error.field;
  if (field !== 'fullName' && field !== 'email' && field !== 'phone') return null;
  // Validation messages arrive as 'phone: Enter a valid phone number…'; beside the field its name is redundant.
  return { field, message: error.message.replace(new RegExp(`^${field}: `), '') };
}

function pendingEmailNotice(pendingEmail: string) {
  return `Check ${pendingEmail} for a link to confirm your new email address.`;
}

export function AccountForm({ account }: { account: Account }) {
  const [fullName, setFullName] = useState(account.fullName);
  const [email, setEmail] = useState(account.email);
  const [phone, setPhone] = useState(account.phone ?? '');
  const [pendingEmail, setPendingEmail] = useState<string | null>(null);
  const [fieldError, setFieldError] = useState<FieldError | null>(null);
  const updateAccount = useUpdateAccount();
  const id = useId();

  // Only what differs from the saved account is sent.
  function changes(): UpdateAccountBody {
    const changed: UpdateAccountBody = {};
    if (fullName.trim() !== account.fullName) changed.fullName = fullName.trim();
    if (email.trim() !== account.email) changed.email = email.trim();
    if (phone.trim() !== (account.phone ?? '')) changed.phone = phone.trim();
    return changed;
  }

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const changed = changes();
    if (Object.keys(changed).length === 0) {
      toast.info('No changes to save');
      return;
    }
    updateAccount.mutate(changed, {
      onSuccess: (result) => {
        setFullName(result.account.fullName);
        setEmail(result.account.email);
        setPhone(result.account.phone ?? '');
        setPendingEmail(result.pendingEmail);
        setFieldError(null);
        toast.success('Account updated', {
          description: result.pendingEmail ? pendingEmailNotice(result.pendingEmail) : 'Your changes have been saved.',
        });
      },
      onError: (error) => {
        setFieldError(fieldErrorOf(error));
        toast.error('Failed to update account settings.', { description: withErrorReference(error.message, error) });
      },
    });
  }

  function errorOf(field: AccountField) {
    return fieldError?.field === field ? fieldError.message : null;
  }

  function edited(field: AccountField, value: string, setValue: (value: string) => void) {
    setValue(value);
    if (fieldError?.field === field) setFieldError(null);
  }

  return (
    <form noValidate onSubmit={submit} className="flex flex-col gap-4">
      <FormField
        id={`${id}-name`}
        label="Full Name"
        autoComplete="name"
        value={fullName}
        onChange={(event) => edited('fullName', event.target.value, setFullName)}
        error={errorOf('fullName')}
      />
      <FormField
        id={`${id}-email`}
        label="Email"
        type="email"
        autoComplete="email"
        value={email}
        onChange={(event) => edited('email', event.target.value, setEmail)}
        error={errorOf('email')}
        aria-describedby={pendingEmail ? `${id}-email-pending` : undefined}
      >
        {pendingEmail && (
          <p id={`${id}-email-pending`} role="status" className="text-sm text-muted-foreground">
            {pendingEmailNotice(pendingEmail)}
          </p>
        )}
      </FormField>
      <FormField
        id={`${id}-phone`}
        label="Phone Number"
        type="tel"
        autoComplete="tel"
        placeholder="+1 415 555 0100"
        value={phone}
        onChange={(event) => edited('phone', event.target.value, setPhone)}
        hint="With its country code. Leave it empty to remove your number."
        error={errorOf('phone')}
      />
      <PendingButton type="submit" className="w-full sm:w-fit" pending={updateAccount.isPending}>
        Save Account Settings
      </PendingButton>
    </form>
  );
}
