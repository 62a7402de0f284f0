import { useId, useState, type FormEvent } from 'react';
import { toast } from 'sonner';
import { PendingButton } from '../../../components/pending-button';
import { Button } from '../../../components/ui/button';
import { ApiError } from '../../../lib/api-client';
import { withErrorReference } from '../../../lib/error-reference';
import { useRequestPasswordReset } from '../api/request-password-reset';
import { EmailField } from './email-field';

interface ResetFormProps {
  email: string;
  onEmailChange: (email: string) => void;
  onBackToLogin: () => void;
}

export function ResetForm({ email, onEmailChange, onBackToLogin }: ResetFormProps) {
  const [sent, setSent] = useState(false);
  const requestReset = useRequestPasswordReset();
  const id = useId();

  if (sent) {
    return (
      <div className="flex flex-col items-center gap-4 py-2 text-center">
        <p role="status">Reset link has been sent to your email address.</p>
        <Button variant="outline" onClick={onBackToLogin}>
          Back to Login
        </Button>
      </div>
    );
  }

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    // docs/product.md §5: the email is required.
    if (!email.trim()) {
      toast.error('Email required', { description: 'Please enter your email address' });
      return;
    }
    requestReset.mutate(email.trim(), {
      onSuccess: () => {
        toast.success('Password reset email sent', { description: 'Follow the link in the email to choose a new password.' });
        setSent(true);
      },
      onError: (error) => {
        // A bad address or too many attempts is worth saying; anything else gets docs/product.md §8's text.
        const told = error instanceof ApiError && (error.status === 400 || error.status === 429);
        toast.error('Error', { description: withErrorReference(told ? error.message : 'Failed to send password reset email', error) });
      },
    });
  }

  return (
    <form noValidate onSubmit={submit} className="flex flex-col gap-4">
      <p className="text-sm text-muted-foreground">Enter the email address of your account and we will send you a link to set a new password.</p>
      <EmailField id={`${id}-email`} email={email} onEmailChange={onEmailChange} />
      <PendingButton type="submit" className="w-full" pending={requestReset.isPending}>
        Send reset link
      </PendingButton>
    </form>
  );
}
