import { useId, useState, type FormEvent } from 'react';
import { toast } from 'sonner';
import { FormField } from '../../../components/form-field';
import { PendingButton } from '../../../components/pending-button';
import { Button } from '../../../components/ui/button';
import { ApiError } from '../../../lib/api-client';
import { withErrorReference } from '../../../lib/error-reference';
import { useStoreSignedInUser } from '../api/sign-in';
import { useVerifyTwoFactor } from '../api/verify-two-factor';

/** Shown after a correct password when the account has two-factor authentication on. */
export function TwoFactorStep({ onBack }: { onBack: () => void }) {
  const [code, setCode] = useState('');
  // Backup codes have letters: a numeric keypad would make them impossible to type on a phone.
  const [backupCode, setBackupCode] = useState(false);
  const verify = useVerifyTwoFactor();
  const storeSignedInUser = useStoreSignedInUser();
  const id = useId();

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (!code.trim()) {
      toast.error('Missing information', { description: 'Please enter the code from your authenticator app' });
      return;
    }
    verify.mutate(code.trim(), {
      onSuccess: (result) => {
        if (result.status !== 'signed-in') return;
        toast.success('Login successful', { description: `Welcome back, ${result.user.fullName}!` });
        storeSignedInUser(result.user);
      },
      onError: (error) => {
        toast.error('Login failed', { description: withErrorReference(error.message || 'Invalid code', error) });
        // The pending sign-in has run out: only the password step can start a new one.
        if (error instanceof ApiError && error.code === 'two_factor_expired') onBack();
      },
    });
  }

  return (
    <form noValidate onSubmit={submit} className="flex flex-col gap-4" aria-labelledby={`${id}-title`}>
      <div className="flex flex-col gap-1">
        <h2 id={`${id}-title`} className="text-lg font-semibold">
          Two-factor authentication
        </h2>
        <p className="text-sm text-muted-foreground">Enter the 6-digit code from your authenticator app, or a backup code.</p>
      </div>
      <FormField
        id={`${id}-code`}
        label="Authentication code"
        autoComplete="one-time-code"
        inputMode={backupCode ? 'text' : 'numeric'}
        required
        autoFocus
        value={code}
        onChange={(event) => setCode(event.target.value)}
        hint={backupCode ? 'Enter one of the backup codes you saved.' : 'No access to your app? A backup code works too.'}
      >
        {!backupCode && (
          <Button type="button" variant="link" size="sm" className="h-auto w-fit px-0" onClick={() => setBackupCode(true)}>
            Use a backup code
          </Button>
        )}
      </FormField>
      <PendingButton type="submit" className="w-full" pending={verify.isPending}>
        Verify
      </PendingButton>
      <Button type="button" variant="ghost" className="w-full" onClick={onBack}>
        Back to Login
      </Button>
    </form>
  );
}
