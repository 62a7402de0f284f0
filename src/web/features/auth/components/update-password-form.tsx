import { Loader2Icon } from 'lucide-react';
import { useId, useState, type FormEvent } from 'react';
import { toast } from 'sonner';
import { newPasswordField, PASSWORD_MIN_LENGTH } from '../../../../common/api/auth';
import { Button } from '../../../components/ui/button';
import { Input } from '../../../components/ui/input';
import { Label } from '../../../components/ui/label';
import { ApiError } from '../../../lib/api-client';
import { useConfirmPasswordReset } from '../api/confirm-password-reset';

const INVALID_LINK = 'This reset link is invalid or has expired';

interface UpdatePasswordFormProps {
  /** The token of the reset email's link (?tab=updatePassword&token=…); null when the link lost it. */
  token: string | null;
  onUpdated: () => void;
  onRequestNewLink: () => void;
  onBackToLogin: () => void;
}

export function UpdatePasswordForm({ token, onUpdated, onRequestNewLink, onBackToLogin }: UpdatePasswordFormProps) {
  const [newPassword, setNewPassword] = useState('');
  const [confirmation, setConfirmation] = useState('');
  const [linkRejected, setLinkRejected] = useState(false);
  const confirmReset = useConfirmPasswordReset();
  const id = useId();

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (!token) return;
    if (!newPassword || !confirmation) {
      toast.error('Missing information', { description: 'Please enter and confirm your new password' });
      return;
    }
    if (newPassword !== confirmation) {
      toast.error('Passwords do not match', { description: 'Enter the same new password in both fields.' });
      return;
    }
    const checked = newPasswordField.safeParse(newPassword);
    if (!checked.success) {
      toast.error('Failed to update password', { description: checked.error.issues[0]?.message });
      return;
    }
    confirmReset.mutate(
      { token, newPassword },
      {
        onSuccess: () => {
          toast.success('Password updated', { description: 'You can now log in with your new password.' });
          onUpdated();
        },
        onError: (error) => {
          if (error instanceof ApiError && error.code === 'invalid_token') setLinkRejected(true);
          else toast.error('Failed to update password', { description: error.message || 'An unexpected error occurred' });
        },
      },
    );
  }

  return (
    <div className="flex flex-col gap-4">
      <div className="flex flex-col gap-1">
        <h2 className="text-lg font-semibold">Set a new password</h2>
        <p className="text-sm text-muted-foreground">Choose the password you will log in with from now on.</p>
      </div>
      {!token || linkRejected ? (
        <div className="flex flex-col gap-4">
          <p role="alert" className="rounded-md border border-destructive/50 p-3 text-sm text-destructive">
            {INVALID_LINK}
          </p>
          <Button onClick={onRequestNewLink}>Request a new link</Button>
        </div>
      ) : (
        <form noValidate onSubmit={submit} className="flex flex-col gap-4">
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
            <Label htmlFor={`${id}-confirm`}>Confirm password</Label>
            <Input
              id={`${id}-confirm`}
              type="password"
              autoComplete="new-password"
              required
              value={confirmation}
              onChange={(event) => setConfirmation(event.target.value)}
            />
          </div>
          <Button type="submit" className="w-full" disabled={confirmReset.isPending} aria-busy={confirmReset.isPending}>
            {confirmReset.isPending && <Loader2Icon className="animate-spin" aria-hidden="true" />}
            Update password
          </Button>
        </form>
      )}
      <Button variant="ghost" onClick={onBackToLogin}>
        Back to Login
      </Button>
    </div>
  );
}
