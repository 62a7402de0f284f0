import { useId, useState } from 'react';
import { useWatch } from 'react-hook-form';
import { toast } from '../../../lib/toast';
import { newPasswordWithConfirmationSchema } from '../../../../common/api/auth';
import { FormAlert } from '../../../components/form-alert';
import { NewPasswordFields } from '../../../components/new-password-fields';
import { usePasswordStrength } from '../../../components/password-strength';
import { PendingButton } from '../../../components/pending-button';
import { Button } from '../../../components/ui/button';
import { ApiError } from '../../../lib/api-client';
import { submitHandler, useZodForm } from '../../../lib/zod-form';
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
  const [linkRejected, setLinkRejected] = useState(false);
  const form = useZodForm(newPasswordWithConfirmationSchema, { defaultValues: { newPassword: '', confirmation: '' } });
  // Whose link it is stays on the server, which also judges the password against their name and address.
  const strength = usePasswordStrength(useWatch({ control: form.control, name: 'newPassword' }));
  const confirmReset = useConfirmPasswordReset();
  const id = useId();

  const submit = submitHandler(form, async ({ newPassword }) => {
    if (!token) return;
    const verdict = await strength.check();
    if (verdict && !verdict.acceptable) {
      form.setError('newPassword', { type: 'strength', message: verdict.message }, { shouldFocus: true });
      return;
    }
    try {
      await confirmReset.mutateAsync({ token, newPassword });
    } catch (error) {
      if (!(error instanceof ApiError && error.code === 'invalid_token')) throw error;
      setLinkRejected(true);
      return;
    }
    toast.success('Password updated', { description: 'You can now log in with your new password.' });
    onUpdated();
  });

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
          <NewPasswordFields id={id} confirmLabel="Confirm password" form={form} newPasswordName="newPassword" confirmationName="confirmation" strength={strength} />
          <FormAlert title="Failed to update password" message={form.formState.errors.root?.server?.message} />
          <PendingButton type="submit" className="w-full" pending={form.formState.isSubmitting}>
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
