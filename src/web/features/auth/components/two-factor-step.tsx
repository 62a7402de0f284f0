import { useId, useState } from 'react';
import { toast } from '../../../lib/toast';
import { twoFactorVerifyBodySchema } from '../../../../common/api/auth';
import { FormAlert } from '../../../components/form-alert';
import { FormInput } from '../../../components/form-input';
import { PendingButton } from '../../../components/pending-button';
import { Button } from '../../../components/ui/button';
import { ApiError } from '../../../lib/api-client';
import { submitHandler, useZodForm } from '../../../lib/zod-form';
import { useStoreSignedInUser } from '../api/sign-in';
import { useVerifyTwoFactor } from '../api/verify-two-factor';

/** Shown after a correct password when the account has two-factor authentication on. */
export function TwoFactorStep({ onBack }: { onBack: () => void }) {
  // Backup codes have letters: a numeric keypad would make them impossible to type on a phone.
  const [backupCode, setBackupCode] = useState(false);
  const form = useZodForm(twoFactorVerifyBodySchema, { defaultValues: { code: '' } });
  const verify = useVerifyTwoFactor();
  const storeSignedInUser = useStoreSignedInUser();
  const id = useId();

  const submit = submitHandler(form, async ({ code }) => {
    let result;
    try {
      result = await verify.mutateAsync(code.trim());
    } catch (error) {
      // The pending sign-in has run out: only the password step can start a new one, which says why.
      if (error instanceof ApiError && error.code === 'two_factor_expired') {
        toast.error('Login failed', { description: error.message });
        onBack();
        return;
      }
      throw error;
    }
    if (result.status !== 'signed-in') return;
    toast.success('Login successful', { description: `Welcome back, ${result.user.fullName}!` });
    storeSignedInUser(result.user);
  });

  return (
    <form noValidate onSubmit={submit} className="flex flex-col gap-4" aria-labelledby={`${id}-title`}>
      <div className="flex flex-col gap-1">
        <h2 id={`${id}-title`} className="text-lg font-semibold">
          Two-factor authentication
        </h2>
        <p className="text-sm text-muted-foreground">Enter the 6-digit code from your authenticator app, or a backup code.</p>
      </div>
      <FormInput
        form={form}
        name="code"
        id={`${id}-code`}
        label="Authentication code"
        autoComplete="one-time-code"
        inputMode={backupCode ? 'text' : 'numeric'}
        required
        autoFocus
        hint={backupCode ? 'Enter one of the backup codes you saved.' : 'No access to your app? A backup code works too.'}
      >
        {!backupCode && (
          <Button type="button" variant="link" size="inline" className="w-fit" onClick={() => setBackupCode(true)}>
            Use a backup code
          </Button>
        )}
      </FormInput>
      <FormAlert title="Login failed" message={form.formState.errors.root?.server?.message} />
      <PendingButton type="submit" className="w-full" pending={form.formState.isSubmitting}>
        Verify
      </PendingButton>
      <Button type="button" variant="ghost" className="w-full" onClick={onBack}>
        Back to Login
      </Button>
    </form>
  );
}
