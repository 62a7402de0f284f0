import { KeyRoundIcon, Loader2Icon } from 'lucide-react';
import { useId, useState, type FormEvent } from 'react';
import { toast } from 'sonner';
import { newPasswordField, PASSWORD_MIN_LENGTH } from '../../../../common/api/auth';
import { Button } from '../../../components/ui/button';
import { Dialog, DialogClose, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle, DialogTrigger } from '../../../components/ui/dialog';
import { Input } from '../../../components/ui/input';
import { Label } from '../../../components/ui/label';
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
    setFailure(null);
    changePassword.mutate(
      { currentPassword, newPassword },
      { onSuccess: onChanged, onError: (error) => setFailure(error.message || 'Failed to change password.') },
    );
  }

  return (
    <form noValidate onSubmit={submit} className="flex flex-col gap-4">
      <div className="flex flex-col gap-2">
        <Label htmlFor={`${id}-current`}>Current password</Label>
        <Input
          id={`${id}-current`}
          type="password"
          autoComplete="current-password"
          required
          value={currentPassword}
          onChange={(event) => setCurrentPassword(event.target.value)}
        />
      </div>
      <div className="flex flex-col gap-2">
        <Label htmlFor={`${id}-new`}>New password</Label>
        <Input
          id={`${id}-new`}
          type="password"
          autoComplete="new-password"
          required
          minLength={PASSWORD_MIN_LENGTH}
          value={newPassword}
          onChange={(event) => setNewPassword(event.target.value)}
          aria-describedby={`${id}-hint`}
        />
        <p id={`${id}-hint`} className="text-sm text-muted-foreground">
          At least {PASSWORD_MIN_LENGTH} characters.
        </p>
      </div>
      <div className="flex flex-col gap-2">
        <Label htmlFor={`${id}-confirm`}>Confirm new password</Label>
        <Input
          id={`${id}-confirm`}
          type="password"
          autoComplete="new-password"
          required
          value={confirmation}
          onChange={(event) => setConfirmation(event.target.value)}
        />
      </div>
      <FormAlert message={failure} />
      <DialogFooter>
        <DialogClose asChild>
          <Button variant="outline">Cancel</Button>
        </DialogClose>
        <Button type="submit" disabled={changePassword.isPending} aria-busy={changePassword.isPending}>
          {changePassword.isPending && <Loader2Icon className="animate-spin" aria-hidden="true" />}
          Update password
        </Button>
      </DialogFooter>
    </form>
  );
}
