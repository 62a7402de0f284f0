import { KeyRoundIcon } from 'lucide-react';
import { useId, useState } from 'react';
import { useWatch } from 'react-hook-form';
import { toast } from '../../../lib/toast';
import { changePasswordFormSchema } from '../../../../common/api/account';
import { DialogFormFooter } from '../../../components/dialog-form-footer';
import { FormAlert } from '../../../components/form-alert';
import { FormInput } from '../../../components/form-input';
import { NewPasswordFields } from '../../../components/new-password-fields';
import { Button } from '../../../components/ui/button';
import { usePasswordStrength } from '../../../components/password-strength';
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle, DialogTrigger } from '../../../components/ui/dialog';
import { submitHandler, useZodForm } from '../../../lib/zod-form';
import { useAccount } from '../api/get-account';
import { useChangePassword } from '../api/change-password';

export function ChangePasswordDialog() {
  const [open, setOpen] = useState(false);
  return (
    <Dialog open={open} onOpenChange={setOpen}>
      <DialogTrigger asChild>
        <Button variant="outline">
          <KeyRoundIcon />
          Change Password
        </Button>
      </DialogTrigger>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>Change password</DialogTitle>
          <DialogDescription>You stay logged in here; every other device logged in to your account is signed out.</DialogDescription>
        </DialogHeader>
        <ChangePasswordForm
          onChanged={() => {
            setOpen(false);
            toast.success('Password changed', { description: 'Your other devices have been signed out.' });
          }}
        />
      </DialogContent>
    </Dialog>
  );
}

function ChangePasswordForm({ onChanged }: { onChanged: () => void }) {
  const form = useZodForm(changePasswordFormSchema, { defaultValues: { currentPassword: '', newPassword: '', confirmation: '' } });
  const account = useAccount();
  const strength = usePasswordStrength(useWatch({ control: form.control, name: 'newPassword' }), account.data?.fullName, account.data?.email);
  const changePassword = useChangePassword();
  const id = useId();

  const submit = submitHandler(form, async ({ currentPassword, newPassword }) => {
    const verdict = await strength.check();
    if (verdict && !verdict.acceptable) {
      form.setError('newPassword', { type: 'strength', message: verdict.message }, { shouldFocus: true });
      return;
    }
    await changePassword.mutateAsync({ currentPassword, newPassword });
    onChanged();
  });

  return (
    <form noValidate onSubmit={submit} className="flex flex-col gap-4">
      <FormInput form={form} name="currentPassword" id={`${id}-current`} label="Current password" type="password" autoComplete="current-password" required />
      <NewPasswordFields id={id} confirmLabel="Confirm new password" form={form} newPasswordName="newPassword" confirmationName="confirmation" strength={strength} />
      <FormAlert title="Failed to change password" message={form.formState.errors.root?.server?.message} />
      <DialogFormFooter submitLabel="Update password" pending={form.formState.isSubmitting} />
    </form>
  );
}
