import { useId, useState, type FormEvent } from 'react';
import { toast } from 'sonner';
import { newPasswordField } from '../../../../common/api/auth';
import { NewPasswordFields } from '../../../components/new-password-fields';
import { usePasswordStrength } from '../../../components/password-strength';
import { PendingButton } from '../../../components/pending-button';
import { Button } from '../../../components/ui/button';
import { ApiError } from '../../../lib/api-client';
import { withErrorReference } from '../../../lib/error-reference';
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
  // Whose link it is stays on the server, which also judges the password against their name and address.
  const strength = usePasswordStrength(newPassword);
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
    const verdict = strength.check();
    if (verdict && !verdict.acceptable) {
      toast.error('Failed to update password', { description: verdict.message });
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
          else toast.error('Failed to update password', { description: withErrorReference(error.message || 'An unexpected error occurred', error) });
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
          <NewPasswordFields
            id={id}
            confirmLabel="Confirm password"
            newPassword={newPassword}
            confirmation={confirmation}
            onNewPasswordChange={setNewPassword}
            onConfirmationChange={setConfirmation}
            strength={strength}
          />
          <PendingButton type="submit" className="w-full" pending={confirmReset.isPending}>
            Update password
          </PendingButton>
        </form>
      )}
      <Button variant="ghost" onClick={onBackToLogin}>
        Back to Login
      </Button>
    </div>
  );
}
