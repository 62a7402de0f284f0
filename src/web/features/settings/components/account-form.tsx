import { useId, useState } from 'react';
import { toast } from '../../../lib/toast';
import { updateAccountBodySchema, type Account, type UpdateAccountBody } from '../../../../common/api/account';
import { FormAlert } from '../../../components/form-alert';
import { FormInput } from '../../../components/form-input';
import { PendingButton } from '../../../components/pending-button';
import { submitHandler, useZodForm } from '../../../lib/zod-form';
import { useUpdateAccount } from '../api/update-account';

interface AccountValues {
  fullName: string;
  email: string;
  phone: string;
}

const valuesOf = (account: Account): AccountValues => ({ fullName: account.fullName, email: account.email, phone: account.phone ?? '' });

/** Only what differs from the saved account is sent. */
function changesFrom(account: Account, values: AccountValues): UpdateAccountBody {
  const saved = valuesOf(account);
  const changed: UpdateAccountBody = {};
  for (const field of ['fullName', 'email', 'phone'] as const) {
    const value = values[field].trim();
    if (value !== saved[field]) changed[field] = value;
  }
  return changed;
}

function pendingEmailNotice(pendingEmail: string) {
  return `Check ${pendingEmail} for a link to confirm your new email address.`;
}

export function AccountForm({ account }: { account: Account }) {
  const form = useZodForm(updateAccountBodySchema, { defaultValues: valuesOf(account) });
  const [pendingEmail, setPendingEmail] = useState<string | null>(null);
  const updateAccount = useUpdateAccount();
  const id = useId();

  const submit = submitHandler(form, async (values) => {
    const changed = changesFrom(account, { fullName: values.fullName ?? '', email: values.email ?? '', phone: values.phone ?? '' });
    if (Object.keys(changed).length === 0) {
      toast.info('No changes to save');
      return;
    }
    const result = await updateAccount.mutateAsync(changed);
    form.reset(valuesOf(result.account));
    setPendingEmail(result.pendingEmail);
    toast.success('Account updated', {
      description: result.pendingEmail ? pendingEmailNotice(result.pendingEmail) : 'Your changes have been saved.',
    });
  });

  return (
    <form noValidate onSubmit={submit} className="flex flex-col gap-4">
      <FormInput form={form} name="fullName" id={`${id}-name`} label="Full Name" autoComplete="name" />
      <FormInput
        form={form}
        name="email"
        id={`${id}-email`}
        label="Email"
        type="email"
        autoComplete="email"
        aria-describedby={pendingEmail ? `${id}-email-pending` : undefined}
      >
        {pendingEmail && (
          <p id={`${id}-email-pending`} role="status" className="text-sm text-muted-foreground">
            {pendingEmailNotice(pendingEmail)}
          </p>
        )}
      </FormInput>
      <FormInput
        form={form}
        name="phone"
        id={`${id}-phone`}
        label="Phone Number"
        type="tel"
        autoComplete="tel"
        placeholder="+1 415 555 0100"
        hint="With its country code. Leave it empty to remove your number."
      />
      <FormAlert title="Failed to update account settings." message={form.formState.errors.root?.server?.message} />
      <PendingButton type="submit" className="w-full sm:w-fit" pending={form.formState.isSubmitting}>
        Save Account Settings
      </PendingButton>
    </form>
  );
}
