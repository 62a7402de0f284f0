import { KeyRoundIcon } from 'lucide-react';
import { useId, useState, type FormEvent } from 'react';
import { toast } from 'sonner';
import { newPasswordField } from '../../../../common/api/auth';
import { DialogFormFooter } from '../../../components/dialog-form-footer';
import { FormField } from '../../../components/form-field';
import { NewPasswordFields } from '../../../components/new-password-fields';
import { Button } from '../../../components/ui/button';
import { usePasswordStrength } from '../../../components/password-strength';
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle, DialogTrigger } from '../../../components/ui/dialog';
import { useAccount } from '../api/get-account';
import { useChangePassword } from '../api/change-password';
import { FormAlert } from './form-alert';

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
  const [currentPassword, setCurrentPassword] = useState('');
  const [newPassword, setNewPassword] = useState('');
  const [confirmation, setConfirmation] = useState('');
  const [failure, setFailure] = useState<string | null>(null);
  const account = useAccount();
  const strength = usePasswordStrength(newPassword, account.data?.fullName, account.data?.email);
  const changePassword = useChangePassword();
  const id = useId();

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (!currentPassword || !newPassword || !confirmation) {
      setFailure('Please fill in all password fields.');
      return;
    }
    if (newPassword !== confirmation) {
      setFailure('The new passwords do not match.');
      return;
    }
    const checked = newPasswordField.safeParse(newPassword);
    if (!checked.success) {
      setFailure(checked.error.issues[0]?.message ?? 'Choose a different new password.');
      return;
    }
    const verdict = strength.check();
    if (verdict && !verdict.acceptable) {
      setFailure(verdict.message);
      return;
    }
    setFailure(null);
    changePassword.mutate(
      { currentPassword, newPassword },
      { onSuccess: onChanged, onError: (error) => setFailure(error.message || 'Failed to change password.') },
    );
  }

  return (
    <form noValidate onSubmit={submit} className="flex flex-col gap-4">
      <FormField
        id={`${id}-current`}
        label="Current password"
        type="password"
        autoComplete="current-password"
        required
        value={currentPassword}
        onChange={(event) => setCurrentPassword(event.target.value)}
      />
      <NewPasswordFields
        id={id}
        confirmLabel="Confirm new password"
        newPassword={newPassword}
        confirmation={confirmation}
        onNewPasswordChange={setNewPassword}
        onConfirmationChange={setConfirmation}
        strength={strength}
      />
      <FormAlert message={failure} />
      <DialogFormFooter submitLabel="Update password" pending={changePassword.isPending} />
    </form>
  );
}
